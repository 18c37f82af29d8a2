/**
 * The SQL of the back office's reports (docs/reports.md). Read-only: every figure is an aggregate by
 * UTC day over a half-open window [from, to). Only `Reports` (Reports.ts) calls it; every function
 * fails only with `SqlError`. Amounts cross the boundary as decimal strings (numeric read as text).
 *
 * Money of games and bonuses is read from the ledger's entries (the source of truth), counted on the
 * PLAYER side of each posting: an entry on an account with an owner (cash, bonus money, free-spin
 * winnings). The house side of a posting is the same sum with the other sign (every posting sums
 * to 0, `npm run ledger:check`), so these figures reconcile to the house's accounts.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export interface Window {
  readonly from: Date
  readonly to: Date
  readonly currency?: string | undefined
}

/** The players' side of the game postings of one day, game and currency. */
export interface GameMoveRow {
  readonly day: string
  readonly gameId: string | null
  readonly provider: string | null
  readonly integration: string | null
  readonly currency: string
  /** What game.bet postings took from players (cash and bonus money). */
  readonly stakes: string
  /** What game.rollback postings gave back. */
  readonly refunds: string
  /** What game.win / game.jackpot postings paid (to cash, bonus money or held free-spin winnings). */
  readonly wins: string
}

export interface RoundCountRow {
  readonly day: string
  readonly gameId: string
  readonly provider: string | null
  readonly integration: string
  readonly currency: string
  readonly rounds: string
}

export interface BonusCostRow {
  readonly day: string
  readonly currency: string
  /** What players' accounts gained through bonus and loyalty postings, net. */
  readonly cost: string
}

export interface DayAmountRow {
  readonly day: string
  readonly currency: string
  readonly total: string
  readonly count: string
}

export interface DayCountRow {
  readonly day: string
  readonly count: string
}

