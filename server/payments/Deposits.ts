/**
 * Fiat deposits: starting one with a gateway, the provider's signed webhooks settling it,
 * the player's history and completed deposits, and the expiry of abandoned ones.
 *
 * Start: the player's checks in the order a player meets them — blocked (self-exclusion), currency
 * (FIAT, with rates), wallet, minimum and the 10 EUR gateway gate (services/money-rules.ts),
 * profile fields of the method (spec section 5), the deposit limit (completed deposits plus the
 * ones still in flight, so parallel starts cannot overshoot it), the gateway offered to this
 * visitor — then the deposit row (initiated) and the adapter's `initiate`. A provider refusal marks
 * the deposit failed and answers GatewayUnavailable (502) so the browser's cascade moves on.
 *
 * Settle: only a valid webhook changes money. One SQL transaction per webhook: the deposit row is
 * locked, the event recorded under UNIQUE (provider, event id) with its payload hash, and a
 * `payment.completed` credits the player through the ledger (gateway_clearing → player_cash,
 * idempotency key `deposit:<id>`). The 200 is sent after the commit: an acknowledged credit is
 * durable, a crash before it makes the provider retry.
 *
 * Expiry: deposits still `initiated` or `pending` (never finished: abandoned on the payment page, or
 * left waiting at the provider) after DEPOSIT_EXPIRY_MINUTES are marked expired by a sweeper
 * fiber every minute (any process may run it: the UPDATE is idempotent). A late `completed` webhook
 * for an expired (or failed) deposit still credits it — the provider holds the player's money.
 */
import { createHash } from "node:crypto"
import { Context, Duration, Effect, Layer, Schema } from "effect"
import { PaymentEvent } from "../../protocols/payments/events.ts"
import {
  CurrencyNotSupported,
  DepositBelowMinimum,
  DepositLimitExceeded,
  GatewayUnavailable,
  PaymentsBlocked,
  ProfileIncomplete,
  WalletNotFound,
} from "../../services/errors.ts"
import {
  type FiatMethod,
  formatAmount,
  fromEuros,
  MoneyConstants,
  MoneyMessages,
  meetsMinimum,
  passesGatewayGate,
  profileRequirementOf,
  toEurCents,
} from "../../services/money-rules.ts"
import {
  type Gender,
  missingFields,
  type ProfileValues,
  requiredProfileFields,
} from "../../services/profile-rules.ts"
import type {
  CompletedDeposit,
  DepositMethod,
  DepositResponse,
  FiatPayment,
  PlayerEvent,
} from "../../services/wallet-service.ts"
import { Bonuses } from "../bonuses/Bonuses.ts"
import { AppConfig } from "../config.ts"
import { PlayerEvents } from "../events/PlayerEvents.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Jobs } from "../lifecycle/Jobs.ts"
import { ProfileRepo } from "../profile/ProfileRepo.ts"
import { ResponsibleGaming } from "../responsible-gaming/ResponsibleGaming.ts"
import { Rates } from "../wallet/Rates.ts"
import { Wallets } from "../wallet/Wallets.ts"
import { type Customer, providerFor, signatureProblem } from "./adapters.ts"
import type { DepositRow } from "./DepositsRepo.ts"
import { DepositsRepo } from "./DepositsRepo.ts"
import { makeDepositBatcher } from "./depositBatch.ts"
import { Gateways, isPaymentGateway } from "./Gateways.ts"

export const DepositMessages = {
  notFiat: (currency: string) => `${currency} cannot be deposited with this method.`,
  profileIncomplete: "Please complete your profile to use this payment method.",
  gatewayNotOffered: "This payment provider is not available to you.",
} as const

export interface StartDeposit {
  readonly userId: string
  readonly country: string
  readonly method: DepositMethod
  /** The gateway code (card gateway, skrill, jeton, mifinity). */
  readonly provider: string
  readonly amount: bigint
  readonly currency: string
  readonly promotionCoupon: string | null
  readonly language: string
  readonly jetonMethod?: "CHECKOUT" | "QR" | "JETON_CASH"
  readonly paymentMethods?: string | null
}

