/**
 * The sandbox's SQL (its tables `sandbox_*`, migrations/). Times come from the database clock so
 * several sandbox processes agree. Every function fails only with `SqlError`.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { Family } from "../../protocols/payments/merchant.ts"

export type { Family }
export type PaymentStatus = "created" | "approved" | "declined" | "failed" | "cancelled"
export type Decision = Exclude<PaymentStatus, "created">

export interface PaymentRow {
  readonly id: string
  readonly gateway: string
  readonly family: Family
  readonly method: string | null
  readonly reference: string
  /** Minor units as a decimal string. */
  readonly amount: string
  readonly currency: string
  readonly customer: unknown
  readonly language: string | null
  readonly returnUrl: string
  readonly notifyUrl: string
  readonly token: string | null
  readonly qr: string | null
  readonly status: PaymentStatus
  readonly reason: string | null
  readonly challenge: boolean
  readonly cardLast4: string | null
  readonly walletEmail: string | null
  readonly createdAt: Date
  readonly decidedAt: Date | null
}

export interface NewPayment {
  readonly id: string
  readonly gateway: string
  readonly family: Family
  readonly method: string | null
  readonly reference: string
  readonly amount: bigint
  readonly currency: string
  readonly customer: unknown
  readonly language: string | null
  readonly returnUrl: string
  readonly notifyUrl: string
  readonly token: string | null
  readonly qr: string | null
}

export interface OutboxRow {
  readonly id: string
  readonly paymentId: string
  readonly gateway: string
  readonly url: string
  readonly body: string
  /** Attempts so far, including the one just claimed. */
  readonly attempts: number
}

export interface DeliveryRow {
  readonly id: string
  readonly attempts: number
  readonly nextAttemptAt: Date
  readonly deliveredAt: Date | null
  readonly lastStatus: number | null
  readonly lastError: string | null
  readonly body: string
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface SandboxRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /** Inserts unless (gateway, reference) exists; undefined when it did. */
  readonly insertPayment: (payment: NewPayment) => Sql<PaymentRow | undefined>
  readonly paymentByReference: (gateway: string, reference: string) => Sql<PaymentRow | undefined>
  readonly payment: (id: string) => Sql<PaymentRow | undefined>
  readonly paymentByToken: (token: string) => Sql<PaymentRow | undefined>
  /** Marks the 3-D Secure step started (only while `created`); whether it was. */
  readonly startChallenge: (id: string, last4: string) => Sql<boolean>
  /** Records the e-wallet sign-in (only while `created`); whether it was. */
  readonly signIn: (id: string, email: string) => Sql<boolean>
  /** The final decision, only over `created`: undefined when the payment was already decided. */
  readonly decide: (
    id: string,
    status: Decision,
    reason: string | null,
    cardLast4: string | null,
  ) => Sql<PaymentRow | undefined>
  readonly enqueueWebhook: (row: {
    readonly id: string
    readonly paymentId: string
    readonly gateway: string
    readonly url: string
    readonly body: string
  }) => Sql<void>
  readonly runtimeRules: () => Sql<ReadonlyArray<{ readonly gateway: string; readonly rule: string }>>
  readonly setRuntimeRule: (gateway: string, rule: string) => Sql<void>
  /**
   * Claims up to `limit` due deliveries: one statement, rows picked `FOR UPDATE SKIP LOCKED` and
   * leased (next_attempt_at pushed `leaseSeconds` ahead, attempts + 1) so no other dispatcher takes
   * them while this one posts; a dispatcher that dies mid-post leaves the row due again after the lease.
   */
  readonly claimDue: (
    limit: number,
    maxAttempts: number,
    leaseSeconds: number,
  ) => Sql<ReadonlyArray<OutboxRow>>
  readonly markDelivered: (id: string, status: number) => Sql<void>
  readonly markFailed: (id: string, status: number | null, error: string, retryInSeconds: number) => Sql<void>
  /** Payments `created` longer than `minutes` ago, locked (SKIP LOCKED) for the sweeper's transaction. */
  readonly lockExpired: (minutes: number, limit: number) => Sql<ReadonlyArray<string>>
  readonly deliveries: (paymentId: string) => Sql<ReadonlyArray<DeliveryRow>>
}

const paymentColumns = `id::text AS "id", gateway, family, method, reference, amount::text AS "amount", currency,
  customer, language, return_url AS "returnUrl", notify_url AS "notifyUrl", token, qr, status, reason, challenge,
  card_last4 AS "cardLast4", wallet_email AS "walletEmail", created_at AS "createdAt", decided_at AS "decidedAt"`

