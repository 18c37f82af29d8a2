/**
 * The promo e-mail switch (spec sections 4 and 8), in the general tab's form and on the
 * promo tab: the local flag flips only after the server answered ("You are subscribed" / "You are
 * unsubscribed"); a failure leaves it as it was. The server's answer is what the switch shows.
 * Without a known flag (the promo tab) it reads the profile first.
 */
import { Effect } from "effect"
import { assign, sendParent, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { profileClient } from "../../services/clients/profile.ts"
import { notify } from "../../services/notify.ts"
import { PromoMessages } from "../../services/profile-form.ts"
import { profileQuery } from "../../services/profile-queries.ts"
import type { ToastParams } from "../flowSupport.ts"
import { isSessionGone, sessionEnded, type TabOutput } from "./support.ts"

export interface PromoEmailInput {
  /** The flag as the caller knows it; null: read it from the profile first. */
  readonly subscribed: boolean | null
}

export interface PromoEmailContext {
  readonly subscribed: boolean | null
}

export type PromoEmailEvent = { readonly type: "TOGGLE" } | { readonly type: "RETRY" }

export const promoEmailMachine = setup({
  types: {
    input: {} as PromoEmailInput,
    context: {} as PromoEmailContext,
    events: {} as PromoEmailEvent,
    output: {} as TabOutput,
  },
  actors: {
    readFlag: fromEffect(() =>
      Effect.gen(function* () {
        const profile = yield* profileQuery.read
        return profile.receiveEmailPromo
      }),
    ),
    setFlag: fromEffect((receiveEmailPromo: boolean) =>
      Effect.gen(function* () {
        const result = yield* profileClient.setReceiveEmail({ payload: { receiveEmailPromo } })
        // The kept profile holds the old preference.
        profileQuery.forget()
        return result.receiveEmailPromo
      }),
    ),
  },
  guards: {
    knowsFlag: ({ context }) => context.subscribed !== null,
    isSessionGone: (_, params: { error: unknown }) => isSessionGone(params.error),
    isSubscribed: (_, params: { subscribed: boolean }) => params.subscribed,
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    /** Tells the parent the account changed (the session's copy of the profile is refreshed). */
    announceChange: sendParent({ type: "ACCOUNT_CHANGED" }),
    setSubscribed: assign((_, params: { subscribed: boolean }) => ({ subscribed: params.subscribed })),
  },
}).createMachine({
  id: "promoEmail",
  context: ({ input }) => ({ subscribed: input.subscribed }),
  initial: "start",
  output: () => sessionEnded,
  states: {
    start: {
      always: [{ guard: "knowsFlag", target: "ready" }, { target: "loading" }],
    },
    loading: {
      invoke: {
        id: "readFlag",
        src: "readFlag",
        onDone: {
          target: "ready",
          actions: { type: "setSubscribed", params: ({ event }) => ({ subscribed: event.output }) },
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          { target: "loadFailed" },
        ],
      },
    },
    loadFailed: {
      on: { RETRY: "loading" },
    },
    ready: {
      on: { TOGGLE: "saving" },
    },
    saving: {
      invoke: {
        id: "setFlag",
        src: "setFlag",
        input: ({ context }) => context.subscribed !== true,
        onDone: [
          {
            guard: { type: "isSubscribed", params: ({ event }) => ({ subscribed: event.output }) },
            target: "ready",
            actions: [
              { type: "setSubscribed", params: { subscribed: true } },
              { type: "toast", params: { kind: "success", message: PromoMessages.subscribed } },
              "announceChange",
            ],
          },
          {
            target: "ready",
            actions: [
              { type: "setSubscribed", params: { subscribed: false } },
              { type: "toast", params: { kind: "success", message: PromoMessages.unsubscribed } },
              "announceChange",
            ],
          },
        ],
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            target: "ready",
            actions: { type: "toast", params: { kind: "error", message: PromoMessages.failed } },
          },
        ],
      },
    },
    sessionEnded: { type: "final" },
  },
})
