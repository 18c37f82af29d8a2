/**
 * Sessions and self-exclusion on PostgreSQL: the session list (browser, IP, country, times,
 * current), revoking one device (anonymous at once), foreign or unknown ids (404, never another
 * player's), password change revoking the others and reset revoking all, and self-exclusion
 * (every session ended, the cookie cleared, sign-in 451 with the spec's message until the end,
 * never shortened, extendable).
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ResponsibleGaming } from "../../server/responsible-gaming/ResponsibleGaming.ts"
import { ProfileMessages } from "../../services/profile-rules.ts"
import { newPlayer, PASSWORD, PROFILE, put } from "./account-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { Browser, linkOf, signIn, solveCaptcha, USER, waitForMail } from "./users-support.ts"

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"
const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const COOL_OFF = "Your account is on cool off period, contact support!"

interface SessionView {
  readonly id: string
  readonly browser: string
  readonly ip: string
  readonly country: string
  readonly createdAt: string
  readonly lastSeenAt: string
  readonly current: boolean
}

/** A browser with a user agent, signed in as `email`. */
const signedIn = async (server: TestServer, email: string, ip: string, userAgent: string) => {
  const browser = new Browser(server, ip)
  const res = await browser.post(
    `${USER}/signin`,
    { email, password: PASSWORD, captcha: await solveCaptcha(server) },
    { "user-agent": userAgent },
  )
  expect(res.status).toBe(200)
  return browser
}

const isSignedIn = async (browser: Browser): Promise<boolean> =>
  (await browser.get(`${PROFILE}/profile`)).status === 200