export class SandboxRepo extends Context.Service<SandboxRepo, SandboxRepoShape>()(
  "payment-sandbox/SandboxRepo",
) {
  static readonly layer = Layer.effect(
    SandboxRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const cols = sql.literal(paymentColumns)
      const one = (rows: ReadonlyArray<PaymentRow>) => rows[0]

      return SandboxRepo.of({
        transaction: sql.withTransaction,
        insertPayment: (p) =>
          sql<PaymentRow>`
            INSERT INTO sandbox_payments (id, gateway, family, method, reference, amount, currency, customer,
              language, return_url, notify_url, token, qr)
            VALUES (${p.id}, ${p.gateway}, ${p.family}, ${p.method}, ${p.reference}, ${p.amount.toString()}::bigint,
              ${p.currency}, ${JSON.stringify(p.customer)}::jsonb, ${p.language}, ${p.returnUrl}, ${p.notifyUrl},
              ${p.token}, ${p.qr})
            ON CONFLICT (gateway, reference) DO NOTHING
            RETURNING ${cols}`.pipe(Effect.map(one)),
        paymentByReference: (gateway, reference) =>
          sql<PaymentRow>`SELECT ${cols} FROM sandbox_payments WHERE gateway = ${gateway} AND reference = ${reference}`.pipe(
            Effect.map(one),
          ),
        payment: (id) =>
          sql<PaymentRow>`SELECT ${cols} FROM sandbox_payments WHERE id = ${id}`.pipe(Effect.map(one)),
        paymentByToken: (token) =>
          sql<PaymentRow>`SELECT ${cols} FROM sandbox_payments WHERE token = ${token}`.pipe(Effect.map(one)),
        startChallenge: (id, last4) =>
          sql<{ id: string }>`
            UPDATE sandbox_payments SET challenge = true, card_last4 = ${last4}
            WHERE id = ${id} AND status = 'created' RETURNING id::text AS id`.pipe(
            Effect.map((r) => r.length > 0),
          ),
        signIn: (id, email) =>
          sql<{ id: string }>`
            UPDATE sandbox_payments SET wallet_email = ${email}
            WHERE id = ${id} AND status = 'created' RETURNING id::text AS id`.pipe(
            Effect.map((r) => r.length > 0),
          ),
        decide: (id, status, reason, cardLast4) =>
          sql<PaymentRow>`
            UPDATE sandbox_payments
            SET status = ${status}, reason = ${reason}, decided_at = now(),
                card_last4 = COALESCE(${cardLast4}, card_last4)
            WHERE id = ${id} AND status = 'created'
            RETURNING ${cols}`.pipe(Effect.map(one)),
        enqueueWebhook: (row) =>
          sql`
            INSERT INTO sandbox_webhook_outbox (id, payment_id, gateway, url, body)
            VALUES (${row.id}, ${row.paymentId}, ${row.gateway}, ${row.url}, ${row.body})`.pipe(
            Effect.asVoid,
          ),
        runtimeRules: () =>
          sql<{
            gateway: string
            rule: string
          }>`SELECT gateway, rule FROM sandbox_gateway_rules ORDER BY gateway`,
        setRuntimeRule: (gateway, rule) =>
          sql`
            INSERT INTO sandbox_gateway_rules (gateway, rule) VALUES (${gateway}, ${rule})
            ON CONFLICT (gateway) DO UPDATE SET rule = EXCLUDED.rule, updated_at = now()`.pipe(Effect.asVoid),
        claimDue: (limit, maxAttempts, leaseSeconds) =>
          sql<OutboxRow>`
            UPDATE sandbox_webhook_outbox o
            SET attempts = o.attempts + 1,
                next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
            WHERE o.id IN (
              SELECT id FROM sandbox_webhook_outbox
              WHERE delivered_at IS NULL AND attempts < ${maxAttempts} AND next_attempt_at <= now()
              ORDER BY next_attempt_at
              LIMIT ${limit}
              FOR UPDATE SKIP LOCKED)
            RETURNING o.id::text AS "id", COALESCE(o.payment_id, o.payout_id)::text AS "paymentId", o.gateway, o.url, o.body, o.attempts`,
        markDelivered: (id, status) =>
          sql`
            UPDATE sandbox_webhook_outbox SET delivered_at = now(), last_status = ${status}, last_error = NULL
            WHERE id = ${id}`.pipe(Effect.asVoid),
        markFailed: (id, status, error, retryInSeconds) =>
          sql`
            UPDATE sandbox_webhook_outbox
            SET last_status = ${status}, last_error = ${error.slice(0, 500)},
                next_attempt_at = now() + make_interval(secs => ${retryInSeconds})
            WHERE id = ${id} AND delivered_at IS NULL`.pipe(Effect.asVoid),
        lockExpired: (minutes, limit) =>
          sql<{ id: string }>`
            SELECT id::text AS id FROM sandbox_payments
            WHERE status = 'created' AND created_at < now() - make_interval(mins => ${minutes})
            ORDER BY created_at
            LIMIT ${limit}
            FOR UPDATE SKIP LOCKED`.pipe(Effect.map((rows) => rows.map((r) => r.id))),
        deliveries: (paymentId) =>
          sql<DeliveryRow>`
            SELECT id::text AS "id", attempts, next_attempt_at AS "nextAttemptAt", delivered_at AS "deliveredAt",
                   last_status AS "lastStatus", last_error AS "lastError", body
            FROM sandbox_webhook_outbox WHERE payment_id = ${paymentId} ORDER BY created_at, id`,
      })
    }),
  )
}
