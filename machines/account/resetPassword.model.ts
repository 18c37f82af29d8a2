/**
 * Generated-path model of machines/resetPassword.machine.ts: passwords that trip each client check
 * in the spec's order, the captcha, and every outcome of the `resetPassword` call. The token comes
 * from the input (the e-mail link).
 */
import { CaptchaFailed, InvalidToken, PasswordRejected, RateLimited } from "../../services/errors.ts"
import { flowInput, schemaError, transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { resetPasswordMachine } from "./resetPassword.machine.ts"

export const model = defineModel({
  name: "resetPassword",
  machine: resetPasswordMachine,
  input: flowInput("4f1c2b9a0d7e4c3b8a6f5e4d3c2b1a09"),
  // The new password grows through each client check in the spec's order, then the confirmation
  // and the captcha follow, so a SUBMIT at each stage trips exactly the next rule; the call outcomes
  // only while it runs (the harness drops the rest).
  events: (snapshot) => {
    const c = snapshot.context
    const next =
      c.password === ""
        ? "ab"
        : c.password === "ab"
          ? "abcdef"
          : c.password === "abcdef"
            ? "correct horse battery"
            : null
    return [
      ...(next === null ? [] : [{ type: "CHANGE_PASSWORD", value: next } as const]),
      ...(next === null && c.confirmPassword === ""
        ? [{ type: "CHANGE_CONFIRM_PASSWORD", value: "correct horse battery" } as const]
        : []),
      ...(c.confirmPassword === ""
        ? []
        : [
            c.captcha === null
              ? ({ type: "CAPTCHA_VERIFIED", payload: "eyJjaGFsbGVuZ2UiOnt9LCJzb2x1dGlvbiI6e319" } as const)
              : ({ type: "CAPTCHA_RESET" } as const),
          ]),
      { type: "SUBMIT" },
      { type: "xstate.done.actor.resetPassword" },
      {
        type: "xstate.error.actor.resetPassword",
        error: new PasswordRejected({ message: "Reused password" }),
      },
      { type: "xstate.error.actor.resetPassword", error: new InvalidToken({ message: "Expired" }) },
      {
        type: "xstate.error.actor.resetPassword",
        error: new CaptchaFailed({ message: "Captcha", reason: "expired" }),
      },
      {
        type: "xstate.error.actor.resetPassword",
        error: new RateLimited({ message: "Slow down", retryAfterSeconds: 60 }),
      },
      { type: "xstate.error.actor.resetPassword", error: transportError() },
      { type: "xstate.error.actor.resetPassword", error: schemaError() },
    ]
  },
  projectContext: (snapshot) => {
    const c = snapshot.context
    return {
      edited: c.edited,
      password: c.password.length,
      matches: c.password === c.confirmPassword,
      captcha: c.captcha !== null,
      errors: c.errors,
    }
  },
})
