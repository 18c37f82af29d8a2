/**
 * Bounded load run: mixed account traffic from many concurrent clients against the real server
 * PROCESS on loopback, for a fixed time. Prints throughput (overall and per kind), p50/p95/p99
 * latency, errors by status, and the server's RSS before, during and after.
 *
 *   npm run bench:load                                # PostgreSQL when reachable, else PGlite
 *   npm run bench:load -- --pglite                    # the embedded database
 *   npm run bench:load -- --duration=10 --clients=20  # shorter, fewer clients
 *   npm run bench:load -- --rounds=3                  # the same traffic 3× back to back (RSS per round)
 *   npm run bench:load -- --only=cdn,currentIp        # only these kinds in the loop (to isolate one)
 *
 * PostgreSQL: a fresh database on TEST_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres),
 * dropped afterwards. The server runs with CAPTCHA=off and relaxed rate limits (RATE_LIMIT_SCALE) so
 * the traffic measures the work, not the refusals. A measurement: it asserts nothing about speed;
 * it exits non-zero only if the server cannot start or dies.
 *
 * Each client is one player: it boots like the app (country, CDN files, session check), registers
 * once, then loops over a weighted mix of what a signed-in or returning player does.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { cpus, loadavg, tmpdir, totalmem } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import {
  createDatabase,
  probePostgres,
  seedPgliteDataDir,
  type TestDatabase,
} from "../tests/support/databases.ts"
import { cookieFrom, keepAliveAgent, type RawRequest, send } from "../tests/support/http.ts"
import { startServerProcess } from "../tests/support/server.ts"

const flag = (name: string): string | undefined => {
  const arg = process.argv.slice(2).find((a) => a === `--${name}` || a.startsWith(`--${name}=`))
  return arg === undefined ? undefined : (arg.split("=")[1] ?? "true")
}
const DURATION_S = Number(flag("duration") ?? process.env.LOAD_DURATION ?? 30)
const CLIENTS = Number(flag("clients") ?? process.env.LOAD_CLIENTS ?? 50)
const FORCE_PGLITE = flag("pglite") !== undefined
const ROUNDS = Math.max(1, Number(flag("rounds") ?? 1))
const USER = "/user-service/api/v1"
const PROFILE = "/profile-service/api/v1"
const PASSWORD = "load test password 1"
const json = { "content-type": "application/json" }

/** CPU seconds (user + system) a process has used so far (Linux), or NaN. */
const cpuSecondsOf = async (pid: number): Promise<number> => {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    // Fields 14 and 15 (utime, stime) in clock ticks; Linux reports them at 100 per second.
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return Number.NaN
  }
}

/** VmRSS / VmHWM of a process in MiB (Linux), or NaN. */
const memoryOf = async (pid: number): Promise<{ rss: number; peak: number }> => {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8")
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN)
    return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 }
  } catch {
    return { rss: Number.NaN, peak: Number.NaN }
  }
}

// ── Setup ────────────────────────────────────────────────────────────────────────────────────

let database: TestDatabase | undefined
if (!FORCE_PGLITE) {
  const problem = await probePostgres()
  if (problem === undefined) database = await createDatabase("casino_load")
  else console.log(`PostgreSQL unreachable (${problem}): using the embedded PGlite`)
}
const dataDir = await mkdtemp(join(tmpdir(), "casino-load-"))
if (database === undefined) await seedPgliteDataDir(dataDir)
// The SPA is not part of this run; a stand-in keeps the server from depending on `vite build`.
await mkdir(join(dataDir, "app"), { recursive: true })
await writeFile(join(dataDir, "app", "index.html"), "<!doctype html><title>load</title>")

const server = await startServerProcess({
  dataDir,
  databaseUrl: database?.url,
  env: { CAPTCHA: "off", RATE_LIMIT_SCALE: "1000000", LOG_LEVEL: "Error", STATIC_DIR: join(dataDir, "app") },
})
const agent = keepAliveAgent(CLIENTS)
const call = (req: RawRequest) => send(server.url, agent, req)

// ── The traffic ──────────────────────────────────────────────────────────────────────────────

interface Kind {
  readonly name: string
  /** Relative frequency in a player's loop. */
  readonly weight: number
  /** Statuses that mean "worked" for this call. */
  readonly ok: ReadonlySet<number>
}

const kinds = {
  currentIp: { name: "GET currentIp", weight: 15, ok: new Set([200]) },
  cdn: { name: "GET CDN file", weight: 20, ok: new Set([200]) },
  isAuthenticated: { name: "POST isAuthenticated", weight: 25, ok: new Set([200]) },
  profile: { name: "GET profile / fund", weight: 12, ok: new Set([200]) },
  signIn: { name: "POST signin", weight: 8, ok: new Set([200]) },
  signOut: { name: "DELETE signout", weight: 4, ok: new Set([204]) },
  forgot: { name: "POST forgot-password", weight: 6, ok: new Set([200]) },
  register: { name: "POST registration", weight: 3, ok: new Set([200]) },
  validate: { name: "POST registration/validate", weight: 7, ok: new Set([200]) },
} satisfies Record<string, Kind>
type KindKey = keyof typeof kinds

