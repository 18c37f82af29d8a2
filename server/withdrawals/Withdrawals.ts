/**
 * Money out (docs/withdrawals.md): what a player may withdraw, the withdraw requests with
 * every check re-done on the server, and the lifecycle every withdrawal then follows:
 *
 *   requested ─▶ approved (operator) ─▶ sent ─▶ paid
 *       │             │                  │
 *       ▼             └──▶ paid/failed   └──▶ failed (payout failed: funds returned)
 *   rejected (operator, reason: funds returned)
 *
 * Money: a request moves the amount from the player's cash to the currency's `pending_withdrawal`
 * account in ONE posting (key `withdrawal:<id>`), so it can no longer be bet. A rejection or failure
 * posts it back (`withdrawal-return:<id>`); paid moves it to the payout's clearing account
 * (`withdrawal-paid:<id>`: the provider's for fiat, the chain network's for crypto). The player
 * cannot cancel: reversing a withdrawal to gamble it is what regulators forbid.
 *
 * Every transition runs in one SQL transaction: the row locked `FOR UPDATE`, the move checked
 * against `allowedMoves` (no double approve, nothing after a final state), the row updated, a
 * timeline step appended, the posting (if any) and the operator's audit row written; then, after the
 * commit, a `withdrawal` push (and `balance` when funds return).
 *
 * Payouts: on approval the payout is attempted at once — fiat through `FiatPayouts` (the provider's
 * signed callback later decides paid/failed), ETH/USDT through `CryptoPayouts` when the server has a
 * hot wallet (sent with its tx hash, paid at WITHDRAW_CONFIRMATIONS). A payout loop (every
 * WITHDRAW_PAYOUT_POLL_SECONDS, in every process; each step idempotent) resends approved payouts
 * that could not be sent and tracks sent crypto payouts. BTC/LTC/DOGE (no hot wallet here) stay
 * `approved` as "pending manual payout" until an operator records `mark-sent` and `mark-paid`.
 */
import { createHash, randomUUID } from "node:crypto"
import { Context, Duration, Effect, Layer, Option, Schema } from "effect"
import { forkEvery } from "../../lib/background.ts"
import { PayoutEvent } from "../../protocols/payments/events.ts"
import { type CashoutCheck, CashoutMessages, firstFailingCheck } from "../../services/cashout-rules.ts"
import type {
  Withdrawable,
  Withdrawal,
  WithdrawalMethod,
  WithdrawalStatus,
} from "../../services/cashout-service.ts"
import { displayCode, isValidAddress, networkOf } from "../../services/crypto-rules.ts"
import type { CryptoCurrency, CryptoTransfer } from "../../services/crypto-service.ts"
import {
  BonusForfeitRequired,
  CurrencyNotSupported,
  InvalidAddress,
  NotEnoughMoney,
  PaymentsBlocked,
  RateLimited,
  VerificationRequired,
  WalletNotFound,
  WithdrawAmountOutOfRange,
  WithdrawalNotFound,
  WithdrawDailyLimitReached,
} from "../../services/errors.ts"
import { scaledLimit } from "../../services/loyalty-rules.ts"
import { formatAmount, MoneyMessages, RATE_SCALE, toEurCents } from "../../services/money-rules.ts"
import type { FiatPayment, PlayerEvent } from "../../services/wallet-service.ts"
import { Bonuses } from "../bonuses/Bonuses.ts"
import { AppConfig, type AppConfigShape } from "../config.ts"
import { CryptoPayouts } from "../crypto/payouts.ts"
import { PlayerEvents } from "../events/PlayerEvents.ts"
import { Kyc } from "../kyc/Kyc.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Loyalty } from "../loyalty/Loyalty.ts"
import { OperatorAudit } from "../operator/Audit.ts"
import { signatureProblem } from "../payments/adapters.ts"
import { FiatPayouts, type PayoutRail, payoutRails } from "../payments/payouts.ts"
import { ResponsibleGaming } from "../responsible-gaming/ResponsibleGaming.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { type CurrencyRate, Rates } from "../wallet/Rates.ts"
import { Wallets } from "../wallet/Wallets.ts"
import { type StepRow, type WithdrawalRow, WithdrawalsRepo } from "./WithdrawalsRepo.ts"

/**
 * What the server answers besides the cashout checks. The checks' own messages are the shared
 * `CashoutMessages` (services/cashout-rules.ts): the server and the cashout statechart say the same
 * thing for the same refusal.
 */
export const WithdrawMessages = {
  notCrypto: (currency: string) => `${currency} cannot be withdrawn to a crypto address.`,
  notFiat: (currency: string) => `${currency} cannot be withdrawn with this method.`,
  noWallet: (currency: string) => `You have no ${currency} wallet.`,
  unknownCurrency: (currency: string) => `${currency} is not a currency of the list.`,
  notFound: "No such withdrawal.",
} as const

