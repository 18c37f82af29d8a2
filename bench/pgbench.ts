/**
 * What the money benchmarks share: the percentile of sorted latencies, and PostgreSQL's own
 * TPC-B-like figure (pgbench, scale 10, 16 clients, 2 threads) on the same database in the same run,
 * so a settlement figure is always read beside what this machine's PostgreSQL can do.
 */
import { execFile } from "node:child_process"
import { promisify } from "node:util"

const run = promisify(execFile)

/** The p-th percentile (0–100, nearest rank) of ascending samples; 0 for none. */
export const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0

/** pgbench's tables at scale 10 on `url`. */
export const pgbenchInit = async (url: string): Promise<void> => {
  await run("/usr/bin/pgbench", ["-i", "-q", "-s", "10", url], { maxBuffer: 16 * 1024 * 1024 })
}

/** pgbench's TPC-B-like tps on an initialised `url` for `seconds` ("?" when its output has none). */
export const pgbenchRun = async (url: string, seconds: number): Promise<string> => {
  const pgb = await run("/usr/bin/pgbench", ["-c", "16", "-j", "2", "-T", String(seconds), url], {
    maxBuffer: 16 * 1024 * 1024,
  })
  return /tps = ([\d.]+)/.exec(pgb.stdout)?.[1] ?? "?"
}

/** pgbench's TPC-B-like tps on `url` for `seconds` ("?" when its output has none). */
export const pgbenchTpcB = async (url: string, seconds: number): Promise<string> => {
  await pgbenchInit(url)
  return pgbenchRun(url, seconds)
}