export type StartError =
  | CurrencyNotSupported
  | WalletNotFound
  | DepositBelowMinimum
  | DepositLimitExceeded
  | ProfileIncomplete
  | GatewayUnavailable
  | PaymentsBlocked

/** The HTTP answer to a webhook: status and JSON body. */
export interface WebhookAnswer {
  readonly status: number
  readonly body: Readonly<Record<string, unknown>>
}

/** The protocol's payment event, whose reference is one of our deposit ids (a uuid). */
const WebhookEvent = Schema.Struct({
  ...PaymentEvent.fields,
  reference: Schema.String.check(
    Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i),
  ),
})
type WebhookEvent = typeof WebhookEvent.Type
const decodeWebhook = Schema.decodeUnknownExit(Schema.fromJsonString(WebhookEvent))

const methodOfFiat = (method: DepositMethod): FiatMethod => (method === "jeton-cash" ? "jeton" : method)

const genders: ReadonlyArray<Gender> = ["FEMALE", "MALE"]
const isGender = (g: string | null): g is Gender =>
  g !== null && (genders as ReadonlyArray<string>).includes(g)

export const toFiatPayment = (row: DepositRow): FiatPayment => ({
  id: row.id,
  method: row.method,
  provider: row.provider,
  amount: row.amount,
  currency: row.currency,
  status: row.status,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
})

export interface DepositsShape {
  readonly start: (input: StartDeposit) => Effect.Effect<DepositResponse, StartError>
  readonly completed: (userId: string) => Effect.Effect<ReadonlyArray<typeof CompletedDeposit.Type>>
  readonly history: (userId: string, from: Date, to: Date) => Effect.Effect<ReadonlyArray<FiatPayment>>
  /** Handles one webhook delivery: signature, idempotency, settlement. Never fails: an answer. */
  readonly webhook: (
    provider: string,
    rawBody: string,
    signature: string | undefined,
  ) => Effect.Effect<WebhookAnswer>
  readonly expireStale: Effect.Effect<number>
}

