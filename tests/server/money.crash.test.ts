/**
 * kill -9 during deposit settlement ("Scale and safety"; docs/robustness.md): the real
 * server PROCESS receives signed `payment.completed` webhooks from 16 parallel senders and is
 * SIGKILLed mid-stream, after a random number of acknowledgements (seeded; MONEY_CRASH_SEED replays
 * it), with requests in flight. Then, with the server down, the database itself is inspected:
 *   - every webhook ACKNOWLEDGED (200) before the kill is credited: its deposit is completed, with
 *     exactly one ledger transaction and one processed event;
 *   - nothing is half-written: a deposit is completed exactly when its ledger transaction exists,
 *     every player balance is the sum of its completed deposits (one entry each), the clearing
 *     account mirrors them, ledger:check is clean.
 * The server is restarted on the same data and the provider retries: EVERY webhook of the round is
 * delivered again (same event id and body) plus every 4th completion under a second event id (a
 * provider that re-emits): all answer 200. The next round's kill check (and a final check after a
 * graceful stop) proves those deposits credited exactly once. Several rounds on one database;
 * PGlite and PostgreSQL (like tests/server/crash.test.ts). */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, References } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, expect, it } from "vitest"
import { makeDbLayer } from "../../lib/db/client.ts"
import { SIGNATURE_HEADER, signEvent } from "../../protocols/payments/signature.ts"
import { migrate } from "../../server/db/migrate.ts"
import { seed } from "../../server/db/seed.ts"
import { checkLedger, type LedgerReport } from "../../server/ledger/check.ts"
import { createDatabase, seedPgliteDataDir, type TestDatabase } from "../support/databases.ts"
import { keepAliveAgent, send } from "../support/http.ts"
import { prng } from "../support/prng.ts"
import { type ServerProcess, startServerProcess } from "../support/server.ts"
import { describeBackends } from "./harness.ts"
import { webhookBody } from "./money-support.ts"

const ROUNDS = Number(process.env.MONEY_CRASH_ROUNDS ?? 3)
const DEPOSITS_PER_ROUND = 120
const PLAYERS = 12
const CLIENTS = 16
const SECRET = "crash-webhook-secret-0123456789"
const PROVIDER = "paystudio"

const serverEnv = {
  CAPTCHA: "off",
  LOG_LEVEL: "Error",
  PAYMENT_GATEWAYS: JSON.stringify([
    {
      code: PROVIDER,
      family: "hosted-card",
      baseUrl: "http://127.0.0.1:9",
      merchantId: "crash",
      apiKey: "k",
      webhookSecret: SECRET,
    },
  ]),
} as const

interface DepositRow {
  readonly id: string
  readonly amount: string
}

interface DepositState {
  readonly id: string
  readonly status: string
  readonly linked: boolean
  readonly txs: number
  readonly processed: number
}

interface PlayerState {
  readonly userId: string
  readonly balance: string
  readonly completedSum: string
  readonly entries: number
  readonly completed: number
}

interface Snapshot {
  readonly deposits: ReadonlyArray<DepositState>
  readonly players: ReadonlyArray<PlayerState>
  readonly clearing: string
  readonly completedTotal: string
  readonly ledger: LedgerReport
}

