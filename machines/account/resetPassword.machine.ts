/**
 * Reset password (spec sections 2, 4, 5, 8): opened from an e-mail link carrying a token; new
 * password + confirmation checked in the spec's order (no edits, under 3, under 8, mismatch); a
 * captcha is obtained before submit. Success toasts and ends with `passwordReset` (the host closes
 * the modal and re-checks auth); a server rejection toasts the spec's message; a used or expired
 * link says so.
 */
import { Effect } from "effect"
import { match } from "ts-pattern"
import { assign, setup } from "xstate"
import {
  AccountMessages,
  passwordLooksLong,
  type ResetPasswordProblem,
  resetPasswordProblem,
} from "../../services/account-rules.ts"
import { fromEffect } from "../../services/bridge.ts"
import { userClient } from "../../services/clients/user.ts"
import { CaptchaFailed, InvalidToken, PasswordRejected, RateLimited } from "../../services/errors.ts"
import { notify } from "../../services/notify.ts"
import { Constants, Messages } from "../../services/rules.ts"
import type { ResetPasswordPayload } from "../../services/user-service.ts"
import type { FlowInput, FlowOutput } from "../flow.ts"
import { clientFailureClasses, type FieldErrors, failureFrom, type ToastParams } from "../flowSupport.ts"

/** Shown when the link has no token, or the server says it is unknown, used or expired. */
export const resetLinkInvalidMessage =
  "This password reset link is invalid, expired or already used. Please request a new one with Forgot password."

export const resetPasswordFailure = failureFrom([
  PasswordRejected,
  InvalidToken,
  CaptchaFailed,
  RateLimited,
  ...clientFailureClasses,
])
export type ResetPasswordFailure = ReturnType<typeof resetPasswordFailure>

type ResetField = "password" | "confirmPassword"

export type ResetFailureOutcome =
  | { readonly kind: "linkInvalid" }
  | { readonly kind: "toast"; readonly message: string }
  | { readonly kind: "field"; readonly field: ResetField | "form" | "captcha"; readonly message: string }

/** Spec section 8: any server rejection of the new password toasts the rejection message. */
export const resetFailureOutcome = (failure: ResetPasswordFailure): ResetFailureOutcome =>
  match(failure)
    .with({ _tag: "InvalidToken" }, () => ({ kind: "linkInvalid" as const }))
    .with({ _tag: "CaptchaFailed" }, () => ({
      kind: "field" as const,
      field: "captcha" as const,
      message: AccountMessages.captchaRequired,
    }))
    .with({ _tag: "RateLimited" }, (e) => ({
      kind: "field" as const,
      field: "form" as const,
      message: Messages.tooManyAttempts(e.retryAfterSeconds),
    }))
    .with(
      { _tag: "PasswordRejected" },
      { _tag: "ClientError" },
      { _tag: "SchemaError" },
      { _tag: "UnexpectedError" },
      () => ({ kind: "toast" as const, message: AccountMessages.resetRejected }),
    )
    .exhaustive()

/** The field a client-side problem is shown under (the no-edits message belongs to the form). */
const problemField = (problem: ResetPasswordProblem): ResetField | "form" =>
  match(problem)
    .with("NO_EDITS", () => "form" as const)
    .with("TOO_SHORT", "BELOW_MINIMUM", () => "password" as const)
    .with("MISMATCH", () => "confirmPassword" as const)
    .exhaustive()

const problemMessage = (problem: ResetPasswordProblem): string =>
  match(problem)
    .with("NO_EDITS", () => AccountMessages.resetNoEdits)
    .with("TOO_SHORT", () => AccountMessages.passwordTooShort)
    .with("BELOW_MINIMUM", () => AccountMessages.passwordMinDisplay(Constants.passwordMinLength))
    .with("MISMATCH", () => AccountMessages.passwordsDoNotMatch)
    .exhaustive()

export interface ResetPasswordContext {
  readonly token: string | null
  readonly password: string
  readonly confirmPassword: string
  /** Whether either field was typed in (spec: a submit with no edits is refused). */
  readonly edited: boolean
  readonly submitted: boolean
  /** The password field's success style: above 3 characters. */
  readonly passwordLooksLong: boolean
  readonly captcha: string | null
  readonly captchaKey: number
  readonly errors: FieldErrors<ResetField>
}

export type ResetPasswordEvent =
  | { readonly type: "CHANGE_PASSWORD"; readonly value: string }
  | { readonly type: "CHANGE_CONFIRM_PASSWORD"; readonly value: string }
  | { readonly type: "CAPTCHA_VERIFIED"; readonly payload: string }
  | { readonly type: "CAPTCHA_RESET" }
  | { readonly type: "SUBMIT" }

const problemOf = (context: ResetPasswordContext): ResetPasswordProblem | null =>
  resetPasswordProblem({
    password: context.password,
    confirmPassword: context.confirmPassword,
    edited: context.edited,
  })

