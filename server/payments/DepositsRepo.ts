/**
 * The SQL of deposits and webhook events (migration 0011). Every function fails only with
 * `SqlError`; amounts are read as text and handled as bigint.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { DepositMethod, DepositStatus } from "../../services/wallet-service.ts"

export interface DepositRow {
  readonly id: string
  readonly userId: string
  readonly method: DepositMethod
  readonly provider: string
  readonly amount: string
  readonly currency: string
  readonly amountEurCents: string
  readonly status: DepositStatus
  readonly providerReference: string | null
  readonly reason: string | null
  /** The bonus code sent with the deposit (the spec's promotionCoupon). */
  readonly promotionCoupon: string | null
  readonly ledgerTransactionId: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly completedAt: Date | null
}

export interface NewDeposit {
  readonly userId: string
  readonly method: DepositMethod
  readonly provider: string
  readonly amount: bigint
  readonly currency: string
  readonly amountEurCents: bigint
  readonly promotionCoupon: string | null
}

export interface WebhookEventRow {
  readonly payloadHash: string
  readonly outcome: "processed" | "ignored" | "refused"
  readonly detail: string | null
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface DepositsRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  readonly insert: (d: NewDeposit) => Sql<DepositRow>
  readonly setProviderReference: (id: string, reference: string) => Sql<void>
  /** Sets a status (not 'completed': `complete` does that with the ledger transaction). */
  readonly setStatus: (
    id: string,
    status: Exclude<DepositStatus, "completed">,
    reason: string | null,
  ) => Sql<void>
  readonly complete: (id: string, ledgerTransactionId: string) => Sql<void>
  readonly findForUpdate: (id: string) => Sql<DepositRow | undefined>
  readonly completedOf: (userId: string) => Sql<ReadonlyArray<DepositRow>>
  /** The player's deposits created in [from, to) (UTC), newest first. */
  readonly historyOf: (userId: string, from: Date, to: Date) => Sql<ReadonlyArray<DepositRow>>
  /** EUR cents of completed deposits credited in the last `hours` (database clock), per window. */
  readonly completedEurCentsWithin: (
    userId: string,
    hours: ReadonlyArray<number>,
  ) => Sql<ReadonlyArray<bigint>>
  /** EUR cents of deposits started but not final yet (initiated or pending). */
  readonly inFlightEurCents: (userId: string) => Sql<bigint>
  /**
   * Marks deposits never finished (initiated, or pending at the provider) older than `minutes`
   * expired; returns them.
   */
  readonly expireOlderThan: (minutes: number) => Sql<ReadonlyArray<DepositRow>>
  readonly findEvent: (provider: string, eventId: string) => Sql<WebhookEventRow | undefined>
  /** Records an event; false when (provider, event id) exists already (a concurrent delivery won). */
  readonly insertEvent: (e: {
    readonly provider: string
    readonly eventId: string
    readonly payloadHash: string
    readonly eventType: string
    readonly depositId: string | null
    readonly outcome: WebhookEventRow["outcome"]
    readonly detail: string | null
  }) => Sql<boolean>
  /**
   * ONE statement for a batch of completion events: locks their deposits (`FOR UPDATE`, in id
   * order, so two batches never wait on each other in a cycle) and reads each with whether its
   * event id is recorded and the player's account in the deposit's currency — in the batch's order.
   */
  readonly lockMany: (
    events: ReadonlyArray<{
      readonly depositId: string
      readonly provider: string
      readonly eventId: string
    }>,
  ) => Sql<
    ReadonlyArray<{
      readonly deposit: DepositRow | undefined
      readonly eventSeen: boolean
      /** The deposit names a bonus (its promotionCoupon): settled alone, with the bonus rules. */
      readonly bonusCandidate: boolean
      readonly accountId: string | undefined
    }>
  >
  /**
   * ONE statement: completes the deposits with their ledger transactions and records their events
   * as processed. Answers how many events it recorded (fewer: one arrived meanwhile — roll back).
   */
  readonly completeMany: (
    done: ReadonlyArray<{
      readonly depositId: string
      readonly ledgerTransactionId: string
      readonly provider: string
      readonly eventId: string
      readonly payloadHash: string
      readonly eventType: string
    }>,
  ) => Sql<number>
}

