/**
 * The generated paths of the account-flow machines, replayed in Chromium against the real server
 * (engine: support/replay.ts, one binding per flow in bindings/). A path needing an outcome the real
 * server cannot give is listed as skipped, with the reason.
 * `MACHINES=login,register` limits the run to those machines (`npm run test:e2e:paths -- login`); the
 * plan of each machine run is written to test-results/coverage/<machine>.e2e.md.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  e2eCoverageMarkdown,
  MACHINES_ENV,
  selectedMachines,
  unknownMachines,
} from "../../statecharts/coverage-report.ts"
import { confirmEmailBinding } from "./bindings/confirmEmail.ts"
import { forgotPasswordBinding } from "./bindings/forgotPassword.ts"
import { loginBinding } from "./bindings/login.ts"
import { registerBinding } from "./bindings/register.ts"
import { resetPasswordBinding } from "./bindings/resetPassword.ts"
import { repoRoot } from "./support/env.ts"
import { test } from "./support/fixtures.ts"
import { type FlowBinding, planFor, planSummary, replayPath, titlesOf } from "./support/replay.ts"

const allBindings = [
  loginBinding,
  registerBinding,
  forgotPasswordBinding,
  resetPasswordBinding,
  confirmEmailBinding,
] as ReadonlyArray<FlowBinding<unknown>>
const selected = selectedMachines(process.env[MACHINES_ENV])
const bound = allBindings.map((b) => b.model.name)
const unbound = unknownMachines(selected, bound)
if (unbound.length > 0) {
  throw new Error(
    `${MACHINES_ENV}=${selected?.join(",") ?? ""}: no end-to-end binding for ${unbound.join(", ")}; ` +
      `machines with bindings (tests/e2e/bindings/): ${bound.join(", ")}`,
  )
}
const bindings = allBindings.filter((b) => selected === null || selected.includes(b.model.name))
const flows = bindings.map((binding) => ({ binding, plan: planFor(binding) }))

// Printed once, by the runner while it lists the tests (workers load this file too).
if (process.env.TEST_WORKER_INDEX === undefined) {
  const summary = planSummary(flows.map((f) => f.plan))
  process.stdout.write(`${summary}\n`)
  const perMachine = join(repoRoot, "test-results", "coverage")
  mkdirSync(perMachine, { recursive: true })
  const generatedAt = new Date().toISOString()
  const reports = flows.map(({ binding, plan }) => {
    const file = `${plan.name}.e2e.md`
    const titles = titlesOf([...plan.chosen, ...plan.skipped.map((s) => s.path)])
    writeFileSync(
      join(perMachine, file),
      e2eCoverageMarkdown({ flow: plan.name, machine: binding.model.machine, plan, titles, generatedAt }),
    )
    return `- [${plan.name}](coverage/${file})`
  })
  const scope =
    selected === null
      ? []
      : [
          `Machines in this run (${MACHINES_ENV}): ${bound.filter((b) => selected.includes(b)).join(", ")}`,
          "",
        ]
  writeFileSync(
    join(repoRoot, "test-results", "e2e-paths.md"),
    [...scope, `\`\`\`\n${summary}\n\`\`\``, "", "Per machine:", "", ...reports, ""].join("\n"),
  )
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
