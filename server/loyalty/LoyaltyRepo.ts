/**
 * The SQL of loyalty levels (migrations 0071, 0081): the levels, the players' standing and when they
 * reached each level, the accrual job's cursor over `game_transactions`, the net real-money losses of
 * a week's rounds from the ledger, and the cashbacks paid. Only `Loyalty` (Loyalty.ts) calls it; every function fails only with `SqlError`.
 * Amounts and points cross the boundary as decimal strings (numeric and bigint read as text).
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export interface LevelRow {
  readonly level: number
  readonly name: string
  readonly minPoints: string
  readonly cashbackBps: number
  readonly withdrawLimitBps: number
  readonly perks: ReadonlyArray<string>
}

export interface StandingRow {
  readonly userId: string
  readonly wagered: string
  readonly points: string
  readonly level: number
}

/**
 * A real-money stake the accrual counts: a bet (+) or the rollback of one (−, the bet's own figures).
 * `realAmount` is the bet minus its bonus part; `weight` the game kind's percent (0 when unknown).
 */
export interface StakeRow {
  readonly id: string
  readonly op: "bet" | "rollback"
  readonly userId: string
  readonly currency: string
  readonly realAmount: string
  readonly weight: number
  /** EUR per whole unit, 18 decimals; null when the currency has no rate. */
  readonly eurRate: string | null
  readonly subunits: string
  /** When the wallet call was made (timestamptz as text). */
  readonly at: string
}

export interface NetLossRow {
  readonly userId: string
  readonly currency: string
  /** Real-money bets minus real-money wins and refunds of the rounds started in the week (> 0). */
  readonly loss: string
}

export interface NewCashback {
  readonly userId: string
  readonly currency: string
  readonly weekStart: string
  readonly level: number
  readonly cashbackBps: number
  readonly netLoss: bigint
  readonly amount: bigint
  readonly transactionId: string
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface LoyaltyRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  readonly levels: () => Sql<ReadonlyArray<LevelRow>>
  readonly standing: (userId: string) => Sql<StandingRow | undefined>
  readonly standings: (userIds: ReadonlyArray<string>) => Sql<ReadonlyArray<StandingRow>>
  readonly saveStanding: (row: StandingRow) => Sql<void>
  /** Records when a player reached a level (`at`: the reaching bet's time); the first record stands. */
  readonly saveLevelReached: (userId: string, level: number, at: string) => Sql<void>
  /** The highest level the player had reached before `at`; undefined when none was recorded. */
  readonly levelAt: (userId: string, at: Date) => Sql<number | undefined>
  /**
   * The highest `game_transactions` id below which every row is committed (or gone for good):
   * taken under a brief SHARE lock, which waits for the wallet calls writing now and holds new ones
   * only for one index look-up. Ids are handed out before commit, so a plain max(id) could pass over
   * a bet that commits later with a lower id.
   */
  readonly settledHigh: () => Sql<bigint>
  /** The accrual cursor, locked for the caller's transaction (one accrual at a time, any process). */
  readonly lockCursor: () => Sql<bigint>
  readonly setCursor: (position: bigint) => Sql<void>
  /** The successful bets and rollbacks with an id in (from, to], in id order. */
  readonly stakes: (from: bigint, to: bigint) => Sql<ReadonlyArray<StakeRow>>
  /**
   * Per player and currency, the real-money net loss of the rounds started in [start, end): every
   * game posting of those rounds, whenever it came (a Monday rollback of a Sunday bet included).
   */
  readonly netLosses: (start: Date, end: Date) => Sql<ReadonlyArray<NetLossRow>>
  readonly cashbackPaid: (userId: string, currency: string, weekStart: string) => Sql<boolean>
  /** Records a cashback; false when that player's week in that currency was recorded already. */
  readonly insertCashback: (row: NewCashback) => Sql<boolean>
  readonly weekDone: (weekStart: string) => Sql<boolean>
  readonly markWeekDone: (weekStart: string, payments: number) => Sql<void>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const levels = () =>
    sql<LevelRow>`
      SELECT level, name, min_points::text AS "minPoints", cashback_bps AS "cashbackBps",
             withdraw_limit_bps AS "withdrawLimitBps", perks
      FROM loyalty_levels ORDER BY min_points
    `

