/**
 * E-mail confirmation from its link (spec sections 4 and 8): the token is sent once; the modal shows
 * progress, then 'Your email is confirmed. Thank you!' and continues by itself after a short delay
 * (or on Continue) with `emailConfirmed`, so the host re-checks the session. An unknown, used or
 * expired token shows 'This confirmation link is invalid or has expired.'; a failure to reach the
 * server can be retried.
 */

import { Effect } from "effect"
import { match } from "ts-pattern"
import { assign, setup } from "xstate"
import { AccountMessages } from "../../services/account-rules.ts"
import { fromEffect } from "../../services/bridge.ts"
import { userClient } from "../../services/clients/user.ts"
import { InvalidToken } from "../../services/errors.ts"
import type { FlowInput, FlowOutput } from "../flow.ts"
import { clientFailureClasses, failureFrom } from "../flowSupport.ts"

/** Shown when the server could not be reached or answered something unreadable. */
export const confirmUnreachableMessage = "We could not confirm your e-mail right now. Please try again."

/** How long the success message stays before the flow ends by itself. */
export const confirmContinueDelayMs = 3_000

export const confirmFailure = failureFrom([InvalidToken, ...clientFailureClasses])
export type ConfirmFailure = ReturnType<typeof confirmFailure>

/** `invalid`: the link is dead (final answer). `retryable`: nothing is known yet, try again. */
export const confirmFailureKind = (failure: ConfirmFailure): "invalid" | "retryable" =>
  match(failure)
    .with({ _tag: "InvalidToken" }, () => "invalid" as const)
    .with(
      { _tag: "ClientError" },
      { _tag: "SchemaError" },
      { _tag: "UnexpectedError" },
      () => "retryable" as const,
    )
    .exhaustive()

export interface ConfirmEmailContext {
  readonly token: string | null
  readonly attempts: number
}

export type ConfirmEmailEvent = { readonly type: "CONTINUE" } | { readonly type: "RETRY" }

export const confirmEmailMachine = setup({
  types: {
    context: {} as ConfirmEmailContext,
    events: {} as ConfirmEmailEvent,
    input: {} as FlowInput,
    output: {} as FlowOutput,
  },
  actors: {
    confirmAccount: fromEffect((payload: { readonly token: string }) =>
      Effect.gen(function* () {
        return yield* userClient.confirmAccount({ payload })
      }),
    ),
  },
  delays: {
    continueDelay: confirmContinueDelayMs,
  },
  guards: {
    isConfirmed: (_, params: { confirmed: boolean }) => params.confirmed,
    linkIsInvalid: (_, params: { failure: ConfirmFailure }) =>
      confirmFailureKind(params.failure) === "invalid",
  },
  actions: {
    countAttempt: assign(({ context }) => ({ attempts: context.attempts + 1 })),
  },
}).createMachine({
  id: "confirmEmail",
  context: ({ input }) => ({ token: input.token, attempts: 0 }),
  // The host opens this modal only for a link with a token; a missing one is sent as "" and the
  // server answers InvalidToken like for any other dead link.
  initial: "confirming",
  output: { type: "emailConfirmed" },
  states: {
    confirming: {
      entry: "countAttempt",
      invoke: {
        id: "confirmAccount",
        src: "confirmAccount",
        input: ({ context }) => ({ token: context.token ?? "" }),
        onDone: [
          {
            guard: { type: "isConfirmed", params: ({ event }) => ({ confirmed: event.output.confirmed }) },
            target: "confirmed",
          },
          { target: "invalid" },
        ],
        onError: [
          {
            guard: {
              type: "linkIsInvalid",
              params: ({ event }) => ({ failure: confirmFailure(event.error) }),
            },
            target: "invalid",
          },
          { target: "unreachable" },
        ],
      },
    },
    confirmed: {
      after: { continueDelay: "done" },
      on: { CONTINUE: "done" },
    },
    invalid: {},
    unreachable: {
      on: { RETRY: "confirming" },
    },
    done: { type: "final" },
  },
})

/** The text each state shows (the view renders it as-is). */
export const confirmEmailTexts = {
  confirming: "Confirming your e-mail…",
  confirmed: AccountMessages.confirmSuccess,
  invalid: AccountMessages.confirmFailure,
  unreachable: confirmUnreachableMessage,
} as const
