/**
 * The reality check's acknowledgement on PostgreSQL (GET/PUT …/profile/reality-check): 401
 * without a live session; the session's sign-in and no answer at first; "Continue playing" records
 * the database's clock on that session only (a body cannot choose the moment), read back by the
 * GET and after a new request of the same session; the player's other sessions and other players
 * are untouched; the answer is pushed to the player's pages (another tab closes its reminder); a
 * foreign Origin is refused before anything is written; a revoked session is 401.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { newPlayer, PASSWORD, PROFILE } from "./account-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { Browser, signIn, uniqueIp } from "./users-support.ts"

const RC = `${PROFILE}/profile/reality-check`

interface RealityCheckView {
  readonly signedInAt: string
  readonly acknowledgedAt: string | null
  readonly now: string
}

interface SessionRow {
  readonly id: string
  readonly created_at: Date | string
  readonly reality_check_ack_at: Date | string | null
}

const ms = (value: Date | string | null): number | null =>
  value === null ? null : value instanceof Date ? value.getTime() : Date.parse(value)

describeOn("postgres", "reality check acknowledgement", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
  })
  afterAll(() => server?.close())

  const sessionsOf = (email: string) =>
    server.query<SessionRow>(
      `SELECT s.id, s.created_at, s.reality_check_ack_at FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE u.email = $1 ORDER BY s.created_at`,
      [email],
    )

  const read = async (browser: Browser): Promise<RealityCheckView> => {
    const res = await browser.get(RC)
    expect(res.status).toBe(200)
    return res.body as RealityCheckView
  }

  const acknowledge = async (browser: Browser): Promise<RealityCheckView> => {
    const res = await browser.call("PUT", RC)
    expect(res.status).toBe(200)
    return res.body as RealityCheckView
  }

  it("needs a session: 401 for the GET and the PUT", async () => {
    const anonymous = new Browser(server, uniqueIp())
    for (const res of [await anonymous.get(RC), await anonymous.call("PUT", RC)]) {
      expect(res.status).toBe(401)
      expect(res.body).toMatchObject({ _tag: "Unauthenticated" })
    }
  })

  it("starts with the sign-in and no answer; Continue playing records the server's clock on that session", async () => {
    const { browser, email } = await newPlayer(server, "rc-ack")
    const first = await read(browser)
    const [row] = await sessionsOf(email)
    expect(ms(first.signedInAt)).toBe(ms(row?.created_at ?? null))
    expect(first.acknowledgedAt).toBeNull()
    expect(Date.parse(first.now)).toBeGreaterThanOrEqual(Date.parse(first.signedInAt))

    const answered = await acknowledge(browser)
    expect(answered.signedInAt).toBe(first.signedInAt)
    // The moment is the server's own, the same clock reading as its `now`.
    expect(answered.acknowledgedAt).toBe(answered.now)
    expect(Date.parse(answered.acknowledgedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(first.now))

    // Persisted: the next request of the session (a reload, a second tab) reads it back.
    const again = await read(browser)
    expect(again.acknowledgedAt).toBe(answered.acknowledgedAt)
    expect(Date.parse(again.now)).toBeGreaterThanOrEqual(Date.parse(answered.now))
    const [stored] = await sessionsOf(email)
    expect(ms(stored?.reality_check_ack_at ?? null)).toBe(Date.parse(answered.acknowledgedAt ?? ""))

    // A later answer moves it forward.
    const later = await acknowledge(browser)
    expect(Date.parse(later.acknowledgedAt ?? "")).toBeGreaterThanOrEqual(
      Date.parse(answered.acknowledgedAt ?? ""),
    )
  })

  it("pushes the answer to the player's pages, so another tab of the session closes its reminder", async () => {
    const { browser } = await newPlayer(server, "rc-push")
    // A second tab's push stream (the same session's cookie), open before the answer.
    const stream = await browser.pushStream()
    const answered = await acknowledge(browser)
    const pushed = await stream.until("event: realityCheck")
    await stream.close()
    expect(pushed).toContain(
      `event: realityCheck\ndata: {"type":"realityCheck","acknowledgedAt":"${answered.acknowledgedAt}"}`,
    )
  })

  it("a body cannot choose the moment: it is ignored, the server's clock is recorded", async () => {
    const { browser } = await newPlayer(server, "rc-body")
    const before = await read(browser)
    const future = "2099-01-01T00:00:00.000Z"
    const res = await browser.call("PUT", RC, { acknowledgedAt: future, at: Date.parse(future) })
    expect(res.status).toBe(200)
    const body = res.body as RealityCheckView
    expect(body.acknowledgedAt).toBe(body.now)
    expect(Date.parse(body.acknowledgedAt ?? "")).toBeGreaterThanOrEqual(Date.parse(before.now))
    expect(Date.parse(body.acknowledgedAt ?? "")).toBeLessThan(Date.parse(future))
    expect((await read(browser)).acknowledgedAt).toBe(body.acknowledgedAt)
  })

  it("is per session: the player's other sessions and other players are untouched", async () => {
    const { browser: phone, email } = await newPlayer(server, "rc-per-session")
    const laptop = new Browser(server, uniqueIp())
    expect((await signIn(laptop, email, PASSWORD)).status).toBe(200)
    const other = await newPlayer(server, "rc-other")

    const answered = await acknowledge(laptop)
    expect((await read(laptop)).acknowledgedAt).toBe(answered.acknowledgedAt)
    expect((await read(phone)).acknowledgedAt).toBeNull()
    expect((await read(other.browser)).acknowledgedAt).toBeNull()
    const rows = await sessionsOf(email)
    expect(rows).toHaveLength(2)
    expect(rows.filter((r) => r.reality_check_ack_at !== null)).toHaveLength(1)
    expect((await sessionsOf(other.email)).every((r) => r.reality_check_ack_at === null)).toBe(true)
    // Each session has its own sign-in.
    expect((await read(phone)).signedInAt).not.toBe((await read(laptop)).signedInAt)

    // The phone answers later: the laptop's answer stays as it was.
    await acknowledge(phone)
    expect((await read(laptop)).acknowledgedAt).toBe(answered.acknowledgedAt)
  })

  it("refuses a foreign Origin before writing anything", async () => {
    const { browser, email } = await newPlayer(server, "rc-origin")
    const res = await browser.call("PUT", RC, undefined, { origin: "https://evil.example" })
    expect(res.status).toBe(403)
    expect(res.body).toMatchObject({ error: "ForbiddenOrigin" })
    expect((await sessionsOf(email)).every((r) => r.reality_check_ack_at === null)).toBe(true)
  })

  it("a revoked session is 401 and nothing is written", async () => {
    const { browser, email } = await newPlayer(server, "rc-revoked")
    const [row] = await sessionsOf(email)
    await server.query(`UPDATE sessions SET revoked_at = now() WHERE id = $1`, [row?.id])
    expect((await browser.get(RC)).status).toBe(401)
    expect((await browser.call("PUT", RC)).status).toBe(401)
    expect((await sessionsOf(email)).every((r) => r.reality_check_ack_at === null)).toBe(true)
  })
})