const cdnFiles = ["restricted-countries.json", "site-config.json", "currencies.json", "country-codes.json"]

interface Sample {
  readonly kind: KindKey
  readonly ms: number
  /** HTTP status, or 0 for a transport error. */
  readonly status: number
}
const samples: Array<Sample> = []
let registrations = 0

const timed = async (kind: KindKey, req: RawRequest): Promise<{ status: number; cookie?: string }> => {
  const t0 = performance.now()
  try {
    const res = await call(req)
    samples.push({ kind, ms: performance.now() - t0, status: res.status })
    const cookie = cookieFrom(res, "casino_session")
    return cookie === undefined ? { status: res.status } : { status: res.status, cookie }
  } catch {
    samples.push({ kind, ms: performance.now() - t0, status: 0 })
    return { status: 0 }
  }
}

const registerBody = (email: string) =>
  JSON.stringify({
    email,
    password: PASSWORD,
    fullName: "Load Player",
    terms: true,
    language: "en",
    currency: "EUR",
    captcha: "",
  })

/** `--only=cdn,currentIp` restricts the loop to those kinds (the boot and first registration still run). */
const only = flag("only")?.split(",")
const mix = (Object.entries(kinds) as Array<[KindKey, Kind]>).filter(
  ([key]) => only === undefined || only.includes(key),
)
if (mix.length === 0)
  throw new Error(`--only: none of ${only?.join(",")} is one of ${Object.keys(kinds).join(",")}`)
const totalWeight = mix.reduce((n, [, k]) => n + k.weight, 0)
const pick = (): KindKey => {
  let r = Math.random() * totalWeight
  for (const [key, kind] of mix) {
    r -= kind.weight
    if (r < 0) return key
  }
  return mix[0]?.[0] ?? "isAuthenticated"
}

const player = async (id: number, deadline: number): Promise<void> => {
  const email = `load.${id}.${Date.now()}@example.com`
  let cookie: string | undefined
  // Boot like the app: country, CDN files, session check; then register.
  await timed("currentIp", { method: "GET", path: "/ip-service/api/v1/user/currentIp" })
  await timed("cdn", { method: "GET", path: "/cdn/restricted-countries.json" })
  await timed("isAuthenticated", { method: "POST", path: `${USER}/isAuthenticated` })
  const reg = await timed("register", {
    method: "POST",
    path: `${USER}/registration`,
    headers: json,
    body: registerBody(email),
  })
  cookie = reg.cookie
  let n = 0
  while (performance.now() < deadline) {
    const kind = pick()
    const session: Record<string, string> = cookie === undefined ? {} : { cookie }
    n++
    switch (kind) {
      case "currentIp":
        await timed(kind, { method: "GET", path: "/ip-service/api/v1/user/currentIp" })
        break
      case "cdn":
        await timed(kind, { method: "GET", path: `/cdn/${cdnFiles[n % cdnFiles.length]}` })
        break
      case "isAuthenticated":
        await timed(kind, { method: "POST", path: `${USER}/isAuthenticated`, headers: session })
        break
      case "profile":
        if (cookie === undefined) {
          await timed("isAuthenticated", { method: "POST", path: `${USER}/isAuthenticated` })
        } else {
          await timed(kind, {
            method: "GET",
            path: n % 2 === 0 ? `${PROFILE}/profile` : `${PROFILE}/profile/currency`,
            headers: session,
          })
        }
        break
      case "signIn": {
        const res = await timed(kind, {
          method: "POST",
          path: `${USER}/signin`,
          headers: { ...json, ...session },
          body: JSON.stringify({ email, password: PASSWORD, captcha: "" }),
        })
        if (res.cookie !== undefined) cookie = res.cookie
        break
      }
      case "signOut":
        await timed(kind, { method: "DELETE", path: `${USER}/signout`, headers: session })
        cookie = undefined
        break
      case "forgot":
        await timed(kind, {
          method: "POST",
          path: `${USER}/forgot-password`,
          headers: json,
          body: JSON.stringify({ email }),
        })
        break
      case "register": {
        registrations++
        // A new account from the same client (another player on a shared device).
        await timed(kind, {
          method: "POST",
          path: `${USER}/registration`,
          headers: json,
          body: registerBody(`load.${id}.${n}.${Date.now()}@example.com`),
        })
        break
      }
      case "validate":
        await timed(kind, {
          method: "POST",
          path: `${USER}/registration/validate`,
          headers: json,
          body: JSON.stringify({ email: n % 3 === 0 ? "someone@mailinator.com" : email }),
        })
        break
    }
  }
}

// ── Run ──────────────────────────────────────────────────────────────────────────────────────

const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
const f1 = (n: number) => n.toFixed(1)

