/**
 * `npm run operator -- operators add|list` spawned as a real process against the test server's
 * database (PostgreSQL: opened directly; PGlite: through the server's operator endpoint): the first
 * admin is created with a one-time password that then signs in (enrolment at the first login).
 */
import { execFile } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, expect, it } from "vitest"
import { BO, signIn, TestClock } from "./backoffice-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))
const node = join(root, "node_modules/.bin/node")
const script = join(root, "scripts/operator.ts")

const runOperator = (env: Record<string, string>, args: ReadonlyArray<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const base = Object.fromEntries(
      Object.entries(process.env).filter(
        (e): e is [string, string] =>
          e[1] !== undefined && e[0] !== "DATABASE_URL" && e[0] !== "OPERATOR_SECRET",
      ),
    )
    execFile(
      node,
      [script, ...args],
      { cwd: root, env: { ...base, ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : -1,
          stdout,
          stderr,
        }),
    )
  })

describeBackends("operator command: back-office operators", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  let env: Record<string, string>
  beforeAll(async () => {
    server = await start({ captchaEnabled: false, backofficeClock: clock.read })
    env = {
      DATA_DIR: server.dataDir,
      LOG_LEVEL: "Warn",
      ...(server.config.databaseUrl === undefined ? {} : { DATABASE_URL: server.config.databaseUrl }),
    }
  })
  afterAll(() => server?.close())

  // Each command is a Node process that loads the server's modules: seconds each on a busy machine.
  it("adds the first admin with a one-time password that signs in, and lists operators", {
    timeout: 240_000,
  }, async () => {
    const added = await runOperator(env, [
      "operators",
      "add",
      "--email",
      "root@ops.example",
      "--name",
      "Root",
      "--role",
      "admin",
    ])
    expect(added.stderr).toBe("")
    expect(added.code).toBe(0)
    const password = /one-time password: (\S+)/.exec(added.stdout)?.[1] ?? ""
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/)
    expect(added.stdout).toMatch(/^created admin root@ops\.example \(/)

    const browser = await signIn(server, clock, "root@ops.example", password)
    const me = await browser.get(`${BO}/me`)
    expect((me.body as { role: string }).role).toBe("admin")

    const listed = await runOperator(env, ["operators", "list"])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^root@ops\.example {2}admin {6}enrolled {2}"Root"/m)

    const again = await runOperator(env, [
      "operators",
      "add",
      "--email",
      "ROOT@ops.example",
      "--name",
      "Twin",
      "--role",
      "kyc",
    ])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("EmailTaken")
    const bad = await runOperator(env, [
      "operators",
      "add",
      "--email",
      "x@ops.example",
      "--name",
      "X",
      "--role",
      "root",
    ])
    expect(bad.code).toBe(2)

    const [audit] = await server.query<{ action: string; actor: string; operator_id: string | null }>(
      "SELECT action, actor, operator_id FROM operator_audit WHERE action = 'operators.create'",
    )
    expect(audit?.operator_id).toBeNull()
    expect(audit?.actor).toMatch(server.config.databaseUrl === undefined ? /^local via server$/ : /^cli:/)
  })
})
