/**
 * Generated-path model of machines/chat/chatWidget.machine.ts: a visitor and a signed-in player
 * (and a Chatwoot page); opening, reading (done, failed, Try
 * again), the background read of a signed-in player; the stream opening, dropping, re-reading,
 * unavailable; a staff reply seen or waiting on the badge, the player's own echo, the conversation
 * closed by staff; a draft sent, refused (empty, rate limited) or lost; signing in and out.
 */
import type { ChatConversation, ChatMessage } from "../../services/chat-service.ts"
import { RateLimited, ValidationFailed } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { chatWidgetMachine } from "./chatWidget.machine.ts"

const ada = { id: "0b7c6f0e-5d0a-4f43-9a59-2f8f3c1d9e11", name: "Ada Lovelace" }

const mine: ChatMessage = { id: "1", author: "player", body: "Hello?", createdAt: "2026-11-28T10:00:00.000Z" }
const reply: ChatMessage = {
  id: "2",
  author: "operator",
  body: "Hi Ada, how can I help?",
  createdAt: "2026-11-28T10:01:00.000Z",
}
const conversation: ChatConversation = { id: "c-1", status: "open", messages: [mine], unread: 0 }
const waitingReply: ChatConversation = { id: "c-1", status: "open", messages: [mine, reply], unread: 1 }

export const model = defineModel({
  name: "chatWidget",
  machine: chatWidgetMachine,
  input: { provider: "builtin", user: null },
  otherInputs: [
    { name: "player", input: { provider: "builtin", user: ada } },
    { name: "chatwoot", input: { provider: "chatwoot", user: ada } },
  ],
  events: (snapshot) => {
    const s = snapshot
    const active = s.matches("active")
    return [
      ...(s.matches("closed")
        ? [
            { type: "xstate.after.3000.chatWidget.closed" },
            // The identity child failing is survivable (the chat works without attributes).
            { type: "xstate.error.actor.identity", error: new Error("identity crashed") },
          ]
        : []),
      { type: "USER_CHANGED", user: s.context.user === null ? ada : null },
      { type: "OPEN" },
      { type: "CLOSE" },
      ...(s.matches("loading")
        ? [
            { type: "xstate.done.actor.load", output: conversation },
            { type: "xstate.done.actor.load", output: waitingReply },
            { type: "xstate.error.actor.load", error: transportError() },
          ]
        : []),
      ...(s.matches("failed") ? [{ type: "RETRY" }] : []),
      ...(active
        ? [
            ...(s.matches({ active: { live: "connecting" } }) ? [{ type: "STREAM_OPEN" }] : []),
            ...(s.matches({ active: { live: "syncing" } }) || s.matches({ active: { live: "connected" } })
              ? [{ type: "STREAM_DROP" }]
              : []),
            { type: "xstate.error.actor.stream", error: new Error("EventSource is not available") },
            { type: "STREAM_EVENT", event: { type: "message", conversationId: "c-1", message: reply } },
            { type: "STREAM_EVENT", event: { type: "message", conversationId: "c-1", message: mine } },
            { type: "STREAM_EVENT", event: { type: "closed", conversationId: "c-1" } },
            ...(s.matches({ active: { panel: "open" } })
              ? [
                  { type: "EDIT", value: s.context.draft === "" ? "Where is my deposit?" : "" },
                  { type: "SEND" },
                ]
              : []),
          ]
        : []),
      ...(s.matches({ active: { live: "syncing" } })
        ? [
            { type: "xstate.done.actor.sync", output: waitingReply },
            { type: "xstate.error.actor.sync", error: transportError() },
          ]
        : []),
      ...(s.matches({ active: { panel: { open: "sending" } } })
        ? [
            { type: "xstate.done.actor.send", output: { ...mine, id: "3", body: "Where is my deposit?" } },
            {
              type: "xstate.error.actor.send",
              error: new ValidationFailed({ message: "Write a message first.", field: "body" }),
            },
            {
              type: "xstate.error.actor.send",
              error: new RateLimited({
                message: "Too many attempts, please try again later.",
                retryAfterSeconds: 30,
              }),
            },
            { type: "xstate.error.actor.send", error: transportError() },
          ]
        : []),
    ]
  },
  // Only what a guard reads: the badge count, the messages and the notices are the views' business.
  projectContext: (snapshot) => ({
    user: snapshot.context.user !== null,
    draft: snapshot.context.draft !== "",
    wantsOpen: snapshot.context.wantsOpen,
    prefetched: snapshot.context.prefetched,
  }),
})
