/**
 * The SQL of free rounds (migration 0072): the grants, their outbox towards the providers (sent,
 * cancelled, retried with backoff), and each free round's win counted against its grant. Called by
 * `Bonuses` (grants made with a bonus, cancelled when it ends), `FreeSpinWallets` (grants without a
 * deposit), the game wallet (a free-round win)
 * and the sender (server/games/freeRoundsSender.ts). Fails only with `SqlError`.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

/**
 * A select-list column: the latest grant matching `match` (e.g. "f.bonus_id = b.id")
 * as the contract's FreeRounds object, or null. Shared by the bonus and free-spin wallet reads.
 */
export const latestFreeRoundsColumn = (match: string) => `
  (SELECT json_build_object('gameId', f.game_id, 'gameName', g.name, 'rounds', f.rounds, 'played', f.played,
                            'bet', f.bet::text, 'won', f.won::text, 'status', f.status)
   FROM free_round_grants f JOIN games g ON g.id = f.game_id
   WHERE ${match} ORDER BY f.created_at DESC LIMIT 1) AS "freeRounds"`

export type GrantStatus = "pending" | "active" | "finished" | "cancelling" | "cancelled" | "expired"

export interface GrantRow {
  readonly id: string
  readonly userId: string
  readonly promotionId: string
  readonly bonusId: string | null
  /** The free-spin wallet it was granted for (no deposit): its winnings are held there. */
  readonly freeSpinWalletId: string | null
  readonly gameId: string
  readonly integration: string
  readonly launchId: string
  readonly currency: string
  readonly rounds: number
  readonly played: number
  readonly bet: string
  readonly won: string
  readonly status: GrantStatus
  readonly expiresAt: Date
  readonly attempts: number
}

export interface NewGrant {
  readonly userId: string
  readonly promotionId: string
  readonly bonusId: string | null
  readonly freeSpinWalletId: string | null
  readonly gameId: string
  readonly currency: string
  readonly rounds: number
  readonly bet: bigint
  readonly validDays: number
}

export interface FreeRoundsRepoShape {
  /** A grant of the catalogue's game `gameId`; undefined when that game is not listed now. */
  readonly insert: (grant: NewGrant) => Sql<string | undefined>
  /** The grant, locked for the caller's transaction. */
  readonly lock: (id: string) => Sql<GrantRow | undefined>
  /** One free round played: its win counted, the grant finished with its last round. */
  readonly played: (id: string, won: bigint) => Sql<void>
  /** The bonus ended: its grants still to play are withdrawn from the provider. */
  readonly cancelForBonus: (bonusId: string) => Sql<number>
  /** Grants (or cancels) to send now, oldest first. */
  readonly due: (limit: number) => Sql<ReadonlyArray<GrantRow>>
  /** The provider took the grant (pending → active) or its cancel (cancelling → cancelled). */
  readonly sent: (id: string, from: "pending" | "cancelling") => Sql<void>
  /** The provider could not be told: tried again after `retrySeconds`. */
  readonly failed: (id: string, error: string, retrySeconds: number) => Sql<void>
  /** Grants past their end that still had rounds: expired (the provider voids them itself). */
  readonly expireDue: () => Sql<number>
  /** The status of the free-spin wallet a grant was made for. */
  readonly walletStatus: (walletId: string) => Sql<"locked" | "unlocked" | "expired" | undefined>
  /** The status of the bonus a grant came with. */
  readonly bonusStatus: (bonusId: string) => Sql<"active" | "completed" | "forfeited" | "expired" | undefined>
  /**
   * A free round's round, settled at once (no bet; its win): false when the provider's round id is
   * taken already (a free round is one win).
   */
  readonly openRound: (r: {
    readonly integration: string
    readonly roundId: string
    readonly userId: string
    readonly gameId: string
    readonly currency: string
    readonly win: bigint
    readonly grantId: string
  }) => Sql<boolean>
}

