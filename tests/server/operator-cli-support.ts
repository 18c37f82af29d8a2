/**
 * Running `npm run operator` (scripts/operator.ts) against a test server, as an operator with an API
 * token: `operatorToken` creates the operator, signs in through the API (password and TOTP) and makes
 * the token the CLI sends (OPERATOR_TOKEN, --server). `runOperator` runs the command's function
 * (runOperatorCli) in this process, `spawnOperator` the real process: the same command, the same
 * environment and stdin, the same result; a spawn costs a Node start-up (seconds on a busy machine).
 */
import { execFile } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Readable } from "node:stream"
import { fileURLToPath } from "node:url"
import { runOperatorCli } from "../../scripts/operator/cli.ts"
import type { Role } from "../../services/backoffice/permissions.ts"
import { BO, createOperator, signIn, type TestClock } from "./backoffice-support.ts"
import type { TestServer } from "./harness.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))

export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Variables of the test process the command must not inherit: it is told where and who by the test. */
const withheld = new Set([
  "DATABASE_URL",
  "OPERATOR_SECRET",
  "OPERATOR_TOKEN",
  "CASINO_URL",
  "XDG_CONFIG_HOME",
])

/** An empty config folder per test file: a developer's own `login` never reaches the tests. */
export const emptyConfigHome = (): string => mkdtempSync(join(tmpdir(), "casino-operator-config-"))

/** The command's environment: this process's without the withheld variables, then `env`. A new object. */
const commandEnv = (env: Record<string, string>): Record<string, string> => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !withheld.has(e[0]),
    ),
  ),
  ...env,
})

/** The command run in this process (runOperatorCli): `stdin` piped, not a terminal. */
export const runOperator = async (
  env: Record<string, string>,
  args: ReadonlyArray<string>,
  stdin = "",
): Promise<Run> => {
  let stdout = ""
  let stderr = ""
  const code = await runOperatorCli(args, {
    env: commandEnv(env),
    stdout: (text) => {
      stdout += text
    },
    stderr: (text) => {
      stderr += text
    },
    stdin: Readable.from([stdin]),
    stdinIsTTY: false,
  })
  return { code, stdout, stderr }
}

/** The command as a real process (node scripts/operator.ts): its exit code, stdout and stderr. */
export const spawnOperator = (
  env: Record<string, string>,
  args: ReadonlyArray<string>,
  stdin = "",
): Promise<Run> =>
  new Promise((resolve) => {
    const child = execFile(
      join(root, "node_modules/.bin/node"),
      [join(root, "scripts/operator.ts"), ...args],
      { cwd: root, env: commandEnv(env), timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
          stdout,
          stderr,
        }),
    )
    child.stdin?.end(stdin)
  })

export const PASSWORD = "correct horse battery staple"

/** A new operator of `role`, signed in, and an API token of theirs named `name`. */
export const operatorToken = async (
  server: TestServer,
  clock: TestClock,
  input: { readonly email: string; readonly role: Role; readonly name?: string },
): Promise<string> => {
  await createOperator(server, {
    email: input.email,
    role: input.role,
    password: PASSWORD,
    ...(input.name === undefined ? {} : { name: input.name }),
  })
  const browser = await signIn(server, clock, input.email, PASSWORD)
  const made = await browser.post(`${BO}/tokens`, { name: "cli tests" })
  if (made.status !== 201)
    throw new Error(`token for ${input.email}: ${made.status} ${JSON.stringify(made.body)}`)
  return (made.body as { token: string }).token
}

/** What a test passes to `runOperator` (or `spawnOperator`) beside `--server`: the token and an empty config folder. */
export const cliEnv = (token: string, configHome: string): Record<string, string> => ({
  OPERATOR_TOKEN: token,
  XDG_CONFIG_HOME: configHome,
})
