/**
 * Settlement invariants of the seamless wallet (docs/game-wallet-protocol.md), model-based
 * with fast-check against the real server on both backends. Each run makes three funded players with
 * live game sessions and sends a random sequence of signed wallet calls: bets (in, below and above
 * the limits, beyond the balance, on another player's round), wins (on known and unknown rounds,
 * closing or not; on a rolled-back round acknowledged and void), rollbacks (of accepted, refused,
 * foreign and never-seen bets), exact replays by transaction id (each re-signed with a fresh
 * timestamp: an identical signature is never re-sent),
 * replays with other content or under another operation, the never-seen bets arriving after their
 * rollback, and session expiry (bets refused, wins and rollbacks still settled). A model predicts
 * every answer; after the run each balance equals deposit − accepted bets + wins + refunds (never
 * negative), rounds carry the model's totals and status, refusals left no row, and ledger:check is
 * clean. Also: a bet above the game's maximum is refused 422 BET_LIMIT with the min and max.
 */
import { randomUUID } from "node:crypto"
import fc from "fast-check"
import { afterAll, beforeAll, expect, it } from "vitest"
import { tokenHash } from "../../server/games/rules.ts"
import type { Game, GamesAndCategories } from "../../services/game-service.ts"
import {
  credit,
  type FakeGameProvider,
  GAMES,
  startFakeGameProvider,
  type WalletReply,
  walletCall,
} from "./games-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { balanceOf, ledgerReport } from "./money-support.ts"

const PLAYERS = 3
const DEPOSIT = 2_000n

type Op = "bet" | "win" | "rollback"

interface Player {
  readonly id: string
  readonly token: string
}

type Body = Readonly<Record<string, string | boolean>>

interface Sent {
  readonly op: Op
  readonly body: Body
}

// ---------------------------------------------------------------------------------------------
// The model

interface StoredCall {
  readonly op: Op | "tombstone"
  readonly fingerprint: string
  readonly answer: WalletReply | undefined
  /** For a stored bet: whose, how much, which round, whether refunded. */
  readonly bet?: {
    readonly player: string
    readonly amount: bigint
    readonly roundId: string
    refunded: boolean
  }
}

interface RoundModel {
  readonly player: string
  betTotal: bigint
  winTotal: bigint
  status: "open" | "settled" | "rolled-back"
}

/** What the server must answer: exactly this, or this status and error code. */
type Expected =
  | { readonly exact: WalletReply }
  | { readonly status: number; readonly error: string; readonly extra?: Readonly<Record<string, string>> }

/** The call's content as the server fingerprints it (everything but the session token). */
const fingerprintOf = (op: Op, body: Body): string =>
  JSON.stringify([
    op,
    Object.entries(body)
      .filter(([k]) => k !== "sessionToken")
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  ])

class WalletModel {
  readonly balances = new Map<string, bigint>()
  readonly stored = new Map<string, StoredCall>()
  readonly rounds = new Map<string, RoundModel>()
  readonly expired = new Set<string>()
  private readonly limits: { readonly min: bigint; readonly max: bigint }

  constructor(players: ReadonlyArray<Player>, limits: { readonly min: bigint; readonly max: bigint }) {
    this.limits = limits
    for (const p of players) this.balances.set(p.id, DEPOSIT)
  }

  balance(player: string): bigint {
    return this.balances.get(player) ?? 0n
  }

  private ok(txId: string, balance: bigint): WalletReply {
    return { status: 200, body: { balance: balance.toString(), currency: "EUR", transactionId: txId } }
  }

