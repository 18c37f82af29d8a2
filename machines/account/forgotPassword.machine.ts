/**
 * Forgot password (spec sections 2, 5, 8): an e-mail field and a Restore password button. A valid
 * e-mail is required; success toasts 'Reset password link is sent!' and ends with `resetLinkSent`;
 * a failure is silent (spec) and the form stays as it was.
 */
import { Effect } from "effect"
import { match } from "ts-pattern"
import { assign, setup } from "xstate"
import { AccountMessages, isValidEmail } from "../../services/account-rules.ts"
import { fromEffect } from "../../services/bridge.ts"
import { userClient } from "../../services/clients/user.ts"
import { RateLimited, ValidationFailed } from "../../services/errors.ts"
import { notify } from "../../services/notify.ts"
import type { FlowInput, FlowOutput } from "../flow.ts"
import { clientFailureClasses, type FieldErrors, failureFrom, type ToastParams } from "../flowSupport.ts"

export const forgotPasswordFailure = failureFrom([ValidationFailed, RateLimited, ...clientFailureClasses])
export type ForgotPasswordFailure = ReturnType<typeof forgotPasswordFailure>

/**
 * Spec section 8: "Forgot password | failure | silent, nothing shown". Every failure is silent;
 * the match stays exhaustive so a new failure of the contract has to be looked at here.
 */
export const forgotPasswordFailureIsSilent = (failure: ForgotPasswordFailure): true =>
  match(failure)
    .with(
      { _tag: "ValidationFailed" },
      { _tag: "RateLimited" },
      { _tag: "ClientError" },
      { _tag: "SchemaError" },
      { _tag: "UnexpectedError" },
      () => true as const,
    )
    .exhaustive()

export interface ForgotPasswordContext {
  readonly email: string
  readonly validEmail: boolean
  readonly submitted: boolean
  readonly errors: FieldErrors<"email">
}

export type ForgotPasswordEvent =
  | { readonly type: "CHANGE_EMAIL"; readonly value: string }
  | { readonly type: "SUBMIT" }

export const forgotPasswordMachine = setup({
  types: {
    context: {} as ForgotPasswordContext,
    events: {} as ForgotPasswordEvent,
    input: {} as FlowInput,
    output: {} as FlowOutput,
  },
  actors: {
    forgotPassword: fromEffect((payload: { readonly email: string }) =>
      Effect.gen(function* () {
        return yield* userClient.forgotPassword({ payload })
      }),
    ),
  },
  guards: {
    emailIsInvalid: ({ context }) => !context.validEmail,
  },
  actions: {
    changeEmail: assign((_, params: { value: string }) => ({
      email: params.value,
      validEmail: isValidEmail(params.value.trim()),
      errors: {},
    })),
    markSubmitted: assign({ submitted: true }),
    showInvalidEmail: assign({ errors: { email: AccountMessages.invalidEmail } }),
    /** Silent by the spec: nothing is shown, the exhaustive match documents why. */
    ignoreFailure: (_, params: { failure: ForgotPasswordFailure }) => {
      forgotPasswordFailureIsSilent(params.failure)
    },
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
  },
}).createMachine({
  id: "forgotPassword",
  context: () => ({ email: "", validEmail: false, submitted: false, errors: {} }),
  initial: "editing",
  output: { type: "resetLinkSent" },
  states: {
    editing: {
      on: {
        CHANGE_EMAIL: { actions: { type: "changeEmail", params: ({ event }) => ({ value: event.value }) } },
        SUBMIT: [
          { guard: "emailIsInvalid", actions: ["markSubmitted", "showInvalidEmail"] },
          { target: "submitting", actions: "markSubmitted" },
        ],
      },
    },
    submitting: {
      invoke: {
        id: "forgotPassword",
        src: "forgotPassword",
        input: ({ context }) => ({ email: context.email.trim() }),
        onDone: {
          target: "sent",
          actions: { type: "toast", params: { kind: "success", message: AccountMessages.forgotSent } },
        },
        onError: {
          target: "editing",
          actions: {
            type: "ignoreFailure",
            params: ({ event }) => ({ failure: forgotPasswordFailure(event.error) }),
          },
        },
      },
    },
    sent: { type: "final" },
  },
})
