/**
 * The support inbox's live stream (`GET /api/backoffice/v1/chat/events`, every conversation's chat
 * events): the machine tells the inbox what to reload by emitting `changed` — the conversations a
 * burst of events touched (gathered for `settle`, so a busy inbox reloads a few times a second, not
 * once per message), or everything when the stream (re)opens, since it carries no history.
 *
 * A drop or a refusal closes the EventSource (it cannot say why it was refused), then the session is
 * asked (`GET /me`): a 401 ends in `signedOut`, which the page hands to the session machine as every
 * 401 is; anything else reopens after a backoff doubling from 1 s to 30 s. A stream that does not
 * open within `openTimeout` (a proxy holding the response) is dropped the same way. Without
 * EventSource the inbox is `stopped`: not live, it keeps only its slow poll.
 *
 *   streaming { connecting ─STREAM_OPEN─▶ connected { idle ─STREAM_EVENT─▶ settling ─settle─▶ idle } }
 *   streaming ─STREAM_DROP | openTimeout─▶ reconnecting { checking ─▶ waiting ─backoff─▶ streaming }
 *   reconnecting.checking ─401─▶ signedOut;  streaming ─no EventSource─▶ stopped
 */
import { assign, emit, fromCallback, fromPromise, setup } from "xstate"
import type { Me } from "../../services/backoffice/operators.ts"
import { SUPPORT_EVENTS_PATH } from "../../services/backoffice/paths.ts"
import type { ChatEvent } from "../../services/chat-service.ts"
import { subscribeChatEvents } from "../../services/chat-stream.ts"
import { Unauthenticated } from "../../services/errors.ts"

export interface StreamContext {
  /** Reconnection attempts since the stream was last open (the backoff doubles with each). */
  readonly attempt: number
  /** Conversations changed by the events gathered while settling. */
  readonly pending: ReadonlyArray<string>
}

export type StreamEvent =
  | { readonly type: "STREAM_OPEN" }
  | { readonly type: "STREAM_DROP" }
  | { readonly type: "STREAM_EVENT"; readonly event: ChatEvent }

/** `conversationIds` null: anything may have changed (the stream opened after a gap). */
export interface StreamChanged {
  readonly type: "changed"
  readonly conversationIds: ReadonlyArray<string> | null
}

/** Whether a `changed` concerns conversation `id`. */
export const concerns = (changed: StreamChanged, id: string): boolean =>
  changed.conversationIds === null || changed.conversationIds.includes(id)

const FIRST_RETRY_MS = 1000
const LAST_RETRY_MS = 30_000

/** The wait before reconnection attempt `attempt` (1, 2, …): 1 s, 2 s, 4 s … up to 30 s. */
export const backoffMs = (attempt: number): number =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1), LAST_RETRY_MS)

export const streamMachine = setup({
  types: {
    context: {} as StreamContext,
    events: {} as StreamEvent,
    emitted: {} as StreamChanged,
  },
  delays: {
    openTimeout: 15_000,
    backoff: ({ context }) => backoffMs(context.attempt),
    settle: 250,
  },
  actors: {
    stream: fromCallback<StreamEvent>(({ sendBack }) =>
      subscribeChatEvents(
        {
          onEvent: (event) => sendBack({ type: "STREAM_EVENT", event }),
          onOpen: () => sendBack({ type: "STREAM_OPEN" }),
          onDrop: () => sendBack({ type: "STREAM_DROP" }),
        },
        SUPPORT_EVENTS_PATH,
      ),
    ),
    // Provided by the page (ui/backoffice/actors.tsx), not imported here: the /statecharts
    // visualizer, part of the player's build, charts this machine without the back office's clients.
    session: fromPromise<Me>(() =>
      Promise.reject(new Error("session is provided by the back office's page (ui/backoffice/actors.tsx)")),
    ),
  },
  guards: {
    isUnauthenticated: (_, params: { error: unknown }) => params.error instanceof Unauthenticated,
  },
  actions: {
    note: assign(({ context }, params: { event: ChatEvent }) => ({
      pending: context.pending.includes(params.event.conversationId)
        ? context.pending
        : [...context.pending, params.event.conversationId],
    })),
    emitPending: emit(({ context }) => ({ type: "changed" as const, conversationIds: context.pending })),
    clearPending: assign({ pending: [] }),
    emitEverything: emit({ type: "changed" as const, conversationIds: null }),
    countAttempt: assign(({ context }) => ({ attempt: context.attempt + 1 })),
    resetAttempts: assign({ attempt: 0 }),
  },
}).createMachine({
  id: "backofficeStream",
  context: { attempt: 0, pending: [] },
  initial: "streaming",
  states: {
    /** One EventSource for as long as this state lasts; leaving it closes the source. */
    streaming: {
      initial: "connecting",
      invoke: {
        id: "stream",
        src: "stream",
        // The constructor threw: no EventSource in this browser.
        onError: "stopped",
      },
      on: { STREAM_DROP: "reconnecting" },
      states: {
        connecting: {
          on: {
            STREAM_OPEN: { target: "connected", actions: ["resetAttempts", "emitEverything"] },
          },
          after: { openTimeout: "#backofficeStream.reconnecting" },
        },
        connected: {
          initial: "idle",
          states: {
            idle: {
              on: {
                STREAM_EVENT: {
                  target: "settling",
                  actions: { type: "note", params: ({ event }) => ({ event: event.event }) },
                },
              },
            },
            /** Gathering a burst; a drop flushes it too (exit), so nothing noted is lost. */
            settling: {
              exit: ["emitPending", "clearPending"],
              on: {
                STREAM_EVENT: { actions: { type: "note", params: ({ event }) => ({ event: event.event }) } },
              },
              after: { settle: "idle" },
            },
          },
        },
      },
    },
    reconnecting: {
      entry: "countAttempt",
      initial: "checking",
      states: {
        /** An EventSource refused 401 looks like any drop: the session answers why. */
        checking: {
          invoke: {
            id: "check",
            src: "session",
            onDone: "waiting",
            onError: [
              {
                guard: { type: "isUnauthenticated", params: ({ event }) => ({ error: event.error }) },
                target: "#backofficeStream.signedOut",
              },
              // Unreachable or refusing for another reason: the stream is tried again anyway.
              { target: "waiting" },
            ],
          },
        },
        waiting: {
          after: { backoff: "#backofficeStream.streaming" },
        },
      },
    },
    /** No EventSource: not live; the inbox's slow poll keeps it roughly current. */
    stopped: {},
    /** The session ended: the page hands over to the session machine. */
    signedOut: { type: "final" },
  },
})
