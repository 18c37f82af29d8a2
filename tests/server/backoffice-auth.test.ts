/**
 * Back-office login on PostgreSQL: enrolment at the first login, then password + TOTP; wrong
 * password, wrong code and a replayed code refused; the idle and absolute session limits (the
 * server's back-office clock is moved, nothing sleeps); logout; the login rate limit;
 * BACKOFFICE_ALLOW; the cookie's attributes; bad input answered 400.
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

describeOn("postgres", "back-office login", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  beforeAll(async () => {
    server = await start({
      captchaEnabled: false,
      backofficeClock: clock.read,
      rateLimits: {
        signinPerIp: { max: 1000, windowSeconds: 900 },
        signinPerEmail: { max: 4, windowSeconds: 900 },
        registerPerIp: { max: 10, windowSeconds: 3600 },
        forgotPerIp: { max: 10, windowSeconds: 3600 },
        forgotPerEmail: { max: 3, windowSeconds: 3600 },
        resendPerUser: { max: 3, windowSeconds: 3600 },
        errorLogPerIp: { max: 30, windowSeconds: 60 },
        documentUploadPerUser: { max: 20, windowSeconds: 3600 },
        couponPerIp: { max: 60, windowSeconds: 600 },
        chatConversationsPerIp: { max: 10, windowSeconds: 3600 },
        chatMessagesPerIp: { max: 60, windowSeconds: 600 },
      },
    })
  })
  afterAll(() => server?.close())

  it("enrols at the first login (otpauth URI, secret), then signs in with password and code", async () => {
    await createOperator(server, { email: "ana@ops.example", role: "admin", password: PASSWORD })
    const browser = new Browser(server)
    const first = await browser.post(`${BO}/login`, { email: "ana@ops.example", password: PASSWORD })
    expect(first.status).toBe(200)
    const enrol = first.body as { step: string; otpauthUri: string; secret: string }
    expect(enrol.step).toBe("enrol")
    expect(enrol.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(enrol.otpauthUri).toBe(
      `otpauth://totp/Casino:ana%40ops.example?issuer=Casino&secret=${enrol.secret}&algorithm=SHA1&digits=6&period=30`,
    )
    // The cookie of the password step: back-office only, never to scripts, never cross-site.
    const cookie = first.setCookie.find((c) => c.startsWith("bo_session="))
    expect(cookie).toBeDefined()
    expect(cookie).toMatch(/; Path=\/api\/backoffice(;|$)/)
    expect(cookie).toMatch(/; HttpOnly(;|$)/)
    expect(cookie).toMatch(/; SameSite=Strict(;|$)/)
    expect(cookie).not.toMatch(/Secure/)
    expect(cookie).toMatch(/; Max-Age=300(;|$)/)
    // The password alone is no session.
    expect((await browser.get(`${BO}/me`)).status).toBe(401)
    // The secret is stored sealed, never as given.
    const [stored] = await server.query<{ totp_secret: string; totp_enrolled: boolean }>(
      "SELECT totp_secret, totp_enrolled FROM backoffice_operators WHERE email = 'ana@ops.example'",
    )
    expect(stored?.totp_enrolled).toBe(false)
    expect(stored?.totp_secret.startsWith("v1.")).toBe(true)
    expect(stored?.totp_secret).not.toContain(enrol.secret)

    await signIn(server, clock, "ana@ops.example", PASSWORD, browser)
    const me = await browser.get(`${BO}/me`)
    expect(me.status).toBe(200)
    const body = me.body as { operator: Record<string, unknown>; role: string; permissions: Array<string> }
    expect(body.role).toBe("admin")
    expect(body.operator.email).toBe("ana@ops.example")
    expect(body.operator.enrolled).toBe(true)
    expect(body.operator).not.toHaveProperty("totpSecret")
    expect(JSON.stringify(body)).not.toContain("password")
    expect(body.permissions).toHaveLength(13)
    const audit = await server.query<{ action: string; operator_email: string; ip: string }>(
      "SELECT action, operator_email, ip FROM operator_audit WHERE operator_email = 'ana@ops.example' ORDER BY id",
    )
    expect(audit).toEqual([{ action: "operator.enrol", operator_email: "ana@ops.example", ip: "127.0.0.1" }])

    // Second login: a code step, no secret shown again.
    const again = new Browser(server)
    const step = await again.post(`${BO}/login`, { email: "ana@ops.example", password: PASSWORD })
    expect(step.body).toEqual({ step: "totp" })
  })

  it("refuses a wrong password, an unknown e-mail, a wrong code and a replayed code", async () => {
    await createOperator(server, { email: "ben@ops.example", role: "support", password: PASSWORD })
    const browser = await signIn(server, clock, "ben@ops.example", PASSWORD)
    const wrong = await new Browser(server).post(`${BO}/login`, {
      email: "ben@ops.example",
      password: "nope",
    })
    expect(wrong.status).toBe(401)
    expect(wrong.body).toEqual({ _tag: "InvalidCredentials", message: "Wrong e-mail or password." })
    const unknown = await new Browser(server).post(`${BO}/login`, {
      email: "nobody@ops.example",
      password: PASSWORD,
    })
    expect(unknown.status).toBe(401)
    expect(unknown.body).toEqual(wrong.body)

    // The code just used by signIn, again (same time-step): a replay.
    const used = codeAt("ben@ops.example", clock)
    const replay = new Browser(server)
    expect((await replay.post(`${BO}/login`, { email: "ben@ops.example", password: PASSWORD })).status).toBe(
      200,
    )
    const replayed = await replay.post(`${BO}/login/totp`, { code: used })
    expect(replayed.status).toBe(401)
    expect((replayed.body as { _tag: string })._tag).toBe("InvalidCode")
    const wrongCode = await replay.post(`${BO}/login/totp`, { code: used === "000000" ? "000001" : "000000" })
    expect(wrongCode.status).toBe(401)
    expect((await replay.get(`${BO}/me`)).status).toBe(401)
    // A code without the password step first.
    clock.advance(30_000)
    const noPassword = await new Browser(server).post(`${BO}/login/totp`, {
      code: codeAt("ben@ops.example", clock),
    })
    expect(noPassword.status).toBe(401)
    expect((noPassword.body as { _tag: string })._tag).toBe("LoginExpired")
    // The next time-step's code works; the first session lives on.
    const ok = await replay.post(`${BO}/login/totp`, { code: codeAt("ben@ops.example", clock) })
    expect(ok.status).toBe(200)
    expect((await browser.get(`${BO}/me`)).status).toBe(200)
  })

  it("ends a session after 30 minutes unused (sliding) and 12 hours after login", async () => {
    await createOperator(server, { email: "cleo@ops.example", role: "kyc", password: PASSWORD })
    const browser = await signIn(server, clock, "cleo@ops.example", PASSWORD)
    clock.advance(29 * 60_000)
    expect((await browser.get(`${BO}/me`)).status).toBe(200)
    clock.advance(29 * 60_000)
    expect((await browser.get(`${BO}/me`)).status).toBe(200)
    clock.advance(30 * 60_000 + 1_000)
    expect((await browser.get(`${BO}/me`)).status).toBe(401)

    const busy = await signIn(server, clock, "cleo@ops.example", PASSWORD)
    // Used every 25 minutes: alive until 12 hours after its login, not a moment more.
    let elapsed = 0
    while (elapsed + 25 * 60_000 < 12 * 3_600_000) {
      clock.advance(25 * 60_000)
      elapsed += 25 * 60_000
      expect((await busy.get(`${BO}/me`)).status).toBe(200)
    }
    clock.advance(12 * 3_600_000 - elapsed)
    expect((await busy.get(`${BO}/me`)).status).toBe(401)
  })

  it("logout revokes the session and clears the cookie", async () => {
    await createOperator(server, { email: "dan@ops.example", role: "payments", password: PASSWORD })
    const browser = await signIn(server, clock, "dan@ops.example", PASSWORD)
    const token = browser.cookies.get("bo_session") ?? ""
    const out = await browser.post(`${BO}/logout`)
    expect(out.status).toBe(200)
    const cleared = out.setCookie.find((c) => c.startsWith("bo_session="))
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/)
    const stolen = new Browser(server)
    stolen.cookies.set("bo_session", token)
    expect((await stolen.get(`${BO}/me`)).status).toBe(401)
    const [row] = await server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM operator_audit WHERE action = 'operator.logout' AND operator_email = 'dan@ops.example'",
    )
    expect(row?.n).toBe(1)
  })

  it("limits password attempts per e-mail (429 with Retry-After)", async () => {
    await createOperator(server, { email: "eve@ops.example", role: "marketing", password: PASSWORD })
    const statuses: Array<number> = []
    for (let i = 0; i < 5; i++)
      statuses.push(
        (await new Browser(server).post(`${BO}/login`, { email: "eve@ops.example", password: "x" })).status,
      )
    expect(statuses).toEqual([401, 401, 401, 401, 429])
    const limited = await new Browser(server).post(`${BO}/login`, {
      email: "eve@ops.example",
      password: PASSWORD,
    })
    expect(limited.status).toBe(429)
    expect((limited.body as { _tag: string })._tag).toBe("RateLimited")
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
  })

  it("answers bad input 400, never 500", async () => {
    const browser = new Browser(server)
    const wrongType = await browser.post(`${BO}/login`, { email: 5, password: PASSWORD })
    expect(wrongType.status).toBe(400)
    expect((wrongType.body as { error: string }).error).toBe("BadRequest")
    const notJson = await fetch(`${server.url}${BO}/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: "{",
    })
    expect(notJson.status).toBe(400)
    expect((await browser.post(`${BO}/login/totp`, { code: 123456 })).status).toBe(400)
  })

  it("refuses writes from another origin", async () => {
    const foreign = await new Browser(server).post(
      `${BO}/login`,
      { email: "ana@ops.example", password: PASSWORD },
      { origin: "https://evil.example" },
    )
    expect(foreign.status).toBe(403)
    expect((foreign.body as { error: string }).error).toBe("ForbiddenOrigin")
  })
})

describeOn(
  "postgres",
  "back-office address allow-list, login limit per address, secure cookie",
  ({ start }) => {
    const clock = new TestClock()
    let server: TestServer
    beforeAll(async () => {
      server = await start({
        captchaEnabled: false,
        backofficeClock: clock.read,
        backofficeAllow: ["10.1.0.0/16", "192.0.2.7"],
        trustProxy: { _tag: "Hops", hops: 1 },
        publicUrl: "https://casino.example",
        rateLimits: { ...defaultRateLimits, signinPerIp: { max: 3, windowSeconds: 900 } },
      })
    })
    afterAll(() => server?.close())

    it("refuses every back-office route from an address outside BACKOFFICE_ALLOW, before anything else", async () => {
      await createOperator(server, { email: "fay@ops.example", role: "admin", password: PASSWORD })
      const outside = new Browser(server, "203.0.113.9")
      for (const [method, path] of [
        ["POST", `${BO}/login`],
        ["POST", `${BO}/login/totp`],
        ["GET", `${BO}/me`],
        ["GET", `${BO}/operators`],
        ["GET", `${BO}/audit`],
      ] as const) {
        const reply = await outside.call(
          method,
          path,
          method === "POST" ? { email: "fay@ops.example", password: PASSWORD } : undefined,
        )
        expect(reply.status, `${method} ${path}`).toBe(403)
        expect((reply.body as { _tag: string })._tag).toBe("ForbiddenAddress")
      }
      // A session taken from an allowed address is refused from another one too.
      const inside = new Browser(server, "10.1.2.3")
      await signIn(server, clock, "fay@ops.example", PASSWORD, inside)
      expect((await inside.get(`${BO}/me`)).status).toBe(200)
      const moved = new Browser(server, "198.51.100.1")
      moved.cookies = new Map(inside.cookies)
      expect((await moved.get(`${BO}/me`)).status).toBe(403)
      expect((await new Browser(server, "192.0.2.7").get(`${BO}/me`)).status).toBe(401)
    })

    it("limits password attempts per client address, whatever the e-mail", async () => {
      const statuses: Array<number> = []
      for (const name of ["a", "b", "c", "d"])
        statuses.push(
          (
            await new Browser(server, "10.1.9.9").post(`${BO}/login`, {
              email: `${name}@ops.example`,
              password: "x",
            })
          ).status,
        )
      expect(statuses).toEqual([401, 401, 401, 429])
      // Another address is counted apart.
      expect(
        (
          await new Browser(server, "10.1.9.10").post(`${BO}/login`, {
            email: "a@ops.example",
            password: "x",
          })
        ).status,
      ).toBe(401)
    })

    it("marks the cookie Secure when PUBLIC_URL is https", async () => {
      const reply = await new Browser(server, "10.1.0.1").post(`${BO}/login`, {
        email: "fay@ops.example",
        password: PASSWORD,
      })
      expect(reply.status).toBe(200)
      expect(reply.setCookie.find((c) => c.startsWith("bo_session="))).toMatch(/; Secure(;|$)/)
    })
  },
)
