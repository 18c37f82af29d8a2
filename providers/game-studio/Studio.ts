/**
 * The studio's rules: launch → play session, seeds (commit, client seed, rotation), rounds (demo on
 * play money; real through the casino's seamless wallet: bet → outcome → win, a bet with no answer
 * rolled back), and the outbox of win/rollback calls retried until the casino acknowledges them.
 *
 * Outcomes come from services/games (the same code the verifier runs): HMAC-SHA256 of the active
 * server seed over `${clientSeed}:${nonce}:${cursor}`. The nonce is taken under the seed row's lock,
 * so concurrent rounds of one player never share a nonce (UNIQUE (seed_id, nonce) backs it up).
 * Mines played tile by tile (bet at the start, win at the cash-out) is minesRounds.ts, on the same
 * seeds, bet path and outbox.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { PlayRules } from "../../protocols/game-wallet/launch.ts"
import { TOLERANCE_SECONDS } from "../../protocols/game-wallet/signature.ts"
import type { BalanceCall, BetCall, RollbackCall, WinCall } from "../../protocols/game-wallet/wallet.ts"
import { type GameDefinition, gameById, gameByLaunchId } from "../../services/games/catalogue.ts"
import { roundFloats } from "../../services/games/fair.ts"
import {
  decodeOptions,
  floatsNeeded,
  isOptionsError,
  jackpotContribution,
  jackpotHit,
  type Outcome,
  playRound,
  winAmount,
} from "../../services/games/play.ts"
import type { StudioConfig } from "./config.ts"
import { studioCredentials } from "./credentials.ts"
import {
  type FreeRounds,
  type FreeRoundsView,
  makeFreeRounds,
  playFreeRound,
  type RoundRecord,
} from "./freeRounds.ts"
import { type MinesRounds, makeMinesRounds } from "./minesRounds.ts"
import { makeOutbox } from "./outbox.ts"
import {
  betRefusal,
  casinoPlayer,
  money,
  playerKey,
  type Refusal,
  refusal,
  sessionExpired,
} from "./roundRules.ts"
import { makeSeeds, type Rotated, type SeedRow, type SeedState } from "./seeds.ts"
import { callWallet } from "./wallet.ts"

export { betRefusal, playerKey, type Refusal } from "./roundRules.ts"
export type { SeedRow, SeedState } from "./seeds.ts"

/** Demo play money: 1,000.00 in the session's currency (100,000 minor units). */
export const DEMO_BALANCE = 100_000n
const maxBet = 10n ** 12n

/**
 * The studio's configuration as its services read it. The wallet URL and timeouts are read at each
 * call (a test may point a running studio at a casino started after it).
 */
export class StudioSettings extends Context.Service<StudioSettings, StudioConfig>()(
  "game-studio/StudioSettings",
) {}

export interface SessionRow {
  readonly id: string
  readonly casinoToken: string | null
  readonly playerId: string | null
  readonly nickname: string | null
  readonly currency: string
  readonly gameId: string
  readonly demo: boolean
  readonly demoBalance: string | null
  readonly lang: string
  readonly platform: string
  readonly lobbyUrl: string | null
  readonly expiresAt: Date
  /** The launch's rules for the player's jurisdiction (protocols/game-wallet/launch.ts, PlayRules). */
  readonly autoplay: boolean
  readonly turbo: boolean
  readonly minRoundMs: number
}

/** 2500 → "2.5 s", 5000 → "5 s". */
const formatSeconds = (ms: number): string => `${(ms / 1000).toString()} s`

export interface LaunchInput {
  readonly sessionToken: string | null
  readonly playerId: string | null
  readonly nickname: string | null
  readonly currency: string
  readonly gameId: string
  readonly demo: boolean
  readonly lang: string
  readonly platform: string
  readonly lobbyUrl: string | null
  readonly play: PlayRules
}

