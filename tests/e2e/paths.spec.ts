/**
 * The generated paths of the account-flow machines, replayed in Chromium against the real server
 * (engine: support/replay.ts, one binding per flow in bindings/). A path needing an outcome the real
 * server cannot give is listed as skipped, with the reason.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { confirmEmailBinding } from "./bindings/confirmEmail.ts"
import { forgotPasswordBinding } from "./bindings/forgotPassword.ts"
import { loginBinding } from "./bindings/login.ts"
import { registerBinding } from "./bindings/register.ts"
import { resetPasswordBinding } from "./bindings/resetPassword.ts"
import { repoRoot } from "./support/env.ts"
import { test } from "./support/fixtures.ts"
import { type FlowBinding, planFor, planSummary, replayPath, titlesOf } from "./support/replay.ts"

const bindings = [
  loginBinding,
  registerBinding,
  forgotPasswordBinding,
  resetPasswordBinding,
  confirmEmailBinding,
] as ReadonlyArray<FlowBinding<unknown>>
const flows = bindings.map((binding) => ({ binding, plan: planFor(binding) }))

// Printed once, by the runner while it lists the tests (workers load this file too).
if (process.env.TEST_WORKER_INDEX === undefined) {
  const summary = planSummary(flows.map((f) => f.plan))
  process.stdout.write(`${summary}\n`)
  mkdirSync(join(repoRoot, "test-results"), { recursive: true })
  writeFileSync(join(repoRoot, "test-results", "e2e-paths.md"), `\`\`\`\n${summary}\n\`\`\`\n`)
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