  /** The expected answer and, once the real answer matched it, the model's change. */
  predict(op: Op, body: Body): { expected: Expected; apply: (actual: WalletReply) => void } {
    const txId = String(body.transactionId)
    const player = String(body.playerId)
    const roundId = String(body.roundId)
    const fingerprint = fingerprintOf(op, body)
    const nothing = () => undefined
    const seen = this.stored.get(txId)
    if (seen !== undefined) {
      if (seen.op === "tombstone" && op === "bet")
        return { expected: { status: 409, error: "ROLLED_BACK" }, apply: nothing }
      if (seen.op === op && seen.fingerprint === fingerprint && seen.answer !== undefined)
        return { expected: { exact: seen.answer }, apply: nothing }
      return { expected: { status: 409, error: "DUPLICATE_MISMATCH" }, apply: nothing }
    }
    const balance = this.balance(player)
    const store =
      (extra: Partial<StoredCall> = {}) =>
      (actual: WalletReply) => {
        this.stored.set(txId, { op, fingerprint, answer: actual, ...extra })
      }
    switch (op) {
      case "bet": {
        const amount = BigInt(String(body.amount))
        const round = this.rounds.get(roundId)
        if (this.expired.has(player))
          return { expected: { status: 401, error: "SESSION_EXPIRED" }, apply: nothing }
        if (amount < this.limits.min || amount > this.limits.max)
          return {
            expected: {
              status: 422,
              error: "BET_LIMIT",
              extra: { min: this.limits.min.toString(), max: this.limits.max.toString() },
            },
            apply: nothing,
          }
        if (amount > balance)
          return {
            expected: { status: 402, error: "INSUFFICIENT_FUNDS", extra: { balance: balance.toString() } },
            apply: nothing,
          }
        if (round !== undefined && round.player !== player)
          return { expected: { status: 400, error: "BAD_REQUEST" }, apply: nothing }
        return {
          expected: { exact: this.ok(txId, balance - amount) },
          apply: (actual) => {
            this.balances.set(player, balance - amount)
            store({ bet: { player, amount, roundId, refunded: false } })(actual)
            if (round === undefined)
              this.rounds.set(roundId, { player, betTotal: amount, winTotal: 0n, status: "open" })
            else {
              round.betTotal += amount
              if (round.status === "rolled-back") round.status = "open"
            }
          },
        }
      }
      case "win": {
        const amount = BigInt(String(body.amount))
        const round = this.rounds.get(roundId)
        if (round === undefined || round.player !== player)
          return { expected: { status: 404, error: "UNKNOWN_ROUND" }, apply: nothing }
        // Every bet of its round rolled back: acknowledged, nothing paid, the round left as it is.
        if (round.status === "rolled-back")
          return { expected: { exact: this.ok(txId, balance) }, apply: store() }
        return {
          expected: { exact: this.ok(txId, balance + amount) },
          apply: (actual) => {
            this.balances.set(player, balance + amount)
            store()(actual)
            round.winTotal += amount
            if (body.roundClosed === true && round.status === "open") round.status = "settled"
          },
        }
      }
      case "rollback": {
        const refId = String(body.refTransactionId)
        const ref = this.stored.get(refId)
        if (ref === undefined)
          return {
            expected: { exact: this.ok(txId, balance) },
            apply: (actual) => {
              this.stored.set(refId, { op: "tombstone", fingerprint: "", answer: undefined })
              store()(actual)
            },
          }
        if (ref.op === "tombstone") return { expected: { exact: this.ok(txId, balance) }, apply: store() }
        const bet = ref.bet
        if (ref.op !== "bet" || bet === undefined || bet.player !== player)
          return { expected: { status: 400, error: "BAD_REQUEST" }, apply: nothing }
        if (bet.refunded) return { expected: { exact: this.ok(txId, balance) }, apply: store() }
        return {
          expected: { exact: this.ok(txId, balance + bet.amount) },
          apply: (actual) => {
            this.balances.set(player, balance + bet.amount)
            bet.refunded = true
            store()(actual)
            const round = this.rounds.get(bet.roundId)
            if (round !== undefined) {
              if (round.betTotal - bet.amount <= 0n && round.winTotal === 0n) round.status = "rolled-back"
              round.betTotal -= bet.amount
            }
          },
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Abstract actions, resolved against the run's state when they are sent

type AmountKind = "normal" | "belowMin" | "aboveMax" | "large"

type Action =
  | {
      readonly t: "bet"
      readonly p: number
      readonly amount: AmountKind
      readonly a: number
      readonly round: number
      readonly foreign: boolean
    }
  | {
      readonly t: "win"
      readonly p: number
      readonly round: number
      /** A round the wallet never saw, or another player's: 404. */
      readonly unknown: boolean
      readonly a: number
      readonly closed: boolean
    }
  | {
      readonly t: "rollback"
      readonly p: number
      readonly target: number
      /** never: a bet never sent; accepted: one the wallet took; any: any bet sent (refused ones too). */
      readonly of: "never" | "accepted" | "any"
      /** Sent by another player than the bet's: 400. */
      readonly foreign: boolean
    }
  | { readonly t: "replay"; readonly k: number }
  | { readonly t: "replayOther"; readonly k: number; readonly how: "content" | "op" }
  | { readonly t: "ghostBet"; readonly k: number }
  | { readonly t: "expire"; readonly p: number }

const player = fc.nat({ max: PLAYERS - 1 })
/** True once in `n`. */
const rarely = (n: number) =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      t: fc.constant("bet" as const),
      p: player,
      amount: fc.constantFrom<AmountKind>("normal", "normal", "normal", "belowMin", "aboveMax", "large"),
      a: fc.nat({ max: 1_000_000 }),
      round: fc.nat({ max: 6 }),
      foreign: rarely(6),
    }),
  },
  {
    weight: 8,
    arbitrary: fc.record({
      t: fc.constant("win" as const),
      p: player,
      round: fc.nat({ max: 20 }),
      unknown: rarely(6),
      a: fc.nat({ max: 1_500 }),
      closed: fc.boolean(),
    }),
  },
  {
    weight: 7,
    arbitrary: fc.record({
      t: fc.constant("rollback" as const),
      p: player,
      target: fc.nat({ max: 50 }),
      of: fc.constantFrom("never" as const, "accepted" as const, "accepted" as const, "any" as const),
      foreign: rarely(8),
    }),
  },
  { weight: 6, arbitrary: fc.record({ t: fc.constant("replay" as const), k: fc.nat({ max: 50 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant("replayOther" as const),
      k: fc.nat({ max: 50 }),
      how: fc.constantFrom("content" as const, "op" as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("ghostBet" as const), k: fc.nat({ max: 10 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("expire" as const), p: player }) },
)

describeBackends("games: settlement invariants (fast-check, model-based)", ({ start, backend }) => {
  let server: TestServer
  let fake: FakeGameProvider
  let slot: Game
  let limits: { min: bigint; max: bigint }
  let wire: { min: string; max: string }
  beforeAll(async () => {
    fake = await startFakeGameProvider()
    server = await start({ captchaEnabled: false }, { env: fake.env })
    const catalogue = (await (
      await fetch(`${server.url}${GAMES}/games-and-categories/EUR`)
    ).json()) as GamesAndCategories
    const s = catalogue.games.find((g) => g.kind === "slot" && !g.jackpot)
    if (s === undefined) throw new Error("catalogue without a plain slot")
    slot = s
    const l = catalogue.betLimits[s.id]
    if (l === undefined) throw new Error("no bet limits")
    wire = l
    limits = { min: BigInt(l.min), max: BigInt(l.max) }
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  /** Used timestamps per raw body: the same body is never signed twice with the same second. */
  const signedAt = new Map<string, Set<number>>()
  const send = (op: Op | "balance", body: Body): Promise<WalletReply> => {
    const raw = JSON.stringify(body)
    const used = signedAt.get(raw) ?? new Set<number>()
    let t = Math.floor(Date.now() / 1000)
    while (used.has(t)) t--
    used.add(t)
    signedAt.set(raw, used)
    return walletCall(server.url, op, raw, { timestamp: t })
  }

  /** Players made directly in the database (as games.concurrency does): wallet, deposit, live session. */
  const makePlayers = async (tag: string): Promise<Array<Player>> => {
    const users = await server.query<{ id: string }>(
      `INSERT INTO users (email, password_hash, full_name, currency)
       SELECT 'settle-${tag}-' || g || '@example.com', 'x', 'Settle Player', 'EUR' FROM generate_series(1, ${PLAYERS}) g
       RETURNING id::text AS id`,
    )
    await server.query(
      `INSERT INTO wallets (user_id, currency, is_default)
       SELECT id, 'EUR', true FROM users WHERE email LIKE 'settle-${tag}-%'`,
    )
    const out: Array<Player> = []
    for (const { id } of users) {
      await credit(server, id, DEPOSIT)
      const token = randomUUID().replace(/-/g, "") + randomUUID().replace(/-/g, "")
      const [session] = await server.query<{ id: string }>(
        `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '1 day')
         RETURNING id::text AS id`,
        [`test-${randomUUID()}`, id],
      )
      await server.query(
        `INSERT INTO game_sessions (token_hash, user_id, casino_session_id, currency, game_id, integration, expires_at)
         VALUES ($1, $2, $3, 'EUR', $4, 'studio', now() + interval '1 day')`,
        [tokenHash(token), id, session?.id, slot.id],
      )
      out.push({ id, token })
    }
    return out
  }

  const check = (expected: Expected, actual: WalletReply, what: string) => {
    if ("exact" in expected) expect(actual, what).toEqual(expected.exact)
    else {
      expect({ status: actual.status, error: actual.body.error }, what).toEqual({
        status: expected.status,
        error: expected.error,
      })
      if (expected.extra !== undefined) expect(actual.body, what).toMatchObject(expected.extra)
    }
  }

  const runActions = async (actions: ReadonlyArray<Action>) => {
    const tag = randomUUID().slice(0, 8)
    const players = await makePlayers(tag)
    const model = new WalletModel(players, limits)
    const history: Array<Sent> = []
    const bets: Array<Sent> = []
    const ghosts: Array<Body> = []
    const trace: Array<string> = []
    let rounds = 0
    const newRound = () => `${tag}-r${rounds++}`
    const playerOf = (id: string): Player => players.find((p) => p.id === id) ?? { id, token: "" }
    const playerAt = (i: number): Player => {
      const p = players[i]
      if (p === undefined) throw new Error(`no player ${i}`)
      return p
    }
    const roundsOf = (p: Player, own: boolean) =>
      [...model.rounds.entries()].filter(([, r]) => (r.player === p.id) === own).map(([id]) => id)
    const pick = <T>(items: ReadonlyArray<T>, k: number): T | undefined =>
      items[k % Math.max(1, items.length)]
    const base = (p: Player) => ({ sessionToken: p.token, playerId: p.id, currency: "EUR" })

    const deliver = async (op: Op, body: Body) => {
      const { expected, apply } = model.predict(op, body)
      const actual = await send(op, body)
      const what = `#${trace.length} ${op} ${JSON.stringify(body)}\n${trace.slice(-8).join("\n")}`
      check(expected, actual, what)
      apply(actual)
      trace.push(`${op} ${String(body.transactionId)} → ${actual.status} ${JSON.stringify(actual.body)}`)
      history.push({ op, body })
      if (op === "bet") bets.push({ op, body })
    }

    for (const a of actions) {
      switch (a.t) {
        case "bet": {
          const p = playerAt(a.p)
          const span = limits.max - limits.min
          const amount =
            a.amount === "normal"
              ? limits.min + (BigInt(a.a) % (span < 400n ? span + 1n : 400n))
              : a.amount === "belowMin"
                ? limits.min > 1n
                  ? 1n + (BigInt(a.a) % (limits.min - 1n))
                  : 0n
                : a.amount === "aboveMax"
                  ? limits.max + 1n + (BigInt(a.a) % 1_000n)
                  : limits.min + (BigInt(a.a) % (span + 1n))
          const foreign = a.foreign ? pick(roundsOf(p, false), a.round) : undefined
          const own = pick([...roundsOf(p, true), newRound()], a.round) ?? newRound()
          await deliver("bet", {
            ...base(p),
            transactionId: `bet-${randomUUID()}`,
            roundId: foreign ?? own,
            gameId: slot.launchId,
            amount: amount.toString(),
          })
          break
        }
        case "win": {
          // A known round is paid to its owner; an unknown one (or another player's) is 404.
          const known = a.unknown ? undefined : pick([...model.rounds.keys()], a.round)
          const owner = known === undefined ? undefined : model.rounds.get(known)?.player
          const p = owner === undefined || a.unknown ? playerAt(a.p) : playerOf(owner)
          const foreign = a.unknown ? pick(roundsOf(p, false), a.round) : undefined
          await deliver("win", {
            ...base(p),
            transactionId: `win-${randomUUID()}`,
            roundId: known ?? foreign ?? newRound(),
            gameId: slot.launchId,
            amount: String(a.a),
            roundClosed: a.closed,
          })
          break
        }
        case "rollback": {
          const accepted = bets.filter((b) => model.stored.get(String(b.body.transactionId))?.op === "bet")
          const target =
            a.of === "never"
              ? undefined
              : pick(a.of === "accepted" && accepted.length > 0 ? accepted : bets, a.target)
          if (target === undefined) {
            // A bet the wallet never saw: its rollback first; the bet may arrive later (ghostBet).
            const p = playerAt(a.p)
            const ghost: Body = {
              ...base(p),
              transactionId: `bet-${randomUUID()}`,
              roundId: newRound(),
              gameId: slot.launchId,
              amount: limits.min.toString(),
            }
            ghosts.push(ghost)
            await deliver("rollback", {
              ...base(p),
              transactionId: `rb-${randomUUID()}`,
              roundId: String(ghost.roundId),
              refTransactionId: String(ghost.transactionId),
            })
          } else {
            const owner = playerOf(String(target.body.playerId))
            const others = players.filter((x) => x.id !== owner.id)
            const p = a.foreign ? (pick(others, a.p) ?? owner) : owner
            await deliver("rollback", {
              ...base(p),
              transactionId: `rb-${randomUUID()}`,
              roundId: String(target.body.roundId),
              refTransactionId: String(target.body.transactionId),
            })
          }
          break
        }
        case "replay": {
          const again = pick(history, a.k)
          if (again !== undefined) await deliver(again.op, again.body)
          break
        }
        case "replayOther": {
          const first = pick(history, a.k)
          if (first === undefined) break
          const b = first.body
          if (a.how === "content") {
            const changed: Body =
              first.op === "rollback"
                ? { ...b, refTransactionId: `bet-${randomUUID()}` }
                : { ...b, amount: (BigInt(String(b.amount)) + 1n).toString() }
            await deliver(first.op, changed)
          } else {
            // The same id under another operation.
            const p = playerOf(String(b.playerId))
            const common = { ...base(p), transactionId: String(b.transactionId), roundId: String(b.roundId) }
            if (first.op === "bet")
              await deliver("win", { ...common, gameId: slot.launchId, amount: "5", roundClosed: true })
            else await deliver("bet", { ...common, gameId: slot.launchId, amount: limits.min.toString() })
          }
          break
        }
        case "ghostBet": {
          const ghost = pick(ghosts, a.k)
          if (ghost !== undefined) await deliver("bet", ghost)
          break
        }
        case "expire": {
          const p = playerAt(a.p)
          await server.query(
            "UPDATE game_sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1",
            [tokenHash(p.token)],
          )
          model.expired.add(p.id)
          break
        }
      }
    }

    // Balances: the model's, never negative, in the ledger and (live sessions) through the wallet.
    for (const p of players) {
      const want = model.balance(p.id)
      expect(want).toBeGreaterThanOrEqual(0n)
      expect(await balanceOf(server, p.id)).toBe(want.toString())
      const live = await send("balance", { ...base(p) })
      expect(live).toEqual(
        model.expired.has(p.id)
          ? { status: 401, body: { error: "SESSION_EXPIRED" } }
          : { status: 200, body: { balance: want.toString(), currency: "EUR" } },
      )
    }
    // Rounds: totals and status as the model says; no round the model does not know.
    const rows = await server.query<{
      round_id: string
      bet_total: string
      win_total: string
      status: string
    }>("SELECT round_id, bet_total::text, win_total::text, status FROM game_rounds WHERE round_id LIKE $1", [
      `${tag}-%`,
    ])
    expect(
      Object.fromEntries(rows.map((r) => [r.round_id, `${r.bet_total}/${r.win_total}/${r.status}`])),
    ).toEqual(
      Object.fromEntries(
        [...model.rounds.entries()]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([id, r]) => [id, `${r.betTotal}/${r.winTotal}/${r.status}`]),
      ),
    )
    // Calls: exactly the accepted ones are stored (refusals keep no row), tombstones for the unseen bets.
    const calls = await server.query<{ transaction_id: string; op: string }>(
      "SELECT transaction_id, op FROM game_transactions WHERE user_id = ANY($1::uuid[])",
      [players.map((p) => p.id)],
    )
    expect(calls.map((c) => `${c.transaction_id}:${c.op}`).sort()).toEqual(
      [...model.stored.entries()].map(([id, s]) => `${id}:${s.op}`).sort(),
    )
    const report = await ledgerReport(server)
    expect(report.clean).toBe(true)
    return history.length
  }

  it("every answer is the model's; balances, rounds, stored calls and the ledger agree after each run", async () => {
    let calls = 0
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 20, maxLength: 40, size: "max" }), async (actions) => {
        calls += await runActions(actions)
      }),
      // A failure found is shrunk for at most the time left (a bound, not a pass: the runs still count).
      { numRuns: backend === "pglite" ? 12 : 15, interruptAfterTimeLimit: 60_000 },
    )
    // The runs did send something (a vacuous run would prove nothing).
    expect(calls).toBeGreaterThan(200)
  }, 120_000)

  it("refuses a bet above the game's maximum with 422 BET_LIMIT and the limits; the maximum itself is accepted", async () => {
    const [p] = await makePlayers(randomUUID().slice(0, 8))
    if (p === undefined) throw new Error("no player")
    await credit(server, p.id, limits.max * 2n)
    const funds = DEPOSIT + limits.max * 2n
    const bet = (amount: bigint, transactionId = `bet-${randomUUID()}`) => ({
      sessionToken: p.token,
      playerId: p.id,
      currency: "EUR",
      transactionId,
      roundId: `max-${randomUUID()}`,
      gameId: slot.launchId,
      amount: amount.toString(),
    })
    const over = bet(limits.max + 1n)
    // The limits in the answer are the ones the lobby shows for the game, in the session's currency.
    expect(await send("bet", over)).toEqual({
      status: 422,
      body: { error: "BET_LIMIT", min: wire.min, max: wire.max },
    })
    expect(await send("bet", bet(limits.max * 10n))).toEqual({
      status: 422,
      body: { error: "BET_LIMIT", min: wire.min, max: wire.max },
    })
    expect(await balanceOf(server, p.id)).toBe(funds.toString())
    // The refusal kept no row: the id is free for the provider's corrected bet at the maximum.
    const atMax = { ...bet(limits.max, over.transactionId), roundId: over.roundId }
    expect(await send("bet", atMax)).toEqual({
      status: 200,
      body: { balance: (funds - limits.max).toString(), currency: "EUR", transactionId: over.transactionId },
    })
    expect((await ledgerReport(server)).clean).toBe(true)
  })
})
