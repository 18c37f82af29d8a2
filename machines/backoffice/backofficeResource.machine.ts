/**
 * One thing a back-office screen shows — a list, a queue, a player's page, a report — loaded from
 * the API, refreshed on demand, and for queues and inboxes every few seconds while on screen (input
 * `pollMs`), so two officers see each other's decisions without reloading. A failed refresh keeps
 * the data shown with a notice; a 401 ends the session (the page tells the session machine).
 *
 *   loading ─▶ ready | failed | signedOut
 *   ready ─REFRESH | poll─▶ refreshing ─▶ ready (fresh, or stale with a notice)
 *   failed ─RETRY─▶ loading
 */
import type { Effect } from "effect"
import { assign, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { Unauthenticated } from "../../services/errors.ts"

export const ResourceMessages = {
  failed: "This could not be loaded. Try again.",
  stale: "Could not refresh; showing what was loaded before.",
  forbidden: "Your role cannot see this.",
} as const

export interface ResourceInput<A> {
  readonly load: () => Effect.Effect<A, unknown>
  /** Refresh every so many ms while shown; null: only on REFRESH. */
  readonly pollMs: number | null
}

export interface ResourceContext<A> {
  readonly load: () => Effect.Effect<A, unknown>
  readonly pollMs: number | null
  readonly data: A | null
  readonly error: string | null
}

export type ResourceEvent<A> =
  | { readonly type: "REFRESH" }
  | { readonly type: "RETRY" }
  /** The screen changed what to load (a new search, another page) and loads again. */
  | { readonly type: "LOAD"; readonly load: () => Effect.Effect<A, unknown> }

const messageOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "Forbidden"
    ? ResourceMessages.forbidden
    : typeof error === "object" &&
        error !== null &&
        "_tag" in error &&
        error._tag === "BadInput" &&
        "message" in error &&
        typeof error.message === "string"
      ? error.message
      : ResourceMessages.failed

/** The machine for data of type `A` (one definition; the type only narrows what screens read). */
export const resourceMachine = setup({
  types: {
    context: {} as ResourceContext<unknown>,
    events: {} as ResourceEvent<unknown>,
    input: {} as ResourceInput<unknown>,
  },
  delays: {
    poll: ({ context }) => context.pollMs ?? 0,
  },
  actors: {
    load: fromEffect((load: () => Effect.Effect<unknown, unknown>) => load()),
  },
  guards: {
    isUnauthenticated: (_, params: { error: unknown }) => params.error instanceof Unauthenticated,
    polls: ({ context }) => context.pollMs !== null,
  },
  actions: {
    setData: assign((_, params: { data: unknown }) => ({ data: params.data, error: null })),
    setError: assign((_, params: { error: unknown }) => ({ error: messageOf(params.error) })),
    markStale: assign({ error: ResourceMessages.stale }),
    setLoad: assign(({ event }) => (event.type === "LOAD" ? { load: event.load, error: null } : {})),
  },
}).createMachine({
  id: "backofficeResource",
  context: ({ input }) => ({ load: input.load, pollMs: input.pollMs, data: null, error: null }),
  initial: "loading",
  on: { LOAD: { target: ".loading", actions: "setLoad" } },
  states: {
    loading: {
      invoke: {
        id: "load",
        src: "load",
        input: ({ context }) => context.load,
        onDone: {
          target: "ready",
          actions: { type: "setData", params: ({ event }) => ({ data: event.output }) },
        },
        onError: [
          {
            guard: { type: "isUnauthenticated", params: ({ event }) => ({ error: event.error }) },
            target: "signedOut",
          },
          {
            target: "failed",
            actions: { type: "setError", params: ({ event }) => ({ error: event.error }) },
          },
        ],
      },
    },
    ready: {
      initial: "waiting",
      on: { REFRESH: ".refreshing" },
      states: {
        waiting: {
          after: { poll: { guard: "polls", target: "refreshing" } },
        },
        refreshing: {
          invoke: {
            id: "refresh",
            src: "load",
            input: ({ context }) => context.load,
            onDone: {
              target: "waiting",
              actions: { type: "setData", params: ({ event }) => ({ data: event.output }) },
            },
            onError: [
              {
                guard: { type: "isUnauthenticated", params: ({ event }) => ({ error: event.error }) },
                target: "#backofficeResource.signedOut",
              },
              { target: "waiting", actions: "markStale" },
            ],
          },
        },
      },
    },
    failed: { on: { RETRY: "loading" } },
    /** The session ended: the page hands over to the session machine. */
    signedOut: { type: "final" },
  },
})
