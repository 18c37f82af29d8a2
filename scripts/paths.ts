/**
 * Lists the generated paths of one, several or all machine models, readable as state → event → state:
 *   node scripts/paths.ts [machine …] [--context|--steps] [--ids] [--json]     (npm run paths -- login)
 * A machine is named by its model's file stem (machines/<domain>/<machine>.model.ts). Every path gets a
 * numbered header with its id, then one line per step:
 *   editing ──SUBMIT [emailIsBlocked]──▶ editing
 * (short state names, parallel regions joined with ` + `, the guards of the transitions that fired).
 * --context (or --steps) also prints each step's projected context; --ids only the path ids;
 * --json prints everything as JSON for tools. The coverage table (and its gaps) ends the listing.
 * An unknown machine exits 1 with the list of known ones.
 */
import { relative } from "node:path"
import { type LoadedModel, loadModels, repoRoot } from "../statecharts/discover.ts"
import { formatPaths, pathJson } from "../statecharts/path-format.ts"
import { type CoverageReport, coverageMarkdown, coverageOf, generatePaths } from "../statecharts/paths.ts"

const USAGE = "usage: node scripts/paths.ts [machine …] [--context|--steps] [--ids] [--json]"
const FLAGS = new Set(["--context", "--steps", "--ids", "--json", "--help", "-h"])

function fail(message: string): never {
  process.stderr.write(`${message}\n`)
  process.exit(1)
}

// `npm run paths | head` closes the pipe early: that is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0)
  throw error
})

const args = process.argv.slice(2)
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(`${USAGE}\n`)
  process.exit(0)
}
const unknownFlags = args.filter((a) => a.startsWith("-") && !FLAGS.has(a))
if (unknownFlags.length > 0) fail(`unknown option ${unknownFlags.join(", ")}\n${USAGE}`)
const showContext = args.includes("--context") || args.includes("--steps")
const idsOnly = args.includes("--ids")
const asJson = args.includes("--json")
const wanted = [...new Set(args.filter((a) => !a.startsWith("-")))]

const all = await loadModels()
const known = all.map((m) => m.flow)
const unknown = wanted.filter((w) => !known.includes(w))
if (unknown.length > 0) {
  fail(
    `unknown machine${unknown.length === 1 ? "" : "s"}: ${unknown.join(", ")}\nknown machines: ${known.join(", ")}`,
  )
}
const models: ReadonlyArray<LoadedModel> =
  wanted.length === 0 ? all : all.filter((m) => wanted.includes(m.flow))

const runs = models.map((loaded) => {
  const paths = generatePaths(loaded.model)
  return { loaded, paths, report: coverageOf(loaded.model, paths) }
})
const reports: ReadonlyArray<CoverageReport> = runs.map((r) => r.report)

if (asJson) {
  const json = {
    machines: runs.map(({ loaded: { flow, file, model }, paths, report }) => ({
      flow,
      name: model.name,
      machine: model.machine.id,
      file: relative(repoRoot, file),
      paths: paths.map((p, i) => pathJson(model.machine, p, i + 1)),
      coverage: report,
    })),
  }
  process.stdout.write(`${JSON.stringify(json, null, 2)}\n`)
} else {
  for (const { loaded, paths } of runs) {
    const { model } = loaded
    process.stdout.write(`\n## ${model.name} (${relative(repoRoot, loaded.file)}): ${paths.length} paths\n\n`)
    process.stdout.write(
      idsOnly
        ? `${paths.map((p, i) => `${i + 1}. ${p.id}`).join("\n")}\n`
        : `${formatPaths(model.machine, paths, { context: showContext })}\n`,
    )
  }
  process.stdout.write(`\n${coverageMarkdown(reports)}`)
}
