/**
 * Game settlement throughput: signed seamless-wallet calls (a bet, then its win) → ledger postings,
 * against the real server PROCESS on PostgreSQL, 200 concurrent players (each playing its rounds one
 * after the other, as a game does), printed beside pgbench's TPC-B-like figure measured in the same
 * run on the same database server (our goal: at least half of it).
 *
 *   npm run bench:games                                    # 200 players × 20 rounds (8,000 calls)
 *   npm run bench:games -- --players=200 --rounds=50 --pgbench-seconds=20
 *
 * A bet is one SQL transaction (claim the call's id, lock the player, post player −bet / house
 * +bet, add it to the round, store the answer); a win the same with player +win / house −win.
 * A fresh database on TEST_DATABASE_URL's server, dropped afterwards. Ends with ledger:check.
 * A measurement: it asserts nothing about speed; it exits non-zero only on errors or drift.
 */
import { createHmac, randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { Agent, request } from "node:http"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { setTimeout as sleep } from "node:timers/promises"
import { Effect, Layer } from "effect"
import { studioProviderEntry } from "../compose/parties/studio.ts"
import { makeDbLayer } from "../lib/db/client.ts"
import { loadStudioConfig } from "../providers/game-studio/config.ts"
import { studioCredentials } from "../providers/game-studio/credentials.ts"
import { startStudio } from "../providers/game-studio/server.ts"
import { tokenHash } from "../server/games/rules.ts"
import { checkLedger, formatLedgerReport } from "../server/ledger/check.ts"
import { Ledger } from "../server/ledger/Ledger.ts"
import { createDatabase, probePostgres, runSql } from "../tests/support/databases.ts"
import { freePort, startServerProcess } from "../tests/support/server.ts"
import { percentile, pgbenchInit, pgbenchRun } from "./pgbench.ts"

/** CPU seconds (user + system) a process has used, from /proc (Linux); 0 when unreadable. */
const cpuSecondsOf = (pid: number): number => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
    // Fields 14 and 15 (utime, stime) in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

const flag = (name: string, def: number): number => {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`))
  return arg === undefined ? def : Number(arg.split("=")[1])
}
const PLAYERS = flag("players", 200)
const ROUNDS = flag("rounds", 20)
const PGBENCH_SECONDS = flag("pgbench-seconds", 10)
// The studio's keys derive from its secret: the bench signs as the studio (a sandbox) would.
const STUDIO_SECRET = "bench-studio-secret-0123456789abcdef"
const STUDIO_KEYS = studioCredentials(STUDIO_SECRET, { sandbox: true })
const WALLET_SECRET = STUDIO_KEYS.walletSecret

const sign = (body: string) => {
  const t = Math.floor(Date.now() / 1000)
  return `t=${t},v1=${createHmac("sha256", WALLET_SECRET).update(`${t}.${body}`).digest("hex")}`
}

const main = async (): Promise<number> => {
  const problem = await probePostgres()
  if (problem !== undefined) {
    process.stderr.write(`bench:games needs PostgreSQL (TEST_DATABASE_URL): ${problem}\n`)
    return 2
  }
  const db = await createDatabase("casino_bench_games")
  const dataDir = await mkdtemp(join(tmpdir(), "casino-bench-games-"))
  // The studio publishes the games list (in this process, its own schema on the bench's database);
  // the casino (its own process, measured) is told about it as about any provider.
  const casinoPort = await freePort()
  const studio = await startStudio(
    loadStudioConfig({
      NODE_ENV: "test",
      STUDIO_PORT: String(await freePort()),
      STUDIO_HOST: "127.0.0.1",
      STUDIO_DATA_DIR: join(dataDir, "studio"),
      STUDIO_DATABASE_URL: db.url,
      STUDIO_SECRET,
      STUDIO_WALLET_URL: `http://127.0.0.1:${casinoPort}/api/games/wallet/studio`,
      STUDIO_LOG_LEVEL: "Warn",
    }),
  )
  const server = await startServerProcess({
    dataDir,
    port: casinoPort,
    databaseUrl: db.url,
    env: {
      CAPTCHA: "off",
      LOG_LEVEL: "Warn",
      SANDBOX_SECRET: "b".repeat(40),
      GAME_PROVIDERS: JSON.stringify([studioProviderEntry(studio.url, STUDIO_KEYS)]),
    },
  }).catch(async (error: unknown) => {
    await studio.close()
    throw error
  })
  const dbLayer = Layer.orDie(makeDbLayer({ databaseUrl: db.url, dataDir }))
  try {
    const users = await runSql<{ id: string }>(
      db.url,
      `INSERT INTO users (email, password_hash, full_name, currency)
       SELECT 'bench' || g || '@example.com', 'x', 'Bench Player', 'EUR' FROM generate_series(1, ${PLAYERS}) g
       RETURNING id::text AS id`,
    )
    await runSql(
      db.url,
      "INSERT INTO wallets (user_id, currency, is_default) SELECT id, 'EUR', true FROM users",
    )
    // The games list arrives from the studio through the protocol once its RTPs are computed: the
    // lobby call waits for it.
    const lobby = await fetch(`${server.url}/game-aggregator-service/api/v1/games-and-categories/EUR`)
    if (!lobby.ok) throw new Error(`the lobby answered ${lobby.status}`)
    const [game] = await runSql<{ id: string; launch_id: string }>(
      db.url,
      "SELECT id, launch_id FROM games WHERE jackpot_id IS NULL AND active ORDER BY sort LIMIT 1",
    )
    if (game === undefined) throw new Error("no game listed by the studio")
    // Every player starts with 1,000.00 EUR, booked by the ledger (as a deposit would).
    await Effect.runPromise(
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const clearing = yield* ledger.systemAccountId("gateway_clearing", "bench", "EUR")
        for (const u of users) {
          const account = yield* ledger.playerAccount(u.id, "EUR")
          if (account === undefined) return yield* Effect.die(new Error("no wallet"))
          yield* ledger.post({
            kind: "deposit",
            idempotencyKey: `bench-credit:${u.id}`,
            entries: [
              { accountId: clearing, currency: "EUR", amount: -100_000n },
              { accountId: account.id, currency: "EUR", amount: 100_000n },
            ],
          })
        }
      }).pipe(Effect.provide(Ledger.layer), Effect.provide(dbLayer), Effect.scoped, Effect.orDie),
    )
    const players = []
    for (const u of users) {
      const token = randomUUID().replace(/-/g, "") + randomUUID().replace(/-/g, "")
      const [session] = await runSql<{ id: string }>(
        db.url,
        `INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ('bench-${randomUUID()}', '${u.id}', now() + interval '1 day') RETURNING id::text AS id`,
      )
      await runSql(
        db.url,
        `INSERT INTO game_sessions (token_hash, user_id, casino_session_id, currency, game_id, integration, expires_at)
         VALUES ('${tokenHash(token)}', '${u.id}', '${session?.id}', 'EUR', '${game.id}', 'studio', now() + interval '1 day')`,
      )
      players.push({ id: u.id, token })
    }

    const latencies: Array<number> = []
    const errors = new Map<number, number>()
    // node:http on keep-alive connections (one per player at most): cheaper per call than fetch
    // (undici's web streams), and this client shares the server's two cores.
    const agent = new Agent({ keepAlive: true, maxSockets: PLAYERS })
    const target = new URL(server.url)
    const post = (path: string, raw: string, signature: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            agent,
            host: target.hostname,
            port: target.port,
            path,
            method: "POST",
            headers: {
              "content-type": "application/json",
              "content-length": Buffer.byteLength(raw),
              "x-signature": signature,
            },
          },
          (res) => {
            res.on("data", () => {})
            res.on("end", () => resolve(res.statusCode ?? 0))
            res.on("error", reject)
          },
        )
        req.on("error", reject)
        req.end(raw)
      })
    const call = async (op: string, body: Record<string, unknown>) => {
      const raw = JSON.stringify(body)
      const t0 = performance.now()
      const status = await post(`/api/games/wallet/studio/${op}`, raw, sign(raw))
      latencies.push(performance.now() - t0)
      if (status !== 200) errors.set(status, (errors.get(status) ?? 0) + 1)
    }
    const play = async (p: { id: string; token: string }, index: number) => {
      for (let r = 0; r < ROUNDS; r++) {
        const roundId = `b-${index}-${r}`
        const base = {
          sessionToken: p.token,
          playerId: p.id,
          currency: "EUR",
          roundId,
          gameId: game.launch_id,
        }
        await call("bet", { ...base, transactionId: `bet-${roundId}`, amount: "100" })
        await call("win", {
          ...base,
          transactionId: `win-${roundId}`,
          amount: String((r % 3) * 90),
          roundClosed: true,
        })
      }
    }
    // Where the CPU goes: the server process, the PostgreSQL backends serving its pool (and any
    // other backend of this database), and this client (HTTP, HMAC, JSON).
    const backends = async () =>
      (
        await runSql<{ pid: number }>(
          db.url,
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
      ).map((r) => r.pid)
    // Warm the pool so its backends exist before the first sample.
    await Promise.all(
      players
        .slice(0, 20)
        .map((p) => call("balance", { sessionToken: p.token, playerId: p.id, currency: "EUR" })),
    )
    latencies.length = 0
    const pgBefore = new Map((await backends()).map((pid) => [pid, cpuSecondsOf(pid)] as const))
    const serverBefore = cpuSecondsOf(server.pid)
    const clientBefore = process.cpuUsage()
    const started = performance.now()
    await Promise.all(players.map(play))
    const seconds = (performance.now() - started) / 1000
    const serverCpu = cpuSecondsOf(server.pid) - serverBefore
    const client = process.cpuUsage(clientBefore)
    const clientCpu = (client.user + client.system) / 1e6
    let pgCpu = 0
    for (const pid of await backends()) pgCpu += cpuSecondsOf(pid) - (pgBefore.get(pid) ?? 0)
    agent.destroy()
    latencies.sort((a, b) => a - b)
    const calls = PLAYERS * ROUNDS * 2

    // pgbench TPC-B-like on the same PostgreSQL server, same database, same run. The CPU its
    // backends use per transaction is sampled between its first and its last second.
    await pgbenchInit(db.url)
    const pgbenchBackends = async () =>
      new Map(
        (
          await runSql<{ pid: number }>(
            db.url,
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'pgbench'",
          )
        ).map((r) => [r.pid, cpuSecondsOf(r.pid)] as const),
      )
    const pgbench = pgbenchRun(db.url, PGBENCH_SECONDS)
    await sleep(1000)
    const pgbenchStart = await pgbenchBackends()
    const windowStart = performance.now()
    await sleep(Math.max(1, PGBENCH_SECONDS - 2) * 1000)
    let pgbenchCpu = 0
    for (const pid of pgbenchStart.keys()) pgbenchCpu += cpuSecondsOf(pid) - (pgbenchStart.get(pid) ?? 0)
    const window = (performance.now() - windowStart) / 1000
    const tps = await pgbench
    const pgbenchCpuPerTx = Number(tps) > 0 ? (pgbenchCpu * 1000) / (Number(tps) * window) : Number.NaN

    const report = await Effect.runPromise(checkLedger.pipe(Effect.provide(dbLayer), Effect.scoped))
    const f = (ms: number) => `${ms.toFixed(1)} ms`
    const perCall = (cpu: number) => `${((cpu * 1000) / calls).toFixed(2)} ms`
    process.stdout.write(
      [
        `game settlement (signed wallet call → ledger), ${PLAYERS} concurrent players × ${ROUNDS} rounds (bet + win)`,
        `  throughput: ${(calls / seconds).toFixed(0)} settlements/s (${calls} calls in ${seconds.toFixed(1)} s)`,
        `  latency: p50 ${f(percentile(latencies, 50))}  p95 ${f(percentile(latencies, 95))}  p99 ${f(percentile(latencies, 99))}  max ${f(latencies.at(-1) ?? 0)}`,
        `  CPU per call: server ${perCall(serverCpu)}, PostgreSQL backends ${perCall(pgCpu)}, bench client ${perCall(clientCpu)} (load average ${loadavg()[0]?.toFixed(1)})`,
        `  non-200 answers: ${errors.size === 0 ? "none" : JSON.stringify(Object.fromEntries(errors))}`,
        `pgbench TPC-B-like (scale 10, 16 clients, 2 threads, ${PGBENCH_SECONDS} s), same server: ${tps} tps`,
        `  CPU per transaction: PostgreSQL backends ${pgbenchCpuPerTx.toFixed(2)} ms`,
        `settlements / pgbench: ${((calls / seconds / Number(tps)) * 100).toFixed(1)} %`,
        formatLedgerReport(report).trimEnd(),
        "",
      ].join("\n"),
    )
    return errors.size === 0 && report.clean ? 0 : 1
  } finally {
    await server.stop()
    await studio.close()
    await db.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench:games: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    )
    process.exit(2)
  },
)
