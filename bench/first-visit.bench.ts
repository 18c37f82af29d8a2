/**
 * The first visit, measured in Debian's Chromium against the real server serving the built app
 * (`npm run bench:first-visit`; builds first when dist/app is missing):
 *
 * - cold: a new browser profile (empty cache) opens `/`;
 * - warm: the same profile opens `/` again (what a returning player meets).
 *
 * Each is measured on loopback and on an emulated slow mobile network (Lighthouse's "Slow 4G":
 * 150 ms RTT, 1.6 Mbps down, 750 kbps up), and reports LCP (largest contentful paint), the time the
 * home page's heading is visible, and — at that moment ("first screen") and once the page is idle
 * (after the idle prefetches) — bytes transferred (compressed, as on the wire) and decoded,
 * JavaScript bytes, and the number of requests. The median of RUNS runs is printed (default 5) and
 * written to test-results/first-visit.json. A measurement, never an assertion.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type BrowserContext, chromium } from "@playwright/test"
import { makeServer } from "../server/app.ts"
import { loadConfig } from "../server/config.ts"

const root = fileURLToPath(new URL("..", import.meta.url))
const RUNS = Number(process.env.BENCH_RUNS ?? 5)

if (!existsSync(join(root, "dist/app/index.html"))) {
  execFileSync(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build"], {
    cwd: root,
    stdio: "inherit",
  })
}

const dataDir = mkdtempSync(join(tmpdir(), "casino-first-visit-"))
const server = await makeServer(
  loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "Error",
    STATIC_DIR: join(root, "dist/app"),
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  }),
)

interface Bytes {
  readonly transferredBytes: number
  readonly decodedBytes: number
  readonly jsTransferredBytes: number
  readonly jsDecodedBytes: number
  readonly requests: number
}

interface Visit {
  readonly lcpMs: number
  readonly headingMs: number
  /** Everything fetched until the home page's heading is visible: the first load proper. */
  readonly firstScreen: Bytes
  /** Everything fetched once the page is idle: the first screen plus what is prefetched when idle. */
  readonly idle: Bytes
}

interface Network {
  readonly name: string
  /** Chrome DevTools Protocol network conditions, or null for plain loopback. */
  readonly conditions: {
    readonly latency: number
    readonly downloadThroughput: number
    readonly uploadThroughput: number
  } | null
}

const networks: ReadonlyArray<Network> = [
  { name: "loopback", conditions: null },
  {
    name: "slow 4G (150 ms, 1.6 Mbps)",
    conditions: {
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    },
  },
]

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
})

/** One page load of `/` in `context`; resource timing gives sizes, an observer gives LCP. */
const visit = async (context: BrowserContext, network: Network): Promise<Visit> => {
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send("Network.enable")
  if (network.conditions !== null) {
    await cdp.send("Network.emulateNetworkConditions", { offline: false, ...network.conditions })
  }
  await page.addInitScript(() => {
    const w = window as unknown as { __lcp: number }
    w.__lcp = 0
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__lcp = entry.startTime
    }).observe({ type: "largest-contentful-paint", buffered: true })
  })
  const bytes = () =>
    page.evaluate((): Bytes => {
      const entries = [
        ...performance.getEntriesByType("navigation"),
        ...performance.getEntriesByType("resource"),
      ] as Array<PerformanceResourceTiming>
      const js = entries.filter((e) => e.name.endsWith(".js"))
      const sum = (list: Array<PerformanceResourceTiming>, key: "transferSize" | "decodedBodySize") =>
        list.reduce((total, e) => total + e[key], 0)
      return {
        transferredBytes: sum(entries, "transferSize"),
        decodedBytes: sum(entries, "decodedBodySize"),
        jsTransferredBytes: sum(js, "transferSize"),
        jsDecodedBytes: sum(js, "decodedBodySize"),
        requests: entries.length,
      }
    })
  const started = Date.now()
  await page.goto(`${server.url}/`, { waitUntil: "commit" })
  await page.getByRole("heading", { level: 1 }).waitFor({ state: "visible" })
  const headingMs = Date.now() - started
  const firstScreen = await bytes()
  // LCP is final once the page is idle; the idle prefetches (modal layer, flows, toaster) are done.
  await page.waitForLoadState("networkidle")
  const idle = await bytes()
  const lcpMs = await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp)
  await page.close()
  return { lcpMs, headingMs, firstScreen, idle }
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

const summarizeBytes = (all: ReadonlyArray<Bytes>): Bytes => ({
  transferredBytes: median(all.map((b) => b.transferredBytes)),
  decodedBytes: median(all.map((b) => b.decodedBytes)),
  jsTransferredBytes: median(all.map((b) => b.jsTransferredBytes)),
  jsDecodedBytes: median(all.map((b) => b.jsDecodedBytes)),
  requests: median(all.map((b) => b.requests)),
})

const summarize = (visits: ReadonlyArray<Visit>): Visit => ({
  lcpMs: median(visits.map((v) => v.lcpMs)),
  headingMs: median(visits.map((v) => v.headingMs)),
  firstScreen: summarizeBytes(visits.map((v) => v.firstScreen)),
  idle: summarizeBytes(visits.map((v) => v.idle)),
})

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
const results: Array<{ network: string; kind: "cold" | "warm"; median: Visit; runs: Array<Visit> }> = []

try {
  for (const network of networks) {
    const cold: Array<Visit> = []
    const warm: Array<Visit> = []
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      cold.push(await visit(context, network))
      warm.push(await visit(context, network))
      await context.close()
    }
    results.push({ network: network.name, kind: "cold", median: summarize(cold), runs: cold })
    results.push({ network: network.name, kind: "warm", median: summarize(warm), runs: warm })
  }
} finally {
  await browser.close()
  await server.close()
  rmSync(dataDir, { recursive: true, force: true })
}

console.log(`\nFirst visit to / in Chromium (median of ${RUNS} runs)\n`)
const row = (cells: ReadonlyArray<string>, widths: ReadonlyArray<number>) =>
  cells.map((c, i) => (i < 3 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("")
const widths = [28, 6, 14, 9, 9, 13, 12, 12, 14, 10]
console.log(
  row(
    [
      "network",
      "visit",
      "until",
      "LCP",
      "heading",
      "transferred",
      "decoded",
      "JS (wire)",
      "JS (decoded)",
      "requests",
    ],
    widths,
  ),
)
for (const { network, kind, median: m } of results) {
  for (const [until, b] of [
    ["first screen", m.firstScreen],
    ["idle", m.idle],
  ] as const) {
    console.log(
      row(
        [
          until === "first screen" ? network : "",
          until === "first screen" ? kind : "",
          until,
          until === "first screen" ? `${Math.round(m.lcpMs)} ms` : "",
          until === "first screen" ? `${m.headingMs} ms` : "",
          kib(b.transferredBytes),
          kib(b.decodedBytes),
          kib(b.jsTransferredBytes),
          kib(b.jsDecodedBytes),
          String(b.requests),
        ],
        widths,
      ),
    )
  }
}
mkdirSync(join(root, "test-results"), { recursive: true })
writeFileSync(
  join(root, "test-results/first-visit.json"),
  `${JSON.stringify({ date: new Date().toISOString(), runs: RUNS, results }, null, 2)}\n`,
)
console.log("\nWritten: test-results/first-visit.json")
