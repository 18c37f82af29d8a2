/**
 * The SQL of withdrawals (migration 0050): the withdrawals, their timeline (`withdrawal_steps`) and
 * the payout callbacks received. Only the `Withdrawals` service's modules (server/withdrawals/) call
 * it; every function fails only with `SqlError`. Amounts cross the boundary as decimal strings
 * (numeric read as text). The risk context reads other modules' tables (deposits, bonuses,
 * sessions), never writes them.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { WithdrawalMethod, WithdrawalStatus } from "../../services/cashout-service.ts"

export interface WithdrawalRow {
  readonly id: string
  readonly userId: string
  readonly method: WithdrawalMethod
  readonly currency: string
  readonly amount: string
  readonly amountEurCents: string
  readonly destination: string
  readonly status: WithdrawalStatus
  readonly provider: string
  readonly providerReference: string | null
  readonly txHash: string | null
  readonly reason: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface StepRow {
  readonly withdrawalId: string
  readonly status: WithdrawalStatus
  readonly note: string | null
  readonly actor: string
  readonly at: Date
}

export interface NewWithdrawal {
  readonly id: string
  readonly userId: string
  readonly method: WithdrawalMethod
  readonly currency: string
  readonly amount: bigint
  readonly amountEurCents: bigint
  readonly destination: string
  readonly provider: string
}

export interface CallbackEventRow {
  readonly payloadHash: string
  readonly outcome: "processed" | "ignored" | "refused"
  readonly detail: string | null
}

/** An operator's view of a withdrawal: the row and the player's e-mail. */
export interface OperatorRow extends WithdrawalRow {
  readonly email: string
}

/** Per currency: completed deposits (fiat and credited crypto) and paid withdrawals. */
export interface MoneyTotalsRow {
  readonly currency: string
  readonly deposited: string
  readonly deposits: number
  readonly withdrawn: string
  readonly withdrawals: number
}

/** An active bonus with its wagering (wagered rounded down to the minor unit). */
export interface ActiveBonusRow {
  readonly id: string
  readonly name: string
  readonly currency: string
  readonly amount: string
  readonly balance: string
  readonly wageringRequired: string
  readonly wagered: string
  readonly expiresAt: Date
}

/** The player's sessions seen since a time, by the country recorded when each started. */
export interface SessionCountryRow {
  readonly country: string | null
  readonly sessions: number
  readonly lastSeenAt: Date
}

export interface PlayerFactsRow {
  readonly email: string
  readonly registeredAt: Date
  /** Whole days since registration, by the database clock. */
  readonly ageDays: number
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface WithdrawalsRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /** Locks the player's row until the transaction ends: one withdrawal decision per player at a time. */
  readonly lockPlayer: (userId: string) => Sql<void>
  /** The player's default wallet's currency, if any. */
  readonly defaultCurrency: (userId: string) => Sql<string | undefined>
  readonly insert: (w: NewWithdrawal) => Sql<WithdrawalRow>
  readonly find: (id: string) => Sql<WithdrawalRow | undefined>
  readonly findForUpdate: (id: string) => Sql<WithdrawalRow | undefined>
  /** Sets the status and whichever of reason / tx hash / provider reference is given. */
  readonly update: (
    id: string,
    change: {
      readonly status: WithdrawalStatus
      readonly reason?: string | null
      readonly txHash?: string
      readonly providerReference?: string
    },
  ) => Sql<WithdrawalRow>
  readonly addStep: (
    withdrawalId: string,
    status: WithdrawalStatus,
    note: string | null,
    actor: string,
  ) => Sql<void>
  readonly stepsOf: (ids: ReadonlyArray<string>) => Sql<ReadonlyArray<StepRow>>
  /** The player's withdrawals, newest first (at most 200). */
  readonly ofPlayer: (userId: string) => Sql<ReadonlyArray<WithdrawalRow>>
  /** The player's withdrawals of these methods created in [from, to), newest first. */
  readonly historyOf: (
    userId: string,
    methods: ReadonlyArray<WithdrawalMethod>,
    from: Date,
    to: Date,
  ) => Sql<ReadonlyArray<WithdrawalRow>>
  /** EUR cents requested today (UTC, database clock) by the player, rejected and failed ones aside. */
  readonly eurCentsToday: (userId: string) => Sql<bigint>
  readonly findForOperator: (id: string) => Sql<OperatorRow | undefined>
  /** For operators: by status (all when undefined), oldest first, at most `limit`. */
  readonly list: (status: WithdrawalStatus | undefined, limit: number) => Sql<ReadonlyArray<OperatorRow>>
  readonly countByStatus: (status: WithdrawalStatus) => Sql<number>
  // ── the player's risk context (read-only, other modules' tables) ──
  readonly playerFacts: (userId: string) => Sql<PlayerFactsRow | undefined>
  readonly moneyTotals: (userId: string) => Sql<ReadonlyArray<MoneyTotalsRow>>
  readonly activeBonuses: (userId: string) => Sql<ReadonlyArray<ActiveBonusRow>>
  /** Sessions last seen within `days` days (database clock), latest country first. */
  readonly sessionCountries: (userId: string, days: number) => Sql<ReadonlyArray<SessionCountryRow>>
  /** The payout loop's work: approved and sent withdrawals not touched for `olderThanSeconds`. */
  readonly open: (olderThanSeconds: number, limit: number) => Sql<ReadonlyArray<WithdrawalRow>>
  readonly findEvent: (provider: string, eventId: string) => Sql<CallbackEventRow | undefined>
  readonly insertEvent: (e: {
    readonly provider: string
    readonly eventId: string
    readonly payloadHash: string
    readonly eventType: string
    readonly withdrawalId: string | null
    readonly outcome: CallbackEventRow["outcome"]
    readonly detail: string | null
  }) => Sql<void>
}

