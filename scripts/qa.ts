/**
 * Runs the generated path tests of some machines (or all):
 *   node scripts/qa.ts paths [machine …] [--vitest-flag=value …]   (npm run test:paths -- login)
 *   node scripts/qa.ts e2e   [machine …] [--playwright-flag=value …] (npm run test:e2e:paths -- login)
 * `paths` replays the machines' generated paths on real actors (vitest project `model`,
 * tests/model/models.test.ts) and writes test-results/model-coverage.md with one report per machine
 * in test-results/coverage/<machine>.md. `e2e` replays them in Chromium against the real server
 * (Playwright, tests/e2e/paths.spec.ts; machines with a binding in tests/e2e/bindings/ only) and
 * writes test-results/coverage/<machine>.e2e.md. A machine is named by its model's file stem
 * (machines/<domain>/<machine>.model.ts); none means every machine. The choice reaches the tests through the
 * MACHINES environment variable. Arguments starting with `-` go to the test runner as they are.
 * Exits with the test runner's code, or 1 (with the known machines) for an unknown name.
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { MACHINES_ENV, unknownMachines } from "../statecharts/coverage-report.ts"
import { modelFiles, repoRoot } from "../statecharts/discover.ts"
import { flowOfFile } from "../statecharts/models.ts"

const USAGE = "usage: node scripts/qa.ts <paths|e2e> [machine …] [--runner-option=value …]"

function fail(message: string): never {
  process.stderr.write(`${message}\n`)
  process.exit(1)
}

/** Machines with a model: the file stems of the <machine>.model.ts files under machines/ (not imported: no need to load them). */
const knownMachines = (): Array<string> => modelFiles().map(flowOfFile)

/** Machines with an end-to-end binding: tests/e2e/bindings/<machine>.ts for a machine with a model. */
const boundMachines = (known: ReadonlyArray<string>): Array<string> =>
  known.filter((m) => existsSync(join(repoRoot, "tests", "e2e", "bindings", `${m}.ts`)))

const [mode, ...rest] = process.argv.slice(2)
if (mode === "--help" || mode === "-h") {
  process.stdout.write(`${USAGE}\n`)
  process.exit(0)
}
if (mode !== "paths" && mode !== "e2e") fail(`${USAGE}\n(unknown mode: ${mode ?? "none"})`)

const machines = [...new Set(rest.filter((a) => !a.startsWith("-")))]
const runnerArgs = rest.filter((a) => a.startsWith("-"))
const known = knownMachines()
const unknown = unknownMachines(machines, known)
if (unknown.length > 0) {
  fail(
    `unknown machine${unknown.length === 1 ? "" : "s"}: ${unknown.join(", ")}\nknown machines: ${known.join(", ")}`,
  )
}

let command: ReadonlyArray<string>
if (mode === "paths") {
  command = [
    join(repoRoot, "node_modules/vitest/vitest.mjs"),
    "run",
    "--project",
    "model",
    "tests/model/models.test.ts",
    ...runnerArgs,
  ]
} else {
  const bound = boundMachines(known)
  const unbound = unknownMachines(machines, bound)
  if (unbound.length > 0) {
    fail(
      `no end-to-end binding for ${unbound.join(", ")} (tests/e2e/bindings/<machine>.ts)\n` +
        `machines with end-to-end bindings: ${bound.join(", ")}`,
    )
  }
  command = [
    join(repoRoot, "node_modules/@playwright/test/cli.js"),
    "test",
    "tests/e2e/paths.spec.ts",
    ...runnerArgs,
  ]
}

const env = { ...process.env }
if (machines.length > 0) env[MACHINES_ENV] = machines.join(",")
else delete env[MACHINES_ENV]
process.stdout.write(
  `[qa] ${mode === "paths" ? "generated path tests" : "end-to-end path tests (Chromium)"} of ` +
    `${machines.length === 0 ? "every machine" : machines.join(", ")}\n`,
)

const child = spawn(process.execPath, command, { cwd: repoRoot, env, stdio: "inherit" })
const forward = (signal: NodeJS.Signals): void => {
  child.kill(signal)
}
process.on("SIGINT", forward)
process.on("SIGTERM", forward)
child.on("error", (error) => fail(`[qa] could not start the test runner: ${error.message}`))
child.on("exit", (code, signal) => {
  if (signal !== null) process.stderr.write(`[qa] the test runner was stopped by ${signal}\n`)
  const reports =
    mode === "paths"
      ? "test-results/model-coverage.md, test-results/coverage/<machine>.md"
      : "test-results/e2e-paths.md, test-results/coverage/<machine>.e2e.md, playwright-report/"
  process.stdout.write(`[qa] reports: ${reports}\n`)
  process.exit(code ?? 1)
})
