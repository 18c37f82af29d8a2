/**
 * Forgot-password and reset-password flows on real actors with controlled doubles: the e-mail rule,
 * the silent failure, the reset checks in the spec's order, the payload with token and captcha,
 * the toasts, the dead-link state, the single-use captcha, outputs and aborting on close.
 */

import { describe, expect, it } from "vitest"
import { createActor } from "xstate"
import { forgotPasswordMachine } from "../../../machines/account/forgotPassword.machine.ts"
import {
  resetLinkInvalidMessage,
  resetPasswordMachine,
} from "../../../machines/account/resetPassword.machine.ts"
import { flowInput, schemaError, transportError } from "../../../machines/flowFixtures.ts"
import { AccountMessages } from "../../../services/account-rules.ts"
import {
  CaptchaFailed,
  InvalidToken,
  PasswordRejected,
  RateLimited,
  ValidationFailed,
} from "../../../services/errors.ts"
import { Messages } from "../../../services/rules.ts"
import type { ResetPasswordPayload } from "../../../services/user-service.ts"
import { controlled, settle, toastRecorder } from "./doubles.ts"

describe("forgot password", () => {
  const start = () => {
    const forgotPassword = controlled<{ message: string }, { email: string }>()
    const { toasts, toast } = toastRecorder()
    const actor = createActor(
      forgotPasswordMachine.provide({ actors: { forgotPassword: forgotPassword.logic }, actions: { toast } }),
      { input: flowInput() },
    )
    actor.start()
    return { actor, forgotPassword, toasts }
  }

  it("requires a valid e-mail", () => {
    const { actor, forgotPassword } = start()
    actor.send({ type: "CHANGE_EMAIL", value: "ada@lovelace" })
    actor.send({ type: "SUBMIT" })
    expect(actor.getSnapshot().context.errors).toEqual({ email: AccountMessages.invalidEmail })
    expect(actor.getSnapshot().context.submitted).toBe(true)
    expect(forgotPassword.calls).toHaveLength(0)
    actor.send({ type: "CHANGE_EMAIL", value: "ada@lovelace.example" })
    expect(actor.getSnapshot().context.errors).toEqual({})
  })

  it("sends the trimmed e-mail, toasts 'Reset password link is sent!' and ends with resetLinkSent", async () => {
    const { actor, forgotPassword, toasts } = start()
    actor.send({ type: "CHANGE_EMAIL", value: " ada@lovelace.example" })
    actor.send({ type: "SUBMIT" })
    expect(forgotPassword.last().input).toEqual({ email: "ada@lovelace.example" })
    forgotPassword.last().resolve({ message: "ok" })
    await settle()
    expect(toasts).toEqual([{ kind: "success", message: "Reset password link is sent!" }])
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({ type: "resetLinkSent" })
  })

  it.each([
    ["validation", new ValidationFailed({ message: "x", field: "email" })],
    ["rate limit", new RateLimited({ message: "x", retryAfterSeconds: 9 })],
    ["network", transportError()],
    ["defect", new Error("boom")],
  ])("stays silent on a %s failure and lets the player try again", async (_name, error) => {
    const { actor, forgotPassword, toasts } = start()
    actor.send({ type: "CHANGE_EMAIL", value: "ada@lovelace.example" })
    actor.send({ type: "SUBMIT" })
    forgotPassword.last().reject(error)
    await settle()
    expect(actor.getSnapshot().value).toBe("editing")
    expect(actor.getSnapshot().context.errors).toEqual({})
    expect(toasts).toEqual([])
    actor.send({ type: "SUBMIT" })
    expect(forgotPassword.calls).toHaveLength(2)
  })

  it("aborts the call when the modal closes", () => {
    const { actor, forgotPassword } = start()
    actor.send({ type: "CHANGE_EMAIL", value: "ada@lovelace.example" })
    actor.send({ type: "SUBMIT" })
    actor.stop()
    expect(forgotPassword.last().signal.aborted).toBe(true)
  })
})

