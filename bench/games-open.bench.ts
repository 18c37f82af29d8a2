/**
 * Game settlement latency under an OPEN-loop load: players arrive as a Poisson process at an
 * offered rate of rounds per second, whatever the server's answers take (a closed loop would slow
 * down with the server and hide its queueing). A round is a signed bet, then — once answered — its
 * win (0, 90 or 180 for a bet of 100), from a player not already in a round.
 *
 *   npm run bench:games-open                                  # 1,000 players, 200 rounds/s, 20 s
 *   npm run bench:games-open -- --rate=300 --seconds=30
 *   npm run bench:games-open -- --find-max                    # then steps the rate up (10 s each)
 *   npm run bench:games-open -- --batching=off                # each call in its own transaction
 *   npm run bench:games-open -- --db=pglite                   # the embedded default, in this process
 *
 * Prints the wallet call's p50 / p95 / p99 / max at the offered rate, the rate achieved, the CPU
 * per call of the server and of PostgreSQL, and (with --find-max) the highest offered rate whose
 * p99 stays within 50 ms, then pgbench's TPC-B-like figure on the same server and ledger:check.
 * A measurement: it asserts nothing about speed; it exits non-zero only on errors or drift.
 */
import { loadavg } from "node:os"
import { performance } from "node:perf_hooks"
import { setTimeout as sleep } from "node:timers/promises"
import { formatLedgerReport } from "../server/ledger/check.ts"
import {
  cpuSecondsOf,
  flag,
  type StagePlayer,
  startWalletStage,
  textFlag,
} from "../tests/support/wallet-stage.ts"
import { percentile, pgbenchInit, pgbenchRun } from "./pgbench.ts"

const PLAYERS = flag("players", 1000)
const RATE = flag("rate", 200)
const SECONDS = flag("seconds", 20)
const STEP_SECONDS = flag("step-seconds", 10)
const PGBENCH_SECONDS = flag("pgbench-seconds", 10)
const FIND_MAX = process.argv.includes("--find-max")
const BATCHING = textFlag("batching", "on")
const DB = textFlag("db", "postgres")
/** The latency bound the highest sustainable rate is searched for. */
const P99_BOUND_MS = 50

interface Step {
  readonly offered: number
  readonly achieved: number
  readonly rounds: number
  readonly calls: number
  readonly skipped: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly max: number
  readonly errors: ReadonlyMap<number, number>
  readonly serverCpuMs: number
  readonly pgCpuMs: number
  readonly callsPerCommit: number
}

