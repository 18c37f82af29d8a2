/**
 * Register flow on a real actor with controlled doubles: every field rule at once, the e-mail check
 * before the registration, the registration payload (currency default, bonus code only when
 * toggled, clickId, language), every failure's exact message, the banner rule, the single-use
 * captcha, the output, and aborting on close.
 */

import { describe, expect, it } from "vitest"
import { createActor } from "xstate"
import { pickLanguage, registerMachine } from "../../../machines/account/register.machine.ts"
import {
  anonymousStatus,
  fixtureSiteConfig,
  flowInput,
  schemaError,
  signedInStatus,
  statusError,
  transportError,
} from "../../../machines/flowFixtures.ts"
import type { EmailStatus } from "../../../services/account-rules.ts"
import { AccountMessages } from "../../../services/account-rules.ts"
import {
  CaptchaFailed,
  CountryRestricted,
  EmailTaken,
  RateLimited,
  RegistrationRefused,
  ValidationFailed,
} from "../../../services/errors.ts"
import { Messages } from "../../../services/rules.ts"
import type { AuthStatus, RegistrationPayload } from "../../../services/user-service.ts"
import { controlled, settle } from "./doubles.ts"

const start = (input = flowInput()) => {
  const validateEmail = controlled<{ email_status: EmailStatus }, { email: string }>()
  const register = controlled<AuthStatus, RegistrationPayload>()
  const actor = createActor(
    registerMachine.provide({ actors: { validateEmail: validateEmail.logic, register: register.logic } }),
    { input },
  )
  actor.start()
  return { actor, validateEmail, register }
}

type Actor = ReturnType<typeof start>["actor"]

const fill = (actor: Actor) => {
  actor.send({ type: "CHANGE_FULL_NAME", value: " Ada Lovelace " })
  actor.send({ type: "CHANGE_EMAIL", value: "ada@lovelace.example " })
  actor.send({ type: "CHANGE_PASSWORD", value: "correct horse battery" })
  actor.send({ type: "SET_TERMS", accepted: true })
  actor.send({ type: "CAPTCHA_VERIFIED", payload: "altcha-payload-1" })
}

const submit = (actor: Actor, clickId: string | null = null, language = "en-GB") =>
  actor.send({ type: "SUBMIT", clickId, language })

/** Fills, submits, and lets the e-mail check answer VALID: the registration call is running. */
const toRegistration = async (
  started: ReturnType<typeof start>,
  before: (actor: Actor) => void = () => {},
  clickId: string | null = null,
) => {
  fill(started.actor)
  before(started.actor)
  submit(started.actor, clickId)
  started.validateEmail.last().resolve({ email_status: "VALID" })
  await settle()
  expect(started.actor.getSnapshot().value).toBe("submitting")
  return started.register.last()
}

describe("register: checks before any call", () => {
  it("shows every field's problem at once on an empty submit", () => {
    const { actor, validateEmail } = start()
    submit(actor)
    expect(actor.getSnapshot().value).toBe("editing")
    expect(actor.getSnapshot().context.submitted).toBe(true)
    expect(actor.getSnapshot().context.errors).toEqual({
      fullName: AccountMessages.fullName,
      email: AccountMessages.invalidEmail,
      password: "Password is too short, min 8 characters",
      terms: AccountMessages.termsRequired,
      captcha: AccountMessages.captchaRequired,
    })
    expect(validateEmail.calls).toHaveLength(0)
  })

  it("refuses a one-word name, a blocked domain, and unaccepted terms", () => {
    const { actor, validateEmail } = start()
    fill(actor)
    actor.send({ type: "CHANGE_FULL_NAME", value: "Ada" })
    actor.send({ type: "CHANGE_EMAIL", value: "ada@banned.example" })
    actor.send({ type: "SET_TERMS", accepted: false })
    submit(actor)
    expect(actor.getSnapshot().context.errors).toEqual({
      fullName: AccountMessages.fullName,
      email: AccountMessages.blockedDomainRegister,
      terms: AccountMessages.termsRequired,
    })
    expect(validateEmail.calls).toHaveLength(0)
  })

  it("clears errors when the player types", () => {
    const { actor } = start()
    submit(actor)
    actor.send({ type: "CHANGE_FULL_NAME", value: "Ada Lovelace" })
    expect(actor.getSnapshot().context.errors).toEqual({})
    expect(actor.getSnapshot().context.fullNameLooksValid).toBe(true)
  })

  it("stops at the e-mail check when its status is not VALID, keeping the captcha", async () => {
    const { actor, validateEmail, register } = start()
    fill(actor)
    submit(actor)
    expect(actor.getSnapshot().value).toBe("checkingEmail")
    expect(validateEmail.last().input).toEqual({ email: "ada@lovelace.example" })
    validateEmail.last().resolve({ email_status: "DISPOSABLE" })
    await settle()
    expect(actor.getSnapshot().value).toBe("editing")
    expect(actor.getSnapshot().context.errors).toEqual({
      email: "Your email seems to be DISPOSABLE, Please try another email!",
    })
    expect(register.calls).toHaveLength(0)
    expect(actor.getSnapshot().context.captcha).toBe("altcha-payload-1")
    expect(actor.getSnapshot().context.captchaKey).toBe(0)
  })

  it("cannot go on when the e-mail check fails", async () => {
    const { actor, validateEmail, register } = start()
    fill(actor)
    submit(actor)
    validateEmail.last().reject(transportError())
    await settle()
    expect(actor.getSnapshot().context.errors).toEqual({ form: AccountMessages.registerIncomplete })
    expect(register.calls).toHaveLength(0)
  })
})