const make = Effect.gen(function* () {
  const config = yield* AppConfig
  const repo = yield* DepositsRepo
  const ledger = yield* Ledger
  const rates = yield* Rates
  const wallets = yield* Wallets
  const rg = yield* ResponsibleGaming
  const profiles = yield* ProfileRepo
  const gateways = yield* Gateways
  const events = yield* PlayerEvents
  const bonuses = yield* Bonuses

  const start = Effect.fn("Deposits.start")(function* (input: StartDeposit) {
    const { userId, currency, amount } = input
    if ((yield* rg.currentExclusion(userId)) !== null)
      return yield* new PaymentsBlocked({ message: MoneyMessages.blocked })
    const rate = yield* rates.get(currency)
    if (rate === undefined || !rate.enabled || rate.type !== "FIAT")
      return yield* new CurrencyNotSupported({ message: DepositMessages.notFiat(currency), currency })
    if ((yield* wallets.find(userId, currency)) === undefined)
      return yield* new WalletNotFound({ message: `You have no ${currency} wallet.`, currency })
    const quote = {
      amount,
      subunitsToUnit: rate.subunitsToUnit,
      minDeposit: rate.minDeposit,
      eurRate: rate.eurRate,
    }
    if (!meetsMinimum(quote))
      return yield* new DepositBelowMinimum({
        message: MoneyMessages.belowMinimum(formatAmount(rate.minDeposit, rate.subunitsToUnit), currency),
        minimum: rate.minDeposit.toString(),
        currency,
      })
    if (!passesGatewayGate(quote)) {
      const gate =
        fromEuros(MoneyConstants.gatewayGateEurCents / 100n, rate.eurRate, rate.subunitsToUnit) ?? 0n
      return yield* new DepositBelowMinimum({
        message: MoneyMessages.belowGatewayGate,
        minimum: gate.toString(),
        currency,
      })
    }
    const profile = yield* profiles.find(userId).pipe(Effect.orDie)
    if (profile === undefined)
      return yield* Effect.die(new Error(`user ${userId} of a live session does not exist`))
    const values: ProfileValues = { ...profile, gender: isGender(profile.gender) ? profile.gender : null }
    const missing = missingFields(
      values,
      requiredProfileFields(profileRequirementOf(methodOfFiat(input.method))),
    )
    if (missing.length > 0)
      return yield* new ProfileIncomplete({
        message: DepositMessages.profileIncomplete,
        fields: [...missing],
      })
    const amountEurCents = toEurCents(amount, rate.eurRate, rate.subunitsToUnit)
    const remaining = yield* rg.remainingDeposit(userId)
    if (remaining !== null) {
      const inFlight = yield* repo.inFlightEurCents(userId).pipe(Effect.orDie)
      const left = remaining - inFlight > 0n ? remaining - inFlight : 0n
      if (amountEurCents > left)
        return yield* new DepositLimitExceeded({
          message:
            left === 0n ? MoneyMessages.limitReached : MoneyMessages.limitExceeded(formatAmount(left, 100n)),
          remaining: left.toString(),
        })
    }
    // Not configured (no PAYMENT_GATEWAYS entry), a payout rail, or a card gateway this visitor's
    // cascade leaves out: not offered, refused before any deposit row exists.
    const gateway = gateways.byCode(input.provider)
    const offered =
      gateway !== undefined &&
      isPaymentGateway(gateway) &&
      (gateway.family !== "hosted-card" || gateways.cardCascade(input.country).includes(gateway.code))
    if (gateway === undefined || !isPaymentGateway(gateway) || !offered)
      return yield* new GatewayUnavailable({
        message: DepositMessages.gatewayNotOffered,
        gateway: input.provider,
      })

    const deposit = yield* repo
      .insert({
        userId,
        method: input.method,
        provider: gateway.code,
        amount,
        currency,
        amountEurCents,
        promotionCoupon: input.promotionCoupon,
      })
      .pipe(Effect.orDie)
    const customer: Customer = {
      id: userId,
      email: profile.email,
      firstName: profile.firstName,
      lastName: profile.lastName,
      country: profile.country,
      city: profile.city,
      address: profile.address,
      zipCode: profile.zipCode,
      phone:
        profile.dialingCode !== null && profile.phoneNumber !== null
          ? `+${profile.dialingCode}${profile.phoneNumber}`
          : null,
    }
    const provider = providerFor(gateway.family)
    const initiated = yield* provider
      .initiate(gateway, {
        reference: deposit.id,
        amount,
        currency,
        customer,
        returnUrl: `${config.publicUrl}/api/payments/return?deposit=${deposit.id}`,
        notifyUrl: `${config.internalUrl}/api/payments/webhooks/${gateway.code}`,
        language: input.language,
        ...(input.jetonMethod === undefined ? {} : { jetonMethod: input.jetonMethod }),
        ...(input.paymentMethods === undefined ? {} : { paymentMethods: input.paymentMethods }),
      })
      .pipe(
        Effect.catchTag("ProviderRefused", (refused) =>
          Effect.gen(function* () {
            yield* repo.setStatus(deposit.id, "failed", refused.message.slice(0, 500)).pipe(Effect.orDie)
            yield* events.publish(userId, depositEvent({ ...deposit, status: "failed" }))
            return yield* new GatewayUnavailable({
              message: MoneyMessages.depositFailed,
              gateway: gateway.code,
            })
          }),
        ),
      )
    yield* repo.setProviderReference(deposit.id, initiated.providerReference).pipe(Effect.orDie)
    return {
      depositId: deposit.id,
      redirectUrl: initiated.redirectUrl,
      qr: initiated.qr,
      initializationToken: initiated.initializationToken,
    } satisfies DepositResponse
  })

  const depositEvent = (row: Pick<DepositRow, "id" | "status" | "amount" | "currency">): PlayerEvent => ({
    type: "deposit",
    depositId: row.id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
  })

  const completed = (userId: string) =>
    repo.completedOf(userId).pipe(
      Effect.map((rows) =>
        rows.map((r) => ({
          id: r.id,
          amount: r.amount,
          currency: r.currency,
          amountInEur: r.amountEurCents,
          completedAt: (r.completedAt ?? r.updatedAt).toISOString(),
        })),
      ),
      Effect.orDie,
    )

  const history = (userId: string, from: Date, to: Date) =>
    repo.historyOf(userId, from, to).pipe(
      Effect.map((rows) => rows.map(toFiatPayment)),
      Effect.orDie,
    )

  // ── webhooks ──────────────────────────────────────────────────────────────────────────────────

  const answer = (status: number, body: Readonly<Record<string, unknown>>): WebhookAnswer => ({
    status,
    body,
  })
  const received = answer(200, { received: true })

  interface Settled {
    readonly answer: WebhookAnswer
    /** Pushes to send once committed. */
    readonly push: ReadonlyArray<readonly [string, PlayerEvent]>
  }

  /** The answer stored for a known event id, or 409 when this body differs from the first. */
  const replayAnswer = (
    provider: string,
    event: WebhookEvent,
    hash: string,
    stored: { payloadHash: string; outcome: string; detail: string | null },
  ) =>
    Effect.gen(function* () {
      if (stored.payloadHash !== hash) {
        yield* Effect.logWarning(
          `webhook ${provider}/${event.id}: same event id with a different body (refused 409)`,
        )
        return answer(409, {
          error: "EventConflict",
          message: "This event id was received with a different body.",
        })
      }
      return stored.outcome === "refused"
        ? answer(422, { error: "Refused", message: stored.detail ?? "refused" })
        : received
    })

  const settle = (provider: string, event: WebhookEvent, hash: string) =>
    repo.transaction(
      Effect.gen(function* () {
        // Every event of one deposit queues here: replays and concurrent deliveries see each other
        // (the event look-up comes after this lock, in a fresh READ COMMITTED snapshot).
        const deposit = yield* repo.findForUpdate(event.reference)
        if (deposit === undefined) {
          yield* Effect.logWarning(`webhook ${provider}/${event.id}: unknown deposit ${event.reference}`)
          return {
            answer: answer(404, { error: "UnknownDeposit", message: "No deposit has this reference." }),
            push: [],
          } satisfies Settled
        }
        const again = yield* repo.findEvent(provider, event.id)
        if (again !== undefined)
          return { answer: yield* replayAnswer(provider, event, hash, again), push: [] } satisfies Settled
        const record = (outcome: "processed" | "ignored" | "refused", detail: string | null) =>
          repo.insertEvent({
            provider,
            eventId: event.id,
            payloadHash: hash,
            eventType: event.type,
            depositId: deposit.id,
            outcome,
            detail,
          })
        if (
          deposit.provider !== provider ||
          deposit.amount !== event.amount ||
          deposit.currency !== event.currency
        ) {
          const detail =
            deposit.provider !== provider
              ? `deposit belongs to ${deposit.provider}`
              : `amount/currency ${event.amount} ${event.currency} differ from the deposit's ${deposit.amount} ${deposit.currency}`
          yield* Effect.logError(
            `webhook ${provider}/${event.id} for deposit ${deposit.id} refused: ${detail}`,
          )
          yield* record("refused", detail)
          return { answer: answer(422, { error: "Refused", message: detail }), push: [] } satisfies Settled
        }
        switch (event.type) {
          case "payment.completed": {
            if (deposit.status === "completed") {
              yield* record("ignored", "already completed")
              return { answer: received, push: [] } satisfies Settled
            }
            // The player's bonus lock before their accounts: a deposit naming a bonus pays it below.
            if (deposit.promotionCoupon !== null) yield* bonuses.lockPlayer(deposit.userId)
            const player = yield* ledger.playerAccount(deposit.userId, deposit.currency)
            if (player === undefined)
              return yield* Effect.die(
                new Error(`deposit ${deposit.id}: the player has no ${deposit.currency} account`),
              )
            const clearing = yield* ledger.systemAccountId("gateway_clearing", provider, deposit.currency)
            const amount = BigInt(deposit.amount)
            // The deposit's completion and the event record are written inside the posting, before
            // the provider's clearing row (shared by every deposit of this provider and currency)
            // is locked: that lock is then held for one UPDATE and the commit only.
            const posted = yield* ledger
              .post(
                {
                  kind: "deposit",
                  idempotencyKey: `deposit:${deposit.id}`,
                  entries: [
                    { accountId: clearing, currency: deposit.currency, amount: -amount },
                    { accountId: player.id, currency: deposit.currency, amount },
                  ],
                  metadata: {
                    depositId: deposit.id,
                    provider,
                    eventId: event.id,
                    paymentId: event.paymentId,
                  },
                },
                (transactionId) =>
                  Effect.andThen(repo.complete(deposit.id, transactionId), record("processed", null)),
              )
              .pipe(Effect.catchTag(["LedgerConflict", "InsufficientFunds", "InvalidPosting"], Effect.die))
            // Credited before under this deposit's key although the deposit is not completed
            // (cannot happen: both commit together) — link it as the old code did, credit nothing.
            if (posted.replayed) {
              yield* Effect.logWarning(
                `deposit ${deposit.id}: ledger credit found, deposit was not completed`,
              )
              yield* repo.complete(deposit.id, posted.transactionId)
              yield* record("processed", null)
            }
            if (deposit.status !== "initiated" && deposit.status !== "pending")
              yield* Effect.logWarning(
                `deposit ${deposit.id} completed after it was ${deposit.status}: credited`,
              )
            // The bonus this deposit earned (a code, or an offer the player accepted), in the same
            // transaction: a deposit and its bonus commit together or not at all.
            const grant = posted.replayed
              ? undefined
              : yield* bonuses.awardForDeposit({
                  source: "fiat",
                  id: deposit.id,
                  userId: deposit.userId,
                  currency: deposit.currency,
                  amount,
                  amountEurCents: BigInt(deposit.amountEurCents),
                  promotionCoupon: deposit.promotionCoupon,
                })
            const balance = posted.balances.get(player.id) ?? 0n
            return {
              answer: received,
              push: [
                [deposit.userId, depositEvent({ ...deposit, status: "completed" })],
                [
                  deposit.userId,
                  grant === undefined
                    ? { type: "balance", currency: deposit.currency, balance: balance.toString() }
                    : {
                        type: "balance",
                        currency: deposit.currency,
                        balance: balance.toString(),
                        bonusBalance: grant.balance.toString(),
                      },
                ],
              ],
            } satisfies Settled
          }
          case "payment.failed": {
            if (deposit.status === "completed" || deposit.status === "failed") {
              yield* record("ignored", `deposit already ${deposit.status}`)
              return { answer: received, push: [] } satisfies Settled
            }
            yield* repo.setStatus(
              deposit.id,
              "failed",
              event.reason?.slice(0, 500) ?? MoneyMessages.depositDeclined,
            )
            yield* record("processed", null)
            return {
              answer: received,
              push: [[deposit.userId, depositEvent({ ...deposit, status: "failed" })]],
            } satisfies Settled
          }
          case "payment.pending": {
            // Only a fresh deposit waits: an expired one stays expired (a completed still credits it).
            if (deposit.status !== "initiated") {
              yield* record("ignored", `deposit already ${deposit.status}`)
              return { answer: received, push: [] } satisfies Settled
            }
            yield* repo.setStatus(deposit.id, "pending", null)
            yield* record("processed", null)
            return {
              answer: received,
              push: [[deposit.userId, depositEvent({ ...deposit, status: "pending" })]],
            } satisfies Settled
          }
        }
      }),
    )

  const webhook = Effect.fn("Deposits.webhook")(function* (
    provider: string,
    rawBody: string,
    signature: string | undefined,
  ) {
    const gateway = gateways.byCode(provider)
    if (gateway === undefined || !isPaymentGateway(gateway))
      return answer(404, { error: "UnknownProvider", message: "No such payment provider." })
    const problem = signatureProblem(
      gateway.webhookSecret,
      signature,
      rawBody,
      Math.floor(Date.now() / 1000),
      config.webhookToleranceSeconds,
    )
    if (problem !== undefined) {
      yield* Effect.logWarning(`webhook ${provider}: signature ${problem} (refused 401)`)
      return answer(401, { error: "InvalidSignature", message: `The signature is ${problem}.` })
    }
    const decoded = decodeWebhook(rawBody)
    if (decoded._tag === "Failure") {
      yield* Effect.logWarning(`webhook ${provider}: unreadable body (refused 400)`)
      return answer(400, { error: "BadRequest", message: "The event body is not a payment event." })
    }
    const hash = createHash("sha256").update(rawBody).digest("hex")
    const event = decoded.value
    return batcher !== undefined && event.type === "payment.completed"
      ? yield* batcher.submit({ provider, event, hash })
      : yield* settleOne(provider, event, hash)
  })

  /** One event in its own transaction, its pushes sent once committed. */
  const settleOne = (provider: string, event: WebhookEvent, hash: string) =>
    Effect.gen(function* () {
      const settled = yield* settle(provider, event, hash).pipe(
        // Two deliveries of one event racing past the look-ups: the loser's insert conflicts; retry
        // once and it answers as a replay. Deadlocks/serialization failures retry too.
        Effect.retry({
          times: 3,
          while: (e) =>
            e.reason._tag === "UniqueViolation" ||
            e.reason._tag === "DeadlockError" ||
            e.reason._tag === "SerializationError",
        }),
        Effect.orDie,
      )
      yield* Effect.forEach(settled.push, ([userId, pushed]) => events.publish(userId, pushed), {
        discard: true,
      })
      return settled.answer
    })

  const batcher = config.settlementBatching
    ? yield* makeDepositBatcher<WebhookEvent>({
        repo,
        ledger,
        clearingOf: (provider, currency) => ledger.systemAccountId("gateway_clearing", provider, currency),
        received,
        pushesOf: (deposit, balance) => [
          { userId: deposit.userId, event: depositEvent({ ...deposit, status: "completed" }) },
          {
            userId: deposit.userId,
            event: { type: "balance", currency: deposit.currency, balance: balance.toString() },
          },
        ],
        single: ({ provider, event, hash }) => settleOne(provider, event, hash),
        publish: events.publishMany,
      })
    : undefined

  const expireStale = repo.expireOlderThan(config.depositExpiryMinutes).pipe(
    Effect.tap((rows) =>
      Effect.forEach(rows, (row) => events.publish(row.userId, depositEvent(row)), { discard: true }),
    ),
    Effect.map((rows) => rows.length),
    Effect.orDie,
  )

  const jobs = yield* Jobs
  // The sweeper: every DEPOSIT_SWEEP_SECONDS (a minute), once for the cluster (its lease; idempotent).
  yield* jobs.every("deposits.expiry", expireStale, Duration.seconds(config.depositSweepSeconds), {
    firstAfter: Duration.seconds(Math.min(30, config.depositSweepSeconds)),
  })

  return { start, completed, history, webhook, expireStale } satisfies DepositsShape
})

export class Deposits extends Context.Service<Deposits, DepositsShape>()("casino/server/Deposits") {
  static readonly layer = Layer.effect(Deposits, make)
}