export interface CurrencyUnitRow {
  readonly code: string
  readonly subunitsToUnit: string
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface ReportsRepoShape {
  /** Runs the reads in one REPEATABLE READ, read-only snapshot: one instant of a busy database. */
  readonly snapshot: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E | SqlError.SqlError, R>
  readonly gameMoves: (w: Window) => Sql<ReadonlyArray<GameMoveRow>>
  /** Rounds by the day they opened; a round whose every bet was rolled back is no round. */
  readonly roundCounts: (w: Window) => Sql<ReadonlyArray<RoundCountRow>>
  readonly bonusCosts: (w: Window) => Sql<ReadonlyArray<BonusCostRow>>
  /** Completed card / e-wallet deposits (by completion) and credited crypto deposits (by credit). */
  readonly deposits: (w: Window) => Sql<ReadonlyArray<DayAmountRow>>
  /** Withdrawals paid, by the day their `paid` step was recorded. */
  readonly withdrawalsPaid: (w: Window) => Sql<ReadonlyArray<DayAmountRow>>
  readonly registrations: (w: Window) => Sql<ReadonlyArray<DayCountRow>>
  /** Players whose first deposit ever (fiat completed or crypto credited) falls on the day. */
  readonly firstDeposits: (w: Window) => Sql<ReadonlyArray<DayCountRow>>
  readonly currencyUnits: Sql<ReadonlyArray<CurrencyUnitRow>>
}

const GAME_KINDS = ["game.bet", "game.rollback", "game.win", "game.jackpot"] as const

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const dayOf = (column: string) => sql.literal(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`)
  const currencyIs = (column: string, w: Window) =>
    w.currency === undefined ? sql`true` : sql`${sql.literal(column)} = ${w.currency}`

  const snapshot = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    sql.withTransaction(
      Effect.gen(function* () {
        yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`
        return yield* effect
      }),
    )

  // The game of a posting is its round's (bets name it in their metadata, wins and rollbacks only
  // the round): the round row is keyed by (integration, round id), both in every game posting.
  const gameMoves = (w: Window) =>
    sql<GameMoveRow>`
      WITH tx AS (
        SELECT t.id, t.kind, ${dayOf("t.created_at")} AS day,
               t.metadata->>'integration' AS integration, t.metadata->>'roundId' AS round_id
        FROM ledger_transactions t
        WHERE t.kind IN ${sql.in([...GAME_KINDS])} AND t.created_at >= ${w.from} AND t.created_at < ${w.to}
      ), player AS (
        SELECT tx.id, tx.kind, tx.day, tx.integration, tx.round_id, e.currency, sum(e.amount) AS amount
        FROM tx
        JOIN ledger_entries e ON e.transaction_id = tx.id
        JOIN ledger_accounts a ON a.id = e.account_id
        WHERE a.user_id IS NOT NULL AND ${currencyIs("e.currency", w)}
        GROUP BY tx.id, tx.kind, tx.day, tx.integration, tx.round_id, e.currency
      )
      SELECT p.day, r.game_id AS "gameId", g.brand AS provider, p.integration, p.currency,
             coalesce(-sum(p.amount) FILTER (WHERE p.kind = 'game.bet'), 0)::text AS stakes,
             coalesce(sum(p.amount) FILTER (WHERE p.kind = 'game.rollback'), 0)::text AS refunds,
             coalesce(sum(p.amount) FILTER (WHERE p.kind IN ('game.win', 'game.jackpot')), 0)::text AS wins
      FROM player p
      LEFT JOIN game_rounds r ON r.integration = p.integration AND r.round_id = p.round_id
      LEFT JOIN games g ON g.id = r.game_id
      GROUP BY p.day, r.game_id, g.brand, p.integration, p.currency
      ORDER BY 1, 5, 2
    `

  const roundCounts = (w: Window) =>
    sql<RoundCountRow>`
      SELECT ${dayOf("r.created_at")} AS day, r.game_id AS "gameId", g.brand AS provider,
             r.integration, r.currency, count(*)::text AS rounds
      FROM game_rounds r LEFT JOIN games g ON g.id = r.game_id
      WHERE r.created_at >= ${w.from} AND r.created_at < ${w.to} AND r.status <> 'rolled-back'
        AND ${currencyIs("r.currency", w)}
      GROUP BY 1, 2, 3, 4, 5
      ORDER BY 1, 5, 2
    `

  const bonusCosts = (w: Window) =>
    sql<BonusCostRow>`
      SELECT ${dayOf("t.created_at")} AS day, e.currency, sum(e.amount)::text AS cost
      FROM ledger_transactions t
      JOIN ledger_entries e ON e.transaction_id = t.id
      JOIN ledger_accounts a ON a.id = e.account_id
      WHERE (t.kind LIKE 'bonus.%' OR t.kind LIKE 'loyalty.%')
        AND t.created_at >= ${w.from} AND t.created_at < ${w.to}
        AND a.user_id IS NOT NULL AND ${currencyIs("e.currency", w)}
      GROUP BY 1, 2
      HAVING sum(e.amount) <> 0
      ORDER BY 1, 2
    `

  const deposits = (w: Window) =>
    sql<DayAmountRow>`
      SELECT day, currency, sum(amount)::text AS total, count(*)::text AS count FROM (
        SELECT ${dayOf("completed_at")} AS day, currency, amount FROM deposits
        WHERE status = 'completed' AND completed_at >= ${w.from} AND completed_at < ${w.to}
        UNION ALL
        SELECT ${dayOf("credited_at")} AS day, currency, amount FROM crypto_deposits
        WHERE status = 'credited' AND credited_at >= ${w.from} AND credited_at < ${w.to}
      ) d
      WHERE ${currencyIs("currency", w)}
      GROUP BY 1, 2 ORDER BY 1, 2
    `

  const withdrawalsPaid = (w: Window) =>
    sql<DayAmountRow>`
      SELECT ${dayOf("p.at")} AS day, x.currency, sum(x.amount)::text AS total, count(*)::text AS count
      FROM withdrawals x
      JOIN (SELECT withdrawal_id, min(at) AS at FROM withdrawal_steps WHERE status = 'paid' GROUP BY 1) p
        ON p.withdrawal_id = x.id
      WHERE x.status = 'paid' AND p.at >= ${w.from} AND p.at < ${w.to} AND ${currencyIs("x.currency", w)}
      GROUP BY 1, 2 ORDER BY 1, 2
    `

  const registrations = (w: Window) =>
    sql<DayCountRow>`
      SELECT ${dayOf("created_at")} AS day, count(*)::text AS count FROM users
      WHERE created_at >= ${w.from} AND created_at < ${w.to}
      GROUP BY 1 ORDER BY 1
    `

  const firstDeposits = (w: Window) =>
    sql<DayCountRow>`
      SELECT ${dayOf("first_at")} AS day, count(*)::text AS count FROM (
        SELECT user_id, min(at) AS first_at FROM (
          SELECT user_id, completed_at AS at FROM deposits WHERE status = 'completed'
          UNION ALL
          SELECT user_id, credited_at AS at FROM crypto_deposits WHERE status = 'credited'
        ) d GROUP BY user_id
      ) f
      WHERE first_at >= ${w.from} AND first_at < ${w.to}
      GROUP BY 1 ORDER BY 1
    `

  const currencyUnits = sql<CurrencyUnitRow>`
    SELECT code, subunits_to_unit::text AS "subunitsToUnit" FROM currencies ORDER BY code
  `

  return {
    snapshot,
    gameMoves,
    roundCounts,
    bonusCosts,
    deposits,
    withdrawalsPaid,
    registrations,
    firstDeposits,
    currencyUnits,
  } satisfies ReportsRepoShape
})

export class ReportsRepo extends Context.Service<ReportsRepo, ReportsRepoShape>()(
  "casino/server/ReportsRepo",
) {
  static readonly layer = Layer.effect(ReportsRepo, make)
}