  const standingCols = sql.literal(
    `user_id::text AS "userId", wagered::text AS wagered, points::text AS points, level`,
  )

  const standing = (userId: string) =>
    sql<StandingRow>`SELECT ${standingCols} FROM loyalty_accounts WHERE user_id = ${userId}`.pipe(
      Effect.map((rows) => rows[0]),
    )

  const standings = (userIds: ReadonlyArray<string>) =>
    userIds.length === 0
      ? Effect.succeed([])
      : sql<StandingRow>`SELECT ${standingCols} FROM loyalty_accounts WHERE user_id IN ${sql.in([...userIds])}`

  const saveStanding = (row: StandingRow) =>
    sql`
      INSERT INTO loyalty_accounts (user_id, wagered, points, level)
      VALUES (${row.userId}, ${row.wagered}::numeric, ${row.points}::bigint, ${row.level})
      ON CONFLICT (user_id) DO UPDATE
        SET wagered = EXCLUDED.wagered, points = EXCLUDED.points, level = EXCLUDED.level, updated_at = now()
    `.pipe(Effect.asVoid)

  const saveLevelReached = (userId: string, level: number, at: string) =>
    sql`
      INSERT INTO loyalty_level_history (user_id, level, reached_at)
      VALUES (${userId}, ${level}, ${at}::timestamptz)
      ON CONFLICT (user_id, level) DO NOTHING
    `.pipe(Effect.asVoid)

  const levelAt = (userId: string, at: Date) =>
    sql<{ readonly level: number }>`
      SELECT h.level FROM loyalty_level_history h JOIN loyalty_levels l ON l.level = h.level
      WHERE h.user_id = ${userId} AND h.reached_at < ${at.toISOString()}::timestamptz
      ORDER BY l.min_points DESC LIMIT 1
    `.pipe(Effect.map((rows) => rows[0]?.level))

  const settledHigh = () =>
    sql.withTransaction(
      Effect.gen(function* () {
        // A wallet call stuck for seconds must not stall the others behind this lock: give up, retry later.
        yield* sql`SET LOCAL lock_timeout = '2s'`
        yield* sql`LOCK TABLE game_transactions IN SHARE MODE`
        const rows = yield* sql<{ readonly high: string }>`
          SELECT coalesce(max(id), 0)::text AS high FROM game_transactions
        `
        return BigInt(rows[0]?.high ?? "0")
      }),
    )

  const lockCursor = () =>
    sql<{ readonly position: string }>`
      SELECT position::text AS position FROM loyalty_cursors WHERE name = 'accrual' FOR UPDATE
    `.pipe(Effect.map((rows) => BigInt(rows[0]?.position ?? "0")))

  const setCursor = (position: bigint) =>
    sql`
      UPDATE loyalty_cursors SET position = ${position.toString()}::bigint, updated_at = now()
      WHERE name = 'accrual'
    `.pipe(Effect.asVoid)

  // A rollback names its bet in its posting's metadata (server/games/walletRollback.ts): the bet's
  // own real part and game are what it takes back.
  const stakes = (from: bigint, to: bigint) =>
    sql<StakeRow>`
      SELECT t.id::text AS id, t.op, t.user_id::text AS "userId", t.currency,
             (CASE WHEN t.op = 'bet' THEN t.amount - t.bonus_amount ELSE coalesce(b.amount - b.bonus_amount, 0) END)::text
               AS "realAmount",
             coalesce(w.percent, 0) AS weight, r.eur_rate::text AS "eurRate", c.subunits_to_unit::text AS subunits,
             t.created_at::text AS at
      FROM game_transactions t
      LEFT JOIN ledger_transactions lt ON t.op = 'rollback' AND lt.id = t.ledger_tx
      LEFT JOIN game_transactions b ON t.op = 'rollback' AND b.integration = t.integration
        AND b.transaction_id = lt.metadata ->> 'refTransactionId' AND b.op = 'bet'
      LEFT JOIN game_rounds gr ON gr.integration = t.integration
        AND gr.round_id = CASE WHEN t.op = 'bet' THEN t.round_id ELSE b.round_id END
      LEFT JOIN games g ON g.id = gr.game_id
      LEFT JOIN bonus_game_weights w ON w.game_kind = g.kind
      LEFT JOIN currency_rates r ON r.currency = t.currency
      JOIN currencies c ON c.code = t.currency
      WHERE t.id > ${from.toString()}::bigint AND t.id <= ${to.toString()}::bigint
        AND t.op IN ('bet', 'rollback') AND t.status = 200 AND t.ledger_tx IS NOT NULL
      ORDER BY t.id
    `

