/**
 * Mines played as a casino plays it: tile by tile, with a cash-out at any step (docs/game-studio.md,
 * "Mines, tile by tile"). Like multiplayer crash (crash/engine.ts), the bet is taken at the start and
 * the win sent at the end, through the same wallet calls and outbox as every round.
 *
 *   start    the bet (the wallet's, or play money; or one of the player's free rounds), the nonce taken
 *            under the seed's lock, which fixes the mines (minePositions of the round's floats); the
 *            round is stored `open`, steps 'playing', options { mines, picks: [] }
 *   open     one tile: safe → the picks grow and the multiplier on offer is minesMultiplier(picks);
 *            a mine → lost, a win of 0 closes the round; the last safe tile cashes out by itself
 *   cashout  with ≥ 1 safe tile: bet × multiplier through the wallet's win (queued, then sent)
 *   sweep    a round left playing longer than the session lifetime: cashed out with ≥ 1 tile, else
 *            refunded by the protocol's rollback (a free round, which took no bet, closes with 0)
 *
 * Each action locks the round's row (SELECT … FOR UPDATE) and acts only on a round still playing, so
 * two concurrent clicks never both settle. The ended round's options are { mines, picks in the order
 * opened }, and its outcome is playMines over them: the verifier (services/games/verify.ts)
 * recomputes exactly what was paid. No transaction is held while the wallet is called.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { RollbackCall, WinCall } from "../../protocols/game-wallet/wallet.ts"
import type { GameDefinition } from "../../services/games/catalogue.ts"
import { roundFloats } from "../../services/games/fair.ts"
import { MINES_TILES, minePositions, playMines } from "../../services/games/mines.ts"
import { isInt } from "../../services/games/outcome.ts"
import { jackpotContribution, jackpotHit, type Outcome, winAmount } from "../../services/games/play.ts"
import type { makeFreeRounds, RoundRecord } from "./freeRounds.ts"
import {
  type MinesGame,
  type MinesRoundView,
  type MinesState,
  type MinesViewOptions,
  minesGame,
  minesView,
  type RoundRow,
  roundColumns,
  storedOptions,
} from "./minesView.ts"
import type { Outbox } from "./outbox.ts"
import { casinoPlayer, money, playerKey, type Refusal, refusal, sessionExpired } from "./roundRules.ts"
import type { SeedRow, SessionRow } from "./Studio.ts"

export type { MinesRoundView, MinesState } from "./minesView.ts"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface MinesRounds {
  /** `expectFree`: the page showed a free round; none left → refused, nothing bet. */
  readonly start: (
    s: SessionRow,
    bet: bigint,
    mines: unknown,
    expectFree: boolean,
  ) => Sql<MinesRoundView | Refusal>
  readonly open: (s: SessionRow, roundId: string, tile: unknown) => Sql<MinesRoundView | Refusal>
  readonly cashout: (s: SessionRow, roundId: string) => Sql<MinesRoundView | Refusal>
  /** The round in play a page (re)loading resumes: the session's, or its player's in this game and currency. */
  readonly current: (s: SessionRow) => Sql<MinesRoundView | null>
  /** Settles the rounds left playing past the lifetime; how many. */
  readonly sweep: () => Sql<number>
}

