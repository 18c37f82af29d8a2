/**
 * Login flow on a real actor with controlled doubles: client-side checks before any call, the
 * payload sent, every failure's exact message (spec section 8), the single-use captcha, the output,
 * and that closing the modal while signing in aborts the call.
 */

import { describe, expect, it } from "vitest"
import { createActor } from "xstate"
import { loginMachine } from "../../../machines/account/login.machine.ts"
import {
  anonymousStatus,
  flowInput,
  schemaError,
  signedInStatus,
  statusError,
  transportError,
} from "../../../machines/flowFixtures.ts"
import { AccountMessages } from "../../../services/account-rules.ts"
import {
  AccountLocked,
  CaptchaFailed,
  CountryRestricted,
  InvalidCredentials,
  RateLimited,
  SelfExcluded,
} from "../../../services/errors.ts"
import { Messages } from "../../../services/rules.ts"
import type { AuthStatus, SignInPayload } from "../../../services/user-service.ts"
import { controlled, settle, toastRecorder } from "./doubles.ts"

const start = () => {
  const signIn = controlled<AuthStatus, SignInPayload>()
  const { toasts, toast } = toastRecorder()
  const actor = createActor(loginMachine.provide({ actors: { signIn: signIn.logic }, actions: { toast } }), {
    input: flowInput(),
  })
  actor.start()
  return { actor, signIn, toasts }
}

type Actor = ReturnType<typeof start>["actor"]

const fill = (actor: Actor, email = "  ada@lovelace.example ", password = "correct horse battery") => {
  actor.send({ type: "CHANGE_EMAIL", value: email })
  actor.send({ type: "CHANGE_PASSWORD", value: password })
  actor.send({ type: "CAPTCHA_VERIFIED", payload: "altcha-payload-1" })
}

describe("login: checks before the call", () => {
  it("refuses an invalid e-mail with the spec's message and sends nothing", () => {
    const { actor, signIn } = start()
    fill(actor, "ada@", "correct horse battery")
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().value).toBe("editing")
    expect(actor.getSnapshot().context.submitted).toBe(true)
    expect(actor.getSnapshot().context.validEmail).toBe(false)
    expect(actor.getSnapshot().context.errors).toEqual({ email: AccountMessages.invalidEmail })
    expect(signIn.calls).toHaveLength(0)
  })

  it("refuses a blocked domain (and its subdomains) with the login wording", () => {
    const { actor, signIn } = start()
    fill(actor, "ada@mail.blocked.example")
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().context.errors).toEqual({ email: AccountMessages.blockedDomainLogin })
    expect(signIn.calls).toHaveLength(0)
  })

  it("requires a password and a captcha", () => {
    const { actor, signIn } = start()
    actor.send({ type: "CHANGE_EMAIL", value: "ada@lovelace.example" })
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().context.errors).toEqual({ password: AccountMessages.passwordTooShort })
    actor.send({ type: "CHANGE_PASSWORD", value: "correct horse battery" })
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().context.errors).toEqual({ captcha: AccountMessages.captchaRequired })
    actor.send({ type: "CAPTCHA_VERIFIED", payload: "p" })
    actor.send({ type: "CAPTCHA_RESET" })
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().context.errors).toEqual({ captcha: AccountMessages.captchaRequired })
    expect(signIn.calls).toHaveLength(0)
  })

  it("clears errors when the player types, and tracks the form flags", () => {
    const { actor } = start()
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().context.errors.email).toBe(AccountMessages.invalidEmail)
    actor.send({ type: "CHANGE_EMAIL", value: "ada@lovelace.example" })
    expect(actor.getSnapshot().context.errors).toEqual({})
    expect(actor.getSnapshot().context.validEmail).toBe(true)
    actor.send({ type: "CHANGE_PASSWORD", value: "abc" })
    expect(actor.getSnapshot().context.passwordLooksLong).toBe(false)
    actor.send({ type: "CHANGE_PASSWORD", value: "abcd" })
    expect(actor.getSnapshot().context.passwordLooksLong).toBe(true)
  })
})