export interface RoundResult {
  readonly _tag: "Round"
  readonly roundId: string
  readonly gameId: string
  /** The player's round number in this game (1, 2 …): what the page's "Your rounds" shows. */
  readonly gameRound: number
  readonly nonce: number
  readonly clientSeed: string
  readonly serverSeedHash: string
  readonly bet: string
  readonly multiplier: string
  readonly win: string
  readonly detail: Outcome["detail"]
  readonly jackpotHit: boolean
  readonly jackpotAmount: string | null
  /** The balance after the round; null when the casino has not acknowledged the win yet. */
  readonly balance: string | null
  readonly currency: string
  /** A free round of a casino grant (freeRounds.ts): no bet was taken. */
  readonly freeRound: boolean
  /** The grant after this round: the one just played, else the one the next round would play, or null. */
  readonly freeRounds: FreeRoundsView | null
}

const sessionColumns = `id, casino_token AS "casinoToken", player_id AS "playerId", nickname, currency, game_id AS "gameId",
  demo, demo_balance::text AS "demoBalance", lang, platform, lobby_url AS "lobbyUrl", expires_at AS "expiresAt",
  autoplay, turbo, min_round_ms AS "minRoundMs"`

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface StudioShape {
  readonly credentials: { readonly casinoKey: string; readonly walletSecret: string }
  readonly publicUrl: string
  /**
   * Records the signature of a casino request that carries a requestId; false when it was there
   * (a replay). Old rows go in the same statement.
   */
  readonly rememberRequest: (signature: { readonly t: number; readonly v1: string }) => Sql<boolean>
  readonly launch: (input: LaunchInput) => Sql<{ readonly url: string; readonly sessionId: string } | Refusal>
  readonly session: (id: string) => Sql<SessionRow | undefined>
  readonly seedState: (s: SessionRow) => Sql<SeedState>
  /** The balance: play money, or the casino's answer (null with the reason when it has none). */
  readonly balance: (
    s: SessionRow,
  ) => Effect.Effect<{ readonly balance: string | null; readonly error?: string }, SqlError.SqlError>
  /**
   * A round. `expectFree`: the page showed a free round; if none is left (cancelled, expired) nothing
   * is bet and the refusal says so, so a player never pays for a round shown as free.
   */
  readonly round: (
    s: SessionRow,
    bet: bigint,
    options: unknown,
    expectFree?: boolean,
  ) => Sql<RoundResult | Refusal>
  /** The casino's free-round grants (freeRounds.ts). */
  readonly freeRounds: FreeRounds
  /** Mines played tile by tile (minesRounds.ts). */
  readonly mines: MinesRounds
  readonly setClientSeed: (s: SessionRow, clientSeed: string) => Sql<SeedState>
  /** Refused while a mines round is open on the seed: its revealed seed would show the mines. */
  readonly rotate: (s: SessionRow) => Sql<Rotated | Refusal>
  readonly rounds: (s: SessionRow, limit: number) => Sql<ReadonlyArray<Record<string, unknown>>>
  /** Delivers due outbox rows (win, rollback); how many were acknowledged. */
  readonly deliverDue: () => Sql<number>
}