export const resetPasswordMachine = setup({
  types: {
    context: {} as ResetPasswordContext,
    events: {} as ResetPasswordEvent,
    input: {} as FlowInput,
    output: {} as FlowOutput,
  },
  actors: {
    resetPassword: fromEffect((payload: ResetPasswordPayload) =>
      Effect.gen(function* () {
        return yield* userClient.resetPassword({ payload })
      }),
    ),
  },
  guards: {
    noEdits: ({ context }) => problemOf(context) === "NO_EDITS",
    passwordTooShort: ({ context }) => problemOf(context) === "TOO_SHORT",
    passwordBelowMinimum: ({ context }) => problemOf(context) === "BELOW_MINIMUM",
    passwordsMismatch: ({ context }) => problemOf(context) === "MISMATCH",
    captchaIsMissing: ({ context }) => context.captcha === null,
    linkIsInvalid: (_, params: { failure: ResetPasswordFailure }) =>
      resetFailureOutcome(params.failure).kind === "linkInvalid",
    isRejection: (_, params: { failure: ResetPasswordFailure }) =>
      resetFailureOutcome(params.failure).kind === "toast",
  },
  actions: {
    changePassword: assign((_, params: { value: string }) => ({
      password: params.value,
      edited: true,
      passwordLooksLong: passwordLooksLong(params.value),
      errors: {},
    })),
    changeConfirmPassword: assign((_, params: { value: string }) => ({
      confirmPassword: params.value,
      edited: true,
      errors: {},
    })),
    acceptCaptcha: assign((_, params: { payload: string }) => ({ captcha: params.payload, errors: {} })),
    dropCaptcha: assign({ captcha: null }),
    spendCaptcha: assign(({ context }) => ({ captcha: null, captchaKey: context.captchaKey + 1 })),
    markSubmitted: assign({ submitted: true }),
    showProblem: assign(({ context }) => {
      const problem = problemOf(context)
      return { errors: problem === null ? {} : { [problemField(problem)]: problemMessage(problem) } }
    }),
    showCaptchaRequired: assign({ errors: { captcha: AccountMessages.captchaRequired } }),
    showResetFailure: assign((_, params: { failure: ResetPasswordFailure }) => {
      const outcome = resetFailureOutcome(params.failure)
      return { errors: outcome.kind === "field" ? { [outcome.field]: outcome.message } : {} }
    }),
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
  },
}).createMachine({
  id: "resetPassword",
  context: ({ input }) => ({
    token: input.token,
    password: "",
    confirmPassword: "",
    edited: false,
    submitted: false,
    passwordLooksLong: false,
    captcha: null,
    captchaKey: 0,
    errors: {},
  }),
  // The host opens this modal only for a link with a token; a missing one is sent as "" and the
  // server answers InvalidToken like for any other dead link.
  initial: "editing",
  output: { type: "passwordReset" },
  states: {
    editing: {
      on: {
        CHANGE_PASSWORD: {
          actions: { type: "changePassword", params: ({ event }) => ({ value: event.value }) },
        },
        CHANGE_CONFIRM_PASSWORD: {
          actions: { type: "changeConfirmPassword", params: ({ event }) => ({ value: event.value }) },
        },
        CAPTCHA_VERIFIED: {
          actions: { type: "acceptCaptcha", params: ({ event }) => ({ payload: event.payload }) },
        },
        CAPTCHA_RESET: { actions: "dropCaptcha" },
        SUBMIT: [
          { guard: "noEdits", actions: ["markSubmitted", "showProblem"] },
          { guard: "passwordTooShort", actions: ["markSubmitted", "showProblem"] },
          { guard: "passwordBelowMinimum", actions: ["markSubmitted", "showProblem"] },
          { guard: "passwordsMismatch", actions: ["markSubmitted", "showProblem"] },
          { guard: "captchaIsMissing", actions: ["markSubmitted", "showCaptchaRequired"] },
          { target: "submitting", actions: "markSubmitted" },
        ],
      },
    },
    submitting: {
      invoke: {
        id: "resetPassword",
        src: "resetPassword",
        input: ({ context }) => ({
          password: context.password,
          confirmPassword: context.confirmPassword,
          token: context.token ?? "",
          captcha: context.captcha ?? "",
        }),
        onDone: {
          target: "done",
          actions: [
            "spendCaptcha",
            { type: "toast", params: { kind: "success", message: AccountMessages.resetSuccess } },
          ],
        },
        onError: [
          {
            guard: {
              type: "linkIsInvalid",
              params: ({ event }) => ({ failure: resetPasswordFailure(event.error) }),
            },
            target: "linkInvalid",
            actions: "spendCaptcha",
          },
          {
            guard: {
              type: "isRejection",
              params: ({ event }) => ({ failure: resetPasswordFailure(event.error) }),
            },
            target: "editing",
            actions: [
              "spendCaptcha",
              { type: "toast", params: { kind: "error", message: AccountMessages.resetRejected } },
            ],
          },
          {
            target: "editing",
            actions: [
              "spendCaptcha",
              {
                type: "showResetFailure",
                params: ({ event }) => ({ failure: resetPasswordFailure(event.error) }),
              },
            ],
          },
        ],
      },
    },
    linkInvalid: {},
    done: { type: "final" },
  },
})
