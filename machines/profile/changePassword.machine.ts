/**
 * The security tab: change password (spec section 7: POST /user-service/api/v1/change-password).
 * Old, new and confirmation, with the reset form's rules and messages (spec section 5:
 * no edits, under 3, under 8, mismatch — `services/account-rules.ts`) and the current password
 * required. The server keeps the history rule and ends the player's other sessions; success is a
 * toast that says so, and the form empties.
 */
import { Effect } from "effect"
import { match } from "ts-pattern"
import { assign, setup } from "xstate"
import {
  AccountMessages,
  type ResetPasswordProblem,
  resetPasswordMessage,
  resetPasswordProblem,
} from "../../services/account-rules.ts"
import { fromEffect } from "../../services/bridge.ts"
import { userClient } from "../../services/clients/user.ts"
import { IncorrectPassword, PasswordRejected, RateLimited, Unauthenticated } from "../../services/errors.ts"
import { notify } from "../../services/notify.ts"
import { Messages } from "../../services/rules.ts"
import { clientFailureClasses, type FieldErrors, failureFrom, type ToastParams } from "../flowSupport.ts"
import { isSessionGone, sessionEnded, type TabOutput } from "./support.ts"

export const ChangePasswordMessages = {
  changed: "Your password has been changed. Your other devices were signed out.",
  oldRequired: "Please enter your current password",
  oldIncorrect: "Your current password is not correct",
  failed: "Your password could not be changed. Please try again.",
} as const

export type ChangePasswordField = "oldPassword" | "newPassword" | "confirmPassword"

export const changePasswordFailure = failureFrom([
  Unauthenticated,
  IncorrectPassword,
  PasswordRejected,
  RateLimited,
  ...clientFailureClasses,
])
export type ChangePasswordFailure = ReturnType<typeof changePasswordFailure>

/** Where a refused change is shown, with which message. */
export const changeFailureErrors = (failure: ChangePasswordFailure): FieldErrors<ChangePasswordField> =>
  match(failure)
    .with({ _tag: "IncorrectPassword" }, () => ({ oldPassword: ChangePasswordMessages.oldIncorrect }))
    // Spec section 8: the reset form's rejection text (too short, or one of the last passwords).
    .with({ _tag: "PasswordRejected" }, () => ({ newPassword: AccountMessages.resetRejected }))
    .with({ _tag: "RateLimited" }, (e) => ({ form: Messages.tooManyAttempts(e.retryAfterSeconds) }))
    .with(
      { _tag: "Unauthenticated" },
      { _tag: "ClientError" },
      { _tag: "SchemaError" },
      { _tag: "UnexpectedError" },
      () => ({ form: ChangePasswordMessages.failed }),
    )
    .exhaustive()

const problemField = (problem: ResetPasswordProblem): ChangePasswordField | "form" =>
  match(problem)
    .with("NO_EDITS", () => "form" as const)
    .with("TOO_SHORT", "BELOW_MINIMUM", () => "newPassword" as const)
    .with("MISMATCH", () => "confirmPassword" as const)
    .exhaustive()

export interface ChangePasswordContext {
  readonly oldPassword: string
  readonly newPassword: string
  readonly confirmPassword: string
  readonly errors: FieldErrors<ChangePasswordField>
}

export type ChangePasswordEvent =
  | { readonly type: "CHANGE"; readonly field: ChangePasswordField; readonly value: string }
  | { readonly type: "SUBMIT" }

const problemOf = (context: ChangePasswordContext): ResetPasswordProblem | null =>
  resetPasswordProblem({
    password: context.newPassword,
    confirmPassword: context.confirmPassword,
    edited: context.oldPassword !== "" || context.newPassword !== "" || context.confirmPassword !== "",
  })

const emptyForm = { oldPassword: "", newPassword: "", confirmPassword: "", errors: {} }

export const changePasswordMachine = setup({
  types: {
    context: {} as ChangePasswordContext,
    events: {} as ChangePasswordEvent,
    output: {} as TabOutput,
  },
  actors: {
    change: fromEffect(
      (payload: {
        readonly oldPassword: string
        readonly newPassword: string
        readonly confirmPassword: string
      }) =>
        Effect.gen(function* () {
          yield* userClient.changePassword({ payload })
        }),
    ),
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => isSessionGone(params.error),
    hasProblem: ({ context }) => problemOf(context) !== null,
    oldIsMissing: ({ context }) => context.oldPassword === "",
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    change: assign(({ context }, params: { field: ChangePasswordField; value: string }) => ({
      ...context,
      [params.field]: params.value,
      errors: {},
    })),
    showProblem: assign(({ context }) => {
      const problem = problemOf(context)
      return { errors: problem === null ? {} : { [problemField(problem)]: resetPasswordMessage(problem) } }
    }),
    showOldMissing: assign({ errors: { oldPassword: ChangePasswordMessages.oldRequired } }),
    showFailure: assign((_, params: { failure: ChangePasswordFailure }) => ({
      errors: changeFailureErrors(params.failure),
    })),
    clear: assign(emptyForm),
  },
}).createMachine({
  id: "changePassword",
  context: emptyForm,
  initial: "editing",
  output: () => sessionEnded,
  states: {
    editing: {
      on: {
        CHANGE: {
          actions: { type: "change", params: ({ event }) => ({ field: event.field, value: event.value }) },
        },
        SUBMIT: [
          { guard: "hasProblem", actions: "showProblem" },
          { guard: "oldIsMissing", actions: "showOldMissing" },
          { target: "submitting" },
        ],
      },
    },
    submitting: {
      invoke: {
        id: "change",
        src: "change",
        input: ({ context }) => ({
          oldPassword: context.oldPassword,
          newPassword: context.newPassword,
          confirmPassword: context.confirmPassword,
        }),
        onDone: {
          target: "editing",
          actions: [
            "clear",
            { type: "toast", params: { kind: "success", message: ChangePasswordMessages.changed } },
          ],
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            target: "editing",
            actions: {
              type: "showFailure",
              params: ({ event }) => ({ failure: changePasswordFailure(event.error) }),
            },
          },
        ],
      },
    },
    sessionEnded: { type: "final" },
  },
})
