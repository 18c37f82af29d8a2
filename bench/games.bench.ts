/**
 * Game settlement throughput: signed seamless-wallet calls (a bet, then its win) → ledger postings,
 * against the real server PROCESS on PostgreSQL, 200 concurrent players (each playing its rounds one
 * after the other, as a game does), printed beside pgbench's TPC-B-like figure measured in the same
 * run on the same database server (our goal: at least half of it).
 *
 *   npm run bench:games                                    # 200 players × 20 rounds (8,000 calls)
 *   npm run bench:games -- --players=200 --rounds=50 --pgbench-seconds=20
 *   npm run bench:games -- --batching=off     # each call in its own transaction (the old path)
 *   npm run bench:games -- --db=pglite        # the embedded default (in this process; no pgbench)
 *
 * Calls arriving together settle in one SQL transaction (docs/ledger.md#batched-settlement); the
 * bench prints how many calls a commit carried (pg_stat_database), besides the CPU per call.
 * A fresh database on TEST_DATABASE_URL's server, dropped afterwards. Ends with ledger:check.
 * A measurement: it asserts nothing about speed; it exits non-zero only on errors or drift.
 */
import { loadavg } from "node:os"
import { performance } from "node:perf_hooks"
import { setTimeout as sleep } from "node:timers/promises"
import { formatLedgerReport } from "../server/ledger/check.ts"
import { runSql } from "../tests/support/databases.ts"
import { cpuSecondsOf, flag, startWalletStage, textFlag } from "../tests/support/wallet-stage.ts"
import { percentile, pgbenchInit, pgbenchRun } from "./pgbench.ts"

const PLAYERS = flag("players", 200)
const ROUNDS = flag("rounds", 20)
const PGBENCH_SECONDS = flag("pgbench-seconds", 10)
const BATCHING = textFlag("batching", "on")
const DB = textFlag("db", "postgres")

const main = async (): Promise<number> => {
  const bench = await startWalletStage({
    name: "casino_bench_games",
    players: PLAYERS,
    backend: DB === "pglite" ? "pglite" : "postgres",
    env: { SETTLEMENT_BATCHING: BATCHING === "off" ? "false" : "true" },
  })
  const serverPid = bench.servers[0]?.pid ?? 0
  try {
    const latencies: Array<number> = []
    const errors = new Map<number, number>()
    const call = async (op: string, body: Record<string, unknown>) => {
      const t0 = performance.now()
      const { status } = await bench.call(op, body)
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
          gameId: bench.launchId,
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
    const commitsBefore = await bench.commits()
    const pgBefore = new Map((await bench.backends()).map((pid) => [pid, cpuSecondsOf(pid)] as const))
    const serverBefore = cpuSecondsOf(serverPid)
    const clientBefore = process.cpuUsage()
    const started = performance.now()
    await Promise.all(bench.players.map(play))
    const seconds = (performance.now() - started) / 1000
    const serverCpu = cpuSecondsOf(serverPid) - serverBefore
    const commitsAfter = await bench.commits()
    const commits =
      commitsAfter === undefined || commitsBefore === undefined ? undefined : commitsAfter - commitsBefore
    const client = process.cpuUsage(clientBefore)
    const clientCpu = (client.user + client.system) / 1e6
    let pgCpu = 0
    for (const pid of await bench.backends()) pgCpu += cpuSecondsOf(pid) - (pgBefore.get(pid) ?? 0)
    latencies.sort((a, b) => a - b)
    const calls = PLAYERS * ROUNDS * 2

    // pgbench TPC-B-like on the same PostgreSQL server, same database, same run. The CPU its
    // backends use per transaction is sampled between its first and its last second.
    const pgbench = async (url: string) => {
      await pgbenchInit(url)
      const pgbenchBackends = async () =>
        new Map(
          (
            await runSql<{ pid: number }>(
              url,
              "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'pgbench'",
            )
          ).map((r) => [r.pid, cpuSecondsOf(r.pid)] as const),
        )
      const running = pgbenchRun(url, PGBENCH_SECONDS)
      await sleep(1000)
      const pgbenchStart = await pgbenchBackends()
      const windowStart = performance.now()
      await sleep(Math.max(1, PGBENCH_SECONDS - 2) * 1000)
      let pgbenchCpu = 0
      for (const pid of pgbenchStart.keys()) pgbenchCpu += cpuSecondsOf(pid) - (pgbenchStart.get(pid) ?? 0)
      const window = (performance.now() - windowStart) / 1000
      const tps = await running
      return { tps, cpuPerTx: Number(tps) > 0 ? (pgbenchCpu * 1000) / (Number(tps) * window) : Number.NaN }
    }
    const reference = bench.dbUrl === undefined ? undefined : await pgbench(bench.dbUrl)

    const report = await bench.checkLedger()
    const f = (ms: number) => `${ms.toFixed(1)} ms`
    const perCall = (cpu: number) => `${((cpu * 1000) / calls).toFixed(2)} ms`
    process.stdout.write(
      [
        `game settlement (signed wallet call → ledger), ${PLAYERS} concurrent players × ${ROUNDS} rounds (bet + win)`,
        `  throughput: ${(calls / seconds).toFixed(0)} settlements/s (${calls} calls in ${seconds.toFixed(1)} s)`,
        `  latency: p50 ${f(percentile(latencies, 50))}  p95 ${f(percentile(latencies, 95))}  p99 ${f(percentile(latencies, 99))}  max ${f(latencies.at(-1) ?? 0)}`,
        bench.backend === "pglite"
          ? `  CPU per call: server, PGlite and bench client together (one process) ${perCall(serverCpu)} (load average ${loadavg()[0]?.toFixed(1)})`
          : `  CPU per call: server ${perCall(serverCpu)}, PostgreSQL backends ${perCall(pgCpu)}, bench client ${perCall(clientCpu)} (load average ${loadavg()[0]?.toFixed(1)})`,
        commits === undefined
          ? `  batching ${BATCHING}`
          : `  ${(calls / Math.max(1, commits)).toFixed(1)} calls per commit (${commits} commits; batching ${BATCHING})`,
        `  non-200 answers: ${errors.size === 0 ? "none" : JSON.stringify(Object.fromEntries(errors))}`,
        ...(reference === undefined
          ? ["PGlite: no pgbench beside it (it is embedded in the casino's process)"]
          : [
              `pgbench TPC-B-like (scale 10, 16 clients, 2 threads, ${PGBENCH_SECONDS} s), same server: ${reference.tps} tps`,
              `  CPU per transaction: PostgreSQL backends ${reference.cpuPerTx.toFixed(2)} ms`,
              `settlements / pgbench: ${((calls / seconds / Number(reference.tps)) * 100).toFixed(1)} %`,
            ]),
        formatLedgerReport(report).trimEnd(),
        "",
      ].join("\n"),
    )
    return errors.size === 0 && report.clean ? 0 : 1
  } finally {
    await bench.close()
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
