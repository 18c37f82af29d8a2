/**
 * The player's download, measured: `npm run bench:bundle`.
 * Builds first when dist/app or dist/backoffice (or a manifest) is missing; prints the initial chunks
 * (what every player downloads before the first paint) with raw, gzip and brotli sizes, the totals
 * against bench/budget.json, the lazy chunks (captcha, /statecharts visualizer), and the back
 * office's own build (not the player's download, shown for scale); writes test-results/bundle.json.
 * A measurement: it exits 0 even when over budget (it says so loudly); tests/build/bundle.test.ts is
 * what fails a run.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  BACKOFFICE_DIST_DIR,
  DIST_DIR,
  type FileSize,
  initialChunks,
  manifestPath,
  measureBundle,
  REPO_ROOT,
  readManifest,
  sizeOf,
  totalOf,
} from "./bundle.ts"

if (!existsSync(manifestPath(DIST_DIR)) || !existsSync(manifestPath(BACKOFFICE_DIST_DIR))) {
  console.log("dist/app or dist/backoffice has no build manifest: building (npm run build)…")
  const build = spawnSync(process.execPath, [join(REPO_ROOT, "scripts", "build.ts")], {
    cwd: REPO_ROOT,
    stdio: "inherit",
  })
  if (build.status !== 0) {
    console.error("the build failed")
    process.exit(build.status ?? 1)
  }
}

const report = measureBundle(DIST_DIR)
const backofficeInitial = initialChunks(readManifest(BACKOFFICE_DIST_DIR))
const backoffice = {
  js: backofficeInitial.js.map((file) => sizeOf(file, BACKOFFICE_DIST_DIR)),
  css: backofficeInitial.css.map((file) => sizeOf(file, BACKOFFICE_DIST_DIR)),
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`
const row = (cells: ReadonlyArray<string>): string =>
  cells.map((cell, i) => (i === 0 ? cell.padEnd(44) : cell.padStart(12))).join("")
const header = row(["file", "raw", "gzip", "brotli"])
const line = (s: Omit<FileSize, "file"> & { readonly file?: string }, name = s.file ?? ""): string =>
  row([name, kb(s.raw), kb(s.gzip), kb(s.brotli)])

console.log("\nInitial chunks (index.html and its static imports)")
console.log(header)
for (const size of [...report.initial.js, ...report.initial.css]) console.log(line(size))

const { budget, overBudget } = report
const verdict = (over: boolean, used: number, limit: number): string =>
  over
    ? `OVER BUDGET by ${kb(used - limit)} (${kb(used)} > ${kb(limit)})`
    : `within budget: ${kb(used)} of ${kb(limit)} (${((used / limit) * 100).toFixed(0)} %, ${kb(limit - used)} left)`
console.log(
  row([
    "total initial JS",
    kb(report.initial.jsTotal.raw),
    kb(report.initial.jsTotal.gzip),
    kb(report.initial.jsTotal.brotli),
  ]),
)
console.log(
  row([
    "total initial CSS",
    kb(report.initial.cssTotal.raw),
    kb(report.initial.cssTotal.gzip),
    kb(report.initial.cssTotal.brotli),
  ]),
)
console.log(`\nJS  gzip: ${verdict(overBudget.js, report.initial.jsTotal.gzip, budget.initialJsGzipBytes)}`)
console.log(`CSS gzip: ${verdict(overBudget.css, report.initial.cssTotal.gzip, budget.initialCssGzipBytes)}`)
console.log(`Budget (bench/budget.json): ${budget.why}`)

console.log("\nLazy chunks (downloaded only when used)")
console.log(header)
for (const group of report.lazy) {
  console.log(line(group.total, `${group.label} (${group.files.length} files)`))
  const largest = [...group.files].sort((a, b) => b.gzip - a.gzip)
  for (const size of largest.slice(0, 5)) console.log(line(size, `  ${size.file}`))
  if (largest.length > 5) console.log(`    … and ${largest.length - 5} smaller files`)
}

console.log("\nBack office (its own build, dist/backoffice, at /backoffice: no player downloads it)")
console.log(header)
for (const size of [...backoffice.js, ...backoffice.css]) console.log(line(size))
console.log(line(totalOf(backoffice.js), "total JS"))
console.log(line(totalOf(backoffice.css), "total CSS"))

const out = join(REPO_ROOT, "test-results", "bundle.json")
mkdirSync(join(REPO_ROOT, "test-results"), { recursive: true })
writeFileSync(
  out,
  `${JSON.stringify({ measuredAt: new Date().toISOString(), ...report, backoffice }, null, 2)}\n`,
)
console.log(`\nWritten: test-results/bundle.json`)
if (overBudget.js || overBudget.css) console.log("\n*** OVER BUDGET: see above ***")
