/**
 * The generated paths of the games machines replayed in Chromium against the real server (engine:
 * support/replay.ts; bindings in bindings/gamePage.ts, bindings/verifier.ts), like paths.spec.ts does for the account
 * flows. A path needing an outcome the real server cannot give is listed as skipped with the reason;
 * the plan is printed and written to test-results/coverage/<machine>.e2e.md.
 * Run: `npx playwright test tests/e2e/games-paths.spec.ts --workers=1`.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { e2eCoverageMarkdown } from "../../statecharts/coverage-report.ts"
import { gamePageBinding } from "./bindings/gamePage.ts"
import { verifierBinding } from "./bindings/verifier.ts"
import { repoRoot } from "./support/env.ts"
import { test } from "./support/fixtures.ts"
import { type FlowBinding, planFor, planSummary, replayPath, titlesOf } from "./support/replay.ts"

const bindings = [gamePageBinding, verifierBinding] as ReadonlyArray<FlowBinding<unknown>>
const flows = bindings.map((binding) => ({ binding, plan: planFor(binding) }))

// Printed once, by the runner while it lists the tests (workers load this file too).
if (process.env.TEST_WORKER_INDEX === undefined) {
  process.stdout.write(`${planSummary(flows.map((f) => f.plan))}\n`)
  const perMachine = join(repoRoot, "test-results", "coverage")
  mkdirSync(perMachine, { recursive: true })
  const generatedAt = new Date().toISOString()
  for (const { binding, plan } of flows) {
    const titles = titlesOf([...plan.chosen, ...plan.skipped.map((s) => s.path)])
    writeFileSync(
      join(perMachine, `${plan.name}.e2e.md`),
      e2eCoverageMarkdown({ flow: plan.name, machine: binding.model.machine, plan, titles, generatedAt }),
    )
  }
}

for (const { binding, plan } of flows) {
  const titles = titlesOf([...plan.chosen, ...plan.skipped.map((s) => s.path)])
  test.describe(`${plan.name} paths`, () => {
    for (const path of plan.chosen) {
      test(titles.get(path) ?? path.id, async ({ page, world }) => {
        await replayPath(binding, page, world, path)
      })
    }
    for (const { path, reason } of plan.skipped) {
      test(titles.get(path) ?? path.id, () => {
        test.skip(true, reason)
      })
    }
  })
}
