/**
 * Sign-in abuse on PostgreSQL (docs/backoffice.md, "Login rate limits"): a stranger who knows an
 * operator's e-mail and fails from one address is refused there (429 with Retry-After) while the
 * operator signs in from another; failures spread over many addresses close the e-mail to every
 * address that failed for it, never to one that did not; every failed password and code is in the
 * audit with the address, never the password. Addresses vary by X-Forwarded-For (TRUST_PROXY 1).
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { defaultRateLimits } from "../../server/config.ts"
import { BO, codeAt, createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { Browser } from "./users-support.ts"

const PASSWORD = "correct horse battery staple"
const WRONG = "Tr0ub4dor&3 guessed"

describeOn("postgres", "back-office sign-in abuse", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  beforeAll(async () => {
    server = await start({
      captchaEnabled: false,
      backofficeClock: clock.read,
      trustProxy: { _tag: "Hops", hops: 1 },
      // Hour-long windows: a test never straddles one. Per address 8 attempts; per e-mail and
      // address 3 failures; per e-mail from everywhere 8 failures.
      rateLimits: {
        ...defaultRateLimits,
        signinPerIp: { max: 8, windowSeconds: 3600 },
        signinPerEmail: { max: 3, windowSeconds: 3600 },
      },
    })
  })
  afterAll(() => server?.close())

  const attempt = (ip: string, email: string, password: string) =>
    new Browser(server, ip).post(`${BO}/login`, { email, password })

  it("limits a stranger at their address (429 with Retry-After) while the operator signs in from theirs", async () => {
    await createOperator(server, { email: "ana@abuse.example", role: "admin", password: PASSWORD })
    await signIn(server, clock, "ana@abuse.example", PASSWORD, new Browser(server, "198.51.100.20"))

    const statuses: Array<number> = []
    for (let i = 0; i < 4; i++)
      statuses.push((await attempt("203.0.113.5", "ana@abuse.example", WRONG)).status)
    expect(statuses).toEqual([401, 401, 401, 429])
    const limited = await attempt("203.0.113.5", "ana@abuse.example", PASSWORD)
    expect(limited.status).toBe(429)
    expect((limited.body as { _tag: string })._tag).toBe("RateLimited")
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)

    // Meanwhile the operator, from the office: password and code.
    const office = await signIn(
      server,
      clock,
      "ana@abuse.example",
      PASSWORD,
      new Browser(server, "198.51.100.20"),
    )
    expect((await office.get(`${BO}/me`)).status).toBe(200)
    // And from a new address too.
    const travelling = await signIn(
      server,
      clock,
      "ana@abuse.example",
      PASSWORD,
      new Browser(server, "198.51.100.99"),
    )
    expect((await travelling.get(`${BO}/me`)).status).toBe(200)
  })

  it("past the e-mail's failures from everywhere, only an address that has not failed for it gets a try", async () => {
    await createOperator(server, { email: "ben@abuse.example", role: "support", password: PASSWORD })
    await signIn(server, clock, "ben@abuse.example", PASSWORD, new Browser(server, "198.51.100.30"))
    // Eight addresses, one failure each: the e-mail's eight failures, each address far from its own three.
    const spread: Array<number> = []
    for (let i = 1; i <= 8; i++)
      spread.push((await attempt(`192.0.2.${i}`, "ben@abuse.example", WRONG)).status)
    expect(spread).toEqual([401, 401, 401, 401, 401, 401, 401, 401])
    // An address that failed once is refused now, even with the right password.
    const failedBefore = await attempt("192.0.2.1", "ben@abuse.example", PASSWORD)
    expect(failedBefore.status).toBe(429)
    expect(Number(failedBefore.headers.get("retry-after"))).toBeGreaterThan(0)
    // One that never failed for this e-mail still gets its try: the operator signs in.
    const office = await signIn(
      server,
      clock,
      "ben@abuse.example",
      PASSWORD,
      new Browser(server, "198.51.100.30"),
    )
    expect((await office.get(`${BO}/me`)).status).toBe(200)
    // Another operator is untouched by ben's failures, from the same addresses.
    await createOperator(server, { email: "cid@abuse.example", role: "kyc", password: PASSWORD })
    expect((await attempt("192.0.2.1", "cid@abuse.example", PASSWORD)).status).toBe(200)
  })

  it("still limits one address's attempts, whatever the e-mails", async () => {
    const statuses: Array<number> = []
    for (let i = 0; i < 9; i++)
      statuses.push((await attempt("203.0.113.77", `nobody${i}@abuse.example`, WRONG)).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429])
  })

  it("audits every failed password and code with the address, never the password", async () => {
    await createOperator(server, { email: "dee@abuse.example", role: "payments", password: PASSWORD })
    const dee = (
      await server.query<{ id: string }>("SELECT id::text AS id FROM backoffice_operators WHERE email = $1", [
        "dee@abuse.example",
      ])
    )[0]?.id
    await signIn(server, clock, "dee@abuse.example", PASSWORD, new Browser(server, "198.51.100.40"))
    const since = (
      await server.query<{ id: string }>("SELECT coalesce(max(id), 0)::text AS id FROM operator_audit")
    )[0]?.id

    expect((await attempt("203.0.113.90", "Dee@Abuse.example", WRONG)).status).toBe(401)
    expect((await attempt("203.0.113.91", "ghost@abuse.example", WRONG)).status).toBe(401)
    const browser = new Browser(server, "203.0.113.92")
    expect(
      (await browser.post(`${BO}/login`, { email: "dee@abuse.example", password: PASSWORD })).status,
    ).toBe(200)
    clock.advance(30_000)
    const right = codeAt("dee@abuse.example", clock)
    const wrongCode = right === "000000" ? "000001" : "000000"
    expect((await browser.post(`${BO}/login/totp`, { code: wrongCode })).status).toBe(401)

    const rows = await server.query<Record<string, unknown>>(
      `SELECT actor, action, subject, operator_id, operator_email, ip, before, after
         FROM operator_audit WHERE id > $1::bigint ORDER BY id`,
      [since],
    )
    expect(rows).toEqual([
      {
        actor: "sign-in attempt: dee@abuse.example",
        action: "operator.login-failed",
        subject: dee,
        operator_id: null,
        operator_email: null,
        ip: "203.0.113.90",
        before: null,
        after: { email: "dee@abuse.example", reason: "wrong password" },
      },
      {
        actor: "sign-in attempt: ghost@abuse.example",
        action: "operator.login-failed",
        subject: null,
        operator_id: null,
        operator_email: null,
        ip: "203.0.113.91",
        before: null,
        after: { email: "ghost@abuse.example", reason: "no such operator" },
      },
      {
        actor: "sign-in attempt: dee@abuse.example",
        action: "operator.totp-failed",
        subject: dee,
        operator_id: null,
        operator_email: null,
        ip: "203.0.113.92",
        before: null,
        after: { email: "dee@abuse.example", reason: "wrong or used code" },
      },
    ])
    expect(JSON.stringify(rows)).not.toContain(WRONG)
    expect(JSON.stringify(rows)).not.toContain(wrongCode)
  })
})
