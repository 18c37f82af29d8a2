/**
 * The live-support chat widget of the shell (docs/chat.md). Its long-lived child `identity`
 * (chatIdentity.machine.ts) gives the chat the player's name and user id 3 s after load; the
 * widget forwards sign-ins and sign-outs to it. With Chatwoot, Chatwoot draws its own launcher
 * (`external`). Built-in: the launcher
 * (`closed`) opens the panel, which reads the conversation (`loading`, `failed` with Try again),
 *   then `active`: the live stream (connecting → syncing → connected, reconnecting after a drop,
 *   re-reading the conversation at each open since the stream has no history), the panel (open or
 *   minimized to the launcher with an unread badge) and the composer (idle, sending, sendFailed).
 *   A signed-in player's conversation is also read 3 s after load, so staff replies waiting from
 *   an earlier visit show on the launcher.
 *
 *   closed ─OPEN─▶ loading ─▶ active { live ∥ panel: open{idle ⇄ sending → sendFailed} ⇄ minimized }
 *                     └─error─▶ failed ─RETRY─▶ loading
 */
import { assign, fromCallback, sendTo, setup } from "xstate"
import { fromEffect, runForActor } from "../../services/bridge.ts"
import type { ChatProviderConfig, ChatUser } from "../../services/chat-provider.ts"
import type { ChatConversation, ChatEvent, ChatMessage } from "../../services/chat-service.ts"
import { chatBodyProblem } from "../../services/chat-service.ts"
import { subscribeChatEvents } from "../../services/chat-stream.ts"
import { chatClient } from "../../services/clients/chat.ts"
import { RateLimited, ValidationFailed } from "../../services/errors.ts"
import { chatIdentityMachine } from "./chatIdentity.machine.ts"