describeOn("postgres", "sessions and self-exclusion", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false }, { env: { TRUST_PROXY: "true" } })
  })
  afterAll(() => server?.close())

  describe("sessions", () => {
    it("lists every live session of the caller, the current one marked", async () => {
      const { browser: first, email } = await newPlayer(server, "sess-list")
      const firefox = await signedIn(server, email, "85.214.132.117", FIREFOX)
      const chrome = await signedIn(server, email, "193.0.6.139", CHROME_WINDOWS)
      const res = await firefox.get(`${PROFILE}/profile/session`)
      expect(res.status).toBe(200)
      const sessions = res.body as ReadonlyArray<SessionView>
      expect(sessions).toHaveLength(3)
      expect(sessions.filter((s) => s.current)).toHaveLength(1)
      expect(sessions.find((s) => s.current)).toMatchObject({
        browser: "Firefox 133 on Linux",
        ip: "85.214.132.117",
        country: "DE",
      })
      expect(sessions.find((s) => s.ip === "193.0.6.139")).toMatchObject({
        browser: "Chrome 131 on Windows",
        country: "NL",
        current: false,
      })
      for (const s of sessions) {
        expect(Number.isNaN(Date.parse(s.createdAt))).toBe(false)
        expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt))
      }
      // Each device sees itself as current.
      const fromChrome = (await chrome.get(`${PROFILE}/profile/session`)).body as ReadonlyArray<SessionView>
      expect(fromChrome.find((s) => s.current)?.ip).toBe("193.0.6.139")
      expect((await first.get(`${PROFILE}/profile/session`)).status).toBe(200)
      expect((await new Browser(server).get(`${PROFILE}/profile/session`)).status).toBe(401)
    })

    it("revoking a session signs that device out at once; unknown, malformed and ended ids are 404", async () => {
      const { browser: phone, email } = await newPlayer(server, "sess-revoke")
      const laptop = await signedIn(server, email, "10.1.1.1", FIREFOX)
      const list = (await laptop.get(`${PROFILE}/profile/session`)).body as ReadonlyArray<SessionView>
      const phoneSession = list.find((s) => !s.current)
      expect(phoneSession).toBeDefined()
      const revoked = await laptop.delete(`${PROFILE}/profile/session/${phoneSession?.id}`)
      expect(revoked.status).toBe(204)
      expect(await isSignedIn(phone)).toBe(false)
      expect((await phone.post(`${USER}/isAuthenticated`)).body).toEqual({
        isAuthenticated: false,
        user: null,
      })
      expect(await isSignedIn(laptop)).toBe(true)
      expect((await laptop.get(`${PROFILE}/profile/session`)).body).toHaveLength(1)

      for (const id of [phoneSession?.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        const res = await laptop.delete(`${PROFILE}/profile/session/${id}`)
        expect(res.status, id).toBe(404)
        expect(res.body).toMatchObject({ _tag: "SessionNotFound" })
      }
    })

    it("another player's session id is 404 and stays alive; lists never show another player's sessions", async () => {
      const a = await newPlayer(server, "sess-a")
      const b = await newPlayer(server, "sess-b")
      const aSessions = (await a.browser.get(`${PROFILE}/profile/session`)).body as ReadonlyArray<SessionView>
      const aId = aSessions[0]?.id
      const attempt = await b.browser.delete(`${PROFILE}/profile/session/${aId}`)
      expect(attempt.status).toBe(404)
      expect(attempt.body).toMatchObject({ _tag: "SessionNotFound" })
      expect(await isSignedIn(a.browser)).toBe(true)
      const bSessions = (await b.browser.get(`${PROFILE}/profile/session`)).body as ReadonlyArray<SessionView>
      expect(bSessions.map((s) => s.id)).not.toContain(aId)
    })

    it("revoking the current session clears its cookie", async () => {
      const { browser } = await newPlayer(server, "sess-self")
      const [mine] = (await browser.get(`${PROFILE}/profile/session`)).body as ReadonlyArray<SessionView>
      const res = await browser.delete(`${PROFILE}/profile/session/${mine?.id}`)
      expect(res.status).toBe(204)
      expect(res.setCookie.some((c) => /^casino_session=;.*Max-Age=0/i.test(c))).toBe(true)
      expect(await isSignedIn(browser)).toBe(false)
    })

    it("changing the password revokes the other sessions; resetting it revokes all", async () => {
      const { browser: first, email } = await newPlayer(server, "sess-password")
      const second = await signedIn(server, email, "10.2.2.2", FIREFOX)
      const third = await signedIn(server, email, "10.3.3.3", CHROME_WINDOWS)
      const changed = await second.post(`${USER}/change-password`, {
        oldPassword: PASSWORD,
        newPassword: "another horse 2",
        confirmPassword: "another horse 2",
      })
      expect(changed.status).toBe(204)
      expect(await isSignedIn(second)).toBe(true)
      expect(await isSignedIn(first)).toBe(false)
      expect(await isSignedIn(third)).toBe(false)

      expect((await new Browser(server).post(`${USER}/forgot-password`, { email })).status).toBe(200)
      const { token } = linkOf(await waitForMail(server, email, "Reset your password"), server)
      const reset = await new Browser(server).post(`${USER}/account/reset-password`, {
        password: "third horse 33",
        confirmPassword: "third horse 33",
        token,
        captcha: "",
      })
      expect(reset.status).toBe(204)
      expect(await isSignedIn(second)).toBe(false)
      const sessions = await server.query<{ live: number }>(
        `SELECT count(*)::int AS live FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE u.email = $1 AND s.revoked_at IS NULL`,
        [email],
      )
      expect(sessions).toEqual([{ live: 0 }])
    })
  })

  describe("self-exclusion", () => {
    it("ends every session, clears the cookie, and sign-in answers 451 until the end", async () => {
      const { browser, email } = await newPlayer(server, "excl-7d")
      const other = await signedIn(server, email, "10.4.4.4", FIREFOX)
      const [dbNow] = await server.query<{ now: Date }>("SELECT now() AS now")
      const res = await put(browser, `${PROFILE}/profile/self-exclude`, { selfExcludePeriod: "7d" })
      expect(res.status).toBe(200)
      const body = res.body as { period: string; until: string }
      expect(body.period).toBe("7d")
      const expected = (dbNow?.now.getTime() ?? 0) + 7 * 86_400_000
      // Computed from the database clock at the request (a second of slack for the request itself).
      expect(Math.abs(Date.parse(body.until) - expected)).toBeLessThan(60_000)
      expect(res.setCookie.some((c) => /^casino_session=;.*Max-Age=0/i.test(c))).toBe(true)
      expect(await isSignedIn(other)).toBe(false)
      const live = await server.query<{ live: number }>(
        `SELECT count(*)::int AS live FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE u.email = $1 AND s.revoked_at IS NULL`,
        [email],
      )
      expect(live).toEqual([{ live: 0 }])
      const stored = await server.query<{ kind: string; period: string; history: number }>(
        `SELECT self_exclusion_kind AS kind, self_exclusion_period AS period,
                (SELECT count(*)::int FROM self_exclusions x WHERE x.user_id = u.id) AS history
         FROM users u WHERE email = $1`,
        [email],
      )
      expect(stored).toEqual([{ kind: "timeout", period: "7d", history: 1 }])

      const refused = await signIn(new Browser(server, "10.4.4.5"), email, PASSWORD)
      expect(refused.status).toBe(451)
      expect(refused.body).toMatchObject({ _tag: "SelfExcluded", message: COOL_OFF })
      const until = (refused.body as { until: string }).until
      expect(Math.floor(Date.parse(until) / 1000)).toBe(Math.floor(Date.parse(body.until) / 1000))

      // Once the period is over, sign-in works again.
      await server.query(
        "UPDATE users SET self_exclusion_until = now() - interval '1 second' WHERE email = $1",
        [email],
      )
      expect((await signIn(new Browser(server, "10.4.4.6"), email, PASSWORD)).status).toBe(200)
    })

    it("permanent: 451 with no end", async () => {
      const { browser, email } = await newPlayer(server, "excl-perm")
      const res = await put(browser, `${PROFILE}/profile/self-exclude`, { selfExcludePeriod: "permanent" })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ period: "permanent", until: null })
      const refused = await signIn(new Browser(server, "10.5.5.5"), email, PASSWORD)
      expect(refused.status).toBe(451)
      expect(refused.body).toEqual({ _tag: "SelfExcluded", message: COOL_OFF, until: null })
    })

    it("an unknown period is a 400 and changes nothing", async () => {
      const { browser, email } = await newPlayer(server, "excl-bad")
      for (const selfExcludePeriod of ["2d", "", 7]) {
        const res = await put(browser, `${PROFILE}/profile/self-exclude`, { selfExcludePeriod })
        expect(res.status).toBe(400)
      }
      expect(await isSignedIn(browser)).toBe(true)
      const [row] = await server.query<{ kind: string | null }>(
        "SELECT self_exclusion_kind AS kind FROM users WHERE email = $1",
        [email],
      )
      expect(row?.kind).toBeNull()
    })

    it("can be extended, never shortened (the service the back office will use)", async () => {
      const { browser, email } = await newPlayer(server, "excl-extend")
      const first = await put(browser, `${PROFILE}/profile/self-exclude`, { selfExcludePeriod: "30d" })
      expect(first.status).toBe(200)
      const firstUntil = (first.body as { until: string }).until
      const [user] = await server.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [email])
      const userId = user?.id ?? ""
      const exclude = (period: "24h" | "42d" | "permanent" | "1y") =>
        server.run(
          Effect.gen(function* () {
            const rg = yield* ResponsibleGaming
            return yield* Effect.result(rg.selfExclude(userId, period))
          }),
        )

      const shorter = await exclude("24h")
      expect(shorter._tag).toBe("Failure")
      if (shorter._tag === "Failure") {
        expect(shorter.failure).toMatchObject({
          _tag: "ExclusionNotShortened",
          message: ProfileMessages.exclusionNotShortened,
          until: firstUntil,
        })
      }
      const longer = await exclude("42d")
      expect(longer._tag).toBe("Success")
      if (longer._tag === "Success") {
        expect(longer.success.period).toBe("42d")
        expect(Date.parse(longer.success.until ?? "")).toBeGreaterThan(Date.parse(firstUntil))
      }
      expect((await exclude("permanent"))._tag).toBe("Success")
      const afterPermanent = await exclude("1y")
      expect(afterPermanent._tag).toBe("Failure")
      if (afterPermanent._tag === "Failure") {
        expect(afterPermanent.failure).toMatchObject({ _tag: "ExclusionNotShortened", until: null })
      }
      const history = await server.query<{ period: string }>(
        "SELECT x.period FROM self_exclusions x JOIN users u ON u.id = x.user_id WHERE u.email = $1 ORDER BY x.id",
        [email],
      )
      expect(history.map((h) => h.period)).toEqual(["30d", "42d", "permanent"])
    })
  })
})