export class Studio extends Context.Service<Studio, StudioShape>()("game-studio/Studio") {
  static readonly layer = Layer.effect(
    Studio,
    Effect.gen(function* () {
      const options = yield* StudioSettings
      const sql = yield* SqlClient.SqlClient
      const credentials = studioCredentials(options.secret, { sandbox: options.sandbox })
      const wallet = (op: "balance" | "bet" | "win" | "rollback", body: string, timeoutMs: number) =>
        callWallet(options.walletUrl, credentials.walletSecret, op, body, timeoutMs)

      const session = (id: string): Sql<SessionRow | undefined> =>
        sql<SessionRow>`SELECT ${sql.literal(sessionColumns)} FROM studio_sessions WHERE id = ${id}`.pipe(
          Effect.map((r) => r[0]),
        )
      const { activeSeed, seedState, setClientSeed, rotate } = makeSeeds(sql)
      const { queue, deliver, deliverDue } = makeOutbox(sql, (op, body) =>
        wallet(op, body, options.retryTimeoutMs),
      )

      /** Takes the next nonce under the seed's lock and computes the outcome (inside a transaction). */
      const draw = (s: SessionRow, def: GameDefinition, rawOptions: unknown) =>
        Effect.gen(function* () {
          const seed = yield* activeSeed(playerKey(s), true)
          yield* sql`UPDATE studio_seeds SET nonce = nonce + 1 WHERE id = ${seed.id}`
          const nonce = Number(seed.nonce)
          const need = floatsNeeded(def, rawOptions)
          const floats = yield* Effect.promise(() =>
            roundFloats(seed.serverSeed, seed.clientSeed, nonce, need + (def.jackpot === null ? 0 : 1)),
          )
          const outcome = playRound(def, rawOptions, floats)
          if (isOptionsError(outcome)) return yield* Effect.die(new Error(outcome.error))
          return { seed, nonce, outcome, jackpotHit: jackpotHit(def, floats[need]) }
        })

      const insertRound = (r: RoundRecord) =>
        sql`INSERT INTO studio_rounds (id, session_id, game_id, seed_id, client_seed, nonce, options, bet, multiplier, win,
              detail, jackpot_hit, jackpot_contribution, bet_tx, win_tx, status, settled_at, free_round_grant_id, steps)
            VALUES (${r.id}, ${r.s.id}, ${r.s.gameId}, ${r.seed.id}::bigint, ${r.seed.clientSeed}, ${r.nonce},
              ${JSON.stringify(r.options ?? {})}::jsonb, ${r.bet.toString()}::bigint, ${r.outcome.multiplier.toString()}::bigint,
              ${r.win.toString()}::bigint, ${JSON.stringify(r.outcome.detail)}::jsonb, ${r.jackpotHit},
              ${r.contribution.toString()}::bigint, ${r.freeRoundGrantId === undefined ? `bet-${r.id}` : null},
              ${`win-${r.id}`}, ${r.status}, ${r.status === "settled" ? new Date() : null},
              ${r.freeRoundGrantId ?? null}::uuid, ${r.steps ?? null})`

      const result = (
        s: SessionRow,
        id: string,
        d: { seed: SeedRow; nonce: number; outcome: Outcome; jackpotHit: boolean },
        bet: bigint,
        win: bigint,
        balance: string | null,
        jackpotAmount: string | null,
      ): RoundResult => ({
        _tag: "Round",
        roundId: id,
        gameId: s.gameId,
        gameRound: 0,
        nonce: d.nonce,
        clientSeed: d.seed.clientSeed,
        serverSeedHash: d.seed.hash,
        bet: bet.toString(),
        multiplier: d.outcome.multiplier.toString(),
        win: win.toString(),
        detail: d.outcome.detail,
        jackpotHit: d.jackpotHit,
        jackpotAmount,
        balance,
        currency: s.currency,
        freeRound: false,
        freeRounds: null,
      })

      const demoRound = (s: SessionRow, def: GameDefinition, bet: bigint, rawOptions: unknown) =>
        sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<{ balance: string }>`
              SELECT demo_balance::text AS balance FROM studio_sessions WHERE id = ${s.id} FOR UPDATE`
            const balance = BigInt(rows[0]?.balance ?? "0")
            if (balance < bet) {
              return refusal(
                402,
                "INSUFFICIENT_FUNDS",
                `Your play-money balance is too low for this bet (${money(balance, s.currency)}).`,
              )
            }
            const d = yield* draw(s, def, rawOptions)
            const win = winAmount(bet, d.outcome.multiplier)
            const after = balance - bet + win
            yield* sql`UPDATE studio_sessions SET demo_balance = ${after.toString()}::bigint WHERE id = ${s.id}`
            const id = randomUUID()
            yield* insertRound({
              id,
              s,
              seed: d.seed,
              nonce: d.nonce,
              options: rawOptions,
              bet,
              outcome: d.outcome,
              win,
              jackpotHit: d.jackpotHit,
              contribution: 0n,
              status: "settled",
            })
            return result(s, id, d, bet, win, after.toString(), null)
          }),
        )

