/**
 * `npm run test:timings [N]`: where the last `npm test` spent its time, from what it wrote in
 * test-results/: the steps (steps.tsv, by scripts/test-all.sh), vitest's files and tests
 * (vitest-timings.json, by tests/support/timings-reporter.ts) and Playwright's (playwright.json).
 * Prints each step's share of the run, vitest's time by project, then the N (default 30) slowest
 * files and tests of both runners. Busy time is summed over workers, so a runner's files add up to
 * about its wall time × its workers.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { Schema } from "effect"

const root = join(import.meta.dirname, "..")
const results = join(root, "test-results")
const limit = Number(process.argv[2] ?? 30)

const VitestTimings = Schema.Struct({
  written: Schema.String,
  files: Schema.Array(
    Schema.Struct({
      file: Schema.String,
      project: Schema.String,
      worker: Schema.Number,
      total: Schema.Number,
      collect: Schema.Number,
      tests: Schema.Array(Schema.Struct({ name: Schema.String, ms: Schema.Number, state: Schema.String })),
    }),
  ),
})

interface PlaywrightSuite {
  readonly title?: string
  readonly file?: string
  readonly specs?: ReadonlyArray<{
    readonly title: string
    readonly file: string
    readonly line: number
    readonly tests: ReadonlyArray<{
      readonly status?: string
      readonly results: ReadonlyArray<{ readonly duration: number; readonly status?: string }>
    }>
  }>
  readonly suites?: ReadonlyArray<PlaywrightSuite>
}
const PlaywrightReport = Schema.Struct({
  stats: Schema.optional(Schema.Struct({ duration: Schema.optional(Schema.Number) })),
  suites: Schema.Array(Schema.Unknown),
})

const read = (name: string): string | undefined => {
  const path = join(results, name)
  return existsSync(path) ? readFileSync(path, "utf8") : undefined
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const pct = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(0)} %` : "–")
const row = (cells: ReadonlyArray<string>, widths: ReadonlyArray<number>) =>
  cells
    .map((c, i) => ((widths[i] ?? 0) < 0 ? c.padStart(-(widths[i] ?? 0)) : c.padEnd(widths[i] ?? 0)))
    .join("  ")

const out: Array<string> = []

// ── Steps ───────────────────────────────────────────────────────────────────────────────────────
const steps = (read("steps.tsv") ?? "")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => {
    const [name = "", secs = "0", status = ""] = l.split("\t")
    return { name, secs: Number(secs), status }
  })
const total = steps.find((s) => s.name === "total")?.secs ?? steps.reduce((a, s) => a + s.secs, 0)
out.push(`Steps of the last run (npm test: ${total} s; .ci/run adds npm ci and any apt install)`)
for (const s of steps.filter((x) => x.name !== "total"))
  out.push(`  ${row([s.name, `${s.secs} s`, pct(s.secs, total), s.status], [58, -7, -5, 4])}`)
if (steps.length === 0) out.push("  (no test-results/steps.tsv: run `npm test` first)")

// ── vitest ──────────────────────────────────────────────────────────────────────────────────────
interface Timed {
  readonly kind: string
  readonly name: string
  readonly ms: number
}
const files: Array<Timed> = []
const tests: Array<Timed> = []
const vitestRaw = read("vitest-timings.json")
if (vitestRaw !== undefined) {
  const v = Schema.decodeUnknownSync(Schema.fromJsonString(VitestTimings))(vitestRaw)
  const byProject = new Map<string, { ms: number; files: number; tests: number }>()
  for (const f of v.files) {
    const p = byProject.get(f.project) ?? { ms: 0, files: 0, tests: 0 }
    byProject.set(f.project, { ms: p.ms + f.total, files: p.files + 1, tests: p.tests + f.tests.length })
    files.push({ kind: `vitest ${f.project}`, name: f.file, ms: f.total })
    for (const t of f.tests)
      tests.push({ kind: `vitest ${f.project}`, name: `${f.file} › ${t.name}`, ms: t.ms })
  }
  const all = [...byProject.values()].reduce((a, p) => a + p.ms, 0)
  out.push("", `vitest by project (busy time summed over workers: ${seconds(all)})`)
  for (const [name, p] of [...byProject.entries()].sort((a, b) => b[1].ms - a[1].ms))
    out.push(
      `  ${row([name, seconds(p.ms), pct(p.ms, all), `${p.files} files`, `${p.tests} tests`], [10, -9, -5, -10, -12])}`,
    )
} else out.push("", "vitest: no test-results/vitest-timings.json")

// ── Playwright ──────────────────────────────────────────────────────────────────────────────────
const playwrightRaw = read("playwright.json")
if (playwrightRaw !== undefined) {
  const report = Schema.decodeUnknownSync(Schema.fromJsonString(PlaywrightReport))(playwrightRaw)
  const perFile = new Map<string, number>()
  const walk = (suite: PlaywrightSuite, path: ReadonlyArray<string>) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests) {
        const ms = t.results.reduce((a, r) => a + r.duration, 0)
        perFile.set(spec.file, (perFile.get(spec.file) ?? 0) + ms)
        tests.push({
          kind: "playwright",
          name: `${spec.file}:${spec.line} › ${[...path, spec.title].join(" › ")}`,
          ms,
        })
      }
    for (const child of suite.suites ?? [])
      walk(child, suite.title === undefined || suite.file === suite.title ? path : [...path, suite.title])
  }
  for (const s of report.suites) walk(s as PlaywrightSuite, [])
  const busy = [...perFile.values()].reduce((a, b) => a + b, 0)
  out.push(
    "",
    `Playwright: ${seconds(report.stats?.duration ?? 0)} wall, ${seconds(busy)} busy over its workers`,
  )
  for (const [file, ms] of perFile) files.push({ kind: "playwright", name: `tests/e2e/${file}`, ms })
} else out.push("", "Playwright: no test-results/playwright.json")

const list = (title: string, items: ReadonlyArray<Timed>) => {
  out.push("", title)
  items
    .slice()
    .sort((a, b) => b.ms - a.ms)
    .slice(0, limit)
    .forEach((t, i) => {
      out.push(`  ${row([`${i + 1}.`, seconds(t.ms), t.kind, t.name], [-3, -8, 15, 0])}`)
    })
}
list(`The ${limit} slowest files (import, hooks and tests)`, files)
list(`The ${limit} slowest tests`, tests)
process.stdout.write(`${out.join("\n")}\n`)
