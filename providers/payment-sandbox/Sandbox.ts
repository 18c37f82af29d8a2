/**
 * The sandbox provider's rules: merchant authentication, initiation (validation is the http layer's,
 * refusals by gateway rules here), the payer's steps, the final decision with its webhook, the
 * sweeper of abandoned payments, and the runtime gateway rules.
 *
 * A decision is written only over `created` and, in the SAME transaction, queues its webhook in the
 * outbox: a decided payment always has its event, an event always has its decision. The dispatcher
 * (Dispatcher.ts) is woken at once in this process; other processes find the row on their next poll.
 */
import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto"
import { Context, type Duration, Effect, Layer, Queue } from "effect"
import type { SqlError } from "effect/sql"
import { type PaymentEvent, paymentEventBody } from "../../protocols/payments/events.ts"
import { SandboxConfig } from "./config.ts"
import { sandboxCredentials } from "./credentials.ts"
import { type GatewayRule, parseRules, type Refusal, refusal } from "./rules.ts"
import { type Decision, type Family, type PaymentRow, SandboxRepo } from "./SandboxRepo.ts"

/** Payments left `created` this long become `failed` (docs/payment-sandbox.md, "Expiry"). */
export const expiryMinutes = 30
export const expiredReason = "Expired by the provider"
export const cancelledReason = "Cancelled by the payer"

export const isUuid = (text: string): boolean =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)

export interface Customer {
  readonly id?: string | null | undefined
  readonly email?: string | null | undefined
  readonly firstName?: string | null | undefined
  readonly lastName?: string | null | undefined
  readonly country?: string | null | undefined
  readonly city?: string | null | undefined
  readonly address?: string | null | undefined
  readonly zipCode?: string | null | undefined
  readonly phone?: string | null | undefined
}

export interface Initiation {
  readonly family: Family
  readonly gateway: string
  readonly method: string | null
  readonly reference: string
  readonly amount: bigint
  readonly currency: string
  readonly customer: Customer
  readonly returnUrl: string
  readonly notifyUrl: string
  readonly language: string | null
}

export type InitiationResult =
  | { readonly _tag: "Created"; readonly payment: PaymentRow }
  | { readonly _tag: "Refused"; readonly refusal: Refusal }
  /** The gateway already has this reference with other data. */
  | { readonly _tag: "Conflict"; readonly payment: PaymentRow }

/** The webhook event of a decision (docs/payments-protocol.md, "Webhooks"). */
export const webhookEvent = (eventId: string, payment: PaymentRow, at: Date): PaymentEvent => ({
  id: eventId,
  type: payment.status === "approved" ? "payment.completed" : "payment.failed",
  paymentId: payment.id,
  reference: payment.reference,
  amount: payment.amount,
  currency: payment.currency,
  reason: payment.reason,
  createdAt: at.toISOString(),
})

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface SandboxShape {
  readonly publicUrl: string
  /** Bearer check of a merchant call for `gateway` (constant time). */
  readonly isMerchant: (gateway: string, authorization: string | undefined) => boolean
  /** Bearer check of the control endpoint: the sandbox's own secret. */
  readonly isController: (authorization: string | undefined) => boolean
  readonly webhookSecret: (gateway: string) => string
  readonly initiate: (input: Initiation) => Sql<InitiationResult>
  readonly payment: (id: string) => Sql<PaymentRow | undefined>
  readonly paymentByToken: (token: string) => Sql<PaymentRow | undefined>
  readonly startChallenge: (id: string, last4: string) => Sql<boolean>
  readonly signIn: (id: string, email: string) => Sql<boolean>
  /** The final decision and its queued webhook; undefined when the payment was decided before. */
  readonly decide: (
    id: string,
    status: Decision,
    reason: string | null,
    cardLast4?: string | null,
  ) => Sql<PaymentRow | undefined>
  /** Fails every payment `created` more than 30 minutes ago (with its webhook); how many. */
  readonly expireStale: () => Sql<number>
  /** The rules in force for a gateway: its runtime row, else PAYMENT_SANDBOX_GATEWAY_RULES. */
  readonly rulesFor: (gateway: string) => Sql<ReadonlyArray<GatewayRule>>
  readonly setRule: (
    gateway: string,
    rule: string,
  ) => Sql<{ readonly ok: true } | { readonly ok: false; readonly error: string }>
  readonly deliveries: SandboxRepo["Service"]["deliveries"]
  /** Wakes this process's dispatcher (a decision was queued). */
  readonly notify: Effect.Effect<void>
  /** Waits for a wake-up, at most `maxWait`. */
  readonly waitForWork: (maxWait: Duration.Input) => Effect.Effect<void>
}

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given, "utf8")
  const b = Buffer.from(expected, "utf8")
  return a.length === b.length && timingSafeEqual(a, b)
}

const bearer = (authorization: string | undefined): string =>
  authorization?.startsWith("Bearer ") === true ? authorization.slice(7).trim() : ""

/** Same payment asked twice (a merchant's retry): same family, amount, currency and method. */
const sameInitiation = (row: PaymentRow, input: Initiation): boolean =>
  row.family === input.family &&
  row.amount === input.amount.toString() &&
  row.currency === input.currency &&
  row.method === input.method