/** The only moves a withdrawal may make (final states: paid, rejected, failed). */
export const allowedMoves: Readonly<Record<WithdrawalStatus, ReadonlyArray<WithdrawalStatus>>> = {
  requested: ["approved", "rejected"],
  // approved → failed: a provider refusing the payout when asked. (A callback arriving before
  // the casino recorded "sent" records that step itself: see settleCallback.)
  approved: ["sent", "failed"],
  sent: ["paid", "failed"],
  paid: [],
  rejected: [],
  failed: [],
}

export const canMove = (from: WithdrawalStatus, to: WithdrawalStatus): boolean =>
  allowedMoves[from].includes(to)

/** The move an operator or a callback asked for is not allowed from the withdrawal's status. */
export class WithdrawalMoveRefused extends Schema.TaggedError<WithdrawalMoveRefused>()(
  "WithdrawalMoveRefused",
  {
    id: Schema.String,
    from: Schema.String,
    to: Schema.String,
    message: Schema.String,
  },
) {}

/** An operator's action refused for its input (no reason, no tx hash). */
export class WithdrawalInputRefused extends Schema.TaggedError<WithdrawalInputRefused>()(
  "WithdrawalInputRefused",
  { message: Schema.String },
) {}

const isCryptoCurrency = (c: string): c is CryptoCurrency => c in networkOf

/** EUR cents in a currency's minor units at its rate, rounded down (never above the EUR figure). */
export const minorOfEurCents = (eurCents: bigint, rate: Pick<CurrencyRate, "eurRate" | "subunitsToUnit">) =>
  rate.eurRate <= 0n ? 0n : (eurCents * RATE_SCALE * rate.subunitsToUnit) / (rate.eurRate * 100n)

/**
 * The most one withdrawal may be in a currency, in its minor units: WITHDRAW_MAX_EUR at the
 * currency's rate, rounded down — for every currency, fiat and crypto (docs/withdrawals.md "Limits":
 * no per-currency override, on purpose).
 */
export const maximumOf = (
  config: Pick<AppConfigShape, "withdrawMaxEurCents">,
  rate: Pick<CurrencyRate, "eurRate" | "subunitsToUnit">,
): bigint => minorOfEurCents(config.withdrawMaxEurCents, rate)

export interface WithdrawRequest {
  readonly userId: string
  readonly method: WithdrawalMethod
  readonly currency: string
  readonly amount: bigint
  /** Crypto address, or the e-mail of the Skrill / bank account. */
  readonly destination: string
  /** The player confirmed that this cashout forfeits the active bonus in `currency`. */
  readonly forfeitBonus: boolean
}

export type RequestError =
  | PaymentsBlocked
  | CurrencyNotSupported
  | WalletNotFound
  | WithdrawAmountOutOfRange
  | VerificationRequired
  | WithdrawDailyLimitReached
  | NotEnoughMoney
  | InvalidAddress
  | RateLimited
  | BonusForfeitRequired

/** An operator's view: the withdrawal and whose it is. */
export interface OperatorWithdrawal extends Withdrawal {
  readonly userId: string
  readonly email: string
  readonly provider: string
  readonly providerReference: string | null
}

export interface WebhookAnswer {
  readonly status: number
  readonly body: Readonly<Record<string, unknown>>
}

export type OperatorError = WithdrawalNotFound | WithdrawalMoveRefused | WithdrawalInputRefused

export interface WithdrawalsShape {
  /** What the player may take out now in `currency` (absent: the default wallet's, else EUR). */
  readonly withdrawable: (
    userId: string,
    currency: string | undefined,
  ) => Effect.Effect<Withdrawable, CurrencyNotSupported>
  readonly request: (input: WithdrawRequest) => Effect.Effect<Withdrawal, RequestError>
  readonly ofPlayer: (userId: string) => Effect.Effect<ReadonlyArray<Withdrawal>>
  /** Skrill and bank withdrawals as the fiat history's rows (`GET /profile/fiat/withdraw`). */
  readonly fiatHistory: (userId: string, from: Date, to: Date) => Effect.Effect<ReadonlyArray<FiatPayment>>
  /** Crypto withdrawals as the crypto history's rows (`GET /profile/crypto/withdraw`). */
  readonly cryptoHistory: (
    userId: string,
    from: Date,
    to: Date,
  ) => Effect.Effect<ReadonlyArray<CryptoTransfer>>
  readonly list: (
    status: WithdrawalStatus | undefined,
    limit: number,
  ) => Effect.Effect<ReadonlyArray<OperatorWithdrawal>>
  readonly approve: (id: string, actor: string) => Effect.Effect<OperatorWithdrawal, OperatorError>
  readonly reject: (
    id: string,
    actor: string,
    reason: string,
  ) => Effect.Effect<OperatorWithdrawal, OperatorError>
  /** A manual payout made by the operator (UTXO chains): its transaction hash. */
  readonly markSent: (
    id: string,
    actor: string,
    txHash: string,
  ) => Effect.Effect<OperatorWithdrawal, OperatorError>
  readonly markPaid: (id: string, actor: string) => Effect.Effect<OperatorWithdrawal, OperatorError>
  /** A payout provider's signed callback. Never fails: an answer. */
  readonly callback: (
    provider: string,
    rawBody: string,
    signature: string | undefined,
  ) => Effect.Effect<WebhookAnswer>
  /** One round of the payout loop over withdrawals idle for `idleSeconds`; how many it looked at. */
  readonly runPayouts: (idleSeconds: number) => Effect.Effect<number>
}

