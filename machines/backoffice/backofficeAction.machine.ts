/**
 * One change an operator makes from a screen — approve, reject with a reason, lock, adjust a
 * balance, create an operator: an optional form (the reason), the call, its outcome in words. The
 * screen passes the call with SUBMIT; a refusal shows the server's message (a role, a rule, a
 * conflict), a 401 ends the session, and a done change says so for a few seconds.
 *
 *   idle ─OPEN─▶ editing ─SUBMIT─▶ submitting ─▶ done | failed | signedOut
 *   idle ─SUBMIT─▶ submitting (no form: a one-click action)
 */
import { Effect } from "effect"
import { assign, emit, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { Unauthenticated } from "../../services/errors.ts"

export const ActionMessages = {
  failed: "The change could not be made. Try again.",
  reasonRequired: "Give a reason.",
} as const

export interface ActionContext {
  readonly run: (() => Effect.Effect<unknown, unknown>) | null
  /** The answer of the last change (a one-time password, the operator created…). */
  readonly result: unknown
  readonly error: string | null
}

export type ActionEvent =
  | { readonly type: "OPEN" }
  | { readonly type: "CANCEL" }
  | { readonly type: "SUBMIT"; readonly run: () => Effect.Effect<unknown, unknown>; readonly reason?: string }
  | { readonly type: "DISMISS" }

const messageOf = (error: unknown): string =>
  typeof error === "object" &&
  error !== null &&
  "message" in error &&
  typeof error.message === "string" &&
  "_tag" in error &&
  error._tag !== "ClientError" &&
  error._tag !== "UnexpectedError"
    ? error.message
    : ActionMessages.failed

export const actionMachine = setup({
  types: {
    context: {} as ActionContext,
    events: {} as ActionEvent,
    /** The screen refreshes what the change touched. */
    emitted: {} as { readonly type: "changed"; readonly result: unknown },
  },
  delays: {
    /** How long "done" stays before the control is ready again. */
    doneShown: 4000,
  },
  actors: {
    run: fromEffect((run: () => Effect.Effect<unknown, unknown>) => run()),
  },
  guards: {
    isUnauthenticated: (_, params: { error: unknown }) => params.error instanceof Unauthenticated,
    /** A SUBMIT that carries a reason field must not carry an empty one. */
    hasReasonIfAsked: ({ event }) =>
      event.type !== "SUBMIT" || event.reason === undefined || event.reason.trim() !== "",
  },
  actions: {
    setRun: assign(({ event }) =>
      event.type === "SUBMIT" ? { run: event.run, result: null, error: null } : {},
    ),
    /** The answer stays shown (a one-time password) until the operator dismisses it or acts again. */
    forgetResult: assign({ result: null }),
    setResult: assign((_, params: { result: unknown }) => ({ result: params.result, error: null })),
    setError: assign((_, params: { error: unknown }) => ({ error: messageOf(params.error) })),
    askReason: assign({ error: ActionMessages.reasonRequired }),
    clear: assign({ error: null }),
  },
}).createMachine({
  id: "backofficeAction",
  context: { run: null, result: null, error: null },
  initial: "idle",
  states: {
    idle: {
      on: {
        DISMISS: { actions: "forgetResult" },
        OPEN: { target: "editing", actions: "clear" },
        SUBMIT: [
          { guard: "hasReasonIfAsked", target: "submitting", actions: "setRun" },
          { target: "editing", actions: "askReason" },
        ],
      },
    },
    editing: {
      on: {
        CANCEL: { target: "idle", actions: "clear" },
        SUBMIT: [
          { guard: "hasReasonIfAsked", target: "submitting", actions: "setRun" },
          { actions: "askReason" },
        ],
      },
    },
    submitting: {
      invoke: {
        id: "run",
        src: "run",
        // `run` is set by the SUBMIT that entered this state.
        input: ({ context }) => context.run ?? (() => Effect.void),
        onDone: {
          target: "done",
          actions: { type: "setResult", params: ({ event }) => ({ result: event.output }) },
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
    done: {
      entry: emit(({ context }) => ({ type: "changed" as const, result: context.result })),
      after: { doneShown: "idle" },
      on: {
        DISMISS: { target: "idle", actions: "forgetResult" },
        OPEN: { target: "editing", actions: "clear" },
        // The next change need not wait for the "done" notice to go.
        SUBMIT: [
          { guard: "hasReasonIfAsked", target: "submitting", actions: "setRun" },
          { target: "editing", actions: "askReason" },
        ],
      },
    },
    failed: {
      on: {
        SUBMIT: [
          { guard: "hasReasonIfAsked", target: "submitting", actions: "setRun" },
          { target: "editing", actions: "askReason" },
        ],
        CANCEL: { target: "idle", actions: "clear" },
      },
    },
    signedOut: { type: "final" },
  },
})
