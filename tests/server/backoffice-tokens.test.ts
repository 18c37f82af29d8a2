/**
 * Operators' API tokens on PostgreSQL: made from a signed-in session and shown once, then
 * `Authorization: Bearer` acts as that operator with that operator's role; never where the contract
 * wants a browser session (a new token, a new password); ended by revocation, by signing out with
 * it, by expiry (the back-office clock moves, nothing sleeps), by disabling the operator and by an
 * admin's reset; garbage is a 401, never a 500; every change audited.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { defaultRateLimits, scaleRateLimits } from "../../server/config.ts"
import { BO, createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { bearerCall } from "./operator-token.ts"
import type { Browser, Reply } from "./users-support.ts"

const PASSWORD = "correct horse battery staple"
const DAY = 86_400_000

describeOn("postgres", "back-office API tokens", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  let admin: Browser
  let support: Browser
  beforeAll(async () => {
    server = await start({
      captchaEnabled: false,
      backofficeClock: clock.read,
      rateLimits: scaleRateLimits(defaultRateLimits, 100),
    })
    await createOperator(server, { email: "root@tok.example", role: "admin", password: PASSWORD })
    await createOperator(server, { email: "sam@tok.example", role: "support", password: PASSWORD })
    admin = await signIn(server, clock, "root@tok.example", PASSWORD)
    support = await signIn(server, clock, "sam@tok.example", PASSWORD)
  })
  afterAll(() => server?.close())

  /** A call with the token and no cookie, the way a script sends it (no Origin either). */
  const withToken = (token: string, method: string, path: string, body?: unknown): Promise<Reply> =>
    bearerCall(server.url, token, method, path, body)

  const newToken = async (browser: Browser, name: string, days?: number) => {
    const reply = await browser.post(`${BO}/tokens`, days === undefined ? { name } : { name, days })
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    return reply.body as { token: string; apiToken: { id: string; name: string; expiresAt: string } }
  }

  const lastAudit = async () =>
    (
      await server.query<{ actor: string; action: string; subject: string }>(
        "SELECT actor, action, subject FROM operator_audit ORDER BY id DESC LIMIT 1",
      )
    )[0]

  it("is shown once, kept only as a hash, listed without its secret, and its making is audited", async () => {
    const made = await newToken(admin, "cli on the ops laptop")
    expect(made.token).toMatch(/^bo_[A-Za-z0-9_-]{43}$/)
    expect(made.apiToken.name).toBe("cli on the ops laptop")
    // BACKOFFICE_TOKEN_DAYS defaults to 90 days from the (test) clock.
    expect(Date.parse(made.apiToken.expiresAt) - clock.now).toBe(90 * DAY)
    const [row] = await server.query<{ token_hash: string }>(
      "SELECT token_hash FROM backoffice_api_tokens WHERE id = $1",
      [made.apiToken.id],
    )
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(row?.token_hash).not.toContain(made.token.slice(3))
    const list = await admin.get(`${BO}/tokens`)
    expect(list.status).toBe(200)
    expect(JSON.stringify(list.body)).not.toContain(made.token.slice(3))
    expect((list.body as { tokens: Array<{ id: string }> }).tokens.map((t) => t.id)).toContain(
      made.apiToken.id,
    )
    expect(await lastAudit()).toEqual({
      actor: "backoffice:root@tok.example",
      action: "tokens.create",
      subject: made.apiToken.id,
    })
  })

  it("acts as its operator, audited as the token, and records its last use", async () => {
    const made = await newToken(admin, "nightly script")
    const me = await withToken(made.token, "GET", `${BO}/me`)
    expect(me.status).toBe(200)
    expect((me.body as { operator: { email: string } }).operator.email).toBe("root@tok.example")
    // A change with no Origin header and no cookie: a script's call, not a cross-site one.
    const added = await withToken(made.token, "POST", `${BO}/settings/countries`, { code: "DE" })
    expect(added.status, JSON.stringify(added.body)).toBe(200)
    expect(await lastAudit()).toMatchObject({ actor: "token:root@tok.example (nightly script)" })
    const [used] = await server.query<{ last_used_at: Date | null; last_used_ip: string | null }>(
      "SELECT last_used_at, last_used_ip FROM backoffice_api_tokens WHERE id = $1",
      [made.apiToken.id],
    )
    expect(used?.last_used_at).not.toBeNull()
    expect(used?.last_used_ip).toBe("127.0.0.1")
  })

  it("has its operator's role: a support agent's token cannot review withdrawals", async () => {
    const made = await newToken(support, "support macro")
    const refused = await withToken(made.token, "GET", `${BO}/withdrawals`)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ _tag: "Forbidden", permission: "withdrawals.review" })
    expect((await withToken(made.token, "GET", `${BO}/chat/conversations`)).status).toBe(200)
  })

  it("cannot make another token or change the password: those need the browser session", async () => {
    const made = await newToken(admin, "no escalation")
    const count = async () =>
      (await server.query<{ n: number }>("SELECT count(*)::int AS n FROM backoffice_api_tokens"))[0]?.n
    const before = await count()
    const another = await withToken(made.token, "POST", `${BO}/tokens`, { name: "child" })
    expect(another.status).toBe(403)
    expect(another.body).toMatchObject({ _tag: "Forbidden", permission: "session" })
    const password = await withToken(made.token, "POST", `${BO}/password`, {
      currentPassword: PASSWORD,
      newPassword: "a brand new pass phrase",
    })
    expect(password.status).toBe(403)
    expect(await count()).toBe(before)
  })

  it("cannot manage operators: an admin's token is refused creating, changing or resetting one", async () => {
    const made = await newToken(admin, "leaked admin token")
    const state = async () =>
      (
        await server.query<{ n: number; state: string }>(
          `SELECT count(*)::int AS n,
                  string_agg(email || ':' || role || ':' || disabled::text || ':' || updated_at::text, ',' ORDER BY email) AS state
             FROM backoffice_operators`,
        )
      )[0]
    const samId = (
      (await admin.get(`${BO}/operators`)).body as { operators: Array<{ id: string; email: string }> }
    ).operators.find((o) => o.email === "sam@tok.example")?.id
    const before = await state()
    const calls: ReadonlyArray<readonly [string, string, unknown]> = [
      [
        "POST",
        `${BO}/operators`,
        { email: "mallory@tok.example", name: "M", role: "admin", password: "chosen by the thief" },
      ],
      ["PATCH", `${BO}/operators/${samId}`, { role: "admin" }],
      ["POST", `${BO}/operators/${samId}/reset`, { what: "password" }],
    ]
    for (const [method, path, body] of calls) {
      const reply = await withToken(made.token, method, path, body)
      expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBe(403)
      expect(reply.body).toMatchObject({ _tag: "Forbidden", permission: "session" })
    }
    expect(await state()).toEqual(before)
    // Reading the list stays open to a token (the command's `operators list`).
    expect((await withToken(made.token, "GET", `${BO}/operators`)).status).toBe(200)
  })

  it("answers 401 to garbage, unknown and malformed tokens, never 500", async () => {
    // (fetch sends header values as bytes: no emoji here, but every other shape.)
    for (const token of [
      "x",
      `bo_${"A".repeat(43)}`,
      "bo_%00",
      "bo_\u00e9t\u00e9",
      `bo_${"a".repeat(5000)}`,
    ]) {
      const reply = await withToken(token, "GET", `${BO}/me`)
      expect(reply.status, token).toBe(401)
      expect(reply.body).toMatchObject({ _tag: "Unauthenticated" })
    }
  })

  it("ends when revoked, and an operator cannot end someone else's token (an admin can)", async () => {
    const mine = await newToken(support, "to revoke")
    const theirs = await newToken(admin, "admin's own")
    expect((await support.call("DELETE", `${BO}/tokens/${theirs.apiToken.id}`)).status).toBe(404)
    expect((await withToken(theirs.token, "GET", `${BO}/me`)).status).toBe(200)
    const ended = await support.call("DELETE", `${BO}/tokens/${mine.apiToken.id}`)
    expect(ended.status).toBe(200)
    expect((ended.body as { revokedAt: string | null }).revokedAt).not.toBeNull()
    expect((await withToken(mine.token, "GET", `${BO}/me`)).status).toBe(401)
    // Twice: there is no live token with this id any more.
    expect((await support.call("DELETE", `${BO}/tokens/${mine.apiToken.id}`)).status).toBe(404)
    const other = await newToken(support, "the admin ends this one")
    expect((await admin.call("DELETE", `${BO}/tokens/${other.apiToken.id}`)).status).toBe(200)
    expect((await withToken(other.token, "GET", `${BO}/me`)).status).toBe(401)
  })

  it("signing out with a token ends that token, and only it", async () => {
    const a = await newToken(admin, "sign-out a")
    const b = await newToken(admin, "sign-out b")
    expect((await withToken(a.token, "POST", `${BO}/logout`)).status).toBe(200)
    expect((await withToken(a.token, "GET", `${BO}/me`)).status).toBe(401)
    expect((await withToken(b.token, "GET", `${BO}/me`)).status).toBe(200)
    expect((await admin.get(`${BO}/me`)).status).toBe(200)
  })

  it("expires after the days chosen, without an idle limit before", async () => {
    // More days than a year are refused by the contract.
    expect((await admin.post(`${BO}/tokens`, { name: "forever", days: 366 })).status).toBe(400)
    const short = await newToken(admin, "a week", 7)
    // Far past the session's 30-minute idle limit, the token still works.
    clock.advance(6 * DAY)
    expect((await withToken(short.token, "GET", `${BO}/me`)).status).toBe(200)
    clock.advance(DAY)
    expect((await withToken(short.token, "GET", `${BO}/me`)).status).toBe(401)
    // The browser sessions ended long ago (12 hours at most): the next tests sign in again.
    admin = await signIn(server, clock, "root@tok.example", PASSWORD)
    support = await signIn(server, clock, "sam@tok.example", PASSWORD)
  })

  it("stops when its operator is disabled, and stays ended when they are enabled again", async () => {
    await createOperator(server, { email: "kim@tok.example", role: "kyc", password: PASSWORD })
    const kim = await signIn(server, clock, "kim@tok.example", PASSWORD)
    const made = await newToken(kim, "kim's script")
    const id = ((await kim.get(`${BO}/me`)).body as { operator: { id: string } }).operator.id
    expect((await admin.call("PATCH", `${BO}/operators/${id}`, { disabled: true })).status).toBe(200)
    expect((await withToken(made.token, "GET", `${BO}/me`)).status).toBe(401)
    expect((await admin.call("PATCH", `${BO}/operators/${id}`, { disabled: false })).status).toBe(200)
    expect((await withToken(made.token, "GET", `${BO}/me`)).status).toBe(401)
  })

  it("ends every token of an operator with an admin's reset of their tokens, audited", async () => {
    await createOperator(server, { email: "pat@tok.example", role: "payments", password: PASSWORD })
    const pat = await signIn(server, clock, "pat@tok.example", PASSWORD)
    const one = await newToken(pat, "one")
    const two = await newToken(pat, "two")
    const id = ((await pat.get(`${BO}/me`)).body as { operator: { id: string } }).operator.id
    const reset = await admin.post(`${BO}/operators/${id}/reset`, { what: "tokens" })
    expect(reset.status, JSON.stringify(reset.body)).toBe(200)
    expect(await lastAudit()).toEqual({
      actor: "backoffice:root@tok.example",
      action: "operators.reset",
      subject: id,
    })
    for (const t of [one, two]) expect((await withToken(t.token, "GET", `${BO}/me`)).status).toBe(401)
    // The reset also ends their browser sessions.
    expect((await pat.get(`${BO}/me`)).status).toBe(401)
  })

  it("ends every token and every other session of an operator who changes their password", async () => {
    await createOperator(server, { email: "lee@tok.example", role: "marketing", password: PASSWORD })
    const lee = await signIn(server, clock, "lee@tok.example", PASSWORD)
    const elsewhere = await signIn(server, clock, "lee@tok.example", PASSWORD)
    const one = await newToken(lee, "laptop")
    const two = await newToken(elsewhere, "report job")
    const changed = await lee.post(`${BO}/password`, {
      currentPassword: PASSWORD,
      newPassword: "lee's brand new pass phrase",
    })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    for (const t of [one, two]) expect((await withToken(t.token, "GET", `${BO}/me`)).status).toBe(401)
    expect((await elsewhere.get(`${BO}/me`)).status).toBe(401)
    // The session that changed it goes on; another operator's token is untouched.
    expect((await lee.get(`${BO}/me`)).status).toBe(200)
    const others = await newToken(admin, "someone else's")
    expect((await withToken(others.token, "GET", `${BO}/me`)).status).toBe(200)
    const [revoked] = await server.query<{ live: number }>(
      `SELECT count(*)::int AS live FROM backoffice_api_tokens t JOIN backoffice_operators o ON o.id = t.operator_id
        WHERE o.email = 'lee@tok.example' AND t.revoked_at IS NULL`,
    )
    expect(revoked?.live).toBe(0)
  })

  it("refuses a bad name or days with 400 and writes nothing", async () => {
    const count = async () =>
      (await server.query<{ n: number }>("SELECT count(*)::int AS n FROM backoffice_api_tokens"))[0]?.n
    const before = await count()
    for (const body of [
      { name: "   " },
      { name: "" },
      { name: "x", days: 0 },
      { name: "x", days: 1.5 },
      {},
    ]) {
      const reply = await admin.post(`${BO}/tokens`, body)
      expect(reply.status, JSON.stringify(body)).toBe(400)
    }
    expect(await count()).toBe(before)
  })
})