describe("reset password", () => {
  const token = "4f1c2b9a0d7e4c3b8a6f5e4d3c2b1a09"
  const start = (linkToken: string | null = token) => {
    const resetPassword = controlled<void, ResetPasswordPayload>()
    const { toasts, toast } = toastRecorder()
    const actor = createActor(
      resetPasswordMachine.provide({ actors: { resetPassword: resetPassword.logic }, actions: { toast } }),
      { input: flowInput(linkToken) },
    )
    actor.start()
    return { actor, resetPassword, toasts }
  }
  type Actor = ReturnType<typeof start>["actor"]

  const fill = (actor: Actor, password = "correct horse battery", confirm = password) => {
    actor.send({ type: "CHANGE_PASSWORD", value: password })
    actor.send({ type: "CHANGE_CONFIRM_PASSWORD", value: confirm })
    actor.send({ type: "CAPTCHA_VERIFIED", payload: "altcha-payload-1" })
  }

  it("checks in the spec's order: no edits, under 3, under 8, mismatch, then the captcha", () => {
    const { actor, resetPassword } = start()
    const errorsAfter = (password: string | null, confirm: string | null) => {
      if (password !== null) actor.send({ type: "CHANGE_PASSWORD", value: password })
      if (confirm !== null) actor.send({ type: "CHANGE_CONFIRM_PASSWORD", value: confirm })
      actor.send({ type: "SUBMIT" })
      return actor.getSnapshot().context.errors
    }
    expect(errorsAfter(null, null)).toEqual({ form: "Please update values before continue" })
    expect(errorsAfter("ab", "xy")).toEqual({ password: "Password is too short" })
    expect(errorsAfter("abcdef", "xy")).toEqual({ password: "Password is too short, min 8 characters" })
    expect(errorsAfter("abcdefgh", "abcdefgX")).toEqual({
      confirmPassword: "Password and Confirm password do not match",
    })
    expect(errorsAfter(null, "abcdefgh")).toEqual({ captcha: AccountMessages.captchaRequired })
    expect(resetPassword.calls).toHaveLength(0)
    expect(actor.getSnapshot().context.submitted).toBe(true)
  })

  it("shows the success style above 3 characters", () => {
    const { actor } = start()
    actor.send({ type: "CHANGE_PASSWORD", value: "abc" })
    expect(actor.getSnapshot().context.passwordLooksLong).toBe(false)
    actor.send({ type: "CHANGE_PASSWORD", value: "abcd" })
    expect(actor.getSnapshot().context.passwordLooksLong).toBe(true)
  })

  it("sends both passwords, the link's token and the captcha; success toasts and ends with passwordReset", async () => {
    const { actor, resetPassword, toasts } = start()
    fill(actor)
    actor.send({ type: "SUBMIT" })
    expect(resetPassword.last().input).toEqual({
      password: "correct horse battery",
      confirmPassword: "correct horse battery",
      token,
      captcha: "altcha-payload-1",
    })
    resetPassword.last().resolve()
    await settle()
    expect(toasts).toEqual([{ kind: "success", message: AccountMessages.resetSuccess }])
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({ type: "passwordReset" })
  })

  it.each([
    ["a rejected password", new PasswordRejected({ message: "x" })],
    ["a network failure", transportError()],
    ["an undecodable answer", schemaError()],
  ])("toasts the spec's rejection for %s and spends the captcha", async (_name, error) => {
    const { actor, resetPassword, toasts } = start()
    fill(actor)
    actor.send({ type: "SUBMIT" })
    resetPassword.last().reject(error)
    await settle()
    expect(actor.getSnapshot().value).toBe("editing")
    expect(toasts).toEqual([
      { kind: "error", message: "Password must be more than 8 characters and not previously been used!" },
    ])
    expect(actor.getSnapshot().context.captcha).toBeNull()
    expect(actor.getSnapshot().context.captchaKey).toBe(1)
  })

  it("shows the captcha and rate-limit failures on the form", async () => {
    const captcha = start()
    fill(captcha.actor)
    captcha.actor.send({ type: "SUBMIT" })
    captcha.resetPassword.last().reject(new CaptchaFailed({ message: "x", reason: "replayed" }))
    await settle()
    expect(captcha.actor.getSnapshot().context.errors).toEqual({ captcha: AccountMessages.captchaRequired })
    expect(captcha.toasts).toEqual([])

    const limited = start()
    fill(limited.actor)
    limited.actor.send({ type: "SUBMIT" })
    limited.resetPassword.last().reject(new RateLimited({ message: "x", retryAfterSeconds: 60 }))
    await settle()
    expect(limited.actor.getSnapshot().context.errors).toEqual({ form: Messages.tooManyAttempts(60) })
  })

  it("says the link is dead when the server does not know the token", async () => {
    const { actor, resetPassword, toasts } = start()
    fill(actor)
    actor.send({ type: "SUBMIT" })
    resetPassword.last().reject(new InvalidToken({ message: "x" }))
    await settle()
    expect(actor.getSnapshot().value).toBe("linkInvalid")
    expect(resetLinkInvalidMessage).toMatch(/invalid, expired or already used/)
    expect(toasts).toEqual([])
    actor.send({ type: "SUBMIT" })
    expect(resetPassword.calls).toHaveLength(1)
  })

  it("sends an empty token for a link without one (the server answers InvalidToken)", () => {
    const { actor, resetPassword } = start(null)
    fill(actor)
    actor.send({ type: "SUBMIT" })
    expect(resetPassword.last().input.token).toBe("")
  })

  it("aborts the call when the modal closes", () => {
    const { actor, resetPassword } = start()
    fill(actor)
    actor.send({ type: "SUBMIT" })
    actor.stop()
    expect(resetPassword.last().signal.aborted).toBe(true)
  })
})
