/**
 * Running `npm run operator` (scripts/operator.ts) as a real process against a test server, as an
 * operator with an API token: `operatorToken` creates the operator, signs in through the API
 * (password and TOTP) and makes the token the CLI sends (OPERATOR_TOKEN, --server).
 */
import { execFile } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
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

export const runOperator = (
  env: Record<string, string>,
  args: ReadonlyArray<string>,
  stdin = "",
): Promise<Run> =>
  new Promise((resolve) => {
    const base = Object.fromEntries(
      Object.entries(process.env).filter(
        (e): e is [string, string] => e[1] !== undefined && !withheld.has(e[0]),
      ),
    )
    const child = execFile(
      join(root, "node_modules/.bin/node"),
      [join(root, "scripts/operator.ts"), ...args],
      { cwd: root, env: { ...base, ...env }, timeout: 60_000 },
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

/** What a test passes to `runOperator` beside `--server`: the token and an empty config folder. */
export const cliEnv = (token: string, configHome: string): Record<string, string> => ({
  OPERATOR_TOKEN: token,
  XDG_CONFIG_HOME: configHome,
})