      /**
       * The wallet's bet for a round stored `pending` (no transaction held while calling). A 4xx: the
       * round is `refused`. No answer: `rolled-back`, its rollback queued and sent at once. Taken: the
       * balance after it; the caller opens the round.
       */
      const placeBet = (s: SessionRow, def: GameDefinition, id: string, bet: bigint, contribution: bigint) =>
        Effect.gen(function* () {
          const who = casinoPlayer(s)
          const betBody = JSON.stringify({
            ...who,
            transactionId: `bet-${id}`,
            roundId: id,
            gameId: def.launchId,
            amount: bet.toString(),
            ...(def.jackpot === null ? {} : { jackpotContribution: contribution.toString() }),
          } satisfies BetCall)
          const betAnswer = yield* wallet("bet", betBody, options.betTimeoutMs)
          if (betAnswer._tag === "Refused") {
            yield* sql`UPDATE studio_rounds SET status = 'refused', error = ${betAnswer.error} WHERE id = ${id}::uuid`
            return betRefusal(betAnswer, s.currency)
          }
          if (betAnswer._tag === "NoAnswer") {
            // The casino may or may not have taken the bet: roll it back (retried until acknowledged).
            yield* rollBack(s, id, betAnswer.error)
            return refusal(
              503,
              "BET_NOT_CONFIRMED",
              "The casino did not confirm your bet in time, so it was cancelled: your balance is unchanged. Please try again.",
            )
          }
          const balance = typeof betAnswer.body.balance === "string" ? betAnswer.body.balance : null
          return { _tag: "Taken", balance } as const
        })

      /** Marks a real round `rolled-back` and queues its rollback (refunds the bet), then sends it once. */
      const rollBack = (s: SessionRow, id: string, error: string) =>
        Effect.gen(function* () {
          const rollbackTx = `rollback-${id}`
          const body = JSON.stringify({
            ...casinoPlayer(s),
            transactionId: rollbackTx,
            roundId: id,
            refTransactionId: `bet-${id}`,
          } satisfies RollbackCall)
          yield* sql.withTransaction(
            Effect.all([
              sql`UPDATE studio_rounds SET status = 'rolled-back', rollback_tx = ${rollbackTx}, error = ${error}
                  WHERE id = ${id}::uuid`,
              queue(id, rollbackTx, "rollback", body),
            ]),
          )
          yield* deliver(rollbackTx, "rollback", body, 1)
        })

      const realRound = (s: SessionRow, def: GameDefinition, bet: bigint, rawOptions: unknown) =>
        Effect.gen(function* () {
          const id = randomUUID()
          const contribution = jackpotContribution(def, bet)
          const d = yield* sql.withTransaction(
            Effect.gen(function* () {
              const d = yield* draw(s, def, rawOptions)
              const win = winAmount(bet, d.outcome.multiplier)
              yield* insertRound({
                id,
                s,
                seed: d.seed,
                nonce: d.nonce,
                options: rawOptions,
                bet,
                outcome: d.outcome,
                win,
                jackpotHit: d.jackpotHit,
                contribution,
                status: "pending",
              })
              return d
            }),
          )
          const win = winAmount(bet, d.outcome.multiplier)
          const who = casinoPlayer(s)
          const taken = yield* placeBet(s, def, id, bet, contribution)
          if (taken._tag === "Refusal") return taken
          const winTx = `win-${id}`
          const winBody = JSON.stringify({
            ...who,
            transactionId: winTx,
            roundId: id,
            gameId: def.launchId,
            amount: win.toString(),
            roundClosed: true,
            ...(d.jackpotHit && def.jackpot !== null ? { jackpotId: def.jackpot.id } : {}),
          } satisfies WinCall)
          yield* sql.withTransaction(
            Effect.all([
              sql`UPDATE studio_rounds SET status = 'open' WHERE id = ${id}::uuid AND status = 'pending'`,
              queue(id, winTx, "win", winBody),
            ]),
          )
          const winAnswer = yield* deliver(winTx, "win", winBody, 1)
          const afterBet = taken.balance
          if (winAnswer._tag !== "Ok") {
            // The win is queued and retried; until then the page shows the balance after the bet + the win to come.
            return result(
              s,
              id,
              d,
              bet,
              win,
              afterBet === null ? null : (BigInt(afterBet) + win).toString(),
              null,
            )
          }
          const balance = typeof winAnswer.body.balance === "string" ? winAnswer.body.balance : null
          const jackpotAmount =
            typeof winAnswer.body.jackpotAmount === "string" ? winAnswer.body.jackpotAmount : null
          return result(s, id, d, bet, win, balance, jackpotAmount)
        })

