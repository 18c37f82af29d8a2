/**
 * Generated-path model of machines/register.machine.ts: values that trip each field rule, the
 * bonus-code toggle, terms, currency, the banner's viewport widths, the captcha, and every outcome
 * of the `validateEmail` and `register` calls.
 */

import { isBlockedDomain, isValidFullName } from "../../services/account-rules.ts"
import {
  CaptchaFailed,
  CountryRestricted,
  EmailTaken,
  RateLimited,
  RegistrationRefused,
  ValidationFailed,
} from "../../services/errors.ts"
import { anonymousStatus, flowInput, signedInStatus, statusError, transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { registerMachine } from "./register.machine.ts"

const input = flowInput()

export const model = defineModel({
  name: "register",
  machine: registerMachine,
  input,
  // Offered where they matter, so the graph (and the e2e run) stays small: the fields that only
  // change themselves (currency, bonus code, banner) on the untouched form; the rule-checked fields
  // in form order, each moving from failing to passing once, so a SUBMIT between two of them trips
  // exactly the next rule; the call outcomes only while the call runs (the harness drops the rest).
  events: (snapshot) => {
    const c = snapshot.context
    const pristine = c.fullName === "" && !c.submitted
    return [
      ...(pristine
        ? [
            { type: "CHANGE_CURRENCY", code: "BTC" } as const,
            { type: "CHANGE_CURRENCY", code: "XYZ" } as const,
            { type: "TOGGLE_BONUS_CODE" } as const,
            ...(c.bonusCodeOpen ? [{ type: "CHANGE_BONUS_CODE", value: "WELCOME125" } as const] : []),
            { type: "VIEWPORT_CHANGED", width: 1280 } as const,
            { type: "VIEWPORT_CHANGED", width: 1100 } as const,
            // The code checker (its own model: couponCheck) failing is ignored by the form.
            { type: "xstate.error.actor.coupon", error: new Error("checker stopped") } as const,
          ]
        : []),
      // The fields in form order, each offered once the previous one passes.
      ...(isValidFullName(c.fullName) ? [] : [{ type: "CHANGE_FULL_NAME", value: "Ada Lovelace" } as const]),
      ...(isValidFullName(c.fullName) && c.email === ""
        ? [{ type: "CHANGE_EMAIL", value: "ada@blocked.example" } as const]
        : []),
      ...(isValidFullName(c.fullName) && c.email !== "ada@lovelace.example"
        ? [{ type: "CHANGE_EMAIL", value: "ada@lovelace.example" } as const]
        : []),
      ...(c.email === "ada@lovelace.example" && c.password === ""
        ? [{ type: "CHANGE_PASSWORD", value: "correct horse battery" } as const]
        : []),
      ...(c.password !== "" && !c.terms ? [{ type: "SET_TERMS", accepted: true } as const] : []),
      ...(c.terms
        ? [
            c.captcha === null
              ? ({ type: "CAPTCHA_VERIFIED", payload: "eyJjaGFsbGVuZ2UiOnt9LCJzb2x1dGlvbiI6e319" } as const)
              : ({ type: "CAPTCHA_RESET" } as const),
          ]
        : []),
      { type: "SUBMIT", clickId: "click-42", language: "de-AT" },
      { type: "xstate.done.actor.validateEmail", output: { email_status: "VALID" } },
      { type: "xstate.done.actor.validateEmail", output: { email_status: "DISPOSABLE" } },
      { type: "xstate.error.actor.validateEmail", error: transportError() },
      { type: "xstate.done.actor.register", output: signedInStatus },
      { type: "xstate.done.actor.register", output: anonymousStatus },
      { type: "xstate.error.actor.register", error: new EmailTaken({ message: "Taken" }) },
      { type: "xstate.error.actor.register", error: new RegistrationRefused({ message: "Refused" }) },
      {
        type: "xstate.error.actor.register",
        error: new ValidationFailed({ message: "Bad", field: "fullName" }),
      },
      {
        type: "xstate.error.actor.register",
        error: new CountryRestricted({ message: "Restricted", isoCode: "GB" }),
      },
      {
        type: "xstate.error.actor.register",
        error: new CaptchaFailed({ message: "Captcha", reason: "invalid" }),
      },
      {
        type: "xstate.error.actor.register",
        error: new RateLimited({ message: "Slow down", retryAfterSeconds: 120 }),
      },
      { type: "xstate.error.actor.register", error: statusError(400) },
    ]
  },
  // What the guards read, plus the messages shown; currency, banner and bonus code only change
  // themselves, so they stay out of the projection (their transitions are still covered).
  projectContext: (snapshot) => {
    const c = snapshot.context
    return {
      fullName: isValidFullName(c.fullName),
      email: !c.validEmail
        ? "invalid"
        : isBlockedDomain(c.email, input.siteConfig.blockedEmailDomains)
          ? "blocked"
          : "ok",
      password: c.password !== "",
      terms: c.terms,
      captcha: c.captcha !== null,
      errors: c.errors,
    }
  },
})