/** The row's columns, of the table aliased `t`. */
const columnsOf = (t: string) => `
  ${t}.id::text AS id, ${t}.user_id::text AS "userId", ${t}.method, ${t}.currency, ${t}.amount::text AS amount,
  ${t}.amount_eur_cents::text AS "amountEurCents", ${t}.destination, ${t}.status, ${t}.provider,
  ${t}.provider_reference AS "providerReference", ${t}.tx_hash AS "txHash", ${t}.reason,
  ${t}.created_at AS "createdAt", ${t}.updated_at AS "updatedAt"
`
const columns = columnsOf("withdrawals")

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns)
  const one = (rows: ReadonlyArray<WithdrawalRow>) =>
    rows[0] === undefined ? Effect.die(new Error("withdrawal row expected")) : Effect.succeed(rows[0])

  return {
    transaction: sql.withTransaction,
    lockPlayer: (userId) => sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`.pipe(Effect.asVoid),
    defaultCurrency: (userId) =>
      sql<{ readonly currency: string }>`
        SELECT currency FROM wallets WHERE user_id = ${userId} AND is_default
      `.pipe(Effect.map((rows) => rows[0]?.currency)),
    insert: (w) =>
      sql<WithdrawalRow>`
        INSERT INTO withdrawals (id, user_id, method, currency, amount, amount_eur_cents, destination, provider)
        VALUES (${w.id}, ${w.userId}, ${w.method}, ${w.currency}, ${w.amount.toString()}::numeric,
                ${w.amountEurCents.toString()}::numeric, ${w.destination}, ${w.provider})
        RETURNING ${cols}
      `.pipe(Effect.flatMap(one)),
    find: (id) =>
      sql<WithdrawalRow>`SELECT ${cols} FROM withdrawals WHERE id = ${id}`.pipe(Effect.map((r) => r[0])),
    findForUpdate: (id) =>
      sql<WithdrawalRow>`SELECT ${cols} FROM withdrawals WHERE id = ${id} FOR UPDATE`.pipe(
        Effect.map((r) => r[0]),
      ),
    update: (id, change) =>
      sql<WithdrawalRow>`
        UPDATE withdrawals SET
          status = ${change.status},
          reason = ${change.reason === undefined ? sql`reason` : change.reason},
          tx_hash = ${change.txHash === undefined ? sql`tx_hash` : change.txHash},
          provider_reference = ${change.providerReference === undefined ? sql`provider_reference` : change.providerReference},
          updated_at = now()
        WHERE id = ${id}
        RETURNING ${cols}
      `.pipe(Effect.flatMap(one)),
    addStep: (withdrawalId, status, note, actor) =>
      sql`
        INSERT INTO withdrawal_steps (withdrawal_id, status, note, actor)
        VALUES (${withdrawalId}, ${status}, ${note}, ${actor})
      `.pipe(Effect.asVoid),
    stepsOf: (ids) =>
      ids.length === 0
        ? Effect.succeed([])
        : sql<StepRow>`
            SELECT withdrawal_id::text AS "withdrawalId", status, note, actor, at FROM withdrawal_steps
            WHERE withdrawal_id IN ${sql.in([...ids])} ORDER BY id
          `,
    ofPlayer: (userId) =>
      sql<WithdrawalRow>`
        SELECT ${cols} FROM withdrawals WHERE user_id = ${userId} ORDER BY created_at DESC, id LIMIT 200
      `,
    historyOf: (userId, methods, from, to) =>
      sql<WithdrawalRow>`
        SELECT ${cols} FROM withdrawals
        WHERE user_id = ${userId} AND method IN ${sql.in([...methods])}
          AND created_at >= ${from} AND created_at < ${to}
        ORDER BY created_at DESC, id LIMIT 500
      `,
    eurCentsToday: (userId) =>
      sql<{ readonly total: string }>`
        SELECT coalesce(sum(amount_eur_cents), 0)::text AS total FROM withdrawals
        WHERE user_id = ${userId} AND status NOT IN ('rejected', 'failed')
          AND created_at >= (date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')
      `.pipe(Effect.map((rows) => BigInt(rows[0]?.total ?? "0"))),
    list: (status, limit) =>
      sql<OperatorRow>`
        SELECT ${sql.literal(columnsOf("w"))}, u.email
        FROM withdrawals w JOIN users u ON u.id = w.user_id
        WHERE ${status === undefined ? sql`true` : sql`w.status = ${status}`}
        ORDER BY w.created_at, w.id LIMIT ${limit}
      `,
    findForOperator: (id) =>
      sql<OperatorRow>`
        SELECT ${sql.literal(columnsOf("w"))}, u.email
        FROM withdrawals w JOIN users u ON u.id = w.user_id WHERE w.id = ${id}
      `.pipe(Effect.map((r) => r[0])),
    countByStatus: (status) =>
      sql<{ readonly n: number }>`
        SELECT count(*)::int AS n FROM withdrawals WHERE status = ${status}
      `.pipe(Effect.map((rows) => rows[0]?.n ?? 0)),
    playerFacts: (userId) =>
      sql<PlayerFactsRow>`
        SELECT email, created_at AS "registeredAt",
               floor(extract(epoch FROM now() - created_at) / 86400)::int AS "ageDays"
        FROM users WHERE id = ${userId}
      `.pipe(Effect.map((rows) => rows[0])),
    moneyTotals: (userId) =>
      // Crypto deposits count once credited; a credit reversed by a reorg is no longer 'credited'.
      sql<MoneyTotalsRow>`
        SELECT currency,
               sum(deposited)::text AS deposited, sum(deposits)::int AS deposits,
               sum(withdrawn)::text AS withdrawn, sum(withdrawals)::int AS withdrawals
        FROM (
          SELECT currency, amount AS deposited, 1 AS deposits, 0 AS withdrawn, 0 AS withdrawals
          FROM deposits WHERE user_id = ${userId} AND status = 'completed'
          UNION ALL
          SELECT currency, amount, 1, 0, 0
          FROM crypto_deposits WHERE user_id = ${userId} AND status = 'credited'
          UNION ALL
          SELECT currency, 0, 0, amount, 1
          FROM withdrawals WHERE user_id = ${userId} AND status = 'paid'
        ) moves
        GROUP BY currency ORDER BY currency
      `,
    activeBonuses: (userId) =>
      sql<ActiveBonusRow>`
        SELECT b.id::text AS id, p.name, b.currency, b.amount::text AS amount,
               coalesce(a.balance, 0)::text AS balance,
               b.wagering_required::text AS "wageringRequired", floor(b.wagered)::text AS wagered,
               b.expires_at AS "expiresAt"
        FROM player_bonuses b
        JOIN promotions p ON p.id = b.promotion_id
        LEFT JOIN ledger_accounts a ON a.kind = 'player_bonus' AND a.user_id = b.user_id AND a.currency = b.currency
        WHERE b.user_id = ${userId} AND b.status = 'active'
        ORDER BY b.currency
      `,
    sessionCountries: (userId, days) =>
      sql<SessionCountryRow>`
        SELECT country, count(*)::int AS sessions, max(last_seen_at) AS "lastSeenAt"
        FROM sessions
        WHERE user_id = ${userId} AND last_seen_at >= now() - make_interval(days => ${days}::int)
        GROUP BY country
        ORDER BY max(last_seen_at) DESC, country
      `,
    open: (olderThanSeconds, limit) =>
      sql<WithdrawalRow>`
        SELECT ${cols} FROM withdrawals
        WHERE status IN ('approved', 'sent')
          AND updated_at <= now() - make_interval(secs => ${olderThanSeconds}::int)
        ORDER BY updated_at LIMIT ${limit}
      `,
    findEvent: (provider, eventId) =>
      sql<CallbackEventRow>`
        SELECT payload_hash AS "payloadHash", outcome, detail FROM withdrawal_callback_events
        WHERE provider = ${provider} AND event_id = ${eventId}
      `.pipe(Effect.map((r) => r[0])),
    insertEvent: (e) =>
      sql`
        INSERT INTO withdrawal_callback_events
          (provider, event_id, payload_hash, event_type, withdrawal_id, outcome, detail)
        VALUES (${e.provider}, ${e.eventId}, ${e.payloadHash}, ${e.eventType}, ${e.withdrawalId},
                ${e.outcome}, ${e.detail})
      `.pipe(Effect.asVoid),
  } satisfies WithdrawalsRepoShape
})

export class WithdrawalsRepo extends Context.Service<WithdrawalsRepo, WithdrawalsRepoShape>()(
  "casino/server/WithdrawalsRepo",
) {
  static readonly layer = Layer.effect(WithdrawalsRepo, make)
}
