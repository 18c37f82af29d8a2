/**
 * Prints the generated paths and the coverage of one or all machine models, for a look at what the
 * generated tests will do:  node scripts/paths.ts [flow …] [--steps]
 * (flow = the file name before .model.ts, e.g. `login`; --steps also prints each step's state).
 */
import { loadModels } from "../statecharts/discover.ts"
import {
  type CoverageReport,
  coverageMarkdown,
  coverageOf,
  generatePaths,
  safeJson,
} from "../statecharts/paths.ts"

const args = process.argv.slice(2)
const showSteps = args.includes("--steps")
const wanted = args.filter((a) => !a.startsWith("--"))
const models = (await loadModels()).filter((m) => wanted.length === 0 || wanted.includes(m.flow))
if (models.length === 0) {
  process.stderr.write(`no model matches ${wanted.join(", ")}\n`)
  process.exit(1)
}
const reports: Array<CoverageReport> = []
for (const { flow, model } of models) {
  const paths = generatePaths(model)
  reports.push(coverageOf(model, paths))
  process.stdout.write(`\n## ${model.name} (machines/${flow}.model.ts): ${paths.length} paths\n`)
  for (const path of paths) {
    process.stdout.write(`- ${path.id}\n`)
    if (!showSteps) continue
    for (const step of path.steps) {
      process.stdout.write(`    ${step.event.type} ⇒ ${step.stateIds.join(", ")} ${safeJson(step.context)}\n`)
    }
  }
}
process.stdout.write(`\n${coverageMarkdown(reports)}`)
