/**
 * Generated path tests for every <machine>.model.ts under machines/ (found automatically: a new machine needs no
 * edit here). Each path is replayed on a real actor — invoked actors never settle, the clock is
 * simulated — and after every event the actor must be exactly where the pure traversal said: same
 * state value, status, active state nodes, projected context, and the same transitions fired.
 * Then the coverage table is printed and written to test-results/model-coverage.{md,json}, with one
 * report per machine in test-results/coverage/<machine>.md; the run fails on an uncovered transition
 * that the model does not explain, or on a stale explanation.
 * `MACHINES=login,register` limits the run to those machines (`npm run test:paths -- login register`).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import {
  coverageIndexMarkdown,
  type IndexEntry,
  MACHINES_ENV,
  machineCoverageMarkdown,
  selectedMachines,
  unknownMachines,
} from "../../statecharts/coverage-report.ts"
import { loadModels, repoRoot } from "../../statecharts/discover.ts"
import {
  type AnyModel,
  type CoverageReport,
  coverageOf,
  coverageTable,
  expectedOf,
  type GeneratedPath,
  generatePaths,
  replayOnActor,
} from "../../statecharts/paths.ts"

const everyModel = await loadModels()
const selected = selectedMachines(process.env[MACHINES_ENV])
const loaded = selected === null ? everyModel : everyModel.filter((m) => selected.includes(m.flow))
/** What each machine's describe block generated, for the reports written at the end. */
const runs: Array<{
  readonly flow: string
  readonly model: AnyModel
  readonly paths: ReadonlyArray<GeneratedPath>
  readonly report: CoverageReport
}> = []

afterAll(() => {
  const dir = join(repoRoot, "test-results")
  const perMachine = join(dir, "coverage")
  mkdirSync(perMachine, { recursive: true })
  const generatedAt = new Date().toISOString()
  const reports = runs.map((r) => r.report)
  const entries: Array<IndexEntry> = runs.map(({ flow, model, paths, report }) => {
    writeFileSync(
      join(perMachine, `${flow}.md`),
      machineCoverageMarkdown({ flow, machine: model.machine, paths, report, generatedAt }),
    )
    return { flow, report, link: `coverage/${flow}.md` }
  })
  // A full run drops the reports of machines that no longer exist (the e2e reports are left alone).
  if (selected === null) {
    const flows = new Set(everyModel.map((m) => m.flow))
    for (const file of readdirSync(perMachine)) {
      if (file.endsWith(".md") && !file.endsWith(".e2e.md") && !flows.has(file.slice(0, -".md".length))) {
        rmSync(join(perMachine, file))
      }
    }
  }
  writeFileSync(
    join(dir, "model-coverage.md"),
    coverageIndexMarkdown(entries, { selected, known: everyModel.map((m) => m.flow), generatedAt }),
  )
  writeFileSync(join(dir, "model-coverage.json"), `${JSON.stringify(reports, null, 2)}\n`)
  const scope = selected === null ? "" : ` for ${loaded.map((m) => m.flow).join(", ")}`
  process.stdout.write(
    `\nModel coverage${scope} (test-results/model-coverage.md, per machine in test-results/coverage/)\n` +
      `${coverageTable(reports)}\n\n`,
  )
})

it("finds the machine models", () => {
  expect(everyModel.map((m) => m.flow)).toEqual([...new Set(everyModel.map((m) => m.flow))])
  for (const { model, flow } of everyModel) expect(model.name, flow).not.toBe("")
  expect(
    unknownMachines(
      selected,
      everyModel.map((m) => m.flow),
    ),
    `${MACHINES_ENV} names machines without a model`,
  ).toEqual([])
  expect(loaded.length).toBeGreaterThan(0)
})

for (const { flow, file, model } of loaded) {
  describe(`${model.name} (${relative(repoRoot, file)})`, () => {
    const paths = generatePaths(model)
    const report = coverageOf(model, paths)
    runs.push({ flow, model, paths, report })

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