/** The protocol's payout event, whose reference is one of our withdrawal ids (a uuid). */
const CallbackEvent = Schema.Struct({
  ...PayoutEvent.fields,
  reference: Schema.String.check(
    Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i),
  ),
})
type CallbackEvent = typeof CallbackEvent.Type
const decodeCallback = Schema.decodeUnknownExit(Schema.fromJsonString(CallbackEvent))

const SYSTEM = "system:payouts"
const PENDING_CODE = "withdrawals"

export const toWithdrawal = (row: WithdrawalRow, steps: ReadonlyArray<StepRow>): Withdrawal => ({
  id: row.id,
  method: row.method,
  currency: row.currency,
  amount: row.amount,
  destination: row.destination,
  status: row.status,
  txHash: row.txHash,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  timeline: steps
    .filter((s) => s.withdrawalId === row.id)
    .map((s) => ({ status: s.status, at: s.at.toISOString(), note: s.note })),
})

interface Move {
  readonly to: WithdrawalStatus
  readonly actor: string
  readonly note: string | null
  readonly reason?: string
  readonly txHash?: string
  readonly providerReference?: string
  /** The operator action to audit with the move (same transaction). */
  readonly audit?: string
}

interface Moved {
  readonly row: WithdrawalRow
  readonly push: ReadonlyArray<PlayerEvent>
}

