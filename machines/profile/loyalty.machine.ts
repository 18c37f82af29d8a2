/**
 * The loyalty tab (docs/loyalty.md, `GET …/profile/loyalty-level`): the player's level, points, the
 * progress to the next level and every level's perks. It reads once when opened; "Refresh" reads
 * again while what was read stays on screen (points are counted by the server every minute). A
 * failed first read offers a retry; a failed refresh keeps what is shown and says so; a 401 ends
 * the tab (the area re-checks the session).
 */
import { assign, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { bonusesClient } from "../../services/clients/bonuses.ts"
import type { LoyaltyLevel } from "../../services/loyalty-service.ts"
import { notify } from "../../services/notify.ts"
import type { ToastParams } from "../flowSupport.ts"
import { isSessionGone, sessionEnded, type TabOutput } from "./support.ts"

export const LoyaltyMessages = {
  loadFailed: "Your loyalty level could not be loaded.",
  refreshFailed: "Your loyalty level could not be read again. What is shown may be a minute old.",
} as const

export interface LoyaltyContext {
  readonly status: LoyaltyLevel | null
}

export type LoyaltyEvent = { readonly type: "RETRY" } | { readonly type: "REFRESH" }

export const loyaltyMachine = setup({
  types: {
    context: {} as LoyaltyContext,
    events: {} as LoyaltyEvent,
    output: {} as TabOutput,
  },
  actors: {
    load: fromEffect(() => bonusesClient.loyaltyLevel()),
    refresh: fromEffect(() => bonusesClient.loyaltyLevel()),
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => isSessionGone(params.error),
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    useStatus: assign((_, params: { status: LoyaltyLevel }) => ({ status: params.status })),
  },
}).createMachine({
  id: "loyalty",
  context: { status: null },
  initial: "loading",
  output: () => sessionEnded,
  states: {
    loading: {
      invoke: {
        id: "load",
        src: "load",
        onDone: {
          target: "ready",
          actions: { type: "useStatus", params: ({ event }) => ({ status: event.output }) },
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
    loadFailed: { on: { RETRY: "loading" } },
    ready: { on: { REFRESH: "refreshing" } },
    /** Reading again with the last answer still shown. */
    refreshing: {
      invoke: {
        id: "refresh",
        src: "refresh",
        onDone: {
          target: "ready",
          actions: { type: "useStatus", params: ({ event }) => ({ status: event.output }) },
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            target: "ready",
            actions: { type: "toast", params: { kind: "error", message: LoyaltyMessages.refreshFailed } },
          },
        ],
      },
    },
    sessionEnded: { type: "final" },
  },
})