const main = async (): Promise<number> => {
  const bench = await startWalletStage({
    name: "casino_bench_games_open",
    players: PLAYERS,
    backend: DB === "pglite" ? "pglite" : "postgres",
    env: { SETTLEMENT_BATCHING: BATCHING === "off" ? "false" : "true" },
  })
  const serverPid = bench.servers[0]?.pid ?? 0
  let roundSeq = 0
  const idle: Array<StagePlayer> = [...bench.players]

  /** Offers `rate` rounds/s for `seconds`: exponential gaps, never waiting for answers. */
  const step = async (rate: number, seconds: number): Promise<Step> => {
    const latencies: Array<number> = []
    const errors = new Map<number, number>()
    let skipped = 0
    let rounds = 0
    const timed = async (op: string, body: Record<string, unknown>) => {
      const t0 = performance.now()
      const { status } = await bench.call(op, body)
      latencies.push(performance.now() - t0)
      if (status !== 200) errors.set(status, (errors.get(status) ?? 0) + 1)
    }
    const round = async (p: StagePlayer) => {
      const roundId = `o-${roundSeq++}`
      const base = { sessionToken: p.token, playerId: p.id, currency: "EUR", roundId, gameId: bench.launchId }
      try {
        await timed("bet", { ...base, transactionId: `bet-${roundId}`, amount: "100" })
        await timed("win", {
          ...base,
          transactionId: `win-${roundId}`,
          amount: String((roundSeq % 3) * 90),
          roundClosed: true,
        })
        rounds++
      } finally {
        idle.push(p)
      }
    }
    const inFlight: Array<Promise<void>> = []
    const commitsBefore = await bench.commits()
    const backendsBefore = new Map((await bench.backends()).map((pid) => [pid, cpuSecondsOf(pid)] as const))
    const serverBefore = cpuSecondsOf(serverPid)
    const started = performance.now()
    const end = started + seconds * 1000
    let next = started
    while (next < end) {
      const wait = next - performance.now()
      if (wait > 1) await sleep(wait)
      const player = idle.shift()
      if (player === undefined) skipped++
      else inFlight.push(round(player))
      next += -Math.log(1 - Math.random()) * (1000 / rate)
    }
    await Promise.all(inFlight)
    const elapsed = (performance.now() - started) / 1000
    const serverCpu = cpuSecondsOf(serverPid) - serverBefore
    let pgCpu = 0
    for (const pid of await bench.backends()) pgCpu += cpuSecondsOf(pid) - (backendsBefore.get(pid) ?? 0)
    const commitsAfter = await bench.commits()
    const commits =
      commitsAfter === undefined || commitsBefore === undefined ? undefined : commitsAfter - commitsBefore
    latencies.sort((a, b) => a - b)
    const calls = latencies.length
    return {
      offered: rate,
      achieved: rounds / elapsed,
      rounds,
      calls,
      skipped,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? 0,
      errors,
      serverCpuMs: (serverCpu * 1000) / Math.max(1, calls),
      pgCpuMs: (pgCpu * 1000) / Math.max(1, calls),
      callsPerCommit: commits === undefined ? Number.NaN : calls / Math.max(1, commits),
    }
  }

  const line = (s: Step) =>
    `  offered ${s.offered} rounds/s → ${s.achieved.toFixed(0)} rounds/s (${s.calls} calls): ` +
    `p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms  max ${s.max.toFixed(0)} ms; ` +
    (bench.backend === "pglite"
      ? `CPU/call (one process: casino, PGlite, this client) ${s.serverCpuMs.toFixed(2)} ms; `
      : `CPU/call server ${s.serverCpuMs.toFixed(2)} ms, PostgreSQL ${s.pgCpuMs.toFixed(2)} ms; `) +
    (Number.isNaN(s.callsPerCommit) ? "" : `${s.callsPerCommit.toFixed(1)} calls/commit`) +
    (s.skipped > 0 ? `; ${s.skipped} arrivals found every player busy` : "") +
    (s.errors.size > 0 ? `; non-200: ${JSON.stringify(Object.fromEntries(s.errors))}` : "")

  try {
    let failed = false
    process.stdout.write(
      `game settlement, open loop: ${PLAYERS} players, Poisson arrivals (batching ${BATCHING}, load average ${loadavg()[0]?.toFixed(1)})\n`,
    )
    const main = await step(RATE, SECONDS)
    failed ||= main.errors.size > 0
    process.stdout.write(`${line(main)}\n`)
    if (FIND_MAX) {
      let best: number | undefined = main.p99 <= P99_BOUND_MS ? RATE : undefined
      let rate = main.p99 <= P99_BOUND_MS ? Math.round(RATE * 1.25) : Math.round(RATE * 0.7)
      for (let i = 0; i < 12 && rate >= 10; i++) {
        const s = await step(rate, STEP_SECONDS)
        failed ||= s.errors.size > 0
        process.stdout.write(`${line(s)}\n`)
        if (s.p99 <= P99_BOUND_MS && s.achieved >= rate * 0.95) {
          best = Math.max(best ?? 0, rate)
          if (main.p99 > P99_BOUND_MS) break
          rate = Math.round(rate * 1.25)
        } else {
          if (best !== undefined) break
          rate = Math.round(rate * 0.7)
        }
      }
      process.stdout.write(
        `  highest offered rate with p99 ≤ ${P99_BOUND_MS} ms: ${best === undefined ? "none found" : `${best} rounds/s (${best * 2} wallet calls/s)`}\n`,
      )
    }
    if (PGBENCH_SECONDS > 0 && bench.dbUrl !== undefined) {
      await pgbenchInit(bench.dbUrl)
      const tps = await pgbenchRun(bench.dbUrl, PGBENCH_SECONDS)
      process.stdout.write(
        `pgbench TPC-B-like (scale 10, 16 clients, 2 threads, ${PGBENCH_SECONDS} s), same server: ${tps} tps\n`,
      )
    }
    const report = await bench.checkLedger()
    process.stdout.write(`${formatLedgerReport(report).trimEnd()}\n`)
    return !failed && report.clean ? 0 : 1
  } finally {
    await bench.close()
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench:games-open: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    )
    process.exit(2)
  },
)