const columns = `
  id::text AS id, user_id::text AS "userId", method, provider, amount::text AS amount, currency,
  amount_eur_cents::text AS "amountEurCents", status, provider_reference AS "providerReference", reason,
  promotion_coupon AS "promotionCoupon",
  ledger_transaction_id::text AS "ledgerTransactionId", created_at AS "createdAt", updated_at AS "updatedAt",
  completed_at AS "completedAt"
`

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns)

  const one = (rows: ReadonlyArray<DepositRow>) =>
    rows[0] === undefined ? Effect.die(new Error("deposit row expected")) : Effect.succeed(rows[0])

  return {
    transaction: sql.withTransaction,
    insert: (d) =>
      sql<DepositRow>`
        INSERT INTO deposits (user_id, method, provider, amount, currency, amount_eur_cents, promotion_coupon)
        VALUES (${d.userId}, ${d.method}, ${d.provider}, ${d.amount.toString()}::numeric, ${d.currency},
                ${d.amountEurCents.toString()}::numeric, ${d.promotionCoupon})
        RETURNING ${cols}
      `.pipe(Effect.flatMap(one)),
    setProviderReference: (id, reference) =>
      sql`UPDATE deposits SET provider_reference = ${reference}, updated_at = now() WHERE id = ${id}`.pipe(
        Effect.asVoid,
      ),
    setStatus: (id, status, reason) =>
      sql`UPDATE deposits SET status = ${status}, reason = ${reason}, updated_at = now() WHERE id = ${id}`.pipe(
        Effect.asVoid,
      ),
    complete: (id, ledgerTransactionId) =>
      sql`
        UPDATE deposits SET status = 'completed', reason = NULL, ledger_transaction_id = ${ledgerTransactionId},
          completed_at = now(), updated_at = now()
        WHERE id = ${id}
      `.pipe(Effect.asVoid),
    findForUpdate: (id) =>
      sql<DepositRow>`SELECT ${cols} FROM deposits WHERE id = ${id} FOR UPDATE`.pipe(Effect.map((r) => r[0])),
    completedOf: (userId) =>
      sql<DepositRow>`
        SELECT ${cols} FROM deposits WHERE user_id = ${userId} AND status = 'completed' ORDER BY completed_at
      `,
    historyOf: (userId, from, to) =>
      sql<DepositRow>`
        SELECT ${cols} FROM deposits
        WHERE user_id = ${userId} AND created_at >= ${from} AND created_at < ${to}
        ORDER BY created_at DESC, id LIMIT 500
      `,
    completedEurCentsWithin: (userId, hours) =>
      Effect.forEach(hours, (h) =>
        sql<{ readonly total: string }>`
          SELECT coalesce(sum(amount_eur_cents), 0)::text AS total FROM deposits
          WHERE user_id = ${userId} AND status = 'completed'
            AND completed_at > now() - make_interval(hours => ${h}::int)
        `.pipe(Effect.map((rows) => BigInt(rows[0]?.total ?? "0"))),
      ),
    inFlightEurCents: (userId) =>
      sql<{ readonly total: string }>`
        SELECT coalesce(sum(amount_eur_cents), 0)::text AS total FROM deposits
        WHERE user_id = ${userId} AND status IN ('initiated', 'pending')
      `.pipe(Effect.map((rows) => BigInt(rows[0]?.total ?? "0"))),
    expireOlderThan: (minutes) =>
      sql<DepositRow>`
        UPDATE deposits SET status = 'expired', updated_at = now()
        WHERE status IN ('initiated', 'pending')
          AND created_at < now() - make_interval(mins => ${minutes}::int)
        RETURNING ${cols}
      `,
    findEvent: (provider, eventId) =>
      sql<WebhookEventRow>`
        SELECT payload_hash AS "payloadHash", outcome, detail FROM payment_webhook_events
        WHERE provider = ${provider} AND event_id = ${eventId}
      `.pipe(Effect.map((r) => r[0])),
    insertEvent: (e) =>
      sql`
        INSERT INTO payment_webhook_events (provider, event_id, payload_hash, event_type, deposit_id, outcome, detail)
        VALUES (${e.provider}, ${e.eventId}, ${e.payloadHash}, ${e.eventType}, ${e.depositId}, ${e.outcome}, ${e.detail})
        ON CONFLICT (provider, event_id) DO NOTHING
        RETURNING provider
      `.pipe(Effect.map((rows) => rows.length > 0)),
    lockMany: (events) =>
      sql<
        DepositRow & {
          readonly found: boolean
          readonly eventSeen: boolean
          readonly accountId: string | null
          readonly bonusCandidate: boolean
        }
      >`
        WITH input AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(
            events.map((e, i) => ({ i, deposit: e.depositId, provider: e.provider, event_id: e.eventId })),
          )}::jsonb) AS x (i int, deposit uuid, provider text, event_id text)
        ), locked AS (
          SELECT * FROM deposits WHERE id IN (SELECT deposit FROM input) ORDER BY id FOR UPDATE
        )
        SELECT (d.id IS NOT NULL) AS found,
               d.id::text AS id, d.user_id::text AS "userId", d.method, d.provider, d.amount::text AS amount,
               d.currency, d.amount_eur_cents::text AS "amountEurCents", d.status,
               d.provider_reference AS "providerReference", d.reason, d.promotion_coupon AS "promotionCoupon",
               d.ledger_transaction_id::text AS "ledgerTransactionId", d.created_at AS "createdAt",
               d.updated_at AS "updatedAt", d.completed_at AS "completedAt",
               (e.provider IS NOT NULL) AS "eventSeen", a.id::text AS "accountId",
               (d.promotion_coupon IS NOT NULL) AS "bonusCandidate"
        FROM input i
        LEFT JOIN locked d ON d.id = i.deposit
        LEFT JOIN payment_webhook_events e ON e.provider = i.provider AND e.event_id = i.event_id
        LEFT JOIN ledger_accounts a ON a.kind = 'player_cash' AND a.user_id = d.user_id AND a.currency = d.currency
        ORDER BY i.i
      `.pipe(
        Effect.map((rows) =>
          rows.map(({ found, eventSeen, accountId, bonusCandidate, ...deposit }) => ({
            deposit: found ? deposit : undefined,
            eventSeen,
            bonusCandidate,
            accountId: accountId ?? undefined,
          })),
        ),
      ),
    completeMany: (done) =>
      sql<{ readonly n: number }>`
        WITH input AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(
            done.map((d) => ({
              id: d.depositId,
              tx: d.ledgerTransactionId,
              provider: d.provider,
              event_id: d.eventId,
              payload_hash: d.payloadHash,
              event_type: d.eventType,
            })),
          )}::jsonb) AS x (id uuid, tx uuid, provider text, event_id text, payload_hash text, event_type text)
        ), completed AS (
          UPDATE deposits d SET status = 'completed', reason = NULL, ledger_transaction_id = input.tx,
            completed_at = now(), updated_at = now()
          FROM input WHERE d.id = input.id
        ), recorded AS (
          INSERT INTO payment_webhook_events (provider, event_id, payload_hash, event_type, deposit_id, outcome, detail)
          SELECT provider, event_id, payload_hash, event_type, id, 'processed', NULL FROM input ORDER BY provider, event_id
          ON CONFLICT (provider, event_id) DO NOTHING
          RETURNING 1
        )
        SELECT count(*)::int AS n FROM recorded
      `.pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0))),
  } satisfies DepositsRepoShape
})

export class DepositsRepo extends Context.Service<DepositsRepo, DepositsRepoShape>()(
  "casino/server/DepositsRepo",
) {
  static readonly layer = Layer.effect(DepositsRepo, make)
}
