/**
 * The withdrawals tab of the profile area (`/profile/withdrawals`): the player's
 * withdrawals (`GET …/profile/withdrawals`, newest first) with their status and timeline
 * (requested → approved → sent → paid, or rejected / failed with the reason), live: a `withdrawal`
 * push event reads the list again, so a status an operator or the payout changed shows at once
 * (the header balance follows the `balance` event the session already listens to). The stream
 * (re)opening reads it again too (STREAM_OPENED): a change made before it was connected, or while it
 * reconnected, is not sent, and would otherwise stay unseen until the next one.
 *
 * A failed load says so and offers RETRY; a failed refresh keeps the list shown; a call answered 401
 * ends the tab (the area has the shell re-check the session).
 */
import { Effect } from "effect"
import { assign, fromCallback, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import type { Withdrawals } from "../../services/cashout-service.ts"
import { cashoutClient } from "../../services/clients/cashout.ts"
import { Unauthenticated } from "../../services/errors.ts"
import { subscribePlayerEvents } from "../../services/player-events.ts"
import type { PlayerEvent } from "../../services/wallet-service.ts"
import type { TabOutput } from "../profile/support.ts"

export interface WithdrawalsContext {
  readonly withdrawals: Withdrawals
  /** The push events could not be followed: the list is as of the last load. */
  readonly live: boolean
}

export type WithdrawalsEvent =
  | { readonly type: "RETRY" }
  | { readonly type: "PUSH"; readonly event: PlayerEvent }
  | { readonly type: "STREAM_OPENED" }

export const withdrawalsMachine = setup({
  types: {
    context: {} as WithdrawalsContext,
    events: {} as WithdrawalsEvent,
    output: {} as TabOutput,
  },
  actors: {
    load: fromEffect(() =>
      Effect.gen(function* () {
        return yield* cashoutClient.withdrawals()
      }),
    ),
    pushEvents: fromCallback<WithdrawalsEvent>(({ sendBack }) =>
      subscribePlayerEvents(
        (event) => sendBack({ type: "PUSH", event }),
        () => sendBack({ type: "STREAM_OPENED" }),
      ),
    ),
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => params.error instanceof Unauthenticated,
    isWithdrawalEvent: (_, params: { event: PlayerEvent }) => params.event.type === "withdrawal",
  },
  actions: {
    useWithdrawals: assign((_, params: { withdrawals: Withdrawals }) => ({
      withdrawals: params.withdrawals,
    })),
    notLive: assign({ live: false }),
  },
}).createMachine({
  id: "withdrawals",
  context: { withdrawals: [], live: true },
  initial: "loading",
  output: (): TabOutput => ({ type: "sessionEnded" }),
  invoke: {
    id: "pushEvents",
    src: "pushEvents",
    onError: { actions: "notLive" },
  },
  states: {
    loading: {
      // The list being read may predate a change the stream, opening only now, will never send.
      on: { STREAM_OPENED: { target: "loading", reenter: true } },
      invoke: {
        id: "load",
        src: "load",
        onDone: {
          target: "ready",
          actions: { type: "useWithdrawals", params: ({ event }) => ({ withdrawals: event.output }) },
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
    /** "Your withdrawals could not be loaded." with Try again. */
    loadFailed: { on: { RETRY: "loading" } },
    ready: {
      on: {
        PUSH: {
          guard: { type: "isWithdrawalEvent", params: ({ event }) => ({ event: event.event }) },
          target: "refreshing",
        },
        STREAM_OPENED: "refreshing",
      },
    },
    /** A withdrawal changed: the list is read again while the current one stays shown. */
    refreshing: {
      on: {
        // Another change while reading: read once more, so the last change is never missed.
        PUSH: {
          guard: { type: "isWithdrawalEvent", params: ({ event }) => ({ event: event.event }) },
          target: "refreshing",
          reenter: true,
        },
        STREAM_OPENED: { target: "refreshing", reenter: true },
      },
      invoke: {
        id: "refresh",
        src: "load",
        onDone: {
          target: "ready",
          actions: { type: "useWithdrawals", params: ({ event }) => ({ withdrawals: event.output }) },
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          { target: "ready" },
        ],
      },
    },
    sessionEnded: { type: "final" },
  },
})
