/**
 * Free rounds (docs/game-wallet-protocol.md, "Free rounds"; protocols/game-wallet/free-rounds.ts): the
 * casino grants a player N rounds of one game at one bet; the studio keeps the grant
 * (`studio_free_rounds`) and plays it on that player's real sessions of that game and currency.
 *
 * A free round takes the grant's row lock and one of its rounds in the SAME transaction that draws
 * the provably fair outcome (same seed, same nonce sequence as every round) and queues the round's
 * only wallet call: a `win` with `freeRoundGrantId`, retried from the outbox until acknowledged. No
 * bet call (the casino staked nothing), so no jackpot contribution and no jackpot draw.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { FreeRoundsAnswer, FreeRoundsGrant } from "../../protocols/game-wallet/free-rounds.ts"
import type { WinCall } from "../../protocols/game-wallet/wallet.ts"
import { type GameDefinition, gameByLaunchId } from "../../services/games/catalogue.ts"
import { type Outcome, winAmount } from "../../services/games/play.ts"
import type { SeedRow, SessionRow } from "./Studio.ts"
import type { WalletAnswer } from "./wallet.ts"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>
type FreeRoundStatus = FreeRoundsAnswer["status"]

/** The same cap as a bet the page may ask for (Studio.ts): the column is a bigint. */
const maxGrantBet = 10n ** 12n

