/**
 * `npm run operator` as a client of the back-office API: the first admin is added without a token
 * (PostgreSQL: the database opened directly; PGlite: the server's bootstrap endpoint) and signs in
 * with its one-time password; an admin's token lists operators but cannot add one (a browser
 * session's call); `login` reads the password and the code from stdin, saves a token file of mode
 * 0600 that the next commands use, and `logout` revokes that token on the server; a token the server
 * does not know stops the command with exit 2 and says what to do.
 * The first `operators add` and the `login` spawn the real process (`spawnOperator`: another process
 * than this one, whose server holds the PGlite folder; stdin a pipe); the other commands run the same
 * CLI function in-process (`runOperator`), which saves a Node start-up each and changes nothing tested.
 */
import { statSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { BO, codeAt, signIn, TestClock } from "./backoffice-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import {
  emptyConfigHome,
  operatorToken,
  PASSWORD,
  runOperator,
  spawnOperator,
} from "./operator-cli-support.ts"

describeBackends("operator command: back-office operators and signing in", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  let bootstrapEnv: Record<string, string>
  const configHome = emptyConfigHome()
  beforeAll(async () => {
    server = await start({ captchaEnabled: false, backofficeClock: clock.read })
    bootstrapEnv = {
      DATA_DIR: server.dataDir,
      LOG_LEVEL: "Warn",
      XDG_CONFIG_HOME: configHome,
      // PGlite: DATABASE_URL=embedded says so explicitly, as a production server's environment would.
      DATABASE_URL: server.config.databaseUrl ?? "embedded",
    }
  })
  afterAll(() => server?.close())

  // A process and a sign-in: a busy machine needs minutes.
  it("adds the first admin without a token, with a one-time password that signs in", {
    timeout: 240_000,
  }, async () => {
    // A real process: on PGlite the database is held by this process (its server), so the command
    // must be another one to go through the server's bootstrap endpoint.
    const added = await spawnOperator(bootstrapEnv, [
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

    const bad = await runOperator(bootstrapEnv, [
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

    // PGlite held by the server: its bootstrap endpoint, with the local operator secret. PostgreSQL:
    // the database itself, written by the command.
    const [audit] = await server.query<{ actor: string; action: string; operator_id: string | null }>(
      "SELECT actor, action, operator_id FROM operator_audit WHERE action IN ('operators.create', 'operators.bootstrap')",
    )
    expect(audit?.operator_id).toBeNull()
    if (server.config.databaseUrl === undefined)
      expect(audit).toMatchObject({
        actor: "bootstrap (operator secret local)",
        action: "operators.bootstrap",
      })
    else {
      expect(audit?.actor).toMatch(/^cli:/)
      expect(audit?.action).toBe("operators.create")
    }
  })

  // Several commands one after the other: a busy machine may need minutes.
  it("with an admin's token: lists operators; adding one is refused (the browser session's), nothing written", {
    timeout: 240_000,
  }, async () => {
    const token = await operatorToken(server, clock, { email: "ada@ops.example", role: "admin", name: "Ada" })
    const env = { OPERATOR_TOKEN: token, XDG_CONFIG_HOME: configHome }
    const operator = (args: ReadonlyArray<string>) => runOperator(env, [...args, "--server", server.url])

    const listed = await operator(["operators", "list"])
    expect(listed.stderr).toBe("")
    expect(listed.code).toBe(0)
    expect(listed.stdout).toMatch(/^root@ops\.example {2}admin {6}enrolled {2}"Root"/m)
    expect(listed.stdout).toMatch(/^ada@ops\.example {2}admin {6}enrolled {2}"Ada"/m)

    const added = await operator([
      "operators",
      "add",
      "--email",
      "kim@ops.example",
      "--name",
      "Kim",
      "--role",
      "kyc",
    ])
    expect(added.code).toBe(1)
    expect(added.stderr).toBe(
      "refused (Forbidden): This needs a signed-in browser session; an API token cannot do it.\n",
    )
    const kim = await server.query("SELECT 1 FROM backoffice_operators WHERE email = 'kim@ops.example'")
    expect(kim).toEqual([])
  })

  // A process and several commands one after the other: a busy machine needs minutes.
  it("login reads the password and the code from stdin, saves the token (0600) the next commands use; logout revokes it", {
    timeout: 240_000,
  }, async () => {
    const home = emptyConfigHome()
    const env = { XDG_CONFIG_HOME: home }
    // An operator whose second factor is enrolled (the tests learn its secret at enrolment).
    await operatorToken(server, clock, { email: "lou@ops.example", role: "payments", name: "Lou" })
    clock.advance(30_000)
    // A real process reading its piped stdin.
    const login = await spawnOperator(
      env,
      ["login", "--email", "lou@ops.example", "--server", server.url],
      `${PASSWORD}\n${codeAt("lou@ops.example", clock)}\n`,
    )
    expect(login.stderr).toBe("")
    expect(login.code).toBe(0)
    expect(login.stdout).toContain(`Signed in as lou@ops.example (payments) on ${server.url}.`)
    const file = join(home, "casino-operator", "token.json")
    expect(statSync(file).mode & 0o777).toBe(0o600)

    // No OPERATOR_TOKEN, no --server: the saved login says both.
    const whoami = await runOperator(env, ["whoami"])
    expect(whoami.stderr).toBe("")
    expect(whoami.code).toBe(0)
    expect(whoami.stdout).toMatch(/^lou@ops\.example {2}payments {2}"Lou" {2}/)

    const logout = await runOperator(env, ["logout"])
    expect(logout.code).toBe(0)
    expect(logout.stdout).toBe("The token is revoked and forgotten.\n")
    expect(() => statSync(file)).toThrow()
    const tokens = await server.query<{ name: string; revoked: boolean }>(
      `SELECT t.name, t.revoked_at IS NOT NULL AS revoked FROM backoffice_api_tokens t
         JOIN backoffice_operators o ON o.id = t.operator_id WHERE o.email = 'lou@ops.example' ORDER BY t.created_at`,
    )
    expect(tokens.map((t) => t.revoked)).toEqual([false, true])
    expect(tokens[1]?.name).toMatch(/^cli@.+@.+$/)
  })

  it("a token the server does not know stops the command with exit 2 and says what to do", async () => {
    const res = await runOperator({ OPERATOR_TOKEN: `bo_${"A".repeat(43)}`, XDG_CONFIG_HOME: configHome }, [
      "whoami",
      "--server",
      server.url,
    ])
    expect(res.code).toBe(2)
    expect(res.stderr).toBe(
      "operator: the token is not valid: run `npm run operator -- login` or set OPERATOR_TOKEN\n",
    )
  })
})
