/**
 * Passwords and e-mail links against PostgreSQL: confirmation and resend, forgot-password (no
 * enumeration), reset with a single-use expiring token (links read from the .eml outbox),
 * change-password and the password history.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */

import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaultRateLimits } from "../../server/config.ts"
import { AccountMessages } from "../../services/account-rules.ts"
import { describeOn, type TestServer } from "./harness.ts"
import {
  Browser,
  linkOf,
  mailsTo,
  PROFILE,
  register,
  signIn,
  sleep,
  solveCaptcha,
  USER,
  uniqueEmail,
  uniqueIp,
  waitForMail,
} from "./users-support.ts"

const PASSWORD = "correct horse 1"
const CONFIRM = "Confirm your e-mail"
const RESET = "Reset your password"
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex")

describeOn("postgres", "accounts: e-mail links and passwords", ({ start }) => {
  let server: TestServer
  const browser = () => new Browser(server, uniqueIp())

  beforeAll(async () => {
    server = await start(
      {
        rateLimits: {
          ...defaultRateLimits,
          signinPerIp: { max: 1000, windowSeconds: 900 },
          signinPerEmail: { max: 1000, windowSeconds: 900 },
          registerPerIp: { max: 1000, windowSeconds: 3600 },
          forgotPerIp: { max: 1000, windowSeconds: 3600 },
          forgotPerEmail: { max: 1000, windowSeconds: 3600 },
          resendPerUser: { max: 2, windowSeconds: 3600 },
        },
      },
      { env: { TRUST_PROXY: "true" } },
    )
  })
  afterAll(() => server?.close())

  const newPlayer = async (tag: string) => {
    const b = browser()
    const email = uniqueEmail(tag)
    const res = await register(b, email)
    expect(res.status).toBe(200)
    return { b, email }
  }

  const forgot = (b: Browser, email: string) => b.post(`${USER}/forgot-password`, { email })

  const reset = async (b: Browser, token: string, password: string, confirmPassword = password) =>
    b.post(`${USER}/account/reset-password`, {
      token,
      password,
      confirmPassword,
      captcha: await solveCaptcha(server),
    })

  const changePassword = (
    b: Browser,
    oldPassword: string,
    newPassword: string,
    confirmPassword = newPassword,
  ) => b.post(`${USER}/change-password`, { oldPassword, newPassword, confirmPassword })

  describe("e-mail confirmation", () => {
    it("sends a one-time link at registration that confirms the account once", async () => {
      const { b, email } = await newPlayer("confirm")
      const mail = await waitForMail(server, email, CONFIRM)
      expect(mail.html).toContain("confirm-email")
      const link = linkOf(mail, server)
      expect(link.modal).toBe("confirm-email")
      expect(link.url.origin).toBe(server.url)
      // Only the hash is stored.
      const stored = await server.query<{ purpose: string }>(
        "SELECT purpose FROM email_tokens WHERE token_hash = $1",
        [sha256(link.token)],
      )
      expect(stored).toEqual([{ purpose: "confirm" }])
      expect(
        await server.query("SELECT 1 FROM email_tokens WHERE token_hash = $1", [link.token]),
      ).toHaveLength(0)

      const ok = await browser().post(`${USER}/account/confirm`, { token: link.token })
      expect(ok.status).toBe(200)
      expect(ok.body).toEqual({ confirmed: true })
      expect((await b.post(`${USER}/isAuthenticated`)).body).toMatchObject({ user: { confirmed: true } })
      expect((await b.get(`${PROFILE}/profile`)).body).toMatchObject({ confirmed: true })

      const again = await browser().post(`${USER}/account/confirm`, { token: link.token })
      expect(again.status).toBe(410)
      expect(again.body).toEqual({ _tag: "InvalidToken", message: AccountMessages.confirmFailure })
    })

    it("refuses an unknown, malformed or expired confirmation token with 410", async () => {
      const { email } = await newPlayer("confirm-exp")
      const { token } = linkOf(await waitForMail(server, email, CONFIRM), server)
      await server.query(
        "UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1",
        [sha256(token)],
      )
      for (const t of [token, "x".repeat(43), "short", ""]) {
        const res = await browser().post(`${USER}/account/confirm`, { token: t })
        expect(res.status, t).toBe(410)
      }
      const rows = await server.query<{ confirmed: boolean }>(
        "SELECT confirmed_at IS NOT NULL AS confirmed FROM users WHERE email = $1",
        [email],
      )
      expect(rows).toEqual([{ confirmed: false }])
    })

    it("resend needs a session, replaces the previous link, is rate limited per user, 409 once confirmed", async () => {
      expect((await browser().post(`${USER}/account/resend`)).status).toBe(401)
      const { b, email } = await newPlayer("resend")
      const first = linkOf(await waitForMail(server, email, CONFIRM), server)
      const res = await b.post(`${USER}/account/resend`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ message: AccountMessages.resendSuccess })
      const second = linkOf(await waitForMail(server, email, CONFIRM, 2), server)
      expect(second.token).not.toBe(first.token)
      expect((await browser().post(`${USER}/account/confirm`, { token: first.token })).status).toBe(410)

      // resendPerUser is 2 on this server.
      expect((await b.post(`${USER}/account/resend`)).status).toBe(200)
      const limited = await b.post(`${USER}/account/resend`)
      expect(limited.status).toBe(429)
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(limited.body).toMatchObject({ _tag: "RateLimited" })
      expect(await mailsTo(server, email, CONFIRM)).toHaveLength(3)

      const latest = linkOf(await waitForMail(server, email, CONFIRM, 3), server)
      expect((await browser().post(`${USER}/account/confirm`, { token: latest.token })).status).toBe(200)
      const { b: other } = await newPlayer("resend-confirmed")
      const otherEmail = (await other.post(`${USER}/isAuthenticated`)).body as { user: { email: string } }
      const otherLink = linkOf(await waitForMail(server, otherEmail.user.email, CONFIRM), server)
      expect((await browser().post(`${USER}/account/confirm`, { token: otherLink.token })).status).toBe(200)
      const already = await other.post(`${USER}/account/resend`)
      expect(already.status).toBe(409)
      expect(already.body).toMatchObject({ _tag: "AlreadyConfirmed" })
    })
  })

  describe("forgot and reset password", () => {
    it("answers identically for an existing and an unknown e-mail, and mails only the existing one", async () => {
      const { email } = await newPlayer("forgot")
      const unknown = uniqueEmail("ghost")
      const a = await forgot(browser(), email)
      const b = await forgot(browser(), unknown)
      expect(a.status).toBe(200)
      expect(b.status).toBe(a.status)
      expect(a.body).toEqual({ message: AccountMessages.forgotSent })
      expect(b.body).toEqual(a.body)
      expect(a.headers.get("content-type")).toBe(b.headers.get("content-type"))
      const mail = await waitForMail(server, email, RESET)
      expect(linkOf(mail, server).modal).toBe("reset-password")
      await sleep(300)
      expect(await mailsTo(server, unknown, RESET)).toHaveLength(0)
      const bad = await forgot(browser(), "not-an-email")
      expect(bad.status).toBe(400)
    })

    it("resets with the mailed link once: new password works, old does not, sessions end", async () => {
      const { b, email } = await newPlayer("reset")
      const second = browser()
      expect((await signIn(second, email, PASSWORD)).status).toBe(200)
      await forgot(browser(), email)
      const { token } = linkOf(await waitForMail(server, email, RESET), server)
      expect(
        await server.query("SELECT 1 FROM email_tokens WHERE token_hash = $1", [sha256(token)]),
      ).toHaveLength(1)

      const res = await reset(browser(), token, "brand new secret")
      expect(res.status).toBe(204)
      expect((await b.post(`${USER}/isAuthenticated`)).body).toEqual({ isAuthenticated: false, user: null })
      expect((await second.post(`${USER}/isAuthenticated`)).body).toEqual({
        isAuthenticated: false,
        user: null,
      })
      expect((await signIn(browser(), email, PASSWORD)).status).toBe(401)
      expect((await signIn(browser(), email, "brand new secret")).status).toBe(200)

      const reuse = await reset(browser(), token, "another new secret")
      expect(reuse.status).toBe(410)
      expect(reuse.body).toMatchObject({ _tag: "InvalidToken" })
    })

    it("refuses an expired reset token with 410", async () => {
      const { email } = await newPlayer("reset-exp")
      await forgot(browser(), email)
      const { token } = linkOf(await waitForMail(server, email, RESET), server)
      await server.query(
        "UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1",
        [sha256(token)],
      )
      const res = await reset(browser(), token, "brand new secret")
      expect(res.status).toBe(410)
      expect((await signIn(browser(), email, PASSWORD)).status).toBe(200)
    })

    it("refuses a mismatch, a short password and a recent password with 400, keeping the token usable", async () => {
      const { email } = await newPlayer("reset-rules")
      await forgot(browser(), email)
      const { token } = linkOf(await waitForMail(server, email, RESET), server)
      for (const [password, confirm] of [
        ["brand new secret", "brand new secreT"],
        ["short", "short"],
        [PASSWORD, PASSWORD],
      ] as const) {
        const res = await reset(browser(), token, password, confirm)
        expect(res.status, password).toBe(400)
        expect(res.body).toEqual({ _tag: "PasswordRejected", message: AccountMessages.resetRejected })
      }
      expect((await reset(browser(), token, "brand new secret")).status).toBe(204)
    })

    it("a reset needs a solved captcha", async () => {
      const { email } = await newPlayer("reset-captcha")
      await forgot(browser(), email)
      const { token } = linkOf(await waitForMail(server, email, RESET), server)
      const res = await browser().post(`${USER}/account/reset-password`, {
        token,
        password: "brand new secret",
        confirmPassword: "brand new secret",
        captcha: "",
      })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ _tag: "CaptchaFailed", reason: "missing" })
    })
  })

  describe("change password", () => {
    it("needs a session and the current password", async () => {
      expect((await changePassword(browser(), PASSWORD, "brand new secret")).status).toBe(401)
      const { b } = await newPlayer("change")
      const wrong = await changePassword(b, "not my password", "brand new secret")
      expect(wrong.status).toBe(403)
      expect(wrong.body).toMatchObject({ _tag: "IncorrectPassword" })
      const mismatch = await changePassword(b, PASSWORD, "brand new secret", "something else")
      expect(mismatch.status).toBe(400)
      expect(mismatch.body).toEqual({
        _tag: "PasswordRejected",
        message: AccountMessages.passwordsDoNotMatch,
      })
      const short = await changePassword(b, PASSWORD, "short")
      expect(short.status).toBe(400)
      expect(short.body).toEqual({ _tag: "PasswordRejected", message: AccountMessages.resetRejected })
    })

    it("ends the player's other sessions and keeps this one", async () => {
      const { b, email } = await newPlayer("change-sessions")
      const other = browser()
      expect((await signIn(other, email, PASSWORD)).status).toBe(200)
      expect((await changePassword(b, PASSWORD, "brand new secret")).status).toBe(204)
      expect((await b.post(`${USER}/isAuthenticated`)).body).toMatchObject({ isAuthenticated: true })
      expect((await other.post(`${USER}/isAuthenticated`)).body).toEqual({
        isAuthenticated: false,
        user: null,
      })
      expect((await signIn(browser(), email, "brand new secret")).status).toBe(200)
    })

    it("refuses any of the last 5 passwords and accepts the 6th-oldest", async () => {
      const { b, email } = await newPlayer("history")
      const passwords = [PASSWORD, "second password", "third password", "fourth password", "fifth password"]
      let current = PASSWORD
      for (const next of [...passwords.slice(1), "sixth password"]) {
        expect((await changePassword(b, current, next)).status, next).toBe(204)
        current = next
      }
      // History now: second … sixth. Each is refused, including the current one.
      for (const old of [...passwords.slice(1), "sixth password"]) {
        const res = await changePassword(b, current, old)
        expect(res.status, old).toBe(400)
        expect(res.body).toEqual({ _tag: "PasswordRejected", message: AccountMessages.resetRejected })
      }
      // The registration password is now the 6th-oldest: accepted.
      expect((await changePassword(b, current, PASSWORD)).status).toBe(204)
      expect((await signIn(browser(), email, PASSWORD)).status).toBe(200)
      const history = await server.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM password_history h JOIN users u ON u.id = h.user_id WHERE u.email = $1",
        [email],
      )
      expect(history[0]?.n).toBe("5")
    })
  })
})
