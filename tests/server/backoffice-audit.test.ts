/**
 * The audit as a person reads it (`GET /audit`), on PostgreSQL: who acted is "Name <e-mail>" for
 * an operator in the browser and `token:Name <e-mail> (<token name>)` for a token; the subject is
 * the player's e-mail where a player was acted on, "Name <e-mail>" where an operator was; the
 * bootstrap's row says it was the bootstrap; a failed sign-in names the e-mail tried. The ids stay
 * in storage and in the answer.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { defaultRateLimits, scaleRateLimits } from "../../server/config.ts"
import { newPlayer } from "./account-support.ts"
import { BO, signIn, TestClock } from "./backoffice-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { userIdOf } from "./money-support.ts"
import { bearerCall } from "./operator-token.ts"
import { Browser } from "./users-support.ts"

const SECRET = "audit tests operator secret, long enough"
const PASSWORD = "ada's own pass phrase"

describeOn("postgres", "back-office audit, readable", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  beforeAll(async () => {
    server = await start({
      captchaEnabled: false,
      backofficeClock: clock.read,
      rateLimits: scaleRateLimits(defaultRateLimits, 100),
      operatorSecrets: [{ name: "ops-lead", secret: SECRET }],
    })
  })
  afterAll(() => server?.close())

  it("names people and players, and says which row was the bootstrap", async () => {
    const boot = await fetch(`${server.url}/api/operator/v1/backoffice/operators`, {
      method: "POST",
      headers: { authorization: `Bearer ${SECRET}`, "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@audit.example", name: "Ada Admin", role: "admin" }),
    })
    expect(boot.status).toBe(200)
    const { operator, initialPassword } = (await boot.json()) as {
      operator: { id: string }
      initialPassword: string
    }
    const ada = await signIn(server, clock, "ada@audit.example", initialPassword)
    expect(
      (await ada.post(`${BO}/password`, { currentPassword: initialPassword, newPassword: PASSWORD })).status,
    ).toBe(200)
    const kim = await ada.post(`${BO}/operators`, {
      email: "kim@audit.example",
      name: "Kim Officer",
      role: "kyc",
    })
    expect(kim.status).toBe(201)
    const kimId = (kim.body as { operator: { id: string } }).operator.id
    const player = await newPlayer(server, "audit")
    const playerId = await userIdOf(server, player.email)
    const made = await ada.post(`${BO}/tokens`, { name: "audit script" })
    expect(made.status).toBe(201)
    const token = (made.body as { token: string }).token
    const locked = await bearerCall(server.url, token, "POST", `${BO}/players/${playerId}/lock`, {
      reason: "chargeback review",
    })
    expect(locked.status, JSON.stringify(locked.body)).toBe(200)
    expect(
      (await new Browser(server).post(`${BO}/login`, { email: "kim@audit.example", password: "wrong" }))
        .status,
    ).toBe(401)

    const page = await ada.get(`${BO}/audit?limit=20`)
    expect(page.status).toBe(200)
    const entries = (
      page.body as {
        entries: ReadonlyArray<{
          action: string
          who: string
          subject: string | null
          subjectName: string | null
        }>
      }
    ).entries
    const adaName = "Ada Admin <ada@audit.example>"
    const kimName = "Kim Officer <kim@audit.example>"
    expect(entries.map(({ action, who, subjectName }) => ({ action, who, subjectName }))).toEqual([
      { action: "operator.login-failed", who: "sign-in attempt: kim@audit.example", subjectName: kimName },
      { action: "players.lock", who: `token:${adaName} (audit script)`, subjectName: player.email },
      { action: "tokens.create", who: adaName, subjectName: null },
      { action: "operators.create", who: adaName, subjectName: kimName },
      { action: "operator.password", who: adaName, subjectName: adaName },
      { action: "operator.enrol", who: adaName, subjectName: adaName },
      { action: "operators.bootstrap", who: "bootstrap (operator secret ops-lead)", subjectName: adaName },
    ])
    // The ids are kept: in storage and in the answer.
    expect(entries.map((e) => e.subject)).toEqual([
      kimId,
      playerId,
      expect.any(String),
      kimId,
      operator.id,
      operator.id,
      operator.id,
    ])
  })
})
