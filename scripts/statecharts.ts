/**
 * `npm run docs:statecharts`: writes docs/statecharts/ (an SVG, a mermaid file and a Stately JSON
 * config per machine model, and a README) and deletes the files of machines that no longer exist.
 * `--check` writes nothing and exits 1 listing missing or stale files.
 *
 * The renderer is a React component (statecharts/render.tsx) and Node cannot load `.tsx`, so
 * statecharts/export.ts is loaded through Vite's module runner (the same transform the app uses).
 * The models are loaded by Node itself and handed over: the runner is closed once its import is done.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { runnerImport } from "vite"
import { loadModels, repoRoot } from "../statecharts/discover.ts"

type ExportModule = typeof import("../statecharts/export.ts")

const check = process.argv.includes("--check")
const started = performance.now()

const models = await loadModels()
const { module: docs } = await runnerImport<ExportModule>(join(repoRoot, "statecharts/export.ts"), {
  configFile: false,
  root: repoRoot,
  logLevel: "error",
})
const rendered = await docs.renderStatechartDocs(models)
const dir = join(repoRoot, docs.STATECHART_DOCS_DIR)

const existing = new Map<string, string>()
try {
  for (const name of readdirSync(dir).sort()) existing.set(name, readFileSync(join(dir, name), "utf8"))
} catch {
  // No directory yet: everything is missing.
}
const diff = docs.diffDocs(rendered, existing)

if (check) {
  if (docs.isFresh(diff)) {
    console.log(`${docs.STATECHART_DOCS_DIR} is up to date (${rendered.size} files)`)
  } else {
    console.error(`${docs.STATECHART_DOCS_DIR} is stale: run npm run docs:statecharts`)
    for (const line of docs.describeDiff(diff)) console.error(`  ${line}`)
    process.exitCode = 1
  }
} else {
  mkdirSync(dir, { recursive: true })
  for (const name of [...diff.missing, ...diff.stale])
    writeFileSync(join(dir, name), rendered.get(name) ?? "")
  for (const name of diff.extra) rmSync(join(dir, name), { recursive: true, force: true })
  const changes = docs.describeDiff(diff)
  for (const line of changes)
    console.log(
      `  ${line.replace(/^[^:]+:/, (m) => ({ "missing:": "wrote:", "stale:": "updated:" })[m] ?? "deleted:")}`,
    )
  console.log(
    `${docs.STATECHART_DOCS_DIR}: ${models.length} machines, ${changes.length === 0 ? "no changes" : `${changes.length} files changed`} (${Math.round(performance.now() - started)} ms)`,
  )
}
