/**
 * Generated-path model of the back-office session: each answer of the session check, the password
 * step (code, enrolment, refusals), the code step (accepted, wrong, expired), navigation allowed and
 * refused by role, activity, the idle limit, the server ending the session, sign-out.
 */
import { ForbiddenAddress, InvalidCode, LoginExpired } from "../../services/backoffice/errors.ts"
import type { Me } from "../../services/backoffice/operators.ts"
import {
  IncorrectPassword,
  InvalidCredentials,
  PasswordRejected,
  RateLimited,
  Unauthenticated,
} from "../../services/errors.ts"
import { kycOfficer, transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { sessionMachine } from "./backofficeSession.machine.ts"

const newcomer: Me = { ...kycOfficer, operator: { ...kycOfficer.operator, mustChangePassword: true } }

export const model = defineModel({
  name: "backofficeSession",
  machine: sessionMachine,
  input: { screen: "dashboard" },
  otherInputs: [{ name: "deep link to the audit log", input: { screen: "audit" } }],
  events: (snapshot) => [
    ...(snapshot.matches("checking")
      ? [
          { type: "xstate.done.actor.me", output: kycOfficer },
          { type: "xstate.done.actor.me", output: newcomer },
          {
            type: "xstate.error.actor.me",
            error: new Unauthenticated({ message: "Sign in to the back office." }),
          },
          {
            type: "xstate.error.actor.me",
            error: new ForbiddenAddress({ message: "The back office cannot be reached from this address." }),
          },
          { type: "xstate.error.actor.me", error: transportError() },
        ]
      : []),
    { type: "RETRY" },
    { type: "SUBMIT_PASSWORD", email: "kim@ops.example", password: "correct horse battery" },
    ...(snapshot.matches("submittingPassword")
      ? [
          { type: "xstate.done.actor.login", output: { step: "totp" } },
          {
            type: "xstate.done.actor.login",
            output: { step: "enrol", otpauthUri: "otpauth://totp/Casino:kim", secret: "JBSWY3DPEHPK3PXP" },
          },
          {
            type: "xstate.error.actor.login",
            error: new InvalidCredentials({ message: "Wrong e-mail or password." }),
          },
          {
            type: "xstate.error.actor.login",
            error: new RateLimited({ message: "Too many attempts.", retryAfterSeconds: 60 }),
          },
          {
            type: "xstate.error.actor.login",
            error: new ForbiddenAddress({ message: "The back office cannot be reached from this address." }),
          },
        ]
      : []),
    { type: "SUBMIT_CODE", code: " 123456 " },
    { type: "CANCEL" },
    ...(snapshot.matches("submittingCode")
      ? [
          { type: "xstate.done.actor.loginTotp", output: kycOfficer },
          { type: "xstate.done.actor.loginTotp", output: newcomer },
          {
            type: "xstate.error.actor.loginTotp",
            error: new InvalidCode({ message: "The code is wrong or was already used." }),
          },
          {
            type: "xstate.error.actor.loginTotp",
            error: new LoginExpired({ message: "Sign in with your e-mail and password first." }),
          },
          { type: "xstate.error.actor.loginTotp", error: transportError() },
        ]
      : []),
    { type: "CHANGE_PASSWORD", currentPassword: "one-time-abc", newPassword: "a fine new pass phrase" },
    ...(snapshot.matches("changingPassword")
      ? [
          { type: "xstate.done.actor.changePassword", output: kycOfficer },
          {
            type: "xstate.error.actor.changePassword",
            error: new IncorrectPassword({ message: "The current password is not right." }),
          },
          {
            type: "xstate.error.actor.changePassword",
            error: new PasswordRejected({ message: "The new password must be 12 to 128 characters." }),
          },
          {
            type: "xstate.error.actor.changePassword",
            error: new Unauthenticated({ message: "Sign in to the back office." }),
          },
        ]
      : []),
    { type: "NAVIGATE", screen: "kyc" },
    { type: "NAVIGATE", screen: "operators" },
    { type: "ACTIVITY" },
    { type: "SESSION_ENDED" },
    { type: "LOGOUT" },
    ...(snapshot.matches("signedIn")
      ? [{ type: "xstate.after.idleTimeout.backofficeSession.signedIn" }]
      : []),
    ...(snapshot.matches("signingOut")
      ? [
          { type: "xstate.done.actor.logout", output: { loggedOut: true } },
          { type: "xstate.error.actor.logout", error: transportError() },
        ]
      : []),
  ],
  projectContext: (snapshot) => ({
    me: snapshot.context.me?.role ?? null,
    mustChange: snapshot.context.me?.operator.mustChangePassword ?? null,
    step: snapshot.context.step?.step ?? null,
    screen: snapshot.context.screen,
    error: snapshot.context.error !== null,
    notice: snapshot.context.notice,
  }),
})
