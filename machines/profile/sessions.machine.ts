/**
 * The sessions tab (spec section 7: GET/DELETE …/profile/session): every signed-in device
 * with its browser, IP, country, start and last activity, the current one marked. Revoking another
 * device asks for a confirmation first; the list is read again afterwards. The current session is
 * not revoked from here (sign out is in the header): the guard refuses it.
 */
import { Effect } from "effect"
import { assign, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { profileClient } from "../../services/clients/profile.ts"
import { SessionNotFound } from "../../services/errors.ts"
import { notify } from "../../services/notify.ts"
import type { PlayerSession } from "../../services/profile-service.ts"
import type { ToastParams } from "../flowSupport.ts"
import { isSessionGone, sessionEnded, type TabOutput } from "./support.ts"

export const SessionsMessages = {
  revoked: "The device was signed out.",
  alreadyGone: "That device had already signed out.",
  revokeFailed: "The device could not be signed out. Please try again.",
  loadFailed: "Your devices could not be loaded.",
} as const

export interface SessionsContext {
  readonly sessions: ReadonlyArray<PlayerSession>
  /** The session the player asked to revoke, while confirming and revoking. */
  readonly selected: PlayerSession | null
}

export type SessionsEvent =
  | { readonly type: "REVOKE"; readonly id: string }
  | { readonly type: "CONFIRM" }
  | { readonly type: "CANCEL" }
  | { readonly type: "REFRESH" }
  | { readonly type: "RETRY" }

export const sessionsMachine = setup({
  types: {
    context: {} as SessionsContext,
    events: {} as SessionsEvent,
    output: {} as TabOutput,
  },
  actors: {
    list: fromEffect(() =>
      Effect.gen(function* () {
        return yield* profileClient.listSessions()
      }),
    ),
    revoke: fromEffect((id: string) =>
      Effect.gen(function* () {
        yield* profileClient.revokeSession({ params: { id } })
      }),
    ),
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => isSessionGone(params.error),
    isAlreadyGone: (_, params: { error: unknown }) => params.error instanceof SessionNotFound,
    /** Another device's live session (never the current one). */
    isOtherDevice: ({ context }, params: { id: string }) =>
      context.sessions.some((s) => s.id === params.id && !s.current),
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    useSessions: assign((_, params: { sessions: ReadonlyArray<PlayerSession> }) => ({
      sessions: params.sessions,
    })),
    select: assign(({ context }, params: { id: string }) => ({
      selected: context.sessions.find((s) => s.id === params.id) ?? null,
    })),
    unselect: assign({ selected: null }),
  },
}).createMachine({
  id: "sessions",
  context: { sessions: [], selected: null },
  initial: "loading",
  output: () => sessionEnded,
  states: {
    loading: {
      invoke: {
        id: "list",
        src: "list",
        onDone: {
          target: "ready",
          actions: { type: "useSessions", params: ({ event }) => ({ sessions: event.output }) },
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
      on: {
        REVOKE: {
          guard: { type: "isOtherDevice", params: ({ event }) => ({ id: event.id }) },
          target: "confirming",
          actions: { type: "select", params: ({ event }) => ({ id: event.id }) },
        },
        REFRESH: "loading",
      },
    },
    confirming: {
      on: {
        CONFIRM: "revoking",
        CANCEL: { target: "ready", actions: "unselect" },
      },
    },
    revoking: {
      invoke: {
        id: "revoke",
        src: "revoke",
        input: ({ context }) => context.selected?.id ?? "",
        onDone: {
          target: "loading",
          actions: [
            "unselect",
            { type: "toast", params: { kind: "success", message: SessionsMessages.revoked } },
          ],
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            guard: { type: "isAlreadyGone", params: ({ event }) => ({ error: event.error }) },
            target: "loading",
            actions: [
              "unselect",
              { type: "toast", params: { kind: "info", message: SessionsMessages.alreadyGone } },
            ],
          },
          {
            target: "ready",
            actions: [
              "unselect",
              { type: "toast", params: { kind: "error", message: SessionsMessages.revokeFailed } },
            ],
          },
        ],
      },
    },
    sessionEnded: { type: "final" },
  },
})