      const freeRounds = makeFreeRounds(sql)
      const freeRound = playFreeRound({ sql, store: freeRounds, draw, insertRound, queue, deliver })
      /**
       * The player's rounds of this game so far, this one included (a demo session counts its own):
       * the number the page shows, not the seed's nonce (shared by every game of the player). With a
       * round id: those up to that round (a mines round ends after rounds started later may have).
       */
      const gameRoundOf = (s: SessionRow, upTo?: string) => {
        const until =
          upTo === undefined
            ? sql.literal("")
            : sql`AND r.created_at <= (SELECT created_at FROM studio_rounds WHERE id = ${upTo}::uuid)`
        return Effect.map(
          s.demo
            ? sql<{ n: number }>`SELECT count(*)::int AS n FROM studio_rounds r
                WHERE r.session_id = ${s.id} AND r.game_id = ${s.gameId} AND r.status NOT IN ('refused', 'rolled-back')
                  ${until}`
            : sql<{
                n: number
              }>`SELECT count(*)::int AS n FROM studio_rounds r JOIN studio_sessions ss ON ss.id = r.session_id
                WHERE ss.player_id = ${s.playerId} AND NOT ss.demo AND r.game_id = ${s.gameId}
                  AND r.status NOT IN ('refused', 'rolled-back') ${until}`,
          (rows) => Number(rows[0]?.n ?? 0),
        )
      }

      /**
       * What every new round checks before it draws: the bet, the session's end, and the
       * jurisdiction's least time between rounds, claimed atomically (of two quick requests one plays
       * and the other is refused, whatever the page does). Undefined: go ahead.
       */
      const admit = (s: SessionRow, bet: bigint): Sql<Refusal | undefined> =>
        Effect.gen(function* () {
          if (bet <= 0n || bet > maxBet) return refusal(400, "BAD_BET", "The bet must be a positive amount.")
          if (s.expiresAt.getTime() < Date.now()) return sessionExpired()
          if (s.minRoundMs > 0) {
            const claimed = yield* sql`
              UPDATE studio_sessions SET last_round_at = now()
              WHERE id = ${s.id}
                AND (last_round_at IS NULL OR last_round_at <= now() - ${s.minRoundMs} * interval '1 millisecond')
              RETURNING 1 AS one`
            if (claimed.length === 0)
              return refusal(
                429,
                "TOO_FAST",
                `Rounds here are at least ${formatSeconds(s.minRoundMs)} apart. Please wait a moment.`,
              )
          }
          return undefined
        })

      const anyRound = (s: SessionRow, bet: bigint, rawOptions: unknown, expectFree: boolean) =>
        Effect.gen(function* () {
          const def = gameById(s.gameId)
          if (def === undefined) return refusal(404, "UNKNOWN_GAME", "This game is no longer offered.")
          const decoded = decodeOptions(def, rawOptions)
          if (isOptionsError(decoded)) return refusal(400, "BAD_OPTIONS", decoded.error)
          const refused = yield* admit(s, bet)
          if (refused !== undefined) return refused
          if (s.demo) return yield* demoRound(s, def, bet, rawOptions)
          // The player's free rounds of this game come first (freeRounds.ts): no bet call.
          const free = yield* freeRound(s, def, rawOptions)
          if (free !== undefined) {
            const balance =
              free.answer._tag === "Ok" && typeof free.answer.body.balance === "string"
                ? free.answer.body.balance
                : null
            return {
              ...result(s, free.id, free.draw, free.bet, free.win, balance, null),
              freeRound: true,
              freeRounds: free.grant,
            }
          }
          if (expectFree)
            return refusal(
              409,
              "FREE_ROUNDS_ENDED",
              "Your free spins have ended, so nothing was bet. Check your bet and play again.",
            )
          const paid = yield* realRound(s, def, bet, rawOptions)
          if (paid._tag === "Refusal") return paid
          return { ...paid, freeRounds: yield* freeRounds.current(s, def.launchId) }
        })

      const mines = makeMinesRounds({
        sql,
        lifetimeSeconds: options.sessionSeconds,
        session,
        activeSeed,
        insertRound,
        admit,
        placeBet,
        queue,
        deliver,
        freeRounds,
        gameRoundOf,
      })

