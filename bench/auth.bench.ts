/**
 * Throughput and latency of the account-access endpoints against the real server.
 *   npm run bench                                  # embedded PGlite in a temp dir
 *   BENCH_DATABASE_URL=postgres://… npm run bench  # an existing, empty PostgreSQL database
 * Each scenario runs CONCURRENCY clients in a loop for SECONDS and prints req/s with p50/p99.
 * A benchmark, not a test: it asserts nothing about speed; it fails only if a request fails.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { makeServer } from "../server/app.ts"
import { loadConfig } from "../server/config.ts"

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3)

const dataDir = await mkdtemp(join(tmpdir(), "casino-bench-"))
const config = loadConfig({
  PORT: "0",
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  CAPTCHA: "off",
  LOG_LEVEL: "Error",
  RATE_LIMIT_SCALE: "100000",
  ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
})
const server = await makeServer(config)
const headers = { "content-type": "application/json", origin: config.publicUrl }

const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
  const response = await fetch(`${server.url}${path}`, init)
  if (!response.ok)
    throw new Error(`${init.method ?? "GET"} ${path} → ${response.status} ${await response.text()}`)
  return response
}

const email = `bench-${Date.now()}@example.com`
const password = "bench password 1"
const registered = await call("/user-service/api/v1/registration", {
  method: "POST",
  headers,
  body: JSON.stringify({
    email,
    password,
    fullName: "Bench Player",
    terms: true,
    language: "en",
    currency: "EUR",
    captcha: "",
  }),
})
const cookie = (registered.headers.get("set-cookie") ?? "").split(";")[0] ?? ""

const scenarios: ReadonlyArray<{ name: string; run: () => Promise<unknown> }> = [
  { name: "GET currentIp (GeoIP)", run: () => call("/ip-service/api/v1/user/currentIp") },
  {
    name: "POST isAuthenticated (session lookup)",
    run: () =>
      call("/user-service/api/v1/isAuthenticated", { method: "POST", headers: { ...headers, cookie } }),
  },
  {
    name: "POST registration/validate",
    run: () =>
      call("/user-service/api/v1/registration/validate", {
        method: "POST",
        headers,
        body: JSON.stringify({ email: "someone@example.com" }),
      }),
  },
  {
    name: "POST signin (argon2id verify)",
    run: () =>
      call("/user-service/api/v1/signin", {
        method: "POST",
        headers,
        body: JSON.stringify({ email, password, captcha: "" }),
      }),
  },
]

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

console.log(
  `casino bench: ${CONCURRENCY} clients × ${SECONDS}s per scenario, database: ${config.databaseUrl ? "PostgreSQL" : "PGlite"}`,
)
console.log("| scenario | requests | req/s | p50 ms | p99 ms |")
console.log("|---|---:|---:|---:|---:|")
try {
  for (const scenario of scenarios) {
    const latencies: Array<number> = []
    const deadline = performance.now() + SECONDS * 1000
    const started = performance.now()
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < deadline) {
          const t0 = performance.now()
          await scenario.run()
          latencies.push(performance.now() - t0)
        }
      }),
    )
    const elapsed = (performance.now() - started) / 1000
    latencies.sort((a, b) => a - b)
    console.log(
      `| ${scenario.name} | ${latencies.length} | ${(latencies.length / elapsed).toFixed(0)} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} |`,
    )
  }
} finally {
  await server.close()
  await rm(dataDir, { recursive: true, force: true })
}