export class Sandbox extends Context.Service<Sandbox, SandboxShape>()("payment-sandbox/Sandbox") {
  static readonly layerNoDeps = Layer.effect(
    Sandbox,
    Effect.gen(function* () {
      const config = yield* SandboxConfig
      const repo = yield* SandboxRepo
      const secret = config.secret
      const wake = yield* Queue.dropping<void>(1)
      const credentials = new Map<string, ReturnType<typeof sandboxCredentials>>()
      const credentialsOf = (gateway: string) => {
        let c = credentials.get(gateway)
        if (c === undefined) {
          c = sandboxCredentials(secret, gateway)
          credentials.set(gateway, c)
        }
        return c
      }

      const rulesFor = (gateway: string): Sql<ReadonlyArray<GatewayRule>> =>
        repo.runtimeRules().pipe(
          Effect.map((rows) => {
            const row = rows.find((r) => r.gateway === gateway)
            if (row === undefined) return config.gatewayRules.get(gateway) ?? []
            const parsed = parseRules(row.rule)
            // Stored rules were parsed before being stored; a row that no longer parses refuses nothing.
            return parsed.ok ? parsed.value : []
          }),
        )

      const queueWebhook = (payment: PaymentRow) =>
        Effect.gen(function* () {
          const eventId = randomUUID()
          const body = paymentEventBody(webhookEvent(eventId, payment, payment.decidedAt ?? new Date()))
          yield* repo.enqueueWebhook({
            id: eventId,
            paymentId: payment.id,
            gateway: payment.gateway,
            url: payment.notifyUrl,
            body,
          })
        })

      const notify = Queue.offer(wake, undefined).pipe(Effect.asVoid)

      const decide: SandboxShape["decide"] = (id, status, reason, cardLast4 = null) =>
        repo
          .transaction(
            Effect.gen(function* () {
              const decided = yield* repo.decide(id, status, reason, cardLast4)
              if (decided === undefined) return undefined
              yield* queueWebhook(decided)
              return decided
            }),
          )
          .pipe(Effect.tap((decided) => (decided === undefined ? Effect.void : notify)))

      const initiate: SandboxShape["initiate"] = (input) =>
        Effect.gen(function* () {
          const existing = yield* repo.paymentByReference(input.gateway, input.reference)
          if (existing !== undefined) {
            return sameInitiation(existing, input)
              ? { _tag: "Created", payment: existing }
              : { _tag: "Conflict", payment: existing }
          }
          const rules = yield* rulesFor(input.gateway)
          const refused = refusal(input.gateway, rules, {
            amount: input.amount,
            currency: input.currency,
            country: input.customer.country ?? null,
          })
          if (refused !== undefined) {
            yield* Effect.logInfo(
              `sandbox-pay: ${input.gateway} refused ${input.reference}: ${refused.status} ${refused.message}`,
            )
            return { _tag: "Refused", refusal: refused }
          }
          const id = randomUUID()
          const token = input.family === "mifinity" ? randomBytes(24).toString("base64url") : null
          const qr = input.method === "QR" ? `${config.publicUrl}/sandbox-pay/jeton/pay/${id}` : null
          const inserted = yield* repo.insertPayment({ ...input, id, token, qr })
          if (inserted !== undefined) return { _tag: "Created", payment: inserted }
          // A concurrent initiation with the same reference won the insert.
          const winner = yield* repo.paymentByReference(input.gateway, input.reference)
          if (winner === undefined) return yield* Effect.die(new Error("sandbox payment vanished"))
          return sameInitiation(winner, input)
            ? { _tag: "Created", payment: winner }
            : { _tag: "Conflict", payment: winner }
        }).pipe(Effect.map((r): InitiationResult => r as InitiationResult))

      const expireStale = () =>
        repo
          .transaction(
            Effect.gen(function* () {
              const ids = yield* repo.lockExpired(expiryMinutes, 100)
              let count = 0
              for (const id of ids) {
                const decided = yield* repo.decide(id, "failed", expiredReason, null)
                if (decided === undefined) continue
                yield* queueWebhook(decided)
                count++
              }
              return count
            }),
          )
          .pipe(
            Effect.tap((n) =>
              n > 0
                ? Effect.andThen(Effect.logInfo(`sandbox-pay: expired ${n} payment(s)`), notify)
                : Effect.void,
            ),
          )

      return Sandbox.of({
        publicUrl: config.publicUrl,
        isMerchant: (gateway, authorization) =>
          sameSecret(bearer(authorization), credentialsOf(gateway).apiKey),
        isController: (authorization) => {
          const token = bearer(authorization)
          if (token === "") return false
          return sameSecret(token, secret)
        },
        webhookSecret: (gateway) => credentialsOf(gateway).webhookSecret,
        initiate,
        payment: (id) => (isUuid(id) ? repo.payment(id) : Effect.succeed(undefined)),
        paymentByToken: (token) => repo.paymentByToken(token),
        startChallenge: (id, last4) => repo.startChallenge(id, last4),
        signIn: (id, email) => repo.signIn(id, email),
        decide,
        expireStale,
        rulesFor,
        setRule: (gateway, rule) =>
          Effect.gen(function* () {
            const parsed = parseRules(rule)
            if (!parsed.ok) return { ok: false, error: parsed.error } as const
            yield* repo.setRuntimeRule(gateway, rule.trim() === "" ? "up" : rule.trim())
            return { ok: true } as const
          }),
        deliveries: (paymentId) => repo.deliveries(paymentId),
        notify,
        waitForWork: (maxWait) => Queue.take(wake).pipe(Effect.timeoutOption(maxWait), Effect.asVoid),
      })
    }),
  )

  static readonly layer = Sandbox.layerNoDeps.pipe(Layer.provide(SandboxRepo.layer))
}