describeBackends("money crash: SIGKILL during deposit webhooks, restart, provider retries", ({ backend }) => {
  let dataDir: string | undefined
  let database: TestDatabase | undefined
  let server: ServerProcess | undefined

  afterAll(async () => {
    await server?.kill()
    await database?.drop()
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
  })

  it(`credits every acknowledged deposit exactly once through ${ROUNDS} kill/restart rounds`, async () => {
    const crashSeed = Number(process.env.MONEY_CRASH_SEED ?? Date.now() % 1_000_000)
    const random = prng(crashSeed)
    const dir = await mkdtemp(join(tmpdir(), "casino-money-crash-"))
    dataDir = dir
    if (backend === "postgres") database = await createDatabase("casino_money_crash")
    else await seedPgliteDataDir(dir)
    const databaseUrl = database?.url
    const log = (line: string) => console.log(`[money-crash ${backend}] ${line}`)
    log(`seed ${crashSeed} (MONEY_CRASH_SEED=${crashSeed} replays the kill moments), ${ROUNDS} rounds`)

    const start = () => startServerProcess({ dataDir: dir, databaseUrl, env: serverEnv, nice: 10 })
    /** Runs SQL with the server DOWN (PGlite is one process's): what the kill left on disk. */
    const withDb = <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient>): Promise<A> =>
      Effect.runPromise(
        effect.pipe(
          Effect.provide(Layer.orDie(makeDbLayer({ databaseUrl, dataDir: dir }))),
          Effect.provide(Layer.succeed(References.MinimumLogLevel, "Error")),
          Effect.scoped,
          Effect.orDie,
        ),
      )

    // The schema (what a server's start does), the players and every round's deposits (initiated,
    // each with its own amount so balances tell them apart), before the first start.
    const deposits = await withDb(
      Effect.gen(function* () {
        yield* migrate()
        yield* seed
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(
          `INSERT INTO users (email, password_hash, full_name, currency)
           SELECT 'crash' || g || '@example.com', 'x', 'Crash Player', 'EUR' FROM generate_series(1, ${PLAYERS}) g`,
        )
        yield* sql.unsafe(
          "INSERT INTO wallets (user_id, currency, is_default) SELECT id, 'EUR', true FROM users",
        )
        return yield* sql.unsafe<DepositRow>(
          `INSERT INTO deposits (user_id, method, provider, amount, currency, amount_eur_cents)
           SELECT u.id, 'card', '${PROVIDER}', 1000 + g * 3, 'EUR', 1000
           FROM generate_series(1, ${ROUNDS * DEPOSITS_PER_ROUND}) g
           JOIN LATERAL (SELECT id FROM users ORDER BY id OFFSET (g % ${PLAYERS}) LIMIT 1) u ON true
           RETURNING id::text AS id, amount::text AS amount`,
        )
      }),
    )
    expect(deposits.length).toBe(ROUNDS * DEPOSITS_PER_ROUND)

    const snapshot = (): Promise<Snapshot> =>
      withDb(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const deposits = yield* sql.unsafe<DepositState>(
            `SELECT d.id::text AS id, d.status,
                    (d.ledger_transaction_id IS NOT NULL AND EXISTS (SELECT 1 FROM ledger_transactions t
                       WHERE t.id = d.ledger_transaction_id AND t.idempotency_key = 'deposit:' || d.id)) AS linked,
                    (SELECT count(*)::int FROM ledger_transactions t WHERE t.idempotency_key = 'deposit:' || d.id) AS txs,
                    (SELECT count(*)::int FROM payment_webhook_events e
                       WHERE e.deposit_id = d.id AND e.outcome = 'processed') AS processed
             FROM deposits d`,
          )
          const players = yield* sql.unsafe<PlayerState>(
            `SELECT a.user_id::text AS "userId", a.balance::text AS balance,
                    (SELECT coalesce(sum(d.amount), 0) FROM deposits d
                       WHERE d.user_id = a.user_id AND d.status = 'completed')::text AS "completedSum",
                    (SELECT count(*)::int FROM ledger_entries e WHERE e.account_id = a.id) AS entries,
                    (SELECT count(*)::int FROM deposits d
                       WHERE d.user_id = a.user_id AND d.status = 'completed') AS completed
             FROM ledger_accounts a WHERE a.kind = 'player_cash'`,
          )
          const totals = yield* sql.unsafe<{ clearing: string; completedTotal: string }>(
            `SELECT (SELECT coalesce(sum(balance), 0) FROM ledger_accounts
                       WHERE kind = 'gateway_clearing')::text AS clearing,
                    (SELECT coalesce(sum(amount), 0) FROM deposits WHERE status = 'completed')::text AS "completedTotal"`,
          )
          const ledger = yield* checkLedger
          return {
            deposits,
            players,
            clearing: totals[0]?.clearing ?? "?",
            completedTotal: totals[0]?.completedTotal ?? "?",
            ledger,
          }
        }),
      )

    /** What must hold at any instant, killed or not: each deposit credited once or not at all. */
    const expectConsistent = (s: Snapshot, when: string) => {
      const broken = s.deposits.filter((d) =>
        d.status === "completed" ? !(d.linked && d.txs === 1 && d.processed === 1) : d.txs !== 0,
      )
      expect(broken, `${when}: deposits completed without their one credit, or credited uncompleted`).toEqual(
        [],
      )
      const drifted = s.players.filter((p) => p.balance !== p.completedSum || p.entries !== p.completed)
      expect(drifted, `${when}: player balances that are not the sum of their completed deposits`).toEqual([])
      expect(BigInt(s.clearing), `${when}: gateway clearing mirrors the credits`).toBe(
        -BigInt(s.completedTotal),
      )
      expect(s.ledger.clean, `${when}: ledger:check ${JSON.stringify(s.ledger)}`).toBe(true)
    }

    const post = (url: string, agent: ReturnType<typeof keepAliveAgent>, body: string) =>
      send(url, agent, {
        method: "POST",
        path: `/api/payments/webhooks/${PROVIDER}`,
        headers: {
          "content-type": "application/json",
          [SIGNATURE_HEADER]: signEvent(SECRET, Math.floor(Date.now() / 1000), body),
        },
        body,
      })

    const deliver = async (url: string, bodies: ReadonlyArray<string>): Promise<Array<string>> => {
      const agent = keepAliveAgent(CLIENTS)
      const refused: Array<string> = []
      let at = 0
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          for (let body = bodies[at++]; body !== undefined; body = bodies[at++]) {
            const res = await post(url, agent, body)
            if (res.status !== 200) refused.push(`${res.status} ${res.body.toString("utf8").slice(0, 200)}`)
          }
        }),
      )
      agent.destroy()
      return refused
    }

    let phase = performance.now()
    const lap = (): number => {
      const now = performance.now()
      const ms = Math.round(now - phase)
      phase = now
      return ms
    }
    server = await start()
    log(`setup and first start ${lap()} ms`)
    const settledBefore = new Set<string>()
    for (let round = 1; round <= ROUNDS; round++) {
      const mine = deposits.slice((round - 1) * DEPOSITS_PER_ROUND, round * DEPOSITS_PER_ROUND)
      const bodies = mine.map((d) => ({
        id: d.id,
        body: webhookBody({ reference: d.id, amount: d.amount, currency: "EUR" }),
      }))

      // The stream, and the kill after a random number of acknowledgements (10–70 % of the round).
      const killAfterAcks = Math.floor(DEPOSITS_PER_ROUND * (0.1 + 0.6 * random()))
      const target = server
      const agent = keepAliveAgent(CLIENTS)
      const acknowledged = new Set<string>()
      const unexpected: Array<string> = []
      let cutOff = 0
      let sent = 0
      let killed = false
      let next = 0
      const senders = Array.from({ length: CLIENTS }, async () => {
        while (!killed && next < bodies.length) {
          const item = bodies[next++]
          if (item === undefined) break
          sent++
          try {
            const res = await post(target.url, agent, item.body)
            if (res.status === 200) {
              acknowledged.add(item.id)
              if (!killed && acknowledged.size >= killAfterAcks) {
                killed = true
                target.child.kill("SIGKILL")
              }
            } else unexpected.push(`${item.id}: ${res.status} ${res.body.toString("utf8").slice(0, 200)}`)
          } catch {
            // The connection died with the process: the provider does not know; it will retry.
            cutOff++
            if (!killed) unexpected.push(`${item.id}: transport error before the kill`)
          }
        }
      })
      await Promise.all(senders)
      agent.destroy()
      const exit = await target.kill()
      const streamMs = lap()
      expect(exit.signal, "the server died of the SIGKILL").toBe("SIGKILL")
      expect(unexpected, "webhooks answered with something else than 200").toEqual([])
      expect(acknowledged.size).toBeGreaterThanOrEqual(killAfterAcks)

      // What the kill left (server down): every acknowledged credit there once — and every deposit
      // of the earlier rounds, settled by their retries —, nothing half-written.
      const afterKill = await snapshot()
      const completed = new Set(afterKill.deposits.filter((d) => d.status === "completed").map((d) => d.id))
      const lost = [...acknowledged, ...settledBefore].filter((id) => !completed.has(id))
      expect(lost, `round ${round}: acknowledged webhooks not credited after the kill`).toEqual([])
      expectConsistent(afterKill, `round ${round} after the kill`)
      const committedUnacked = mine.filter((d) => completed.has(d.id) && !acknowledged.has(d.id)).length
      const checkMs = lap()

      // Restart on the same data; the provider retries everything of the round (same event ids,
      // same bodies) and re-emits every 4th completion under a second event id: all answered 200.
      server = await start()
      const restartMs = lap()
      const retries = [
        ...bodies.map((b) => b.body),
        ...mine
          .filter((_, i) => i % 4 === 0)
          .map((d) => webhookBody({ reference: d.id, amount: d.amount, currency: "EUR" })),
      ]
      expect(await deliver(server.url, retries), "retried webhooks not answered 200").toEqual([])
      for (const d of mine) settledBefore.add(d.id)
      log(
        `round ${round}: killed after ${acknowledged.size} acknowledgements (target ${killAfterAcks}); ` +
          `${sent} sent, ${cutOff} cut off, ${committedUnacked} committed but unacknowledged; ` +
          `${retries.length} retries answered 200 — stream ${streamMs} ms, check ${checkMs} ms, ` +
          `restart ${restartMs} ms, retries ${lap()} ms`,
      )
    }

    // A graceful stop, then the whole database: every deposit credited exactly once.
    const last = server
    const stopped = await last.stop()
    expect(stopped.code, `graceful stop; output:\n${last.output()}`).toBe(0)
    const final = await snapshot()
    expect(final.deposits.filter((d) => d.status !== "completed")).toEqual([])
    expect(final.deposits.length).toBe(ROUNDS * DEPOSITS_PER_ROUND)
    expectConsistent(final, "at the end")
    // Each deposit's own transaction is counted exactly per deposit (`txs`, in expectConsistent);
    // the ledger holds other postings too (the games' jackpot pools are seeded at start).
    expect(final.deposits.every((d) => d.txs === 1)).toBe(true)
    log(`final check ${lap()} ms: ${final.ledger.transactions} ledger transactions, ledger:check clean`)
  }, 300_000)
})