  // Only the player's cash account: bonus money bet or won is not the player's own money. Every game
  // posting names its round (integration and round id in its metadata; a rollback its bet's round),
  // and none is older than its round, so `t.created_at >= start` only narrows the scan.
  const netLosses = (start: Date, end: Date) =>
    sql<NetLossRow>`
      SELECT a.user_id::text AS "userId", a.currency, (-sum(e.amount))::text AS loss
      FROM game_rounds r
      JOIN ledger_transactions t ON t.metadata ->> 'integration' = r.integration
        AND t.metadata ->> 'roundId' = r.round_id
      JOIN ledger_entries e ON e.transaction_id = t.id
      JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'player_cash'
      WHERE r.created_at >= ${start.toISOString()}::timestamptz AND r.created_at < ${end.toISOString()}::timestamptz
        AND t.created_at >= ${start.toISOString()}::timestamptz
        AND t.kind IN ('game.bet', 'game.win', 'game.jackpot', 'game.rollback')
      GROUP BY a.user_id, a.currency
      HAVING sum(e.amount) < 0
      ORDER BY 1, 2
    `

  const cashbackPaid = (userId: string, currency: string, weekStart: string) =>
    sql<{ readonly one: number }>`
      SELECT 1 AS one FROM loyalty_cashbacks
      WHERE user_id = ${userId} AND currency = ${currency} AND week_start = ${weekStart}::date
    `.pipe(Effect.map((rows) => rows.length > 0))

  const insertCashback = (c: NewCashback) =>
    sql<{ readonly id: string }>`
      INSERT INTO loyalty_cashbacks (user_id, currency, week_start, level, cashback_bps, net_loss, amount,
                                     transaction_id)
      VALUES (${c.userId}, ${c.currency}, ${c.weekStart}::date, ${c.level}, ${c.cashbackBps},
              ${c.netLoss.toString()}::numeric, ${c.amount.toString()}::numeric, ${c.transactionId}::uuid)
      ON CONFLICT (user_id, currency, week_start) DO NOTHING
      RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows.length > 0))

  const weekDone = (weekStart: string) =>
    sql<{ readonly one: number }>`
      SELECT 1 AS one FROM loyalty_cashback_weeks WHERE week_start = ${weekStart}::date
    `.pipe(Effect.map((rows) => rows.length > 0))

  const markWeekDone = (weekStart: string, payments: number) =>
    sql`
      INSERT INTO loyalty_cashback_weeks (week_start, payments) VALUES (${weekStart}::date, ${payments})
      ON CONFLICT (week_start) DO UPDATE SET payments = EXCLUDED.payments, paid_at = now()
    `.pipe(Effect.asVoid)

  return {
    transaction: sql.withTransaction,
    levels,
    standing,
    standings,
    saveStanding,
    saveLevelReached,
    levelAt,
    settledHigh,
    lockCursor,
    setCursor,
    stakes,
    netLosses,
    cashbackPaid,
    insertCashback,
    weekDone,
    markWeekDone,
  } satisfies LoyaltyRepoShape
})

export class LoyaltyRepo extends Context.Service<LoyaltyRepo, LoyaltyRepoShape>()(
  "casino/server/LoyaltyRepo",
) {
  static readonly layer = Layer.effect(LoyaltyRepo, make)
}
