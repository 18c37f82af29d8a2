/**
 * One-time passwords and resets: an operator created without a password signs in with the generated
 * one and can do nothing but choose their own (403 `PasswordChangeRequired` elsewhere); a wrong
 * current password and a short new one are refused; other sessions end on the change. An admin's
 * reset of the second factor makes the next sign-in enrol again; a password reset gives a new
 * one-time password and ends the operator's sessions. Each change is one audit row.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Backoffice } from "../../server/backoffice/Backoffice.ts"
import { defaultRateLimits, scaleRateLimits } from "../../server/config.ts"
import { BO, cliActor, createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { Browser } from "./users-support.ts"

const PASSWORD = "correct horse battery staple"

describeOn("postgres", "back-office passwords", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  let admin: Browser

  const lastAudit = async () =>
    (
      await server.query<{ action: string; subject: string | null }>(
        "SELECT action, subject FROM operator_audit ORDER BY id DESC LIMIT 1",
      )
    )[0]

  beforeAll(async () => {
    server = await start({
      captchaEnabled: false,
      backofficeClock: clock.read,
      rateLimits: scaleRateLimits(defaultRateLimits, 100),
    })
    await createOperator(server, { email: "root@pw.example", role: "admin", password: PASSWORD })
    admin = await signIn(server, clock, "root@pw.example", PASSWORD)
  })
  afterAll(() => server?.close())

  it("a one-time password opens only the password change; the chosen password then opens the rest", async () => {
    const created = await server.run(
      Effect.gen(function* () {
        const backoffice = yield* Backoffice
        return yield* backoffice.createOperator(cliActor, {
          email: "new@pw.example",
          name: "New",
          role: "admin",
        })
      }),
    )
    expect(created.operator.mustChangePassword).toBe(true)
    const oneTime = created.initialPassword ?? ""
    const browser = await signIn(server, clock, "new@pw.example", oneTime)
    const elsewhere = await signIn(server, clock, "new@pw.example", oneTime)

    const me = await browser.get(`${BO}/me`)
    expect(me.status).toBe(200)
    expect((me.body as { operator: { mustChangePassword: boolean } }).operator.mustChangePassword).toBe(true)
    const refused = await browser.get(`${BO}/operators`)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({
      _tag: "PasswordChangeRequired",
      message: "Choose your own password first.",
    })

    const wrong = await browser.post(`${BO}/password`, {
      currentPassword: "not it",
      newPassword: "a fine new pass phrase",
    })
    expect(wrong.status).toBe(403)
    expect((wrong.body as { _tag: string })._tag).toBe("IncorrectPassword")
    const short = await browser.post(`${BO}/password`, { currentPassword: oneTime, newPassword: "short" })
    expect(short.status).toBe(400)
    expect(short.body).toEqual({
      _tag: "PasswordRejected",
      message: "The new password must be 12 to 128 characters.",
    })
    const same = await browser.post(`${BO}/password`, { currentPassword: oneTime, newPassword: oneTime })
    expect(same.status).toBe(400)

    const changed = await browser.post(`${BO}/password`, {
      currentPassword: oneTime,
      newPassword: "a fine new pass phrase",
    })
    expect(changed.status).toBe(200)
    expect((changed.body as { operator: { mustChangePassword: boolean } }).operator.mustChangePassword).toBe(
      false,
    )
    expect(await lastAudit()).toEqual({ action: "operator.password", subject: created.operator.id })
    expect((await browser.get(`${BO}/operators`)).status).toBe(200)
    // The session this one was not: ended.
    expect((await elsewhere.get(`${BO}/me`)).status).toBe(401)
    // The one-time password opens nothing any more.
    const old = await new Browser(server).post(`${BO}/login`, { email: "new@pw.example", password: oneTime })
    expect(old.status).toBe(401)
  })

  it("an admin resets someone's second factor (next sign-in enrols again) and password (a new one-time one)", async () => {
    await createOperator(server, { email: "kim@pw.example", role: "kyc", password: PASSWORD })
    const kim = await signIn(server, clock, "kim@pw.example", PASSWORD)
    const id = ((await kim.get(`${BO}/me`)).body as { operator: { id: string } }).operator.id

    const totp = await admin.post(`${BO}/operators/${id}/reset`, { what: "totp" })
    expect(totp.status).toBe(200)
    expect(totp.body).toMatchObject({ operator: { id, enrolled: false } })
    expect(await lastAudit()).toEqual({ action: "operators.reset", subject: id })
    expect((await kim.get(`${BO}/me`)).status).toBe(401)
    const again = await new Browser(server).post(`${BO}/login`, {
      email: "kim@pw.example",
      password: PASSWORD,
    })
    expect((again.body as { step: string }).step).toBe("enrol")

    const password = await admin.post(`${BO}/operators/${id}/reset`, { what: "password" })
    expect(password.status).toBe(200)
    const fresh = password.body as { initialPassword: string; operator: { mustChangePassword: boolean } }
    expect(fresh.initialPassword).toMatch(/^[A-Za-z0-9_-]{24}$/)
    expect(fresh.operator.mustChangePassword).toBe(true)
    expect(
      (await new Browser(server).post(`${BO}/login`, { email: "kim@pw.example", password: PASSWORD })).status,
    ).toBe(401)
    const signedIn = await signIn(server, clock, "kim@pw.example", fresh.initialPassword)
    expect((await signedIn.get(`${BO}/kyc/documents`)).status).not.toBe(200)

    expect(
      (await admin.post(`${BO}/operators/00000000-0000-4000-8000-000000000000/reset`, { what: "totp" }))
        .status,
    ).toBe(404)
    expect((await admin.post(`${BO}/operators/${id}/reset`, { what: "everything" })).status).toBe(400)
  })
})