describe("register: the payload", () => {
  it("defaults the currency to the site's (EUR) and omits the bonus code and a missing clickId", async () => {
    const started = start()
    const call = await toRegistration(started)
    expect(call.input).toEqual({
      email: "ada@lovelace.example",
      password: "correct horse battery",
      fullName: "Ada Lovelace",
      terms: true,
      language: "en",
      currency: "EUR",
      captcha: "altcha-payload-1",
    })
    expect("registrationCode" in call.input).toBe(false)
    expect("clickId" in call.input).toBe(false)
  })

  it("falls back to EUR when the site config names no default currency", () => {
    const { actor } = start(flowInput(null, { ...fixtureSiteConfig, defaultCurrency: "" }))
    expect(actor.getSnapshot().context.currency).toBe("EUR")
  })

  it("carries the chosen currency, the clickId, the bonus code when toggled, and the browser's language", async () => {
    const started = start()
    const call = await toRegistration(
      started,
      (actor) => {
        actor.send({ type: "CHANGE_CURRENCY", code: "BTC" })
        actor.send({ type: "CHANGE_CURRENCY", code: "XYZ" })
        actor.send({ type: "TOGGLE_BONUS_CODE" })
        actor.send({ type: "CHANGE_BONUS_CODE", value: " WELCOME125 " })
      },
      "click-42",
    )
    expect(call.input).toMatchObject({ currency: "BTC", registrationCode: "WELCOME125", clickId: "click-42" })
  })

  it("drops the bonus code when the toggle is closed again", async () => {
    const started = start()
    const call = await toRegistration(started, (actor) => {
      actor.send({ type: "TOGGLE_BONUS_CODE" })
      actor.send({ type: "CHANGE_BONUS_CODE", value: "WELCOME125" })
      actor.send({ type: "TOGGLE_BONUS_CODE" })
    })
    expect("registrationCode" in call.input).toBe(false)
  })

  it("picks the browser's language when the site offers it, else the site's first", () => {
    expect(pickLanguage("de-AT", ["en", "de"])).toBe("de")
    expect(pickLanguage("fr-FR", ["en", "de"])).toBe("en")
    expect(pickLanguage("", [])).toBe("en")
  })
})

describe("register: outcomes", () => {
  it("ends registered with the new session user", async () => {
    const started = start()
    const call = await toRegistration(started)
    call.resolve(signedInStatus)
    await settle()
    expect(started.actor.getSnapshot().status).toBe("done")
    expect(started.actor.getSnapshot().output).toEqual({ type: "registered", user: signedInStatus.user })
  })

  it("treats an answer without a session as incomplete", async () => {
    const started = start()
    const call = await toRegistration(started)
    call.resolve(anonymousStatus)
    await settle()
    expect(started.actor.getSnapshot().context.errors).toEqual({ form: AccountMessages.registerIncomplete })
  })

  const failures: Array<[string, unknown, Record<string, string>]> = [
    ["409 e-mail taken", new EmailTaken({ message: "x" }), { email: AccountMessages.registerEmailTaken }],
    [
      "blocked domain",
      new RegistrationRefused({ message: "x" }),
      { form: AccountMessages.blockedDomainRegister },
    ],
    [
      "validation",
      new ValidationFailed({ message: "x", field: "fullName" }),
      { form: AccountMessages.registerIncomplete },
    ],
    ["country", new CountryRestricted({ message: "x", isoCode: "GB" }), { form: Messages.countryRestricted }],
    [
      "captcha",
      new CaptchaFailed({ message: "x", reason: "expired" }),
      { captcha: AccountMessages.captchaRequired },
    ],
    [
      "rate limit",
      new RateLimited({ message: "x", retryAfterSeconds: 120 }),
      { form: "Too many attempts, please try again in 120 seconds" },
    ],
    ["bare 409", statusError(409), { email: AccountMessages.registerEmailTaken }],
    ["400 decode failure", statusError(400), { form: AccountMessages.registerIncomplete }],
    ["undecodable answer", schemaError(), { form: AccountMessages.registerIncomplete }],
    ["network", transportError(), { form: AccountMessages.registerIncomplete }],
    ["defect", new Error("boom"), { form: AccountMessages.registerIncomplete }],
  ]

  it.each(failures)("maps %s to the spec's message and spends the captcha", async (_name, error, errors) => {
    const started = start()
    const call = await toRegistration(started)
    call.reject(error)
    await settle()
    const snapshot = started.actor.getSnapshot()
    expect(snapshot.value).toBe("editing")
    expect(snapshot.context.errors).toEqual(errors)
    expect(snapshot.context.captcha).toBeNull()
    expect(snapshot.context.captchaKey).toBe(1)
  })

  it("aborts the running call when the modal closes, during the e-mail check and the registration", async () => {
    const checking = start()
    fill(checking.actor)
    submit(checking.actor)
    const check = checking.validateEmail.last()
    checking.actor.stop()
    expect(check.signal.aborted).toBe(true)

    const registering = start()
    const call = await toRegistration(registering)
    expect(call.signal.aborted).toBe(false)
    registering.actor.stop()
    expect(call.signal.aborted).toBe(true)
  })
})

describe("register: welcome banner", () => {
  it("shows the banner only when the viewport is wider than 1100 px, in any state", () => {
    const { actor } = start()
    expect(actor.getSnapshot().context.bannerVisible).toBe(false)
    actor.send({ type: "VIEWPORT_CHANGED", width: 1101 })
    expect(actor.getSnapshot().context.bannerVisible).toBe(true)
    actor.send({ type: "VIEWPORT_CHANGED", width: 1100 })
    expect(actor.getSnapshot().context.bannerVisible).toBe(false)
    fill(actor)
    submit(actor)
    actor.send({ type: "VIEWPORT_CHANGED", width: 1440 })
    expect(actor.getSnapshot().context.bannerVisible).toBe(true)
  })
})