const columns = `
  f.id::text AS id, f.user_id::text AS "userId", f.promotion_id AS "promotionId",
  f.bonus_id::text AS "bonusId", f.free_spin_wallet_id::text AS "freeSpinWalletId", f.game_id AS "gameId", f.integration, f.launch_id AS "launchId",
  f.currency, f.rounds, f.played, f.bet::text AS bet, f.won::text AS won, f.status,
  f.expires_at AS "expiresAt", f.attempts`

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns)

  const insert: FreeRoundsRepoShape["insert"] = (g) =>
    sql<{ readonly id: string }>`
      INSERT INTO free_round_grants (user_id, promotion_id, bonus_id, free_spin_wallet_id, game_id, integration,
                                     launch_id, currency, rounds, bet, expires_at)
      SELECT ${g.userId}, ${g.promotionId}, ${g.bonusId}::uuid, ${g.freeSpinWalletId}::uuid, g.id, g.integration, g.launch_id,
             ${g.currency}, ${g.rounds}, ${g.bet.toString()}::numeric, now() + make_interval(days => ${g.validDays})
      FROM games g WHERE g.id = ${g.gameId} AND g.active
      RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows[0]?.id))

  const lock = (id: string) =>
    sql<GrantRow>`SELECT ${cols} FROM free_round_grants f WHERE f.id = ${id}::uuid FOR UPDATE`.pipe(
      Effect.map((rows) => rows[0]),
    )

  const played = (id: string, won: bigint) =>
    sql`
      UPDATE free_round_grants SET played = played + 1, won = won + ${won.toString()}::numeric,
        status = CASE WHEN played + 1 >= rounds AND status IN ('pending', 'active') THEN 'finished' ELSE status END,
        updated_at = now()
      WHERE id = ${id}::uuid
    `.pipe(Effect.asVoid)

  const cancelForBonus = (bonusId: string) =>
    sql<{ readonly id: string }>`
      UPDATE free_round_grants SET status = 'cancelling', next_attempt = now(), attempts = 0, updated_at = now()
      WHERE bonus_id = ${bonusId}::uuid AND status IN ('pending', 'active')
      RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows.length))

  const due = (limit: number) =>
    sql<GrantRow>`
      SELECT ${cols} FROM free_round_grants f
      WHERE f.status IN ('pending', 'cancelling') AND f.next_attempt <= now()
      ORDER BY f.next_attempt LIMIT ${limit}
    `

  const sent = (id: string, from: "pending" | "cancelling") =>
    sql`
      UPDATE free_round_grants SET status = ${from === "pending" ? "active" : "cancelled"},
        last_error = NULL, updated_at = now()
      WHERE id = ${id}::uuid AND status = ${from}
    `.pipe(Effect.asVoid)

  const failed = (id: string, error: string, retrySeconds: number) =>
    sql`
      UPDATE free_round_grants SET attempts = attempts + 1, last_error = ${error.slice(0, 500)},
        next_attempt = now() + make_interval(secs => ${retrySeconds}), updated_at = now()
      WHERE id = ${id}::uuid
    `.pipe(Effect.asVoid)

  const expireDue = () =>
    sql<{ readonly id: string }>`
      UPDATE free_round_grants SET status = 'expired', updated_at = now()
      WHERE status IN ('pending', 'active') AND expires_at <= now()
      RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows.length))

  const openRound: FreeRoundsRepoShape["openRound"] = (r) =>
    sql<{ readonly id: string }>`
      INSERT INTO game_rounds (integration, round_id, user_id, game_id, currency, bet_total, win_total, status,
                               free_round_grant_id)
      VALUES (${r.integration}, ${r.roundId}, ${r.userId}, ${r.gameId}, ${r.currency}, 0,
              ${r.win.toString()}::numeric, 'settled', ${r.grantId}::uuid)
      ON CONFLICT (integration, round_id) DO NOTHING
      RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows.length > 0))

  const bonusStatus: FreeRoundsRepoShape["bonusStatus"] = (bonusId) =>
    sql<{ readonly status: "active" | "completed" | "forfeited" | "expired" }>`
      SELECT status FROM player_bonuses WHERE id = ${bonusId}::uuid
    `.pipe(Effect.map((rows) => rows[0]?.status))

  const walletStatus: FreeRoundsRepoShape["walletStatus"] = (walletId) =>
    sql<{ readonly status: "locked" | "unlocked" | "expired" }>`
      SELECT status FROM free_spin_wallets WHERE id = ${walletId}::uuid
    `.pipe(Effect.map((rows) => rows[0]?.status))

  return {
    bonusStatus,
    walletStatus,
    insert,
    lock,
    played,
    cancelForBonus,
    due,
    sent,
    failed,
    expireDue,
    openRound,
  } satisfies FreeRoundsRepoShape
})

export class FreeRoundsRepo extends Context.Service<FreeRoundsRepo, FreeRoundsRepoShape>()(
  "casino/server/FreeRoundsRepo",
) {
  static readonly layer = Layer.effect(FreeRoundsRepo, make)
}