let exitCode = 0
try {
  // Warm-up (JIT, pools, first argon2) so "before" is the steady state of an idle, started server.
  for (let i = 0; i < 20; i++) await call({ method: "GET", path: "/ip-service/api/v1/user/currentIp" })
  const before = await memoryOf(server.pid)
  const rssSeries: Array<number> = []
  const sampler = setInterval(() => {
    void memoryOf(server.pid).then((m) => rssSeries.push(m.rss))
  }, 1_000)
  const serverCpuBefore = await cpuSecondsOf(server.pid)
  const clientCpuBefore = process.cpuUsage()
  const loadBefore = loadavg()[0] ?? Number.NaN
  const started = performance.now()
  // With --rounds=N the same traffic runs N times back to back: RSS that keeps climbing from round
  // to round is a leak; growth in the first round only is the heap reaching its working size.
  const rssAfterRound: Array<number> = []
  for (let round = 0; round < ROUNDS; round++) {
    const deadline = performance.now() + DURATION_S * 1000
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => player(round * CLIENTS + i, deadline)))
    rssAfterRound.push((await memoryOf(server.pid)).rss)
  }
  const elapsed = (performance.now() - started) / 1000
  const serverCpu = (await cpuSecondsOf(server.pid)) - serverCpuBefore
  const clientCpuUsage = process.cpuUsage(clientCpuBefore)
  const clientCpu = (clientCpuUsage.user + clientCpuUsage.system) / 1e6
  const loadAfter = loadavg()[0] ?? Number.NaN
  clearInterval(sampler)
  const after = await memoryOf(server.pid)
  // And once more after a pause: what stays allocated once the burst is over.
  await new Promise((resolve) => setTimeout(resolve, 5_000))
  const settled = await memoryOf(server.pid)

  const database_ = database === undefined ? "PGlite (embedded)" : "PostgreSQL 127.0.0.1 (fresh database)"
  console.log(
    `\ncasino load: ${CLIENTS} clients × ${DURATION_S} s${ROUNDS > 1 ? ` × ${ROUNDS} rounds` : ""} on loopback, ${database_}; ${cpus().length} CPUs, ` +
      `${Math.round(totalmem() / 1024 ** 3)} GiB RAM, node ${process.version}; client and server share the machine`,
  )
  const all = samples.map((s) => s.ms).sort((a, b) => a - b)
  const errors = samples.filter((s) => !kinds[s.kind].ok.has(s.status))
  console.log(
    `\n${samples.length} requests in ${f1(elapsed)} s = ${(samples.length / elapsed).toFixed(0)} req/s; ` +
      `latency p50 ${f1(percentile(all, 50))} ms, p95 ${f1(percentile(all, 95))} ms, p99 ${f1(percentile(all, 99))} ms; ` +
      `${errors.length} errors; ${registrations} registrations in the loop`,
  )
  console.log("\n| kind | requests | req/s | p50 ms | p95 ms | p99 ms | errors |")
  console.log("|---|---:|---:|---:|---:|---:|---:|")
  for (const [key, kind] of Object.entries(kinds) as Array<[KindKey, Kind]>) {
    const mine = samples.filter((s) => s.kind === key)
    const ms = mine.map((s) => s.ms).sort((a, b) => a - b)
    const bad = mine.filter((s) => !kind.ok.has(s.status)).length
    console.log(
      `| ${kind.name} | ${mine.length} | ${(mine.length / elapsed).toFixed(0)} | ${f1(percentile(ms, 50))} | ${f1(percentile(ms, 95))} | ${f1(percentile(ms, 99))} | ${bad} |`,
    )
  }
  const byStatus = new Map<string, number>()
  for (const e of errors) {
    const key = `${kinds[e.kind].name} → ${e.status === 0 ? "transport error" : e.status}`
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1)
  }
  console.log(
    `\nerrors by status: ${byStatus.size === 0 ? "none" : [...byStatus].map(([k, v]) => `${k}: ${v}`).join(", ")}`,
  )
  console.log(
    `CPU: server ${f1(serverCpu)} s (${f1((serverCpu / elapsed) * 100)} % of one core, ` +
      `${f1((serverCpu * 1000) / Math.max(1, samples.length))} ms per request), load client ${f1(clientCpu)} s; ` +
      `machine load average ${f1(loadBefore)} → ${f1(loadAfter)} (other work on the machine inflates latency)`,
  )
  const maxRss = Math.max(...rssSeries.filter((x) => Number.isFinite(x)), after.rss)
  console.log(
    `server RSS: ${f1(before.rss)} MiB before, ${f1(maxRss)} MiB at most during, ${f1(after.rss)} MiB at the end, ` +
      `${f1(settled.rss)} MiB 5 s later; growth ${f1(settled.rss - before.rss)} MiB (${f1(((settled.rss - before.rss) / before.rss) * 100)} %); ` +
      `peak (VmHWM) ${f1(settled.peak)} MiB`,
  )
  if (ROUNDS > 1)
    console.log(`server RSS after each round: ${rssAfterRound.map((r) => `${f1(r)} MiB`).join(" → ")}`)
  if (server.exit() !== undefined) {
    console.error(`the server died during the run:\n${server.output().slice(-4_000)}`)
    exitCode = 1
  }
} finally {
  agent.destroy()
  await server.stop()
  await database?.drop()
  await rm(dataDir, { recursive: true, force: true })
}
process.exit(exitCode)
