/**
 * Generated path tests for every machines/*.model.ts (found automatically: a new machine needs no
 * edit here). Each path is replayed on a real actor — invoked actors never settle, the clock is
 * simulated — and after every event the actor must be exactly where the pure traversal said: same
 * state value, status, active state nodes, projected context, and the same transitions fired.
 * Then the coverage table is printed and written to test-results/model-coverage.{md,json}; the run
 * fails on an uncovered transition that the model does not explain, or on a stale explanation.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { loadModels, repoRoot } from "../../statecharts/discover.ts"
import {
  type CoverageReport,
  coverageMarkdown,
  coverageOf,
  coverageTable,
  expectedOf,
  generatePaths,
  replayOnActor,
} from "../../statecharts/paths.ts"

const loaded = await loadModels()
const reports: Array<CoverageReport> = []

afterAll(() => {
  const dir = join(repoRoot, "test-results")
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, "model-coverage.md"), coverageMarkdown(reports))
  writeFileSync(join(dir, "model-coverage.json"), `${JSON.stringify(reports, null, 2)}\n`)
  process.stdout.write(`\nModel coverage (test-results/model-coverage.md)\n${coverageTable(reports)}\n\n`)
})

it("finds the machine models", () => {
  expect(loaded.map((m) => m.flow)).toEqual([...new Set(loaded.map((m) => m.flow))])
  for (const { model, flow } of loaded) expect(model.name, flow).not.toBe("")
})

for (const { flow, model } of loaded) {
  describe(`${model.name} (machines/${flow}.model.ts)`, () => {
    const paths = generatePaths(model)
    const report = coverageOf(model, paths)
    reports.push(report)

    it("has generated paths", () => {
      expect(paths.length).toBeGreaterThan(0)
    })

    for (const path of paths) {
      it(`path: ${path.id}`, () => {
        expect(replayOnActor(model, path)).toEqual(path.steps.map(expectedOf))
      })
    }

    it("covers every transition, or explains why not (and no explanation is stale)", () => {
      expect(report.problems).toEqual([])
    })
  })
}
