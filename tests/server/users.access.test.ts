/**
 * Account access against PostgreSQL: registration (rules, messages, wallet, clickId, duplicate
 * e-mail under concurrency), the e-mail check, sign-in (401/423/451/403), sessions and their
 * cookie, sign-out, isAuthenticated and the two profile reads.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */

import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AccountMessages } from "../../services/account-rules.ts"
import { Messages } from "../../services/rules.ts"
import { describeOn, type TestServer } from "./harness.ts"
import {
  Browser,
  PROFILE,
  register,
  registration,
  signIn,
  solveCaptcha,
  USER,
  uniqueEmail,
  uniqueIp,
} from "./users-support.ts"

const PASSWORD = "correct horse 1"
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex")

describeOn("postgres", "accounts: registration, sign-in, sessions", ({ start }) => {
  let server: TestServer
  const browser = (ip: string = uniqueIp()) => new Browser(server, ip)

  beforeAll(async () => {
    server = await start({}, { env: { TRUST_PROXY: "true" } })
  })
  afterAll(() => server?.close())

  describe("registration", () => {
    it("creates the account, its default wallet in the chosen currency, and signs the player in", async () => {
      const b = browser()
      const email = uniqueEmail("reg")
      const res = await register(b, email, { currency: "BTC", fullName: "Grace Brewster Hopper" })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({
        isAuthenticated: true,
        user: { email, fullName: "Grace Brewster Hopper", confirmed: false },
      })
      const cookie = res.setCookie.find((c) => c.startsWith("casino_session="))
      expect(cookie).toBeDefined()
      expect(cookie).toMatch(/HttpOnly/i)
      expect(cookie).toMatch(/SameSite=Lax/i)
      expect(cookie).toMatch(/Path=\//)
      expect(cookie).toMatch(new RegExp(`Max-Age=${server.config.sessionTtlHours * 3600}`))
      expect(cookie).not.toMatch(/Secure/i)

      const wallets = await server.query<{ currency: string; is_default: boolean; balance: string }>(
        "SELECT w.currency, w.is_default, a.balance::text AS balance FROM wallets w JOIN users u ON u.id = w.user_id JOIN ledger_accounts a ON a.id = w.id WHERE u.email = $1",
        [email],
      )
      expect(wallets).toEqual([{ currency: "BTC", is_default: true, balance: "0" }])
      const users = await server.query<{ first_name: string; last_name: string; password_hash: string }>(
        "SELECT first_name, last_name, password_hash FROM users WHERE email = $1",
        [email],
      )
      expect(users[0]?.first_name).toBe("Grace")
      expect(users[0]?.last_name).toBe("Brewster Hopper")
      expect(users[0]?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)

      const fund = await b.get(`${PROFILE}/profile/currency`)
      expect(fund.status).toBe(200)
      expect(fund.body).toEqual([
        { currency: "BTC", default: true, balance: "0", bonusBalance: "0", freeSpinWallet: null },
      ])
    })

    it("defaults to EUR when the currency is empty, and refuses an unknown currency", async () => {
      const email = uniqueEmail("eur")
      expect((await register(browser(), email, { currency: "" })).status).toBe(200)
      const rows = await server.query<{ currency: string }>(
        "SELECT w.currency FROM wallets w JOIN users u ON u.id = w.user_id WHERE u.email = $1",
        [email],
      )
      expect(rows).toEqual([{ currency: "EUR" }])
      const bad = await register(browser(), uniqueEmail("xxx"), { currency: "XXX" })
      expect(bad.status).toBe(400)
      expect(bad.body).toEqual({
        _tag: "ValidationFailed",
        message: AccountMessages.registerIncomplete,
        field: "currency",
      })
    })

    it("answers the spec's message, naming the field, for each broken rule", async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ terms: false }, "terms"],
        [{ fullName: "Ada" }, "fullName"],
        [{ fullName: "Ada 1234" }, "fullName"],
        [{ email: "not-an-email" }, "email"],
        [{ password: "short" }, "password"],
      ]
      for (const [extra, field] of cases) {
        const res = await register(browser(), uniqueEmail("rule"), extra)
        expect(res.status, JSON.stringify(extra)).toBe(400)
        expect(res.body).toEqual({
          _tag: "ValidationFailed",
          message: AccountMessages.registerIncomplete,
          field,
        })
      }
      const none = await server.query("SELECT 1 FROM users WHERE email = 'not-an-email'")
      expect(none).toHaveLength(0)
    })

    it("stores the clickId cookie when the payload carries none; the payload wins otherwise", async () => {
      const fromCookie = browser()
      fromCookie.cookies.set("clickId", "cookie-click-42")
      const a = uniqueEmail("click")
      expect((await register(fromCookie, a, { registrationCode: "WELCOME" })).status).toBe(200)
      const fromPayload = browser()
      fromPayload.cookies.set("clickId", "cookie-click-43")
      const b = uniqueEmail("click")
      expect((await register(fromPayload, b, { clickId: "payload-click" })).status).toBe(200)
      const rows = await server.query<{ email: string; click_id: string; registration_code: string | null }>(
        "SELECT email, click_id, registration_code FROM users WHERE email IN ($1, $2) ORDER BY email = $1 DESC",
        [a, b],
      )
      expect(rows).toEqual([
        { email: a, click_id: "cookie-click-42", registration_code: "WELCOME" },
        { email: b, click_id: "payload-click", registration_code: null },
      ])
    })

    it("answers 409 for a duplicate e-mail (any case), exactly once under concurrent registrations", async () => {
      const email = uniqueEmail("dup")
      const attempts = await Promise.all(
        [email, email.toUpperCase(), email, email.toUpperCase(), email].map(async (address) =>
          register(browser(), address),
        ),
      )
      const statuses = attempts.map((r) => r.status).sort()
      expect(statuses).toEqual([200, 409, 409, 409, 409])
      for (const r of attempts.filter((a) => a.status === 409)) {
        expect(r.body).toEqual({ _tag: "EmailTaken", message: AccountMessages.registerEmailTaken })
        expect(r.setCookie.some((c) => c.startsWith("casino_session="))).toBe(false)
      }
      const rows = await server.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM users WHERE lower(email) = lower($1)",
        [email],
      )
      expect(rows[0]?.n).toBe("1")
      const wallets = await server.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM wallets w JOIN users u ON u.id = w.user_id WHERE lower(u.email) = lower($1)",
        [email],
      )
      expect(wallets[0]?.n).toBe("1")
    })

    it("refuses a blocked domain with the registration message", async () => {
      const [domain] = server.config.blockedEmailDomains
      const res = await register(browser(), `someone@${domain}`)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({
        _tag: "RegistrationRefused",
        message: AccountMessages.blockedDomainRegister,
      })
      const sub = await register(browser(), `someone@mail.${domain}`)
      expect(sub.status).toBe(403)
    })

    it("refuses a restricted country (X-Forwarded-For 81.2.69.142 = GB) with 403", async () => {
      const res = await register(browser("81.2.69.142"), uniqueEmail("gb"))
      expect(res.status).toBe(403)
      expect(res.body).toEqual({
        _tag: "CountryRestricted",
        message: Messages.countryRestricted,
        isoCode: "GB",
      })
    })
  })

  describe("e-mail check", () => {
    it("answers INVALID, DISPOSABLE or VALID and does not reveal accounts", async () => {
      const b = browser()
      const status = async (email: string) => (await b.post(`${USER}/registration/validate`, { email })).body
      expect(await status("nope")).toEqual({ email_status: "INVALID" })
      expect(await status("a@localhost")).toEqual({ email_status: "INVALID" })
      expect(await status("someone@mailinator.com")).toEqual({ email_status: "DISPOSABLE" })
      expect(await status("someone@sub.mailinator.com")).toEqual({ email_status: "DISPOSABLE" })
      expect(await status("someone@example.com")).toEqual({ email_status: "VALID" })
      const existing = uniqueEmail("exists")
      expect((await register(browser(), existing)).status).toBe(200)
      expect(await status(existing)).toEqual({ email_status: "VALID" })
    })
  })

  describe("sign-in", () => {
    it("signs in with a new session token each time, storing only its SHA-256", async () => {
      const email = uniqueEmail("login")
      const first = browser()
      await register(first, email)
      const registrationToken = first.sessionToken
      const b = browser()
      const res = await signIn(b, email.toUpperCase(), PASSWORD)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ isAuthenticated: true, user: { email } })
      const token = b.sessionToken
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(token).not.toBe(registrationToken)
      const stored = await server.query<{ token_hash: string }>(
        "SELECT s.token_hash FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1",
        [email],
      )
      expect(stored.map((s) => s.token_hash).sort()).toEqual(
        [sha256(registrationToken ?? ""), sha256(token ?? "")].sort(),
      )
      expect(stored.some((s) => s.token_hash === token)).toBe(false)

      // Signing in again from the same browser rotates the token and ends the previous session.
      const again = await signIn(b, email, PASSWORD)
      expect(again.status).toBe(200)
      expect(b.sessionToken).not.toBe(token)
      const old = new Browser(server, uniqueIp())
      old.cookies.set("casino_session", token ?? "")
      expect((await old.post(`${USER}/isAuthenticated`)).body).toEqual({ isAuthenticated: false, user: null })
      expect((await b.post(`${USER}/isAuthenticated`)).body).toMatchObject({ isAuthenticated: true })
    })

    it("answers 401 with one message for an unknown e-mail and for a wrong password", async () => {
      const email = uniqueEmail("wrong")
      await register(browser(), email)
      const wrong = await signIn(browser(), email, "wrong password")
      const unknown = await signIn(browser(), uniqueEmail("nobody"), PASSWORD)
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401)
        expect(res.body).toEqual({ _tag: "InvalidCredentials", message: AccountMessages.loginFailed })
        expect(res.setCookie).toEqual([])
      }
    })

    it("answers 423 with the login message for a blocked domain", async () => {
      const [, domain] = server.config.blockedEmailDomains
      const res = await signIn(browser(), `player@${domain}`, PASSWORD)
      expect(res.status).toBe(423)
      expect(res.body).toEqual({ _tag: "AccountLocked", message: AccountMessages.blockedDomainLogin })
    })

    it("answers 423 for a locked account", async () => {
      const email = uniqueEmail("locked")
      await register(browser(), email)
      await server.query("UPDATE users SET locked_at = now() WHERE email = $1", [email])
      const res = await signIn(browser(), email, PASSWORD)
      expect(res.status).toBe(423)
      expect(res.body).toEqual({ _tag: "AccountLocked", message: AccountMessages.loginLocked })
      // A wrong password on a locked account still says only 401: no state is revealed to a guesser.
      expect((await signIn(browser(), email, "not the password")).status).toBe(401)
    })

    it("answers 451 during a stored self-exclusion or cool-off, and signs in once it is over", async () => {
      const email = uniqueEmail("cool")
      await register(browser(), email)
      await server.query(
        "UPDATE users SET self_exclusion_kind = 'cool-off', self_exclusion_until = '2099-01-02T03:04:05Z' WHERE email = $1",
        [email],
      )
      const res = await signIn(browser(), email, PASSWORD)
      expect(res.status).toBe(451)
      expect(res.body).toEqual({
        _tag: "SelfExcluded",
        message: AccountMessages.loginCoolOff,
        until: "2099-01-02T03:04:05Z",
      })

      await server.query(
        "UPDATE users SET self_exclusion_kind = 'indefinite', self_exclusion_until = NULL WHERE email = $1",
        [email],
      )
      const indefinite = await signIn(browser(), email, PASSWORD)
      expect(indefinite.status).toBe(451)
      expect(indefinite.body).toEqual({
        _tag: "SelfExcluded",
        message: AccountMessages.loginCoolOff,
        until: null,
      })

      await server.query(
        "UPDATE users SET self_exclusion_kind = 'cool-off', self_exclusion_until = now() - interval '1 second' WHERE email = $1",
        [email],
      )
      expect((await signIn(browser(), email, PASSWORD)).status).toBe(200)
    })

    it("refuses a restricted country with 403 before looking at the credentials", async () => {
      const res = await signIn(browser("81.2.69.142"), uniqueEmail("gb"), PASSWORD)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({
        _tag: "CountryRestricted",
        message: Messages.countryRestricted,
        isoCode: "GB",
      })
    })
  })

  describe("sessions, sign-out and the profile reads", () => {
    it("isAuthenticated answers 200 with no user when signed out", async () => {
      const res = await browser().post(`${USER}/isAuthenticated`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ isAuthenticated: false, user: null })
      const garbage = browser()
      garbage.cookies.set("casino_session", "garbage")
      expect((await garbage.post(`${USER}/isAuthenticated`)).body).toEqual({
        isAuthenticated: false,
        user: null,
      })
    })

    it("sign-out revokes the session server-side and clears the cookie; 204 also when signed out", async () => {
      const b = browser()
      const email = uniqueEmail("out")
      await register(b, email)
      const token = b.sessionToken ?? ""
      expect((await b.get(`${PROFILE}/profile`)).status).toBe(200)
      const out = await b.delete(`${USER}/signout`)
      expect(out.status).toBe(204)
      const cleared = out.setCookie.find((c) => c.startsWith("casino_session="))
      expect(cleared).toMatch(/Max-Age=0/i)
      const rows = await server.query<{ revoked: boolean }>(
        "SELECT revoked_at IS NOT NULL AS revoked FROM sessions WHERE token_hash = $1",
        [sha256(token)],
      )
      expect(rows).toEqual([{ revoked: true }])
      // Replaying the old cookie does not work any more.
      const replay = browser()
      replay.cookies.set("casino_session", token)
      expect((await replay.post(`${USER}/isAuthenticated`)).body).toEqual({
        isAuthenticated: false,
        user: null,
      })
      const profile = await replay.get(`${PROFILE}/profile`)
      expect(profile.status).toBe(401)
      expect(profile.body).toMatchObject({ _tag: "Unauthenticated" })
      expect((await browser().delete(`${USER}/signout`)).status).toBe(204)
    })

    it("locking or self-excluding an account ends its live sessions", async () => {
      const locked = browser()
      const a = uniqueEmail("live-lock")
      await register(locked, a)
      await server.query("UPDATE users SET locked_at = now() WHERE email = $1", [a])
      expect((await locked.post(`${USER}/isAuthenticated`)).body).toEqual({
        isAuthenticated: false,
        user: null,
      })
      expect((await locked.get(`${PROFILE}/profile`)).status).toBe(401)
      const excluded = browser()
      const b = uniqueEmail("live-excl")
      await register(excluded, b)
      expect((await excluded.post(`${USER}/isAuthenticated`)).body).toMatchObject({ isAuthenticated: true })
      await server.query(
        "UPDATE users SET self_exclusion_kind = 'cool-off', self_exclusion_until = now() + interval '1 day' WHERE email = $1",
        [b],
      )
      expect((await excluded.post(`${USER}/isAuthenticated`)).body).toEqual({
        isAuthenticated: false,
        user: null,
      })
    })

    it("an expired session is not a session", async () => {
      const b = browser()
      await register(b, uniqueEmail("exp"))
      await server.query(
        "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1",
        [sha256(b.sessionToken ?? "")],
      )
      expect((await b.post(`${USER}/isAuthenticated`)).body).toEqual({ isAuthenticated: false, user: null })
      expect((await b.get(`${PROFILE}/profile/currency`)).status).toBe(401)
    })

    it("serves the profile from the user row and answers 401 without a session", async () => {
      expect((await browser().get(`${PROFILE}/profile`)).status).toBe(401)
      expect((await browser().get(`${PROFILE}/profile/currency`)).status).toBe(401)
      const b = browser()
      const email = uniqueEmail("profile")
      await register(b, email, { fullName: "Katherine Johnson" })
      await server.query(
        `UPDATE users SET nick_name = 'kj', phone_number = '21234567', dialing_code = '356', address = 'Main St 1',
           address2 = 'Flat 2', zip_code = 'VLT 1000', country = 'MT', city = 'Valletta', state = 'Malta',
           gender = 'FEMALE', date_of_birth = '1990-01-02', receive_email_promo = true WHERE email = $1`,
        [email],
      )
      const res = await b.get(`${PROFILE}/profile`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        email,
        confirmed: false,
        firstName: "Katherine",
        lastName: "Johnson",
        receiveEmailPromo: true,
        idVerification: { verified: false },
        billVerification: { verified: false },
        userDetails: {
          phone: { phoneNumber: "21234567", dialingCode: "356" },
          address: "Main St 1",
          address2: "Flat 2",
          nickName: "kj",
          zipCode: "VLT 1000",
          country: "MT",
          city: "Valletta",
          state: "Malta",
          gender: "FEMALE",
          dateOfBirth: Date.UTC(1990, 0, 2) / 1000,
          receiveEmailPromo: true,
        },
        // The registration's session is the current one: no sign-in before it.
        lastLogin: null,
      })
    })

    it("lists every wallet with its balance as a decimal string of minor units", async () => {
      const b = browser()
      const email = uniqueEmail("fund")
      await register(b, email, { currency: "ETH" })
      // Balances live in the ledger (a wallet's id is its ledger account's): set them there directly.
      await server.query(
        "INSERT INTO wallets (user_id, currency, is_default) SELECT id, 'EUR', false FROM users WHERE email = $1",
        [email],
      )
      await server.query(
        `UPDATE ledger_accounts SET balance = CASE currency WHEN 'ETH' THEN 123456789012345678901234567890 ELSE 1050 END
         WHERE kind = 'player_cash' AND user_id = (SELECT id FROM users WHERE email = $1)`,
        [email],
      )
      const res = await b.get(`${PROFILE}/profile/currency`)
      expect(res.body).toEqual([
        {
          currency: "ETH",
          default: true,
          balance: "123456789012345678901234567890",
          bonusBalance: "0",
          freeSpinWallet: null,
        },
        { currency: "EUR", default: false, balance: "1050", bonusBalance: "0", freeSpinWallet: null },
      ])
    })
  })

  it("a wrongly typed field is a client mistake (400), never a 500", async () => {
    const res = await browser().post(`${USER}/registration`, {
      ...registration(uniqueEmail("shape")),
      captcha: await solveCaptcha(server),
      terms: "yes",
    })
    expect(res.status).toBe(400)
  })
})