const make = Effect.gen(function* () {
  const config = yield* AppConfig
  const repo = yield* WithdrawalsRepo
  const ledger = yield* Ledger
  const rates = yield* Rates
  const wallets = yield* Wallets
  const kyc = yield* Kyc
  const rg = yield* ResponsibleGaming
  const events = yield* PlayerEvents
  const audit = yield* OperatorAudit
  const fiat = yield* FiatPayouts
  const limiter = yield* RateLimiter
  const bonuses = yield* Bonuses
  const loyalty = yield* Loyalty
  // Provided by the server when it has a hot wallet (crypto-evm); without it crypto payouts are manual.
  const crypto = yield* Effect.serviceOption(CryptoPayouts)

  /**
   * What may be withdrawn: the cash balance, all of it. Bonus money is never part of it: it is the
   * player's bonus account (docs/bonuses.md), converted to cash only once its wagering is met.
   */
  const withdrawableOf = (_userId: string, _currency: string, balance: bigint) =>
    Effect.succeed(balance > 0n ? balance : 0n)

  const withdrawable = Effect.fn("Withdrawals.withdrawable")(function* (
    userId: string,
    asked: string | undefined,
  ) {
    const currency = asked ?? (yield* repo.defaultCurrency(userId).pipe(Effect.orDie)) ?? "EUR"
    const rate = yield* rates.get(currency)
    if (rate === undefined || !rate.enabled)
      return yield* new CurrencyNotSupported({
        message: WithdrawMessages.unknownCurrency(currency),
        currency,
      })
    const account = yield* ledger.playerAccount(userId, currency).pipe(Effect.orDie)
    const amount = yield* withdrawableOf(
      userId,
      currency,
      account === undefined ? 0n : BigInt(account.balance),
    )
    return { currency, withdrawable: amount.toString() } satisfies Withdrawable
  })

  const publish = (userId: string, push: ReadonlyArray<PlayerEvent>) =>
    Effect.forEach(push, (e) => events.publish(userId, e), { discard: true })

  const withdrawalEvent = (row: WithdrawalRow): PlayerEvent => ({
    type: "withdrawal",
    id: row.id,
    currency: row.currency,
    amount: row.amount,
    status: row.status,
  })

  const viewOf = (row: WithdrawalRow) =>
    repo.stepsOf([row.id]).pipe(
      Effect.map((steps) => toWithdrawal(row, steps)),
      Effect.orDie,
    )

  const request = Effect.fn("Withdrawals.request")(function* (input: WithdrawRequest) {
    const { userId, method, currency, amount, destination, forfeitBonus } = input
    // docs/withdrawals.md "Checks, in order": first what the spec's checks assume (not excluded, a
    // currency of the method's kind, a wallet in it); then the spec's four cashout checks in the
    // spec's order with the statechart's own rule and messages (services/cashout-rules.ts); then
    // the server's own limits: the maximum per request, the daily cap, the rate limit and the
    // address's checksum.
    if ((yield* rg.currentExclusion(userId)) !== null)
      return yield* new PaymentsBlocked({ message: MoneyMessages.blocked })
    const rate = yield* rates.get(currency)
    const wantCrypto = method === "crypto"
    if (rate === undefined || !rate.enabled || (rate.type === "CRYPTO") !== wantCrypto)
      return yield* new CurrencyNotSupported({
        message: wantCrypto ? WithdrawMessages.notCrypto(currency) : WithdrawMessages.notFiat(currency),
        currency,
      })
    if ((yield* wallets.find(userId, currency)) === undefined)
      return yield* new WalletNotFound({ message: WithdrawMessages.noWallet(currency), currency })
    const maximum = maximumOf(config, rate)
    const outOfRange = () =>
      new WithdrawAmountOutOfRange({
        message: CashoutMessages.outOfRange(
          formatAmount(rate.minWithdraw, rate.subunitsToUnit),
          formatAmount(maximum, rate.subunitsToUnit),
          currency,
        ),
        minimum: rate.minWithdraw.toString(),
        maximum: maximum.toString(),
        currency,
      })

    const id = randomUUID()
    const provider = wantCrypto && isCryptoCurrency(currency) ? networkOf[currency] : method
    const created = yield* repo
      .transaction(
        Effect.gen(function* () {
          // One withdrawal decision per player at a time: the balance, the daily cap and the rate
          // limit are read and used under this lock, so parallel requests cannot both spend the
          // same funds (or the same day's allowance).
          yield* repo.lockPlayer(userId)
          // The bonus lock before any account (the order bets with a bonus take): the active bonus
          // cannot change under this request, and forfeiting it below cannot deadlock with a bet.
          yield* bonuses.lockPlayer(userId)
          const account = yield* ledger.playerAccount(userId, currency)
          if (account === undefined)
            return yield* new WalletNotFound({ message: WithdrawMessages.noWallet(currency), currency })
          const balances = yield* ledger.lockBalances([account.id])
          const available = yield* withdrawableOf(userId, currency, balances.get(account.id) ?? 0n)
          const verified = yield* kyc.verified(userId)
          // The spec's four checks (section 5), the first failing one answered: the same rule the
          // cashout statechart runs. Skrill pays the account's own e-mail: no destination typed.
          const failed: CashoutCheck | null = firstFailingCheck({
            amount,
            minWithdraw: rate.minWithdraw,
            verified: verified.id && verified.bill,
            withdrawable: available,
            destination: method === "skrill" ? null : destination,
          })
          switch (failed) {
            case "belowMinimum":
              return yield* outOfRange()
            case "notVerified":
              return yield* new VerificationRequired({ message: CashoutMessages.notVerified })
            case "notEnoughMoney":
              return yield* new NotEnoughMoney({
                message: CashoutMessages.notEnoughMoney,
                withdrawable: available.toString(),
                currency,
              })
            case "destinationMissing":
              // Only a blank crypto address gets here: the contract refuses an empty one (400) and
              // a blank e-mail is not an e-mail. The statechart shows '*' + 'required' for it.
              return yield* new InvalidAddress({ message: CashoutMessages.required, currency })
            case null:
              break
          }
          // The server's own limits, after the spec's checks.
          if (amount > maximum) return yield* outOfRange()
          const used = yield* repo.eurCentsToday(userId)
          // The loyalty level's perk raises the daily cap (docs/loyalty.md).
          const dailyCap = scaledLimit(
            config.withdrawDailyEurCents,
            yield* loyalty.withdrawLimitFactorBps(userId),
          )
          const leftCents = dailyCap - used > 0n ? dailyCap - used : 0n
          const left = minorOfEurCents(leftCents, rate)
          if (amount > left)
            return yield* new WithdrawDailyLimitReached({
              message: CashoutMessages.dailyLimit(formatAmount(left, rate.subunitsToUnit), currency),
              remaining: left.toString(),
              currency,
            })
          // Counted in this transaction: a request refused here or below rolls its count back, so
          // the limit counts accepted withdrawals (refused requests write nothing).
          yield* limiter.consume(`withdraw:${userId}`, config.withdrawRequestLimit).pipe(
            Effect.catchTag("RateLimited", (e) =>
              Effect.fail(
                new RateLimited({
                  message: CashoutMessages.rateLimited(e.retryAfterSeconds),
                  retryAfterSeconds: e.retryAfterSeconds,
                }),
              ),
            ),
          )
          if (wantCrypto && !isValidAddress(currency, destination))
            return yield* new InvalidAddress({
              message: CashoutMessages.invalidAddress(displayCode(currency)),
              currency,
            })
          // Last, once the request would otherwise be accepted: an active bonus is forfeited only
          // with the player's consent, in this transaction (docs/bonuses.md).
          const bonus = yield* bonuses.activeIn(userId, currency)
          let forfeited = false
          if (bonus !== undefined) {
            if (!forfeitBonus)
              return yield* new BonusForfeitRequired({
                message: CashoutMessages.forfeitBonus(
                  bonus.name,
                  formatAmount(BigInt(bonus.balance), rate.subunitsToUnit),
                  displayCode(currency),
                ),
                currency,
                bonusId: bonus.id,
                name: bonus.name,
                bonusBalance: bonus.balance,
              })
            yield* bonuses.forfeitWithin(userId, bonus.id, currency)
            forfeited = true
          }
          const row = yield* repo.insert({
            id,
            userId,
            method,
            currency,
            amount,
            amountEurCents: toEurCents(amount, rate.eurRate, rate.subunitsToUnit),
            destination,
            provider,
          })
          yield* repo.addStep(id, "requested", null, `player:${userId}`)
          const pending = yield* ledger.systemAccountId("pending_withdrawal", PENDING_CODE, currency)
          const posted = yield* ledger
            .post({
              kind: "withdrawal",
              idempotencyKey: `withdrawal:${id}`,
              entries: [
                { accountId: account.id, currency, amount: -amount },
                { accountId: pending, currency, amount },
              ],
              metadata: { withdrawalId: id, method },
            })
            .pipe(
              Effect.catchTags({
                InsufficientFunds: () =>
                  Effect.fail(
                    new NotEnoughMoney({
                      message: CashoutMessages.notEnoughMoney,
                      withdrawable: available.toString(),
                      currency,
                    }),
                  ),
                LedgerConflict: Effect.die,
                InvalidPosting: Effect.die,
              }),
            )
          return { row, balance: posted.balances.get(account.id) ?? 0n, forfeited }
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
    yield* Effect.logInfo(`withdrawal ${id}: ${method} ${amount} ${currency} requested by ${userId}`)
    yield* publish(userId, [
      withdrawalEvent(created.row),
      {
        type: "balance",
        currency,
        balance: created.balance.toString(),
        ...(created.forfeited ? { bonusBalance: "0" } : {}),
      },
    ])
    return yield* viewOf(created.row)
  })

  // ── transitions ───────────────────────────────────────────────────────────────────────────────

  /** The move on a row locked by the caller's transaction: posting, update, step, audit. */
  const applyMove = (row: WithdrawalRow, move: Move) =>
    Effect.gen(function* () {
      if (!canMove(row.status, move.to))
        return yield* new WithdrawalMoveRefused({
          id: row.id,
          from: row.status,
          to: move.to,
          message: `This withdrawal is ${row.status}: it cannot be ${move.to} now.`,
        })
      const amount = BigInt(row.amount)
      const push: Array<PlayerEvent> = []
      if (move.to === "rejected" || move.to === "failed" || move.to === "paid") {
        const pending = yield* ledger.systemAccountId("pending_withdrawal", PENDING_CODE, row.currency)
        const back = move.to !== "paid"
        const other = back
          ? (yield* ledger.playerAccount(row.userId, row.currency))?.id
          : yield* ledger.systemAccountId("gateway_clearing", row.provider, row.currency)
        if (other === undefined)
          return yield* Effect.die(
            new Error(`withdrawal ${row.id}: the player has no ${row.currency} account`),
          )
        const posted = yield* ledger
          .post({
            kind: back ? "withdrawal.return" : "withdrawal.paid",
            idempotencyKey: `${back ? "withdrawal-return" : "withdrawal-paid"}:${row.id}`,
            entries: [
              { accountId: pending, currency: row.currency, amount: -amount },
              { accountId: other, currency: row.currency, amount },
            ],
            metadata: { withdrawalId: row.id, status: move.to },
          })
          .pipe(
            Effect.catchTags({
              InsufficientFunds: Effect.die,
              LedgerConflict: Effect.die,
              InvalidPosting: Effect.die,
            }),
          )
        if (back)
          push.push({
            type: "balance",
            currency: row.currency,
            balance: (posted.balances.get(other) ?? 0n).toString(),
          })
      }
      const updated = yield* repo.update(row.id, {
        status: move.to,
        ...(move.reason === undefined ? {} : { reason: move.reason }),
        ...(move.txHash === undefined ? {} : { txHash: move.txHash }),
        ...(move.providerReference === undefined ? {} : { providerReference: move.providerReference }),
      })
      yield* repo.addStep(row.id, move.to, move.note, move.actor)
      if (move.audit !== undefined)
        yield* audit.record({
          actor: move.actor,
          action: move.audit,
          userId: row.userId,
          subject: row.id,
          details: {
            from: row.status,
            to: move.to,
            amount: row.amount,
            currency: row.currency,
            note: move.note,
          },
        })
      return { row: updated, push: [withdrawalEvent(updated), ...push] } satisfies Moved
    })

  const transition = (id: string, move: Move) =>
    Effect.gen(function* () {
      const moved = yield* repo
        .transaction(
          Effect.gen(function* () {
            const row = isUuid(id) ? yield* repo.findForUpdate(id) : undefined
            if (row === undefined)
              return yield* new WithdrawalNotFound({ message: WithdrawMessages.notFound, id })
            return yield* applyMove(row, move)
          }),
        )
        .pipe(Effect.catchTag("SqlError", Effect.die))
      yield* Effect.logInfo(`withdrawal ${id}: → ${move.to} by ${move.actor}`)
      yield* publish(moved.row.userId, moved.push)
      return moved.row
    })

  const list = (status: WithdrawalStatus | undefined, limit: number) =>
    Effect.gen(function* () {
      const rows = yield* repo.list(status, limit).pipe(Effect.orDie)
      const steps = yield* repo.stepsOf(rows.map((r) => r.id)).pipe(Effect.orDie)
      return rows.map(
        (r): OperatorWithdrawal => ({
          ...toWithdrawal(r, steps),
          userId: r.userId,
          email: r.email,
          provider: r.provider,
          providerReference: r.providerReference,
        }),
      )
    })

  const latestView = (id: string) =>
    Effect.gen(function* () {
      const row = yield* repo.findForOperator(id).pipe(Effect.orDie)
      if (row === undefined) return yield* new WithdrawalNotFound({ message: WithdrawMessages.notFound, id })
      const view = yield* viewOf(row)
      return {
        ...view,
        userId: row.userId,
        email: row.email,
        provider: row.provider,
        providerReference: row.providerReference,
      } satisfies OperatorWithdrawal
    })

  /** The row, or undefined for an id that is not one (never an SQL error for a typo). */
  const findRow = (id: string) => (isUuid(id) ? repo.find(id).pipe(Effect.orDie) : Effect.succeed(undefined))

  // ── payouts ───────────────────────────────────────────────────────────────────────────────────

  /** Moves a withdrawal the payout machinery decided about; a move made meanwhile by another is fine. */
  const settle = (id: string, move: Move) =>
    transition(id, move).pipe(
      Effect.asVoid,
      Effect.catchTag("WithdrawalMoveRefused", (e) =>
        Effect.logInfo(`withdrawal ${id}: ${e.to} not recorded, it is ${e.from} already`),
      ),
      Effect.catchTag("WithdrawalNotFound", Effect.die),
    )

  /** Attempts the payout of an approved withdrawal on its automatic rail (none: manual payout). */
  const dispatch = (row: WithdrawalRow): Effect.Effect<void> =>
    Effect.gen(function* () {
      if (row.status !== "approved") return
      if (row.method === "crypto") {
        if (Option.isNone(crypto) || !isCryptoCurrency(row.currency) || !crypto.value.supports(row.currency))
          return
        const sent = yield* crypto.value
          .send({
            key: `withdrawal:${row.id}`,
            currency: row.currency,
            to: row.destination,
            amount: BigInt(row.amount),
          })
          .pipe(Effect.result)
        if (sent._tag === "Success")
          return yield* settle(row.id, {
            to: "sent",
            actor: SYSTEM,
            note: sent.success.txHash,
            txHash: sent.success.txHash,
          })
        if (sent.failure._tag === "PayoutRejected")
          return yield* settle(row.id, {
            to: "failed",
            actor: SYSTEM,
            note: sent.failure.message,
            reason: sent.failure.message.slice(0, 500),
          })
        return yield* Effect.logWarning(`withdrawal ${row.id}: chain unavailable, payout retried later`)
      }
      const rail = payoutRails.find((r) => r === row.method)
      if (rail === undefined) return
      const sent = yield* fiat
        .send({
          rail,
          reference: row.id,
          amount: BigInt(row.amount),
          currency: row.currency,
          email: row.destination,
          notifyUrl: `${config.internalUrl}${PAYOUT_CALLBACK_PREFIX}/${rail}`,
        })
        .pipe(Effect.result)
      if (sent._tag === "Success")
        return yield* settle(row.id, {
          to: "sent",
          actor: SYSTEM,
          note: `${rail} payout ${sent.success.payoutId}`,
          providerReference: sent.success.payoutId,
        })
      if (sent.failure._tag === "PayoutRefusedByProvider")
        return yield* settle(row.id, {
          to: "failed",
          actor: SYSTEM,
          note: sent.failure.message,
          reason: sent.failure.message.slice(0, 500),
        })
    })

  /** A sent crypto payout: paid at the required confirmations; rebroadcast if the chain lost it. */
  const track = (row: WithdrawalRow): Effect.Effect<void> =>
    Effect.gen(function* () {
      if (row.status !== "sent" || row.method !== "crypto" || row.txHash === null) return
      if (Option.isNone(crypto) || !isCryptoCurrency(row.currency) || !crypto.value.supports(row.currency))
        return
      const seen = yield* crypto.value.confirmations(row.currency, row.txHash).pipe(Effect.option)
      if (seen._tag === "None") return
      if (seen.value === null) {
        yield* Effect.logWarning(`withdrawal ${row.id}: ${row.txHash} unknown to the chain, rebroadcast`)
        yield* crypto.value
          .send({
            key: `withdrawal:${row.id}`,
            currency: row.currency,
            to: row.destination,
            amount: BigInt(row.amount),
          })
          .pipe(Effect.ignore)
        return
      }
      if (seen.value >= config.withdrawConfirmations)
        yield* settle(row.id, { to: "paid", actor: SYSTEM, note: `${seen.value} confirmations` })
    })

  const runPayouts = (idleSeconds: number) =>
    Effect.gen(function* () {
      const rows = yield* repo.open(idleSeconds, 100).pipe(Effect.orDie)
      yield* Effect.forEach(rows, (row) => (row.status === "approved" ? dispatch(row) : track(row)), {
        discard: true,
      })
      return rows.length
    })

  // ── operator actions ──────────────────────────────────────────────────────────────────────────

  const approve = (id: string, actor: string) =>
    Effect.gen(function* () {
      const row = yield* transition(id, { to: "approved", actor, note: null, audit: "withdrawal.approve" })
      yield* dispatch(row)
      return yield* latestView(id)
    })

  const reject = (id: string, actor: string, reason: string) =>
    Effect.gen(function* () {
      const why = reason.trim()
      if (why === "" || why.length > 500)
        return yield* new WithdrawalInputRefused({
          message: "A rejection needs a reason (1 to 500 characters).",
        })
      const row = yield* findRow(id)
      if (row !== undefined && row.status !== "requested")
        return yield* new WithdrawalMoveRefused({
          id,
          from: row.status,
          to: "rejected",
          message: `This withdrawal is ${row.status}: it cannot be rejected now.`,
        })
      yield* transition(id, { to: "rejected", actor, note: why, reason: why, audit: "withdrawal.reject" })
      return yield* latestView(id)
    })

  const markSent = (id: string, actor: string, txHash: string) =>
    Effect.gen(function* () {
      const hash = txHash.trim()
      if (!/^(0x)?[0-9a-fA-F]{64}$/.test(hash))
        return yield* new WithdrawalInputRefused({
          message: "A transaction hash is 64 hex digits (0x optional).",
        })
      const row = yield* findRow(id)
      if (row !== undefined && row.method !== "crypto")
        return yield* new WithdrawalInputRefused({ message: "Only crypto withdrawals are paid out by hand." })
      yield* transition(id, { to: "sent", actor, note: hash, txHash: hash, audit: "withdrawal.mark-sent" })
      return yield* latestView(id)
    })

  const markPaid = (id: string, actor: string) =>
    Effect.gen(function* () {
      const row = yield* findRow(id)
      if (row !== undefined && row.method !== "crypto")
        return yield* new WithdrawalInputRefused({
          message: "A fiat payout is marked paid by its provider's callback, not by hand.",
        })
      if (row !== undefined && row.status !== "sent")
        return yield* new WithdrawalMoveRefused({
          id,
          from: row.status,
          to: "paid",
          message: `This withdrawal is ${row.status}: record its transaction with mark-sent first.`,
        })
      yield* transition(id, { to: "paid", actor, note: null, audit: "withdrawal.mark-paid" })
      return yield* latestView(id)
    })

  // ── provider callbacks ────────────────────────────────────────────────────────────────────────

  const answer = (status: number, body: Readonly<Record<string, unknown>>): WebhookAnswer => ({
    status,
    body,
  })
  const received = answer(200, { received: true })

  const settleCallback = (provider: PayoutRail, event: CallbackEvent, hash: string) =>
    repo.transaction(
      Effect.gen(function* () {
        const row = yield* repo.findForUpdate(event.reference)
        if (row === undefined) {
          yield* Effect.logWarning(
            `payout callback ${provider}/${event.id}: unknown withdrawal ${event.reference}`,
          )
          return {
            answer: answer(404, { error: "UnknownWithdrawal", message: "No withdrawal has this reference." }),
            row: undefined,
            push: [],
          }
        }
        const again = yield* repo.findEvent(provider, event.id)
        if (again !== undefined) {
          if (again.payloadHash !== hash) {
            yield* Effect.logWarning(`payout callback ${provider}/${event.id}: same id, another body (409)`)
            return {
              answer: answer(409, {
                error: "EventConflict",
                message: "This event id was received with a different body.",
              }),
              row: undefined,
              push: [],
            }
          }
          return {
            answer:
              again.outcome === "refused"
                ? answer(422, { error: "Refused", message: again.detail ?? "refused" })
                : received,
            row: undefined,
            push: [],
          }
        }
        const record = (outcome: "processed" | "ignored" | "refused", detail: string | null) =>
          repo.insertEvent({
            provider,
            eventId: event.id,
            payloadHash: hash,
            eventType: event.type,
            withdrawalId: row.id,
            outcome,
            detail,
          })
        if (row.provider !== provider || row.amount !== event.amount || row.currency !== event.currency) {
          const detail = `payout ${event.amount} ${event.currency} by ${provider} differs from withdrawal ${row.amount} ${row.currency} by ${row.provider}`
          yield* Effect.logError(`payout callback ${provider}/${event.id} refused: ${detail}`)
          yield* record("refused", detail)
          return { answer: answer(422, { error: "Refused", message: detail }), row: undefined, push: [] }
        }
        const to: WithdrawalStatus = event.type === "payout.paid" ? "paid" : "failed"
        // From "approved" the callback goes through "sent" (below).
        if (!canMove(row.status === "approved" ? "sent" : row.status, to)) {
          yield* record("ignored", `withdrawal already ${row.status}`)
          return { answer: received, row: undefined, push: [] }
        }
        const reason = event.reason?.slice(0, 500) ?? "The payout failed"
        const actor = `provider:${provider}`
        // The callback proves the provider had the payout: when it beat the casino's own "sent"
        // (the send's answer and the callback race), that step is recorded first, so a timeline
        // always reads requested → approved → sent → paid | failed.
        const sent =
          row.status === "approved"
            ? yield* applyMove(row, {
                to: "sent",
                actor,
                note: `${provider} payout ${event.payoutId}`,
                providerReference: event.payoutId,
              })
            : { row, push: [] }
        const moved = yield* applyMove(sent.row, {
          to,
          actor,
          note: to === "paid" ? `${provider} payout ${event.payoutId}` : reason,
          providerReference: event.payoutId,
          ...(to === "failed" ? { reason } : {}),
        })
        yield* record("processed", null)
        return { answer: received, row: moved.row, push: [...sent.push, ...moved.push] }
      }),
    )

  const callback = Effect.fn("Withdrawals.callback")(function* (
    provider: string,
    rawBody: string,
    signature: string | undefined,
  ) {
    const rail = payoutRails.find((r) => r === provider)
    const secret = rail === undefined ? undefined : fiat.webhookSecret(rail)
    if (rail === undefined || secret === undefined)
      return answer(404, { error: "UnknownProvider", message: "No such payout provider." })
    const problem = signatureProblem(
      secret,
      signature,
      rawBody,
      Math.floor(Date.now() / 1000),
      config.webhookToleranceSeconds,
    )
    if (problem !== undefined) {
      yield* Effect.logWarning(`payout callback ${rail}: signature ${problem} (refused 401)`)
      return answer(401, { error: "InvalidSignature", message: `The signature is ${problem}.` })
    }
    const decoded = decodeCallback(rawBody)
    if (decoded._tag === "Failure")
      return answer(400, { error: "BadRequest", message: "The event body is not a payout event." })
    const hash = createHash("sha256").update(rawBody).digest("hex")
    const settled = yield* settleCallback(rail, decoded.value, hash).pipe(
      Effect.retry({
        times: 3,
        while: (e) =>
          e._tag === "SqlError" &&
          (e.reason._tag === "UniqueViolation" ||
            e.reason._tag === "DeadlockError" ||
            e.reason._tag === "SerializationError"),
      }),
      Effect.catchTag("WithdrawalMoveRefused", Effect.die),
      Effect.orDie,
    )
    if (settled.row !== undefined) yield* publish(settled.row.userId, settled.push)
    return settled.answer
  })

  // ── histories ─────────────────────────────────────────────────────────────────────────────────

  const ofPlayer = (userId: string) =>
    Effect.gen(function* () {
      const rows = yield* repo.ofPlayer(userId)
      const steps = yield* repo.stepsOf(rows.map((r) => r.id))
      return rows.map((r) => toWithdrawal(r, steps))
    }).pipe(Effect.orDie)

  const fiatStatus = (s: WithdrawalStatus): FiatPayment["status"] =>
    s === "paid" ? "completed" : s === "rejected" || s === "failed" ? "failed" : "pending"

  const fiatHistory = (userId: string, from: Date, to: Date) =>
    repo.historyOf(userId, ["skrill", "bank"], from, to).pipe(
      Effect.map((rows) =>
        rows.map(
          (r): FiatPayment => ({
            id: r.id,
            // The fiat history's rows are deposit-shaped: both rails show as the e-wallet method,
            // the provider names the rail ("skrill" or "bank"). GET /profile/withdrawals has it all.
            method: "skrill",
            provider: r.provider,
            amount: r.amount,
            currency: r.currency,
            status: fiatStatus(r.status),
            reason: r.reason,
            createdAt: r.createdAt.toISOString(),
            updatedAt: r.updatedAt.toISOString(),
          }),
        ),
      ),
      Effect.orDie,
    )

  const cryptoHistory = (userId: string, from: Date, to: Date) =>
    repo.historyOf(userId, ["crypto"], from, to).pipe(
      Effect.map((rows) =>
        rows.flatMap((r): ReadonlyArray<CryptoTransfer> => {
          if (!isCryptoCurrency(r.currency)) return []
          return [
            {
              id: r.id,
              currency: r.currency,
              network: networkOf[r.currency],
              txHash: r.txHash ?? "",
              outputIndex: null,
              address: r.destination,
              amount: r.amount,
              confirmations: r.status === "paid" ? config.withdrawConfirmations : 0,
              requiredConfirmations: config.withdrawConfirmations,
              status: r.status,
              createdAt: r.createdAt.toISOString(),
              updatedAt: r.updatedAt.toISOString(),
            },
          ]
        }),
      ),
      Effect.orDie,
    )

  // The payout loop, in every process (each step is idempotent and moves under a row lock).
  yield* forkEvery(
    runPayouts(config.withdrawPayoutPollSeconds),
    Duration.seconds(config.withdrawPayoutPollSeconds),
    "withdrawals: payout round",
    { firstAfterInterval: true },
  )

  return {
    withdrawable,
    request,
    ofPlayer,
    fiatHistory,
    cryptoHistory,
    list,
    approve,
    reject,
    markSent,
    markPaid,
    callback,
    runPayouts,
  } satisfies WithdrawalsShape
})

const isUuid = (text: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)

/** Where payout providers POST their signed callbacks: `${PAYOUT_CALLBACK_PREFIX}/{skrill|bank}`. */
export const PAYOUT_CALLBACK_PREFIX = "/api/payments/payouts"

export class Withdrawals extends Context.Service<Withdrawals, WithdrawalsShape>()(
  "casino/server/Withdrawals",
) {
  static readonly layer = Layer.effect(Withdrawals, make).pipe(Layer.provide(WithdrawalsRepo.layer))
}
