/**
 * The unsubscribe page (`/unsubscribe/{id}`, the link in every promotional e-mail; spec section 7:
 * DELETE …/profile/unsubscribe/{id}). No sign-in needed: the link's unguessable id is
 * sent once when the page opens; the page says it worked (and for which address), or that the link
 * is not valid; a failure to reach the casino can be retried.
 */
import { Effect } from "effect"
import { assign, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { profileClient } from "../../services/clients/profile.ts"
import { UnsubscribeLinkInvalid } from "../../services/errors.ts"
import { ProfileMessages } from "../../services/profile-rules.ts"

export const UnsubscribeMessages = {
  working: "Unsubscribing…",
  done: ProfileMessages.unsubscribed,
  doneDetail: (email: string) => `${email} will receive no more promotional e-mails from us.`,
  invalid: "This unsubscribe link is not valid. It may be incomplete: open it again from the e-mail.",
  failed: "We could not reach the casino. Please check your connection and try again.",
} as const

export interface UnsubscribeInput {
  readonly id: string
}

export interface UnsubscribeContext {
  readonly id: string
  readonly email: string | null
}

export type UnsubscribeEvent = { readonly type: "RETRY" }

export const unsubscribeMachine = setup({
  types: {
    input: {} as UnsubscribeInput,
    context: {} as UnsubscribeContext,
    events: {} as UnsubscribeEvent,
  },
  actors: {
    unsubscribe: fromEffect((id: string) =>
      Effect.gen(function* () {
        return yield* profileClient.unsubscribe({ params: { id } })
      }),
    ),
  },
  guards: {
    isInvalidLink: (_, params: { error: unknown }) => params.error instanceof UnsubscribeLinkInvalid,
  },
}).createMachine({
  id: "unsubscribe",
  context: ({ input }) => ({ id: input.id, email: null }),
  initial: "unsubscribing",
  states: {
    unsubscribing: {
      invoke: {
        id: "unsubscribe",
        src: "unsubscribe",
        input: ({ context }) => context.id,
        onDone: { target: "done", actions: assign({ email: ({ event }) => event.output.email }) },
        onError: [
          {
            guard: { type: "isInvalidLink", params: ({ event }) => ({ error: event.error }) },
            target: "invalid",
          },
          { target: "failed" },
        ],
      },
    },
    done: {},
    invalid: {},
    failed: {
      on: { RETRY: "unsubscribing" },
    },
  },
})
