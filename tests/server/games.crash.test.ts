/**
 * The seamless wallet through a kill -9, on PostgreSQL: TWO casino processes on one database take
 * 20,000 signed calls (GAMES_CRASH_CALLS) from 500 players playing at once — bets, wins, rollbacks
 * (of settled bets, of refused ones, and before their bet arrives) and exact replays of answered
 * calls under a fresh signature, sent to either process — and one process is SIGKILLed in the
 * middle (after a seeded number of answers, GAMES_CRASH_SEED replays it) with calls in flight.
 * A call that got no answer is delivered again to the survivor, as a provider retries.
 *
 * Each player plays its calls one after the other, so a model knows every answer in advance:
 *   - every answer is the model's (status, error code, the balance it names);
 *   - every replay is answered as the call was the first time;
 *   - every call answered 200 is stored with that answer;
 *   - every balance is the model's, no cent is created or lost (all accounts sum to 0), and
 *     ledger:check is clean.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { prng } from "../support/prng.ts"
import { startWalletStage, type WalletReply, type WalletStage } from "../support/wallet-stage.ts"
import { postgresUnavailable } from "./harness.ts"

const problem = await postgresUnavailable()
const CALLS = Number(process.env.GAMES_CRASH_CALLS ?? 20_000)
const PLAYERS = 500
const OPENING = 5_000n
const SEED = Number(process.env.GAMES_CRASH_SEED ?? Date.now() % 1_000_000)

interface Expected {
  readonly status: number
  readonly error?: string
  readonly balance?: bigint
}

describe.skipIf(problem !== undefined && process.env.CI !== "true")(
  "games: settlement through a kill -9 of one of two servers [postgres]",
  () => {
    let stage: WalletStage
    beforeAll(async () => {
      stage = await startWalletStage({
        name: "casino_test_games_crash",
        players: PLAYERS,
        servers: 2,
        balance: OPENING,
      })
    })
    afterAll(async () => {
      await stage?.close()
    })

    it("loses no answered call and no cent; every answer and replay is the model's", async () => {
      const random = prng(SEED)
      const [limits] = await stage.query<{ min: string; max: string }>(
        "SELECT min_bet_eur::text AS min, max_bet_eur::text AS max FROM games WHERE launch_id = $1",
        [stage.launchId],
      )
      const minBet = BigInt(limits?.min ?? "10")
      const maxBet = BigInt(limits?.max ?? "10000")
      const stake = () => {
        const span = (maxBet < 2_000n ? maxBet : 2_000n) - minBet
        return minBet + BigInt(Math.floor(random() * Number(span + 1n)))
      }

      const alive = [true, true]
      const killAt = Math.floor(CALLS * (0.3 + random() * 0.4))
      let answered = 0
      let retried = 0
      let killed: Promise<unknown> | undefined
      const failures: Array<string> = []
      const acked: Array<{ readonly transactionId: string; readonly body: unknown }> = []

      /**
       * Delivers until answered: a lost connection is retried on a live server. Every delivery of
       * a body is signed for its own second (`first` − attempt): the same bytes are never signed
       * twice, whatever the clock does meanwhile.
       */
      const deliver = async (
        op: string,
        body: Record<string, unknown>,
        first: number,
      ): Promise<WalletReply> => {
        let server = alive[0] && alive[1] ? (random() < 0.5 ? 0 : 1) : alive[0] ? 0 : 1
        for (let attempt = 0; ; attempt++) {
          try {
            const reply = await stage.call(op, body, server, first - attempt)
            answered++
            if (answered >= killAt && killed === undefined) {
              alive[0] = false
              killed = stage.servers[0]?.kill()
            }
            return reply
          } catch (error) {
            if (attempt > 50) throw error
            retried++
            server = 1
            await new Promise((r) => setTimeout(r, 20))
          }
        }
      }

      const check = (what: string, reply: WalletReply, expected: Expected) => {
        const body = JSON.parse(reply.body) as { error?: string; balance?: string }
        const ok =
          reply.status === expected.status &&
          (expected.error === undefined || body.error === expected.error) &&
          (expected.balance === undefined || body.balance === expected.balance.toString())
        if (!ok)
          failures.push(
            `${what}: ${reply.status} ${reply.body}, expected ${expected.status} ${expected.error ?? ""} ${expected.balance ?? ""}`,
          )
        return body
      }

      /** A call, checked, and sometimes replayed exactly (fresh signature) to either server. */
      const play = async (what: string, op: string, body: Record<string, unknown>, expected: Expected) => {
        const now = Math.floor(Date.now() / 1000)
        const first = await deliver(op, body, now)
        const parsed = check(what, first, expected)
        if (first.status === 200) acked.push({ transactionId: String(body.transactionId), body: parsed })
        if (random() < 0.12) {
          const again = await deliver(op, body, now - 60)
          if (
            again.status !== first.status ||
            JSON.stringify(sortKeys(JSON.parse(again.body))) !== JSON.stringify(sortKeys(parsed))
          )
            failures.push(
              `${what} replayed: ${again.status} ${again.body}, first ${first.status} ${first.body}`,
            )
        }
      }

      const model = new Map<string, bigint>()
      const perPlayer = Math.max(4, Math.floor(CALLS / PLAYERS / 1.12))
      const run = async (player: { id: string; token: string }, p: number) => {
        let balance = OPENING
        let calls = 0
        for (let r = 0; calls < perPlayer; r++) {
          const roundId = `c-${p}-${r}`
          const base = { playerId: player.id, currency: "EUR", roundId, gameId: stage.launchId }
          const betId = `bet-${roundId}`
          const amount = stake()
          const bet = { ...base, sessionToken: player.token, transactionId: betId, amount: amount.toString() }
          const dice = random()
          if (dice < 0.08) {
            // The rollback overtakes its bet: acknowledged, and the bet arriving later refused.
            await play(
              `${roundId} early rollback`,
              "rollback",
              { ...base, transactionId: `rb-${roundId}`, refTransactionId: betId },
              { status: 200, balance },
            )
            await play(`${roundId} late bet`, "bet", bet, { status: 409, error: "ROLLED_BACK" })
            calls += 2
            continue
          }
          const funded = balance >= amount
          if (funded) balance -= amount
          await play(
            `${roundId} bet`,
            "bet",
            bet,
            funded ? { status: 200, balance } : { status: 402, error: "INSUFFICIENT_FUNDS", balance },
          )
          calls++
          const next = random()
          if (next < 0.65 && funded) {
            const win = BigInt(Math.floor(random() * Number(amount * 2n + 1n)))
            balance += win
            await play(
              `${roundId} win`,
              "win",
              { ...base, transactionId: `win-${roundId}`, amount: win.toString(), roundClosed: true },
              { status: 200, balance },
            )
            calls++
          } else if (next < 0.85) {
            // Refunds a settled bet; a refused bet was never stored: acknowledged, nothing moves.
            if (funded) balance += amount
            await play(
              `${roundId} rollback`,
              "rollback",
              { ...base, transactionId: `rb-${roundId}`, refTransactionId: betId },
              { status: 200, balance },
            )
            calls++
          }
        }
        model.set(player.id, balance)
      }
      await Promise.all(stage.players.map(run))
      await killed

      expect(failures.slice(0, 10), `seed ${SEED}`).toEqual([])
      expect(alive[0], "one server was killed mid-run").toBe(false)
      expect(answered).toBeGreaterThan(CALLS * 0.9)

      // Every call answered 200 is stored with that answer.
      const stored = new Map(
        (
          await stage.query<{ transactionId: string; status: number; response: unknown }>(
            "SELECT transaction_id AS \"transactionId\", status, response FROM game_transactions WHERE op <> 'tombstone'",
          )
        ).map((row) => [row.transactionId, row] as const),
      )
      const missing = acked.filter((a) => {
        const row = stored.get(a.transactionId)
        const response = typeof row?.response === "string" ? JSON.parse(row.response) : row?.response
        return row?.status !== 200 || JSON.stringify(sortKeys(response)) !== JSON.stringify(sortKeys(a.body))
      })
      expect(missing.slice(0, 5), `seed ${SEED}`).toEqual([])

      // Every balance is the model's; every account together sums to 0 (double entry).
      const balances = await stage.query<{ userId: string; balance: string }>(
        "SELECT user_id::text AS \"userId\", balance::text AS balance FROM ledger_accounts WHERE kind = 'player_cash'",
      )
      const drift = balances.filter((b) => model.get(b.userId) !== BigInt(b.balance))
      expect(drift.slice(0, 5), `seed ${SEED}`).toEqual([])
      const [total] = await stage.query<{ total: string }>(
        "SELECT sum(balance)::text AS total FROM ledger_accounts",
      )
      expect(total?.total).toBe("0")
      const report = await stage.checkLedger()
      expect(report.clean).toBe(true)
      process.stdout.write(
        `games crash: seed ${SEED}, ${answered} answers (${acked.length} settled 200), ${retried} deliveries retried after the kill at answer ${killAt}\n`,
      )
    }, 900_000)
  },
)

/** JSON with its object keys sorted (jsonb keeps its own key order). */
const sortKeys = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sortKeys)
    : typeof value === "object" && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([k, v]) => [k, sortKeys(v)]),
        )
      : value
