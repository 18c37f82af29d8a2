/**
 * Multiplayer crash in the studio (docs/game-studio.md, "Multiplayer crash"): one table per crash
 * title, each a loop of games played from the title's hash chain (chain.ts):
 *
 *   betting (STUDIO_CRASH_BETTING_MS) → running (the multiplier rises, ⌊100·e^(0.00006 t)⌋/100, until
 *   the game's bust point) → busted (STUDIO_CRASH_BUSTED_MS) → the next game, while anyone listens.
 *
 * A table with nobody listening stops after its game (no timer left); the next game is still the
 * chain's next hash, so the sequence stays verifiable. Bets are taken in the betting phase (one per
 * session per game), cash-outs while running: by hand at the server's multiplier when the request
 * arrives, automatically at the bet's target (capped at the title's largest target).
 *
 * Money: a bet is written (pending) before the wallet's /bet, a cash-out (cashed, win) with its /win in
 * the studio's outbox in one transaction, and at the bust the open bets are lost with a /win of 0
 * that closes their round. So a restart finds everything: `recover` settles a game that was running
 * (cash-outs recorded stand, the rest lose) and refunds one still taking bets (/rollback); a bet sent
 * with no answer is rolled back. Demo sessions bet their play money, never the wallet.
 *
 * The timers are plain Node timers and the state of a table lives in memory (it is the one truth of
 * the game in progress); every database write is ordered after the in-memory change it records.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { BetCall } from "../../../protocols/game-wallet/wallet.ts"
import { catalogue, gameById } from "../../../services/games/catalogue.ts"
import { crashBustFromHash, msToReach, multiplierAt } from "../../../services/games/crash-chain.ts"
import { betRefusal, playerKey, type Refusal, type SessionRow, StudioSettings } from "../Studio.ts"
import { buildChain, type Chain } from "./chain.ts"
import { crashMoney } from "./money.ts"
import {
  type BetAnswer,
  type CashoutAnswer,
  type CrashEvent,
  type CrashShape,
  type HistoryItem,
  type Player,
  pseudonym,
  type Round,
  type RoundProof,
  type Snapshot,
  type Table,
  view,
} from "./types.ts"

export type { CrashEvent, RoundProof } from "./types.ts"
export { pseudonym }

export const CHAIN_LENGTH = 100_000
const maxBet = 10n ** 12n
const HISTORY = 30

const refusal = (status: number, error: string, message: string): Refusal => ({
  _tag: "Refusal",
  status,
  error,
  message,
})

export class Crash extends Context.Service<Crash, CrashShape>()("game-studio/Crash") {
  static readonly layer = Layer.effect(
    Crash,
    Effect.gen(function* () {
      const options = yield* StudioSettings
      const sql = yield* SqlClient.SqlClient
      const context = yield* Effect.context<SqlClient.SqlClient>()
      const run = Effect.runPromiseWith(context)
      const { wallet, queue, deliver, who, winBody, rollbackBody } = crashMoney(sql, options)
      const tables = new Map<string, Table>()
      const loading = new Map<string, Promise<Table>>()
      let closed = false

      const sessionColumns = `s.id, s.casino_token AS "casinoToken", s.player_id AS "playerId", s.nickname, s.currency,
        s.game_id AS "gameId", s.demo, s.demo_balance::text AS "demoBalance", s.lang, s.platform, s.lobby_url AS "lobbyUrl",
        s.expires_at AS "expiresAt", s.autoplay, s.turbo, s.min_round_ms AS "minRoundMs"`

      /**
       * After a restart: a game still taking bets never ran (its bets are refunded), a running one is
       * busted where it stood (cash-outs recorded stand, open bets lose), bets with no wallet answer
       * are rolled back.
       */
      const recover = Effect.gen(function* () {
        const stale = yield* sql<{ gameId: string; number: number; phase: string }>`
          SELECT game_id AS "gameId", number, phase FROM studio_crash_games WHERE phase <> 'busted'`
        for (const g of stale) {
          const def = gameById(g.gameId)
          const bets = yield* sql<
            SessionRow & { betId: string; status: string; bet: string; betDemo: boolean }
          >`
            SELECT b.id::text AS "betId", b.status, b.bet::text AS bet, ${sql.literal(sessionColumns)}
            FROM studio_crash_bets b JOIN studio_sessions s ON s.id = b.session_id
            WHERE b.game_id = ${g.gameId} AND b.number = ${g.number} AND b.status IN ('pending', 'open')`
          yield* sql.withTransaction(
            Effect.gen(function* () {
              for (const b of bets) {
                const refund = b.status === "pending" || g.phase === "betting"
                if (b.demo) {
                  yield* sql`UPDATE studio_crash_bets SET status = ${refund ? "rolled-back" : "lost"}, win = 0,
                               settled_at = now() WHERE id = ${b.betId}::uuid`
                  if (refund && b.status === "open")
                    yield* sql`UPDATE studio_sessions SET demo_balance = demo_balance + ${b.bet}::bigint
                               WHERE id = ${b.id}`
                } else if (refund) {
                  yield* sql`UPDATE studio_crash_bets SET status = 'rolled-back', error = 'RESTART', settled_at = now()
                             WHERE id = ${b.betId}::uuid`
                  yield* queue(b.betId, `rollback-${b.betId}`, "rollback", rollbackBody(b, b.betId))
                } else if (def !== undefined) {
                  yield* sql`UPDATE studio_crash_bets SET status = 'lost', win = 0, settled_at = now()
                             WHERE id = ${b.betId}::uuid`
                  yield* queue(b.betId, `win-${b.betId}`, "win", winBody(b, def, b.betId, 0n))
                }
              }
              yield* sql`UPDATE studio_crash_games SET phase = 'busted', busted_at = now()
                         WHERE game_id = ${g.gameId} AND number = ${g.number}`
            }),
          )
        }
        // The queued rows go out with the studio's outbox loop (due at once).
        yield* sql`UPDATE studio_outbox SET next_attempt_at = now()
                   WHERE delivered_at IS NULL AND (transaction_id LIKE 'rollback-%' OR transaction_id LIKE 'win-%')
                     AND round_id IN (SELECT id FROM studio_crash_bets)`
      })
      yield* recover

      /** The table of a crash title: its chain (created on first use), its last game, its history. */
      const table = (gameId: string): Promise<Table> => {
        const known = tables.get(gameId)
        if (known !== undefined) return Promise.resolve(known)
        const pending = loading.get(gameId)
        if (pending !== undefined) return pending
        const def = gameById(gameId)
        if (def === undefined || def.kind !== "crash")
          return Promise.reject(new Error(`no crash game ${gameId}`))
        const p = run(
          Effect.gen(function* () {
            let rows = yield* sql<{ seed: string; salt: string; length: number; terminatingHash: string }>`
              SELECT seed, salt, length, terminating_hash AS "terminatingHash" FROM studio_crash_chains
              WHERE game_id = ${gameId}`
            let built: Chain | undefined
            if (rows[0] === undefined) {
              const seed = randomBytes(32).toString("hex")
              built = yield* Effect.promise(() => buildChain(seed, CHAIN_LENGTH))
              const chain = built
              const inserted = yield* sql<{ seed: string }>`
                INSERT INTO studio_crash_chains (game_id, seed, salt, length, terminating_hash)
                VALUES (${gameId}, ${seed}, ${randomBytes(32).toString("hex")}, ${CHAIN_LENGTH}, ${chain.terminatingHash})
                ON CONFLICT (game_id) DO NOTHING RETURNING seed`
              if (inserted.length === 0) built = undefined
              rows = yield* sql<{ seed: string; salt: string; length: number; terminatingHash: string }>`
                SELECT seed, salt, length, terminating_hash AS "terminatingHash" FROM studio_crash_chains
                WHERE game_id = ${gameId}`
            }
            const stored = rows[0]
            if (stored === undefined) return yield* Effect.die(new Error(`no chain for ${gameId}`))
            const chain =
              built ?? (yield* Effect.promise(() => buildChain(stored.seed, Number(stored.length))))
            if (chain.terminatingHash !== stored.terminatingHash)
              return yield* Effect.die(new Error(`the chain of ${gameId} does not end in its published hash`))
            const last = yield* sql<{ n: number | null }>`
              SELECT max(number) AS n FROM studio_crash_games WHERE game_id = ${gameId}`
            const history = yield* sql<HistoryItem>`
              SELECT number, bust, hash FROM studio_crash_games WHERE game_id = ${gameId} AND phase = 'busted'
              ORDER BY number DESC LIMIT ${HISTORY}`
            const t: Table = {
              def,
              chain,
              salt: stored.salt,
              round: null,
              last: Number(last[0]?.n ?? 0),
              listeners: new Set(),
              timers: new Set(),
              history: history.map((h) => ({ number: Number(h.number), bust: Number(h.bust), hash: h.hash })),
              starting: false,
            }
            tables.set(gameId, t)
            return t
          }),
        )
        loading.set(gameId, p)
        return p.finally(() => loading.delete(gameId))
      }

      const later = (t: Table, ms: number, f: () => Promise<void>) => {
        if (closed) return
        const timer = setTimeout(() => {
          t.timers.delete(timer)
          f().catch((error: unknown) => run(Effect.logError("crash: table step failed", error)))
        }, ms)
        t.timers.add(timer)
      }

      const emit = (t: Table, e: CrashEvent) => {
        for (const l of t.listeners) l(e)
      }

      const players = (r: Round | null) =>
        r === null ? [] : [...r.players.values()].filter((p) => p.status !== "pending").map(view)

      const snapshotOf = (t: Table): Snapshot => {
        const r = t.round
        const busted = r?.phase === "busted"
        return {
          gameId: t.def.id,
          phase: r === null ? "idle" : r.phase,
          number: r?.number ?? t.last,
          bettingEndsAt: r?.phase === "betting" ? r.bettingEndsAt : null,
          startedAt: r?.startedAt ?? null,
          bust: busted ? r.bust : null,
          hash: busted ? r.hash : null,
          serverNow: Date.now(),
          players: players(r),
          history: t.history,
          terminatingHash: t.chain.terminatingHash,
          salt: t.salt,
          chainLength: t.chain.length,
        }
      }

      const maxTarget = (t: Table) => (t.def.kind === "crash" ? t.def.params.maxTarget : 100)

      /** A new game from the chain's next hash, taking bets. */
      const startBetting = async (t: Table) => {
        if (t.starting || closed) return
        if (t.round !== null && t.round.phase !== "busted") return
        t.starting = true
        try {
          const number = t.last + 1
          const hash = t.chain.gameHash(number)
          const bust = await crashBustFromHash(hash, t.salt)
          await run(sql`INSERT INTO studio_crash_games (game_id, number, hash, bust, phase)
                        VALUES (${t.def.id}, ${number}, ${hash}, ${bust}, 'betting')`)
          t.last = number
          const bettingEndsAt = Date.now() + options.crashBettingMs
          t.round = {
            number,
            hash,
            bust,
            phase: "betting",
            bettingEndsAt,
            startedAt: null,
            players: new Map(),
          }
          emit(t, { type: "betting", number, bettingEndsAt, serverNow: Date.now() })
          later(t, options.crashBettingMs, () => startRunning(t))
        } finally {
          t.starting = false
        }
      }

      const startRunning = async (t: Table) => {
        const r = t.round
        if (r === null || r.phase !== "betting") return
        r.phase = "running"
        const startedAt = Date.now()
        r.startedAt = startedAt
        await run(sql`UPDATE studio_crash_games SET phase = 'running', started_at = ${new Date(startedAt)}
                      WHERE game_id = ${t.def.id} AND number = ${r.number}`)
        emit(t, { type: "running", number: r.number, startedAt, serverNow: Date.now() })
        const cap = maxTarget(t)
        for (const p of r.players.values()) {
          if (p.status !== "open") continue
          const target = Math.min(p.auto ?? cap, cap)
          if (target <= r.bust)
            later(t, msToReach(target) - (Date.now() - startedAt), () =>
              settleCashout(t, r, p, target).then(() => undefined),
            )
        }
        later(t, msToReach(r.bust) - (Date.now() - startedAt), () => bustRound(t, r))
      }

      /** Records a cash-out (in memory first: the bust cannot take it back) and pays it. */
      const settleCashout = async (t: Table, r: Round, p: Player, at: number) => {
        if (p.status !== "open" || r.phase !== "running") return undefined
        p.status = "cashed"
        p.cashedOut = at
        const win = (p.bet * BigInt(at)) / 100n
        p.win = win
        const s = p.session
        const body = winBody(s, t.def, p.id, win)
        const demoBalance = await run(
          sql.withTransaction(
            Effect.gen(function* () {
              yield* sql`UPDATE studio_crash_bets SET status = 'cashed', cashed_out = ${at}, win = ${win.toString()}::bigint,
                           settled_at = now() WHERE id = ${p.id}::uuid AND status = 'open'`
              if (s.demo) {
                const rows = yield* sql<{ balance: string }>`
                  UPDATE studio_sessions SET demo_balance = demo_balance + ${win.toString()}::bigint WHERE id = ${s.id}
                  RETURNING demo_balance::text AS balance`
                return rows[0]?.balance ?? null
              }
              yield* queue(p.id, `win-${p.id}`, "win", body)
              return null
            }),
          ),
        )
        emit(t, { type: "cashout", number: r.number, player: view(p) })
        if (s.demo) return demoBalance
        const answer = await run(deliver(`win-${p.id}`, "win", body))
        return answer._tag === "Ok" && typeof answer.body.balance === "string" ? answer.body.balance : null
      }

      const bustRound = async (t: Table, r: Round) => {
        if (r.phase !== "running") return
        r.phase = "busted"
        const losers = [...r.players.values()].filter((p) => p.status === "open")
        for (const p of losers) {
          p.status = "lost"
          p.win = 0n
        }
        await run(
          sql.withTransaction(
            Effect.gen(function* () {
              for (const p of losers) {
                yield* sql`UPDATE studio_crash_bets SET status = 'lost', win = 0, settled_at = now()
                           WHERE id = ${p.id}::uuid AND status = 'open'`
                if (!p.session.demo)
                  yield* queue(p.id, `win-${p.id}`, "win", winBody(p.session, t.def, p.id, 0n))
              }
              yield* sql`UPDATE studio_crash_games SET phase = 'busted', busted_at = now()
                         WHERE game_id = ${t.def.id} AND number = ${r.number}`
            }),
          ),
        )
        t.history = [{ number: r.number, bust: r.bust, hash: r.hash }, ...t.history].slice(0, HISTORY)
        emit(t, { type: "busted", number: r.number, bust: r.bust, hash: r.hash, players: players(r) })
        later(t, options.crashBustedMs, async () => {
          if (t.listeners.size > 0) await startBetting(t)
        })
        for (const p of losers)
          if (!p.session.demo) await run(deliver(`win-${p.id}`, "win", winBody(p.session, t.def, p.id, 0n)))
      }

      const ensureRunning = (t: Table) => {
        if (t.round === null || (t.round.phase === "busted" && t.timers.size === 0)) {
          startBetting(t).catch((error: unknown) =>
            run(Effect.logError("crash: could not start a game", error)),
          )
        }
      }

      const current = (s: SessionRow): { t: Table; r: Round; p: Player } | undefined => {
        const t = tables.get(s.gameId)
        const r = t?.round
        const p = r?.players.get(s.id)
        return t === undefined || r === undefined || r === null || p === undefined ? undefined : { t, r, p }
      }

      const bet = async (
        s: SessionRow,
        amount: bigint,
        auto: number | null,
      ): Promise<BetAnswer | Refusal> => {
        const def = gameById(s.gameId)
        if (def === undefined || def.kind !== "crash")
          return refusal(404, "UNKNOWN_GAME", "This is not a crash game.")
        if (amount <= 0n || amount > maxBet)
          return refusal(400, "BAD_BET", "The bet must be a positive amount.")
        if (auto !== null && (auto < 101 || auto > def.params.maxTarget))
          return refusal(
            400,
            "BAD_OPTIONS",
            `The auto cash-out is from 1.01× to ${(def.params.maxTarget / 100).toFixed(2)}×.`,
          )
        if (s.expiresAt.getTime() < Date.now())
          return refusal(
            401,
            "SESSION_EXPIRED",
            "Your game session has expired. Open the game again from the lobby.",
          )
        const t = await table(s.gameId)
        const r = t.round
        if (r === null || r.phase !== "betting")
          return refusal(409, "BETTING_CLOSED", "Bets are taken before the launch: wait for the next round.")
        if (r.players.has(s.id)) return refusal(409, "ALREADY_BET", "You already have a bet in this round.")
        const id = randomUUID()
        const name = pseudonym(playerKey(s))
        const p: Player = {
          id,
          session: s,
          name,
          bet: amount,
          auto,
          status: "pending",
          cashedOut: null,
          win: null,
        }
        r.players.set(s.id, p)
        const insert = (status: "pending" | "open") =>
          sql`INSERT INTO studio_crash_bets (id, game_id, number, session_id, name, demo, currency, bet, auto_cashout, status)
              VALUES (${id}::uuid, ${def.id}, ${r.number}, ${s.id}, ${name}, ${s.demo}, ${s.currency},
                ${amount.toString()}::bigint, ${auto}, ${status})`
        const answer = (balance: string | null): BetAnswer => ({
          _tag: "CrashBet",
          roundId: id,
          number: r.number,
          name,
          bet: amount.toString(),
          autoCashout: auto,
          balance,
          currency: s.currency,
        })
        if (s.demo) {
          const balance = await run(
            sql.withTransaction(
              Effect.gen(function* () {
                const rows = yield* sql<{ balance: string }>`
                  SELECT demo_balance::text AS balance FROM studio_sessions WHERE id = ${s.id} FOR UPDATE`
                const before = BigInt(rows[0]?.balance ?? "0")
                if (before < amount) return undefined
                yield* sql`UPDATE studio_sessions SET demo_balance = ${(before - amount).toString()}::bigint WHERE id = ${s.id}`
                yield* insert("open")
                return (before - amount).toString()
              }),
            ),
          )
          if (balance === undefined || r.phase !== "betting") {
            r.players.delete(s.id)
            if (balance !== undefined)
              await run(
                sql.withTransaction(
                  Effect.all([
                    sql`UPDATE studio_sessions SET demo_balance = demo_balance + ${amount.toString()}::bigint WHERE id = ${s.id}`,
                    sql`UPDATE studio_crash_bets SET status = 'rolled-back', settled_at = now() WHERE id = ${id}::uuid`,
                  ]),
                ),
              )
            return balance === undefined
              ? refusal(402, "INSUFFICIENT_FUNDS", "Your play-money balance is too low for this bet.")
              : refusal(409, "BETTING_CLOSED", "The round had started: your bet was returned.")
          }
          p.status = "open"
          emit(t, { type: "bet", number: r.number, player: view(p) })
          return answer(balance)
        }
        await run(insert("pending"))
        const betAnswer = await run(
          wallet(
            "bet",
            JSON.stringify({
              ...who(s),
              transactionId: `bet-${id}`,
              roundId: id,
              gameId: def.launchId,
              amount: amount.toString(),
            } satisfies BetCall),
            options.betTimeoutMs,
          ),
        )
        if (betAnswer._tag === "Refused") {
          r.players.delete(s.id)
          await run(sql`UPDATE studio_crash_bets SET status = 'refused', error = ${betAnswer.error}, settled_at = now()
                        WHERE id = ${id}::uuid`)
          return betRefusal(betAnswer, s.currency)
        }
        if (betAnswer._tag === "NoAnswer" || r.phase !== "betting") {
          // No answer (it may have been taken), or taken after the launch: refunded, retried until acknowledged.
          r.players.delete(s.id)
          const body = rollbackBody(s, id)
          const error = betAnswer._tag === "NoAnswer" ? betAnswer.error : "LATE"
          await run(
            sql.withTransaction(
              Effect.all([
                sql`UPDATE studio_crash_bets SET status = 'rolled-back', error = ${error}, settled_at = now()
                    WHERE id = ${id}::uuid`,
                queue(id, `rollback-${id}`, "rollback", body),
              ]),
            ),
          )
          await run(deliver(`rollback-${id}`, "rollback", body))
          return betAnswer._tag === "NoAnswer"
            ? refusal(
                503,
                "BET_NOT_CONFIRMED",
                "The casino did not confirm your bet in time, so it was cancelled: your balance is unchanged. Please try again.",
              )
            : refusal(
                409,
                "BETTING_CLOSED",
                "The round had started before the casino took your bet: it was returned.",
              )
        }
        await run(
          sql`UPDATE studio_crash_bets SET status = 'open' WHERE id = ${id}::uuid AND status = 'pending'`,
        )
        p.status = "open"
        emit(t, { type: "bet", number: r.number, player: view(p) })
        return answer(typeof betAnswer.body.balance === "string" ? betAnswer.body.balance : null)
      }

      const cashout = async (s: SessionRow): Promise<CashoutAnswer | Refusal> => {
        const c = current(s)
        if (c === undefined || c.p.status === "pending")
          return refusal(409, "NO_BET", "You have no bet in this round.")
        const { t, r, p } = c
        if (p.status === "cashed" && p.cashedOut !== null && p.win !== null)
          return refusal(409, "ALREADY_CASHED_OUT", `You cashed out at ${(p.cashedOut / 100).toFixed(2)}×.`)
        if (r.phase === "betting" || r.startedAt === null)
          return refusal(409, "NOT_RUNNING", "The round has not started yet.")
        if (r.phase === "busted" || p.status === "lost")
          return refusal(409, "BUSTED", `Too late: it busted at ${(r.bust / 100).toFixed(2)}×.`)
        const elapsed = Date.now() - r.startedAt
        if (elapsed >= msToReach(r.bust))
          return refusal(409, "BUSTED", `Too late: it busted at ${(r.bust / 100).toFixed(2)}×.`)
        const cap = maxTarget(t)
        // An auto target already passed (its timer is due) is where the bet was cashed out.
        const at = Math.min(multiplierAt(elapsed), p.auto ?? cap, cap, r.bust)
        const balance = await settleCashout(t, r, p, at)
        return {
          _tag: "CrashCashout",
          roundId: p.id,
          number: r.number,
          cashedOut: at,
          bet: p.bet.toString(),
          win: (p.win ?? 0n).toString(),
          balance: balance ?? null,
          currency: s.currency,
        }
      }

      yield* Effect.addFinalizer(() =>
        Effect.sync(() => {
          closed = true
          for (const t of tables.values()) for (const timer of t.timers) clearTimeout(timer)
        }),
      )

      return Crash.of({
        isCrash: (gameId) => catalogue.some((d) => d.id === gameId && d.kind === "crash"),
        snapshot: async (gameId) => snapshotOf(await table(gameId)),
        subscribe: async (gameId, listener) => {
          const t = await table(gameId)
          t.listeners.add(listener)
          listener({ type: "snapshot", snapshot: snapshotOf(t) })
          ensureRunning(t)
          return () => {
            t.listeners.delete(listener)
          }
        },
        bet,
        cashout,
        mine: (s) => {
          const c = current(s)
          if (c === undefined || c.p.status === "pending") return null
          return {
            roundId: c.p.id,
            number: c.r.number,
            bet: c.p.bet.toString(),
            autoCashout: c.p.auto,
            cashedOut: c.p.cashedOut,
            win: c.p.win === null ? null : c.p.win.toString(),
            status: c.p.status,
          }
        },
        round: (roundId) =>
          run(
            Effect.gen(function* () {
              const rows = yield* sql<{
                gameId: string
                number: number
                hash: string
                bust: number
                phase: string
                salt: string
                terminatingHash: string
                bet: string
                currency: string
                cashedOut: number | null
                win: string | null
                status: string
              }>`
                SELECT b.game_id AS "gameId", b.number, g.hash, g.bust, g.phase, c.salt, c.terminating_hash AS "terminatingHash",
                  b.bet::text AS bet, b.currency, b.cashed_out AS "cashedOut", b.win::text AS win, b.status
                FROM studio_crash_bets b
                JOIN studio_crash_games g ON g.game_id = b.game_id AND g.number = b.number
                JOIN studio_crash_chains c ON c.game_id = b.game_id
                WHERE b.id = ${roundId}::uuid`
              const row = rows[0]
              if (row === undefined) return undefined
              const busted = row.phase === "busted"
              const number = Number(row.number)
              const previous =
                number === 1
                  ? row.terminatingHash
                  : yield* sql<{ hash: string }>`SELECT hash FROM studio_crash_games
                      WHERE game_id = ${row.gameId} AND number = ${number - 1}`.pipe(
                      Effect.map((r) => r[0]?.hash ?? null),
                    )
              return {
                roundId,
                gameId: row.gameId,
                number,
                hash: busted ? row.hash : null,
                previousHash: previous,
                bust: busted ? Number(row.bust) : null,
                salt: row.salt,
                terminatingHash: row.terminatingHash,
                bet: row.bet,
                currency: row.currency,
                cashedOut: row.cashedOut === null ? null : Number(row.cashedOut),
                win: row.win,
                status: row.status,
              } satisfies RoundProof
            }),
          ),
        games: async (gameId, limit) => {
          await table(gameId)
          return run(
            sql<HistoryItem>`SELECT number, bust, hash FROM studio_crash_games
              WHERE game_id = ${gameId} AND phase = 'busted' ORDER BY number DESC LIMIT ${limit}`.pipe(
              Effect.map((rows) =>
                rows.map((h) => ({ number: Number(h.number), bust: Number(h.bust), hash: h.hash })),
              ),
            ),
          )
        },
      })
    }),
  )
}