/** ISO 8601 with a time zone: a grant's end must not depend on the studio's local clock setting. */
const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** What the page shows of a grant (and the round's answer carries). */
export interface FreeRoundsView {
  readonly status: FreeRoundStatus
  readonly rounds: number
  readonly roundsLeft: number
  /** Minor units of the session's currency: every free round's bet. */
  readonly bet: string
  readonly expiresAt: string
}

export type GrantOutcome =
  | { readonly _tag: "Answer"; readonly answer: FreeRoundsAnswer }
  | { readonly _tag: "UnknownGame" }
  | { readonly _tag: "BadRequest"; readonly message: string }

interface GrantRow {
  readonly grantId: string
  readonly status: FreeRoundStatus
  readonly rounds: number
  readonly roundsLeft: number
  readonly bet: string
  readonly expiresAt: Date
}

const grantColumns = `grant_id::text AS "grantId", status, rounds::int AS "rounds",
  rounds_left::int AS "roundsLeft", bet::text AS "bet", expires_at AS "expiresAt"`

const view = (g: GrantRow): FreeRoundsView => ({
  status: g.status,
  rounds: Number(g.rounds),
  roundsLeft: Number(g.roundsLeft),
  bet: g.bet,
  expiresAt: new Date(g.expiresAt).toISOString(),
})

/** Who the grants of a session are for: a real session's player and currency (the game is its launchId). */
type Holder = Pick<SessionRow, "playerId" | "currency">

export interface FreeRounds {
  /** A grant from the casino: recorded once; the same grantId again answers it as it is now. */
  readonly grant: (g: FreeRoundsGrant) => Sql<GrantOutcome>
  /** Cancels an active grant (rounds played stay played); undefined for an unknown grant. */
  readonly cancel: (grantId: string) => Sql<FreeRoundsAnswer | undefined>
  /** The active grant a real session of this game would play now (the one expiring first), or null. */
  readonly current: (s: Holder & Pick<SessionRow, "demo">, launchId: string) => Sql<FreeRoundsView | null>
}

export const makeFreeRounds = (sql: SqlClient.SqlClient) => {
  /** An active grant past its end is expired: its unplayed rounds are void. */
  const expireGrant = (grantId: string) =>
    sql`UPDATE studio_free_rounds SET status = 'expired', rounds_left = 0, updated_at = now()
        WHERE grant_id = ${grantId}::uuid AND status = 'active' AND expires_at <= now()`

  const answerOf = (grantId: string): Sql<FreeRoundsAnswer | undefined> =>
    Effect.gen(function* () {
      yield* expireGrant(grantId)
      const rows = yield* sql<GrantRow>`SELECT ${sql.literal(grantColumns)} FROM studio_free_rounds
        WHERE grant_id = ${grantId}::uuid`
      const row = rows[0]
      return row === undefined
        ? undefined
        : { grantId: row.grantId, status: row.status, roundsLeft: Number(row.roundsLeft) }
    })

  const grant = (g: FreeRoundsGrant): Sql<GrantOutcome> =>
    Effect.gen(function* () {
      // A grant sent again (a retry) is the grant as it is now, whatever the body: never a second one.
      const known = yield* answerOf(g.grantId)
      if (known !== undefined) return { _tag: "Answer", answer: known } as const
      const def = gameByLaunchId(g.gameId)
      if (def === undefined) return { _tag: "UnknownGame" } as const
      const bet = BigInt(g.bet)
      if (bet > maxGrantBet)
        return { _tag: "BadRequest", message: `bet: at most ${maxGrantBet} minor units.` } as const
      const expires = isoInstant.test(g.expiresAt) ? Date.parse(g.expiresAt) : Number.NaN
      if (Number.isNaN(expires))
        return {
          _tag: "BadRequest",
          message: "expiresAt: an ISO 8601 instant with a time zone, e.g. 2030-01-31T23:59:59Z.",
        } as const
      yield* sql`INSERT INTO studio_free_rounds (grant_id, player_id, currency, launch_id, rounds, rounds_left,
                   bet, expires_at)
                 VALUES (${g.grantId}::uuid, ${g.playerId}, ${g.currency}, ${def.launchId}, ${g.rounds},
                   ${g.rounds}, ${bet.toString()}::bigint, ${new Date(expires)})
                 ON CONFLICT (grant_id) DO NOTHING`
      const answer = yield* answerOf(g.grantId)
      if (answer === undefined) return yield* Effect.die(new Error(`grant ${g.grantId} not stored`))
      return { _tag: "Answer", answer } as const
    })

  const cancel = (grantId: string): Sql<FreeRoundsAnswer | undefined> =>
    Effect.gen(function* () {
      // Only a grant still playable is cancelled; a finished or expired one keeps saying so.
      yield* sql`UPDATE studio_free_rounds SET status = 'cancelled', rounds_left = 0, updated_at = now()
                 WHERE grant_id = ${grantId}::uuid AND status = 'active' AND expires_at > now()`
      return yield* answerOf(grantId)
    })

  const current = (s: Holder & Pick<SessionRow, "demo">, launchId: string): Sql<FreeRoundsView | null> =>
    s.demo || s.playerId === null
      ? Effect.succeed(null)
      : sql<GrantRow>`SELECT ${sql.literal(grantColumns)} FROM studio_free_rounds
          WHERE player_id = ${s.playerId} AND currency = ${s.currency} AND launch_id = ${launchId}
            AND status = 'active' AND expires_at > now()
          ORDER BY expires_at, created_at, grant_id LIMIT 1`.pipe(
          Effect.map((rows) => (rows[0] === undefined ? null : view(rows[0]))),
        )

  /**
   * Inside the round's transaction: expires the player's grants of this game past their end, then
   * takes one round of the active grant expiring first (its row locked until the round is stored).
   * Undefined: no free round to play, the round is a paid one.
   */
  const claim = (s: Holder, launchId: string) =>
    Effect.gen(function* () {
      const playerId = s.playerId ?? ""
      yield* sql`UPDATE studio_free_rounds SET status = 'expired', rounds_left = 0, updated_at = now()
                 WHERE player_id = ${playerId} AND currency = ${s.currency} AND launch_id = ${launchId}
                   AND status = 'active' AND expires_at <= now()`
      const locked = yield* sql<{
        grantId: string
      }>`SELECT grant_id::text AS "grantId" FROM studio_free_rounds
        WHERE player_id = ${playerId} AND currency = ${s.currency} AND launch_id = ${launchId}
          AND status = 'active' AND expires_at > now() AND rounds_left > 0
        ORDER BY expires_at, created_at, grant_id LIMIT 1 FOR UPDATE`
      const grantId = locked[0]?.grantId
      if (grantId === undefined) return undefined
      const rows = yield* sql<GrantRow>`UPDATE studio_free_rounds
        SET rounds_left = rounds_left - 1, updated_at = now(),
            status = CASE WHEN rounds_left = 1 THEN 'finished' ELSE status END
        WHERE grant_id = ${grantId}::uuid
        RETURNING ${sql.literal(grantColumns)}`
      const row = rows[0]
      if (row === undefined) return yield* Effect.die(new Error(`grant ${grantId} vanished under its lock`))
      return { grantId, bet: BigInt(row.bet), after: view(row) }
    })

  const api: FreeRounds = { grant, cancel, current }
  return { ...api, claim }
}

/** A drawn outcome (Studio.ts `draw`): the seed and nonce it used. */
export interface Draw {
  readonly seed: SeedRow
  readonly nonce: number
  readonly outcome: Outcome
  readonly jackpotHit: boolean
}

/** A round as `studio_rounds` stores it (Studio.ts `insertRound`). */
export interface RoundRecord {
  readonly id: string
  readonly s: SessionRow
  readonly seed: SeedRow
  readonly nonce: number
  readonly options: unknown
  readonly bet: bigint
  readonly outcome: Outcome
  readonly win: bigint
  readonly jackpotHit: boolean
  readonly contribution: bigint
  readonly status: string
  /** A free round: no bet transaction, this grant named. */
  readonly freeRoundGrantId?: string
  /** A mines round played tile by tile (minesRounds.ts): stored `playing`. */
  readonly steps?: "playing"
}

/** What a free round needs of the studio's round machinery (Studio.ts). */
export interface FreeRoundDeps {
  readonly sql: SqlClient.SqlClient
  readonly store: ReturnType<typeof makeFreeRounds>
  /** Takes the next nonce under the seed's lock and computes the outcome (inside the transaction). */
  readonly draw: (s: SessionRow, def: GameDefinition, rawOptions: unknown) => Sql<Draw>
  readonly insertRound: (r: RoundRecord) => Sql<unknown>
  readonly queue: (roundId: string, transactionId: string, op: "win", body: string) => Sql<unknown>
  readonly deliver: (
    transactionId: string,
    op: "win",
    body: string,
    attempts: number,
  ) => Effect.Effect<WalletAnswer, SqlError.SqlError>
}

export interface FreeRoundPlayed {
  readonly id: string
  /** The outcome; a free round has no jackpot draw (jackpotHit false). */
  readonly draw: Draw
  readonly bet: bigint
  readonly win: bigint
  /** The grant after this round (finished when it was the last). */
  readonly grant: FreeRoundsView
  /** The casino's answer to the win (not acknowledged: the outbox retries it). */
  readonly answer: WalletAnswer
}

/**
 * Plays a free round of a REAL session when its player has one for this game, or answers undefined
 * (then the round is a paid one). The bet is the grant's, whatever the page asked.
 */
export const playFreeRound =
  (deps: FreeRoundDeps) =>
  (s: SessionRow, def: GameDefinition, rawOptions: unknown): Sql<FreeRoundPlayed | undefined> =>
    Effect.gen(function* () {
      if (s.demo) return undefined
      const id = randomUUID()
      const winTx = `win-${id}`
      const taken = yield* deps.sql.withTransaction(
        Effect.gen(function* () {
          const grant = yield* deps.store.claim(s, def.launchId)
          if (grant === undefined) return undefined
          // The same draw as every round (seed, nonce); its jackpot float is ignored: no stake, no draw.
          const draw = { ...(yield* deps.draw(s, def, rawOptions)), jackpotHit: false }
          const win = winAmount(grant.bet, draw.outcome.multiplier)
          yield* deps.insertRound({
            id,
            s,
            seed: draw.seed,
            nonce: draw.nonce,
            options: rawOptions,
            bet: grant.bet,
            outcome: draw.outcome,
            win,
            jackpotHit: false,
            contribution: 0n,
            status: "open",
            freeRoundGrantId: grant.grantId,
          })
          const body = JSON.stringify({
            sessionToken: s.casinoToken,
            playerId: s.playerId ?? "",
            currency: s.currency,
            transactionId: winTx,
            roundId: id,
            gameId: def.launchId,
            amount: win.toString(),
            roundClosed: true,
            freeRoundGrantId: grant.grantId,
          } satisfies WinCall)
          yield* deps.queue(id, winTx, "win", body)
          return { grant, draw, win, body }
        }),
      )
      if (taken === undefined) return undefined
      const answer = yield* deps.deliver(winTx, "win", taken.body, 1)
      return { id, draw: taken.draw, bet: taken.grant.bet, win: taken.win, grant: taken.grant.after, answer }
    })