/** A 429's Retry-After as a person reads it: seconds under two minutes, else minutes (rounded up). */
const waitText = (seconds: number): string =>
  seconds === 1 ? "1 second" : seconds < 120 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`

export const ChatWidgetMessages = {
  loadFailed: "The chat could not be opened. Check your connection and try again.",
  sendFailed: "Your message was not sent. Check your connection and try again.",
  closedByStaff: "Support closed this conversation. Write again to start a new one.",
  /** The server's 429: this sender's, or this address's, messages or new conversations for now. */
  tooMany: (seconds: number) => `Too many messages for now. Please try again in ${waitText(seconds)}.`,
} as const

export interface ChatWidgetInput {
  readonly provider: ChatProviderConfig["provider"]
  readonly user: ChatUser | null
}

export interface ChatWidgetContext {
  readonly provider: ChatProviderConfig["provider"]
  readonly user: ChatUser | null
  readonly messages: ReadonlyArray<ChatMessage>
  /** Staff messages the player has not seen yet (the launcher's badge). */
  readonly unread: number
  readonly draft: string
  /** Why the last send failed, or why the draft cannot be sent (null: nothing to say). */
  readonly error: string | null
  /** Staff closed the conversation: shown until the player writes again. */
  readonly closedNotice: boolean
  /** The panel should open once the conversation is read (false: a background read). */
  readonly wantsOpen: boolean
  /** The background read for a signed-in player was tried already for this user. */
  readonly prefetched: boolean
  /** The panel is open (kept by its entry and exit): a staff message arriving is read at once. */
  readonly panelOpen: boolean
  /** Which part of the machine is live, for the root's USER_CHANGED (kept by entry and exit). */
  readonly phase: "closed" | "active" | "other"
}

export type ChatWidgetEvent =
  | { readonly type: "OPEN" }
  | { readonly type: "CLOSE" }
  | { readonly type: "RETRY" }
  | { readonly type: "EDIT"; readonly value: string }
  | { readonly type: "SEND" }
  | { readonly type: "USER_CHANGED"; readonly user: ChatUser | null }
  | { readonly type: "STREAM_OPEN" }
  | { readonly type: "STREAM_DROP" }
  | { readonly type: "STREAM_EVENT"; readonly event: ChatEvent }

const lastId = (messages: ReadonlyArray<ChatMessage>): string => messages.at(-1)?.id ?? "0"

const isStaff = (m: ChatMessage): boolean => m.author === "operator" || m.author === "system"

/** A staff message the widget has not shown yet. */
const isNewStaff = (context: ChatWidgetContext, event: ChatEvent): boolean => {
  if (event.type !== "message") return false
  const { message } = event
  return isStaff(message) && !context.messages.some((m) => m.id === message.id)
}

/** The messages with `message` added in id order, once (the stream also echoes the player's own). */
export const withMessage = (
  messages: ReadonlyArray<ChatMessage>,
  message: ChatMessage,
): ReadonlyArray<ChatMessage> =>
  messages.some((m) => m.id === message.id)
    ? messages
    : [...messages, message].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))

export const chatWidgetMachine = setup({
  types: {
    context: {} as ChatWidgetContext,
    events: {} as ChatWidgetEvent,
    input: {} as ChatWidgetInput,
  },
  actors: {
    identity: chatIdentityMachine,
    load: fromEffect(() => chatClient.conversation()),
    send: fromEffect((body: string) => chatClient.send({ payload: { body } })),
    stream: fromCallback<ChatWidgetEvent>(({ sendBack }) =>
      subscribeChatEvents({
        onEvent: (event) => sendBack({ type: "STREAM_EVENT", event }),
        onOpen: () => sendBack({ type: "STREAM_OPEN" }),
        onDrop: () => sendBack({ type: "STREAM_DROP" }),
      }),
    ),
  },
  guards: {
    isChatwoot: ({ context }) => context.provider === "chatwoot",
    shouldPrefetch: ({ context }) => context.user !== null && !context.prefetched,
    wantsOpen: ({ context }) => context.wantsOpen,
    canSend: ({ context }) => chatBodyProblem(context.draft) === null,
    isExplained: (_, params: { error: unknown }) =>
      params.error instanceof ValidationFailed || params.error instanceof RateLimited,
    isNewStaffMessage: ({ context }, params: { event: ChatEvent }) => isNewStaff(context, params.event),
    isClosed: (_, params: { event: ChatEvent }) => params.event.type === "closed",
    isPanelOpen: ({ context }) => context.panelOpen,
    isSeenStaffMessage: ({ context }, params: { event: ChatEvent }) =>
      context.panelOpen && isNewStaff(context, params.event),
    isActive: ({ context }) => context.phase === "active",
    isClosedLauncher: ({ context }) => context.phase === "closed",
  },
  actions: {
    setUser: assign((_, params: { user: ChatUser | null }) => ({ user: params.user, prefetched: false })),
    forwardUser: sendTo("identity", (_, params: { user: ChatUser | null }) => ({
      type: "USER_CHANGED" as const,
      user: params.user,
    })),
    markPrefetched: assign({ prefetched: true, wantsOpen: false }),
    wantOpen: assign({ wantsOpen: true }),
    useConversation: assign((_, params: { conversation: ChatConversation }) => ({
      messages: params.conversation.messages,
      unread: params.conversation.unread,
    })),
    setDraft: assign((_, params: { value: string }) => ({ draft: params.value, error: null })),
    explainDraft: assign(({ context }) => ({ error: chatBodyProblem(context.draft) })),
    sent: assign(({ context }, params: { message: ChatMessage }) => ({
      messages: withMessage(context.closedNotice ? [] : context.messages, params.message),
      draft: "",
      error: null,
      closedNotice: false,
    })),
    sendRefused: assign((_, params: { error: unknown }) => ({
      error:
        params.error instanceof RateLimited
          ? ChatWidgetMessages.tooMany(params.error.retryAfterSeconds)
          : params.error instanceof ValidationFailed
            ? params.error.message
            : ChatWidgetMessages.sendFailed,
    })),
    sendFailed: assign({ error: ChatWidgetMessages.sendFailed }),
    addSeen: assign(({ context }, params: { event: ChatEvent }) =>
      params.event.type === "message"
        ? { messages: withMessage(context.messages, params.event.message) }
        : {},
    ),
    addUnseen: assign(({ context }, params: { event: ChatEvent }) =>
      params.event.type === "message"
        ? { messages: withMessage(context.messages, params.event.message), unread: context.unread + 1 }
        : {},
    ),
    conversationClosed: assign({ closedNotice: true, unread: 0 }),
    clearUnread: assign({ unread: 0 }),
    panelOpened: assign({ panelOpen: true }),
    panelClosed: assign({ panelOpen: false }),
    enterPhase: assign((_, params: { phase: ChatWidgetContext["phase"] }) => ({ phase: params.phase })),
    /** Moves the server's read marker to the newest message; a lost call only leaves a badge. */
    reportRead: (_, params: { lastReadId: string }) => {
      if (params.lastReadId === "0") return
      runForActor(
        chatClient.markRead({ payload: { lastReadId: params.lastReadId } }),
        new AbortController().signal,
      ).catch(() => undefined)
    },
  },
}).createMachine({
  id: "chatWidget",
  context: ({ input }) => ({
    provider: input.provider,
    user: input.user,
    messages: [],
    unread: 0,
    draft: "",
    error: null,
    closedNotice: false,
    wantsOpen: false,
    prefetched: false,
    panelOpen: false,
    phase: "other",
  }),
  invoke: {
    id: "identity",
    src: "identity",
    input: ({ context }) => ({ user: context.user }),
    // Its only invoke has its own onError; nothing else can fail in it.
    onError: {},
  },
  on: {
    USER_CHANGED: [
      {
        // Another owner (signed in or out): their conversation, on a new stream.
        guard: "isActive",
        target: ".loading",
        actions: [
          { type: "setUser", params: ({ event }) => ({ user: event.user }) },
          { type: "forwardUser", params: ({ event }) => ({ user: event.user }) },
        ],
      },
      {
        // The background read waits its 3 s for the new player.
        guard: "isClosedLauncher",
        target: ".closed",
        actions: [
          { type: "setUser", params: ({ event }) => ({ user: event.user }) },
          { type: "forwardUser", params: ({ event }) => ({ user: event.user }) },
        ],
      },
      {
        actions: [
          { type: "setUser", params: ({ event }) => ({ user: event.user }) },
          { type: "forwardUser", params: ({ event }) => ({ user: event.user }) },
        ],
      },
    ],
  },
  initial: "routing",
  states: {
    routing: {
      always: [{ guard: "isChatwoot", target: "external" }, { target: "closed" }],
    },
    /** Chatwoot draws and runs its own launcher and panel. */
    external: {},
    /** The launcher alone; nothing read yet. */
    closed: {
      entry: { type: "enterPhase", params: { phase: "closed" } },
      exit: { type: "enterPhase", params: { phase: "other" } },
      on: { OPEN: { target: "loading", actions: "wantOpen" } },
      // A signed-in player's conversation is read in the background, for the badge.
      after: { 3000: { guard: "shouldPrefetch", target: "loading", actions: "markPrefetched" } },
    },
    loading: {
      on: { OPEN: { actions: "wantOpen" } },
      invoke: {
        id: "load",
        src: "load",
        onDone: {
          target: "active",
          actions: { type: "useConversation", params: ({ event }) => ({ conversation: event.output }) },
        },
        onError: [{ guard: "wantsOpen", target: "failed" }, { target: "closed" }],
      },
    },
    /** "The chat could not be opened." with Try again. */
    failed: {
      on: { RETRY: "loading", CLOSE: "closed" },
    },
    active: {
      type: "parallel",
      entry: { type: "enterPhase", params: { phase: "active" } },
      exit: { type: "enterPhase", params: { phase: "other" } },
      states: {
        live: {
          initial: "connecting",
          invoke: {
            id: "stream",
            src: "stream",
            // No EventSource: the chat still works, without live replies.
            onError: ".off",
          },
          on: {
            STREAM_EVENT: [
              {
                guard: { type: "isClosed", params: ({ event }) => ({ event: event.event }) },
                actions: "conversationClosed",
              },
              {
                // Seen in the open panel: read at once.
                guard: { type: "isSeenStaffMessage", params: ({ event }) => ({ event: event.event }) },
                actions: [
                  { type: "addSeen", params: ({ event }) => ({ event: event.event }) },
                  {
                    type: "reportRead",
                    params: ({ event }) => ({
                      lastReadId: event.event.type === "message" ? event.event.message.id : "0",
                    }),
                  },
                ],
              },
              {
                guard: { type: "isNewStaffMessage", params: ({ event }) => ({ event: event.event }) },
                actions: { type: "addUnseen", params: ({ event }) => ({ event: event.event }) },
              },
              { actions: { type: "addSeen", params: ({ event }) => ({ event: event.event }) } },
            ],
          },
          states: {
            /** Opening, or reopening after a drop (the browser reconnects by itself). */
            connecting: { on: { STREAM_OPEN: "syncing" } },
            /** The stream is open: what was said while it was not is read once. */
            syncing: {
              invoke: {
                id: "sync",
                src: "load",
                onDone: [
                  {
                    guard: "isPanelOpen",
                    target: "connected",
                    actions: [
                      { type: "useConversation", params: ({ event }) => ({ conversation: event.output }) },
                      "clearUnread",
                      {
                        type: "reportRead",
                        params: ({ event }) => ({ lastReadId: lastId(event.output.messages) }),
                      },
                    ],
                  },
                  {
                    target: "connected",
                    actions: {
                      type: "useConversation",
                      params: ({ event }) => ({ conversation: event.output }),
                    },
                  },
                ],
                onError: "connected",
              },
              on: { STREAM_DROP: "connecting" },
            },
            connected: { on: { STREAM_DROP: "connecting" } },
            off: {},
          },
        },
        panel: {
          initial: "choosing",
          states: {
            choosing: {
              always: [{ guard: "wantsOpen", target: "open" }, { target: "minimized" }],
            },
            minimized: { on: { OPEN: "open" } },
            open: {
              initial: "idle",
              exit: "panelClosed",
              entry: [
                "panelOpened",
                "clearUnread",
                { type: "reportRead", params: ({ context }) => ({ lastReadId: lastId(context.messages) }) },
              ],
              on: {
                CLOSE: "minimized",
                EDIT: { actions: { type: "setDraft", params: ({ event }) => ({ value: event.value }) } },
              },
              states: {
                idle: {
                  on: { SEND: [{ guard: "canSend", target: "sending" }, { actions: "explainDraft" }] },
                },
                sending: {
                  invoke: {
                    id: "send",
                    src: "send",
                    input: ({ context }) => context.draft.trim(),
                    onDone: {
                      target: "idle",
                      actions: { type: "sent", params: ({ event }) => ({ message: event.output }) },
                    },
                    onError: [
                      {
                        guard: { type: "isExplained", params: ({ event }) => ({ error: event.error }) },
                        target: "sendFailed",
                        actions: { type: "sendRefused", params: ({ event }) => ({ error: event.error }) },
                      },
                      { target: "sendFailed", actions: "sendFailed" },
                    ],
                  },
                },
                /** The draft is kept; Send tries again. */
                sendFailed: {
                  on: { SEND: [{ guard: "canSend", target: "sending" }, { actions: "explainDraft" }] },
                },
              },
            },
          },
        },
      },
    },
  },
})