      return Studio.of({
        credentials,
        publicUrl: options.publicUrl,
        rememberRequest: (signature) =>
          sql<{ readonly one: number }>`
            WITH pruned AS (
              DELETE FROM studio_seen_signatures
              WHERE signed_at < ${Math.floor(Date.now() / 1000) - TOLERANCE_SECONDS - 60}
            )
            INSERT INTO studio_seen_signatures (signature, signed_at)
            VALUES (decode(${signature.v1}, 'hex'), ${signature.t})
            ON CONFLICT (signature) DO NOTHING
            RETURNING 1 AS one`.pipe(Effect.map((rows) => rows.length > 0)),
        launch: (input) =>
          Effect.gen(function* () {
            const def = gameByLaunchId(input.gameId)
            if (def === undefined) return refusal(404, "UNKNOWN_GAME", `No game ${input.gameId}.`)
            if (input.demo && !def.demo) return refusal(404, "UNKNOWN_GAME", `${def.name} has no demo.`)
            const id = randomBytes(24).toString("base64url")
            const expires = new Date(Date.now() + options.sessionSeconds * 1000)
            yield* sql`INSERT INTO studio_sessions (id, casino_token, player_id, nickname, currency, game_id, demo,
                         demo_balance, lang, platform, lobby_url, expires_at, autoplay, turbo, min_round_ms)
                       VALUES (${id}, ${input.demo ? null : input.sessionToken}, ${input.demo ? null : input.playerId},
                         ${input.nickname}, ${input.currency}, ${def.id}, ${input.demo},
                         ${input.demo ? DEMO_BALANCE.toString() : null}::bigint, ${input.lang}, ${input.platform},
                         ${input.lobbyUrl}, ${expires}, ${input.play.autoplay}, ${input.play.turbo},
                         ${input.play.minRoundMs})`
            return { url: `${options.publicUrl}/studio/play/${id}`, sessionId: id }
          }),
        session,
        seedState,
        balance: (s) =>
          s.demo
            ? Effect.map(session(s.id), (row) => ({ balance: row?.demoBalance ?? null }))
            : Effect.map(
                wallet(
                  "balance",
                  JSON.stringify(casinoPlayer(s) satisfies BalanceCall),
                  options.betTimeoutMs,
                ),
                (a) =>
                  a._tag === "Ok" && typeof a.body.balance === "string"
                    ? { balance: a.body.balance }
                    : {
                        balance: null,
                        error:
                          a._tag === "Refused" && a.error === "SESSION_EXPIRED"
                            ? "Your game session has expired. Open the game again from the lobby."
                            : "The casino's wallet did not answer; your balance will show after the next round.",
                      },
              ),
        round: (s, bet, rawOptions, expectFree = false) =>
          Effect.flatMap(
            anyRound(s, bet, rawOptions, expectFree),
            (answer): Effect.Effect<RoundResult | Refusal, SqlError.SqlError> =>
              answer._tag === "Refusal"
                ? Effect.succeed(answer)
                : Effect.map(gameRoundOf(s), (gameRound): RoundResult => ({ ...answer, gameRound })),
          ),
        freeRounds,
        mines,
        setClientSeed,
        rotate,
        rounds: (s, limit) =>
          sql<Record<string, unknown>>`
            SELECT r.id::text AS "roundId", r.game_id AS "gameId", r.nonce::int AS "nonce", r.client_seed AS "clientSeed",
              k.hash AS "serverSeedHash", CASE WHEN k.revealed_at IS NULL THEN NULL ELSE k.server_seed END AS "serverSeed",
              r.options, r.bet::text AS "bet", r.multiplier::text AS "multiplier", r.win::text AS "win", r.status,
              r.jackpot_hit AS "jackpotHit", r.free_round_grant_id IS NOT NULL AS "freeRound", r.created_at AS "at"
            FROM studio_rounds r JOIN studio_seeds k ON k.id = r.seed_id
            WHERE r.session_id = ${s.id} OR (${s.demo} = false AND k.player_key = ${playerKey(s)})
            ORDER BY r.created_at DESC LIMIT ${limit}`,
        deliverDue,
      })
    }),
  )
}
