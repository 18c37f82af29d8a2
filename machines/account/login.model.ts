/**
 * Generated-path model of machines/login.machine.ts: the form events, and every outcome of the
 * `signIn` call (signed in, an answer without a session, each typed failure, the client failures).
 */

import { isBlockedDomain } from "../../services/account-rules.ts"
import {
  AccountLocked,
  CaptchaFailed,
  CountryRestricted,
  InvalidCredentials,
  RateLimited,
  SelfExcluded,
} from "../../services/errors.ts"
import { anonymousStatus, flowInput, signedInStatus, statusError, transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { loginMachine } from "./login.machine.ts"

const input = flowInput()

export const model = defineModel({
  name: "login",
  machine: loginMachine,
  input,
  // The fields in form order, each offered once the previous one passes, so a SUBMIT between two of
  // them trips exactly the next rule; the call outcomes only while it runs (the harness drops the rest).
  events: (snapshot) => {
    const c = snapshot.context
    return [
      ...(c.email === "" ? [{ type: "CHANGE_EMAIL", value: "ada@blocked.example" } as const] : []),
      ...(c.email !== "ada@lovelace.example"
        ? [{ type: "CHANGE_EMAIL", value: "ada@lovelace.example" } as const]
        : []),
      ...(c.email === "ada@lovelace.example" && c.password === ""
        ? [{ type: "CHANGE_PASSWORD", value: "correct horse battery" } as const]
        : []),
      ...(c.password === ""
        ? []
        : [
            c.captcha === null
              ? ({ type: "CAPTCHA_VERIFIED", payload: "eyJjaGFsbGVuZ2UiOnt9LCJzb2x1dGlvbiI6e319" } as const)
              : ({ type: "CAPTCHA_RESET" } as const),
          ]),
      { type: "SUBMIT" },
      { type: "xstate.done.actor.signIn", output: signedInStatus },
      { type: "xstate.done.actor.signIn", output: anonymousStatus },
      {
        type: "xstate.error.actor.signIn",
        error: new InvalidCredentials({ message: "Invalid credentials" }),
      },
      { type: "xstate.error.actor.signIn", error: new AccountLocked({ message: "Account locked" }) },
      { type: "xstate.error.actor.signIn", error: new SelfExcluded({ message: "Cool-off", until: null }) },
      {
        type: "xstate.error.actor.signIn",
        error: new CountryRestricted({ message: "Restricted", isoCode: "US" }),
      },
      {
        type: "xstate.error.actor.signIn",
        error: new CaptchaFailed({ message: "Captcha", reason: "replayed" }),
      },
      {
        type: "xstate.error.actor.signIn",
        error: new RateLimited({ message: "Slow down", retryAfterSeconds: 60 }),
      },
      { type: "xstate.error.actor.signIn", error: statusError(451) },
      { type: "xstate.error.actor.signIn", error: transportError() },
    ]
  },
  projectContext: (snapshot) => {
    const c = snapshot.context
    return {
      email: !c.validEmail
        ? "invalid"
        : isBlockedDomain(c.email, input.siteConfig.blockedEmailDomains)
          ? "blocked"
          : "ok",
      password: c.password !== "",
      captcha: c.captcha !== null,
      errors: c.errors,
    }
  },
})