/** What mines needs of the studio's round machinery (Studio.ts). */
export interface MinesDeps {
  readonly sql: SqlClient.SqlClient
  /** The session lifetime: a round playing longer is swept. */
  readonly lifetimeSeconds: number
  readonly session: (id: string) => Sql<SessionRow | undefined>
  readonly activeSeed: (key: string, lock: boolean) => Sql<SeedRow>
  readonly insertRound: (r: RoundRecord) => Sql<unknown>
  /** The bet, the session's end, the least time between rounds; undefined: go ahead. */
  readonly admit: (s: SessionRow, bet: bigint) => Sql<Refusal | undefined>
  /** The wallet's bet of a `pending` round: refused / rolled back, or taken. */
  readonly placeBet: (
    s: SessionRow,
    def: GameDefinition,
    id: string,
    bet: bigint,
    contribution: bigint,
  ) => Sql<Refusal | { readonly _tag: "Taken"; readonly balance: string | null }>
  readonly queue: Outbox["queue"]
  readonly deliver: Outbox["deliver"]
  readonly freeRounds: ReturnType<typeof makeFreeRounds>
  readonly gameRoundOf: (s: SessionRow, upTo?: string) => Sql<number>
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const unknownRound = () => refusal(404, "UNKNOWN_ROUND", "No such round of yours.")
const roundOver = () => refusal(409, "ROUND_OVER", "This round is over. Press Bet to start a new one.")
const roundOpen = () =>
  refusal(409, "ROUND_OPEN", "You have a round open: open a tile or cash out before you bet again.")

/** Who may act on a round: its own session, or a later real session of its player (same game, currency). */
const mayAct = (s: SessionRow, owner: SessionRow): boolean =>
  owner.gameId === s.gameId &&
  (owner.id === s.id ||
    (!s.demo && !owner.demo && owner.playerId === s.playerId && owner.currency === s.currency))

export const makeMinesRounds = (deps: MinesDeps): MinesRounds => {
  const { sql } = deps

  /** The round in play of a session's scope (its own for demo; its player's in this game and currency). */
  const playingOf = (s: SessionRow, withPending: boolean) =>
    Effect.map(
      sql<{
        id: string
      }>`SELECT r.id::text AS id FROM studio_rounds r JOIN studio_sessions rs ON rs.id = r.session_id
        WHERE r.steps = 'playing' AND r.status IN (${sql.literal(withPending ? "'pending', 'open'" : "'open'")})
          AND r.game_id = ${s.gameId}
          AND (r.session_id = ${s.id}
            OR (${!s.demo} AND NOT rs.demo AND rs.player_id = ${s.playerId} AND rs.currency = ${s.currency}))
        ORDER BY r.created_at LIMIT 1`,
      (rows) => rows[0]?.id,
    )

  const loadRound = (id: string, lock: boolean) =>
    Effect.map(
      sql<RoundRow>`SELECT ${sql.literal(roundColumns)} FROM studio_rounds r JOIN studio_seeds k ON k.id = r.seed_id
        WHERE r.id = ${id}::uuid ${sql.literal(lock ? "FOR UPDATE OF r" : "")}`,
      (rows) => rows[0],
    )

  /** The round's game: its mines count, picks so far and floats (the mines are where they fell at the start). */
  const gameOf = (row: RoundRow) =>
    Effect.gen(function* () {
      const def = minesGame(row.gameId)
      if (def === undefined) return yield* Effect.die(new Error(`round ${row.id} is not a mines round`))
      const { mines, picks } = storedOptions(row.options)
      const floats = yield* Effect.promise(() =>
        roundFloats(row.serverSeed, row.clientSeed, Number(row.nonce), mines),
      )
      return { def, mines, picks, floats, minesAt: new Set(minePositions(mines, floats)) }
    })

  /** The answer for a round: its view with the player's round number in this game. */
  const view = (row: RoundRow, owner: SessionRow, def: MinesGame, o: MinesViewOptions): Sql<MinesRoundView> =>
    Effect.map(deps.gameRoundOf(owner, row.id), (n) => minesView(row, def, owner.currency, n, o))

  const winBody = (owner: SessionRow, def: MinesGame, row: RoundRow, win: bigint) =>
    JSON.stringify({
      ...casinoPlayer(owner),
      transactionId: `win-${row.id}`,
      roundId: row.id,
      gameId: def.launchId,
      amount: win.toString(),
      roundClosed: true,
      ...(row.jackpotHit && def.jackpot !== null ? { jackpotId: def.jackpot.id } : {}),
      ...(row.grantId === null ? {} : { freeRoundGrantId: row.grantId }),
    } satisfies WinCall)

  const stateOf = (outcome: Outcome): MinesState => (outcome.detail.win === true ? "cashed" : "lost")

  /**
   * Ends a round under its lock with these picks (playMines decides: all safe pays, a mine pays 0).
   * Demo: the win credited and the round settled. Real: the win queued in the outbox (the round
   * settles when the casino acknowledges it); its body is returned for the send after the commit.
   */
  const endRound = (
    row: RoundRow,
    owner: SessionRow,
    def: MinesGame,
    mines: number,
    picks: ReadonlyArray<number>,
    floats: ReadonlyArray<number>,
  ) =>
    Effect.gen(function* () {
      const outcome = playMines(def.params, { mines, picks }, floats)
      const win = winAmount(BigInt(row.bet), outcome.multiplier)
      yield* sql`UPDATE studio_rounds SET steps = 'ended', options = ${JSON.stringify({ mines, picks })}::jsonb,
          multiplier = ${outcome.multiplier.toString()}::bigint, win = ${win.toString()}::bigint,
          detail = ${JSON.stringify(outcome.detail)}::jsonb,
          status = ${owner.demo ? "settled" : "open"}, settled_at = ${owner.demo ? new Date() : null}
        WHERE id = ${row.id}::uuid`
      const ended: RoundRow = { ...row, multiplier: outcome.multiplier.toString(), win: win.toString() }
      if (owner.demo) {
        const rows = yield* sql<{ balance: string }>`UPDATE studio_sessions
          SET demo_balance = demo_balance + ${win.toString()}::bigint WHERE id = ${owner.id}
          RETURNING demo_balance::text AS balance`
        return { ended, outcome, state: stateOf(outcome), body: null, demoBalance: rows[0]?.balance ?? null }
      }
      const body = winBody(owner, def, row, win)
      yield* deps.queue(row.id, `win-${row.id}`, "win", body)
      return { ended, outcome, state: stateOf(outcome), body, demoBalance: null }
    })

  /** Sends an ended real round's win once (the outbox retries it); the balance and jackpot it answered. */
  const sendWin = (roundId: string, body: string | null, demoBalance: string | null) =>
    Effect.gen(function* () {
      if (body === null) return { balance: demoBalance, jackpotAmount: null }
      const answer = yield* deps.deliver(`win-${roundId}`, "win", body, 1)
      if (answer._tag !== "Ok") return { balance: null, jackpotAmount: null }
      return {
        balance: typeof answer.body.balance === "string" ? answer.body.balance : null,
        jackpotAmount: typeof answer.body.jackpotAmount === "string" ? answer.body.jackpotAmount : null,
      }
    })

  type Step =
    | { readonly _tag: "Refusal"; readonly refusal: Refusal }
    | { readonly _tag: "Continue"; readonly picks: ReadonlyArray<number>; readonly tile?: number }
    | { readonly _tag: "End"; readonly picks: ReadonlyArray<number>; readonly tile?: number }

  /**
   * One player action on a round, under its row lock: `decide` sees the round still playing and
   * says what to do. Who may act and whether the round still plays are checked here, once.
   */
  const act = (
    s: SessionRow,
    roundId: string,
    decide: (g: {
      readonly mines: number
      readonly picks: ReadonlyArray<number>
      readonly minesAt: ReadonlySet<number>
    }) => Step,
  ) =>
    Effect.gen(function* () {
      if (!uuid.test(roundId)) return unknownRound()
      const done = yield* sql.withTransaction(
        Effect.gen(function* () {
          const row = yield* loadRound(roundId, true)
          const owner = row === undefined ? undefined : yield* deps.session(row.sessionId)
          if (row === undefined || owner === undefined || row.steps === null || !mayAct(s, owner))
            return unknownRound()
          if (row.status === "pending")
            return refusal(409, "BET_PENDING", "Your bet is still being confirmed by the casino.")
          if (row.steps !== "playing" || row.status !== "open") return roundOver()
          const g = yield* gameOf(row)
          const step = decide(g)
          if (step._tag === "Refusal") return step.refusal
          const tile =
            step.tile === undefined ? undefined : { index: step.tile, safe: !g.minesAt.has(step.tile) }
          if (step._tag === "Continue") {
            yield* sql`UPDATE studio_rounds SET options = ${JSON.stringify({ mines: g.mines, picks: step.picks })}::jsonb
              WHERE id = ${row.id}::uuid`
            return {
              _tag: "Playing",
              row,
              owner,
              def: g.def,
              mines: g.mines,
              picks: step.picks,
              tile,
            } as const
          }
          const end = yield* endRound(row, owner, g.def, g.mines, step.picks, g.floats)
          return {
            _tag: "Ended",
            owner,
            def: g.def,
            mines: g.mines,
            picks: step.picks,
            tile,
            ...end,
          } as const
        }),
      )
      if (done._tag === "Refusal") return done
      if (done._tag === "Playing")
        return yield* view(done.row, done.owner, done.def, {
          mines: done.mines,
          picks: done.picks,
          state: "playing",
          ...(done.tile === undefined ? {} : { tile: done.tile }),
          balance: null,
        })
      const sent = yield* sendWin(done.ended.id, done.body, done.demoBalance)
      return yield* view(done.ended, done.owner, done.def, {
        mines: done.mines,
        picks: done.picks,
        state: done.state,
        ...(done.tile === undefined ? {} : { tile: done.tile }),
        balance: sent.balance,
        detail: done.outcome.detail,
        jackpotAmount: sent.jackpotAmount,
        freeRounds: done.owner.demo ? null : yield* deps.freeRounds.current(s, done.def.launchId),
      })
    })

  const start = (s: SessionRow, bet: bigint, rawMines: unknown, expectFree: boolean) =>
    Effect.gen(function* () {
      const def = minesGame(s.gameId)
      if (def === undefined) return refusal(400, "NOT_MINES", "This game is not played tile by tile.")
      if (!isInt(rawMines) || rawMines < 1 || rawMines >= MINES_TILES)
        return refusal(400, "BAD_OPTIONS", "mines: a whole number of mines from 1 to 24.")
      const mines = rawMines
      // Told before anything is claimed; the check that counts is the one under the seed's lock below.
      if ((yield* playingOf(s, true)) !== undefined) return roundOpen()
      const refused = yield* deps.admit(s, bet)
      if (refused !== undefined) return refused
      const id = randomUUID()
      const opened = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            // Play money: the session's row first, then the seed's (the one-request round's order).
            let demoAfter: bigint | null = null
            if (s.demo) {
              const rows = yield* sql<{ balance: string }>`
                SELECT demo_balance::text AS balance FROM studio_sessions WHERE id = ${s.id} FOR UPDATE`
              const balance = BigInt(rows[0]?.balance ?? "0")
              if (balance < bet)
                return yield* Effect.fail(
                  refusal(
                    402,
                    "INSUFFICIENT_FUNDS",
                    `Your play-money balance is too low for this bet (${money(balance, s.currency)}).`,
                  ),
                )
              demoAfter = balance - bet
            }
            // A grant's row before the seed's, as a one-request free round takes them (freeRounds.ts).
            const grant = s.demo ? undefined : yield* deps.freeRounds.claim(s, def.launchId)
            if (grant === undefined && expectFree && !s.demo)
              return yield* Effect.fail(
                refusal(
                  409,
                  "FREE_ROUNDS_ENDED",
                  "Your free spins have ended, so nothing was bet. Check your bet and play again.",
                ),
              )
            const seed = yield* deps.activeSeed(playerKey(s), true)
            // Under the seed's lock every start of this player is one at a time: one round in play.
            if ((yield* playingOf(s, true)) !== undefined) return yield* Effect.fail(roundOpen())
            yield* sql`UPDATE studio_seeds SET nonce = nonce + 1 WHERE id = ${seed.id}`
            const nonce = Number(seed.nonce)
            const free = grant !== undefined
            const stake = grant?.bet ?? bet
            // The jackpot draw is the float after the mines' (docs/fairness.md); a free round has none.
            const floats = yield* Effect.promise(() =>
              roundFloats(seed.serverSeed, seed.clientSeed, nonce, mines + 1),
            )
            const hit = !free && jackpotHit(def, floats[mines])
            const contribution = free || s.demo ? 0n : jackpotContribution(def, stake)
            yield* deps.insertRound({
              id,
              s,
              seed,
              nonce,
              options: { mines, picks: [] },
              bet: stake,
              outcome: { multiplier: 0n, detail: {} },
              win: 0n,
              jackpotHit: hit,
              contribution,
              status: s.demo || free ? "open" : "pending",
              steps: "playing",
              ...(grant === undefined ? {} : { freeRoundGrantId: grant.grantId }),
            })
            if (demoAfter !== null)
              yield* sql`UPDATE studio_sessions SET demo_balance = ${demoAfter.toString()}::bigint WHERE id = ${s.id}`
            return { stake, contribution, grant, demoAfter }
          }),
        )
        .pipe(Effect.catchTag("Refusal", (r: Refusal) => Effect.succeed(r)))
      if ("_tag" in opened) return opened
      let balance = opened.demoAfter === null ? null : opened.demoAfter.toString()
      if (!s.demo && opened.grant === undefined) {
        const taken = yield* deps.placeBet(s, def, id, opened.stake, opened.contribution)
        if (taken._tag === "Refusal") {
          // Refused or rolled back by placeBet: no longer a round in play.
          yield* sql`UPDATE studio_rounds SET steps = 'ended' WHERE id = ${id}::uuid`
          return taken
        }
        const open =
          yield* sql`UPDATE studio_rounds SET status = 'open' WHERE id = ${id}::uuid AND status = 'pending'
          RETURNING 1 AS one`
        // The sweep got to it first (the bet took longer than the lifetime): it was rolled back.
        if (open.length === 0)
          return refusal(
            503,
            "BET_NOT_CONFIRMED",
            "The casino did not confirm your bet in time, so it was cancelled: your balance is unchanged. Please try again.",
          )
        balance = taken.balance
      }
      const row = yield* loadRound(id, false)
      if (row === undefined) return yield* Effect.die(new Error(`round ${id} vanished`))
      return yield* view(row, s, def, {
        mines,
        picks: [],
        state: "playing",
        balance,
        freeRounds:
          opened.grant === undefined
            ? s.demo
              ? null
              : yield* deps.freeRounds.current(s, def.launchId)
            : opened.grant.after,
      })
    })

  const open = (s: SessionRow, roundId: string, tile: unknown) =>
    Effect.gen(function* () {
      if (!isInt(tile) || tile < 0 || tile >= MINES_TILES)
        return refusal(400, "BAD_TILE", "tile: a whole number 0–24 (row × 5 + column).")
      // A new tile is a new decision: not on a session that has ended (a cash-out still is, below).
      if (s.expiresAt.getTime() < Date.now()) return sessionExpired()
      return yield* act(s, roundId, (g): Step => {
        if (g.picks.includes(tile))
          return { _tag: "Refusal", refusal: refusal(409, "TILE_OPEN", "This tile is already open.") }
        const picks = [...g.picks, tile]
        // A mine ends it; so does the last safe tile (nothing is left to win: it cashes out).
        const end = g.minesAt.has(tile) || picks.length === MINES_TILES - g.mines
        return { _tag: end ? "End" : "Continue", picks, tile }
      })
    })

  const cashout = (s: SessionRow, roundId: string) =>
    act(
      s,
      roundId,
      (g): Step =>
        g.picks.length === 0
          ? {
              _tag: "Refusal",
              refusal: refusal(409, "NO_TILE_OPENED", "Open at least one tile before you cash out."),
            }
          : { _tag: "End", picks: g.picks },
    )

  const current = (s: SessionRow) =>
    Effect.gen(function* () {
      const id = yield* playingOf(s, false)
      const row = id === undefined ? undefined : yield* loadRound(id, false)
      const def = row === undefined ? undefined : minesGame(row.gameId)
      const owner = row === undefined ? undefined : yield* deps.session(row.sessionId)
      if (row === undefined || def === undefined || owner === undefined) return null
      const { mines, picks } = storedOptions(row.options)
      return yield* view(row, owner, def, { mines, picks, state: "playing", balance: null })
    })

  /**
   * A round left playing past the lifetime, under its lock: cashed out with ≥ 1 safe tile; with none,
   * the bet comes back (play money at once; the wallet's by a rollback, also for a bet never
   * confirmed); a free round took no bet and closes with a win of 0. True if it settled it.
   */
  const settleLeft = (id: string) =>
    Effect.gen(function* () {
      const done = yield* sql.withTransaction(
        Effect.gen(function* () {
          const row = yield* loadRound(id, true)
          if (row === undefined || row.steps !== "playing") return undefined
          const owner = yield* deps.session(row.sessionId)
          if (owner === undefined) return undefined
          if (row.status !== "pending" && row.status !== "open") {
            // A bet refused or rolled back whose start stopped before saying so: nothing in play.
            yield* sql`UPDATE studio_rounds SET steps = 'ended' WHERE id = ${id}::uuid`
            return undefined
          }
          const g = yield* gameOf(row)
          if (g.picks.length > 0) {
            const end = yield* endRound(row, owner, g.def, g.mines, g.picks, g.floats)
            return { op: "win", body: end.body } as const
          }
          if (owner.demo) {
            yield* sql`UPDATE studio_sessions SET demo_balance = demo_balance + ${row.bet}::bigint WHERE id = ${owner.id}`
            yield* sql`UPDATE studio_rounds SET steps = 'ended', status = 'rolled-back', error = 'EXPIRED',
                settled_at = now() WHERE id = ${id}::uuid`
            return { op: "win", body: null } as const
          }
          if (row.grantId !== null) {
            yield* sql`UPDATE studio_rounds SET steps = 'ended' WHERE id = ${id}::uuid`
            const body = winBody(owner, g.def, row, 0n)
            yield* deps.queue(id, `win-${id}`, "win", body)
            return { op: "win", body } as const
          }
          const body = JSON.stringify({
            ...casinoPlayer(owner),
            transactionId: `rollback-${id}`,
            roundId: id,
            refTransactionId: `bet-${id}`,
          } satisfies RollbackCall)
          yield* sql`UPDATE studio_rounds SET steps = 'ended', status = 'rolled-back', rollback_tx = ${`rollback-${id}`},
              error = 'EXPIRED' WHERE id = ${id}::uuid`
          yield* deps.queue(id, `rollback-${id}`, "rollback", body)
          return { op: "rollback", body } as const
        }),
      )
      if (done === undefined) return false
      if (done.body !== null) yield* deps.deliver(`${done.op}-${id}`, done.op, done.body, 1)
      return true
    })

  const sweep = () =>
    Effect.gen(function* () {
      const due = yield* sql<{ id: string }>`SELECT id::text AS id FROM studio_rounds
        WHERE steps = 'playing' AND created_at < now() - make_interval(secs => ${deps.lifetimeSeconds})
        ORDER BY created_at LIMIT 50`
      let settled = 0
      for (const { id } of due) if (yield* settleLeft(id)) settled++
      return settled
    })

  return { start, open, cashout, current, sweep }
}