describe("login: the call", () => {
  it("sends the trimmed e-mail, the password and the captcha payload, and ends signed in", async () => {
    const { actor, signIn } = start()
    fill(actor)
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().value).toBe("submitting")
    expect(signIn.last().input).toEqual({
      email: "ada@lovelace.example",
      password: "correct horse battery",
      captcha: "altcha-payload-1",
    })
    signIn.last().resolve(signedInStatus)
    await settle()
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({ type: "signedIn", user: signedInStatus.user })
  })

  it("treats an answer without a session as a failed sign-in", async () => {
    const { actor, signIn } = start()
    fill(actor)
    actor.send({ type: "SUBMIT" })
    signIn.last().resolve(anonymousStatus)
    await settle()
    expect(actor.getSnapshot().value).toBe("editing")
    expect(actor.getSnapshot().context.errors).toEqual({ form: AccountMessages.loginFailed })
  })

  const failures: Array<[string, unknown, Record<string, string>, boolean]> = [
    [
      "451 cool-off",
      new SelfExcluded({ message: "x", until: null }),
      { form: AccountMessages.loginCoolOff },
      false,
    ],
    ["423 locked", new AccountLocked({ message: "x" }), { form: AccountMessages.loginLocked }, false],
    [
      "401 credentials",
      new InvalidCredentials({ message: "x" }),
      { form: AccountMessages.loginFailed },
      false,
    ],
    [
      "restricted country",
      new CountryRestricted({ message: "x", isoCode: "US" }),
      { form: Messages.countryRestricted },
      false,
    ],
    [
      "captcha",
      new CaptchaFailed({ message: "x", reason: "replayed" }),
      { captcha: AccountMessages.captchaRequired },
      false,
    ],
    [
      "rate limit",
      new RateLimited({ message: "x", retryAfterSeconds: 42 }),
      { form: "Too many attempts, please try again in 42 seconds" },
      false,
    ],
    ["bare 451", statusError(451), { form: AccountMessages.loginCoolOff }, false],
    ["bare 423", statusError(423), { form: AccountMessages.loginLocked }, false],
    ["bare 500", statusError(500), { form: AccountMessages.loginFailed }, false],
    ["network", transportError(), { form: AccountMessages.loginFailed }, true],
    ["undecodable answer", schemaError(), { form: AccountMessages.loginFailed }, true],
    ["defect", new TypeError("boom"), { form: AccountMessages.loginFailed }, true],
  ]

  it.each(failures)("maps %s to the spec's message", async (_name, error, errors, toasted) => {
    const { actor, signIn, toasts } = start()
    fill(actor)
    actor.send({ type: "SUBMIT" })
    signIn.last().reject(error)
    await settle()
    expect(actor.getSnapshot().value).toBe("editing")
    expect(actor.getSnapshot().context.errors).toEqual(errors)
    expect(toasts).toEqual(toasted ? [{ kind: "error", message: AccountMessages.signinDidNotWork }] : [])
  })

  it("spends the captcha after any answer: fresh widget, and no resubmit without a new payload", async () => {
    const { actor, signIn } = start()
    fill(actor)
    expect(actor.getSnapshot().context.captchaKey).toBe(0)
    actor.send({ type: "SUBMIT" })
    signIn.last().reject(new InvalidCredentials({ message: "x" }))
    await settle()
    expect(actor.getSnapshot().context.captcha).toBeNull()
    expect(actor.getSnapshot().context.captchaKey).toBe(1)
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().context.errors).toEqual({ captcha: AccountMessages.captchaRequired })
    expect(signIn.calls).toHaveLength(1)
    actor.send({ type: "CAPTCHA_VERIFIED", payload: "altcha-payload-2" })
    actor.send({ type: "SUBMIT" })
    expect(signIn.calls).toHaveLength(2)
    expect(signIn.last().input.captcha).toBe("altcha-payload-2")
  })

  it("ignores typing while the call runs", () => {
    const { actor } = start()
    fill(actor)
    actor.send({ type: "SUBMIT" })
    actor.send({ type: "CHANGE_EMAIL", value: "other@lovelace.example" })
    expect(actor.getSnapshot().context.email).toBe("  ada@lovelace.example ")
  })

  it("aborts the call when the modal closes (the actor stops) while signing in", () => {
    const { actor, signIn } = start()
    fill(actor)
    actor.send({ type: "SUBMIT" })
    const { signal } = signIn.last()
    expect(signal.aborted).toBe(false)
    actor.stop()
    expect(signal.aborted).toBe(true)
  })
})
