/**
 * Live-support chat (docs/chat.md): the schemas of the player-side calls (`api/chat-service.ts`) and
 * of the events the chat stream pushes. Message ids are bigserials, sent as decimal strings. The
 * body rule (1–2,000 characters once trimmed) lives here so the widget and the server agree.
 */
import { Schema } from "effect"
import { isStorableText, unstorableTextMessage } from "./rules.ts"

export const CHAT_BODY_MAX = 2000

/** Text the database can store (no NUL, no unpaired surrogate): anything else is a 400, never a 500. */
const Storable = (max: number) =>
  Schema.String.check(
    Schema.isMaxLength(max),
    Schema.makeFilter((s: string) => isStorableText(s) || unstorableTextMessage),
  )

/** The body as it is stored, or the reason it cannot be sent. */
export const chatBodyProblem = (raw: string): string | null => {
  const body = raw.trim()
  if (body === "") return "Write a message first."
  if (body.length > CHAT_BODY_MAX) return `A message holds at most ${CHAT_BODY_MAX} characters.`
  return null
}

export const MessageId = Schema.String.check(
  Schema.isPattern(/^(0|[1-9]\d{0,18})$/, { message: "a message id, digits only" }),
)

export const ChatAuthor = Schema.Literals(["player", "visitor", "operator", "system"])
export type ChatAuthor = typeof ChatAuthor.Type

export const ChatMessage = Schema.Struct({
  id: MessageId,
  author: ChatAuthor,
  body: Schema.String,
  /** ISO 8601. */
  createdAt: Schema.String,
})
export type ChatMessage = typeof ChatMessage.Type

/** GET …/chat/conversation: the player's (or visitor's) open conversation, oldest message first. */
export const ChatConversation = Schema.Struct({
  /** null until the first message starts it. */
  id: Schema.NullOr(Schema.String),
  status: Schema.Literals(["open", "closed"]),
  messages: Schema.Array(ChatMessage),
  /** Staff messages after the player's read marker. */
  unread: Schema.Int,
})
export type ChatConversation = typeof ChatConversation.Type

/** The wire keeps some slack above the rule so an oversized body is a 400 that says why. */
export const SendChatMessagePayload = Schema.Struct({
  body: Storable(20_000),
})
export type SendChatMessagePayload = typeof SendChatMessagePayload.Type

export const MarkChatReadPayload = Schema.Struct({ lastReadId: MessageId })
export type MarkChatReadPayload = typeof MarkChatReadPayload.Type

export const ChatRead = Schema.Struct({ unread: Schema.Int })
export type ChatRead = typeof ChatRead.Type

/** What the widget learned about the signed-in player 3 s after load (spec: name and user id). */
export const ChatAttributesPayload = Schema.Struct({
  userId: Storable(100),
  name: Storable(200),
})
export type ChatAttributesPayload = typeof ChatAttributesPayload.Type

export const ChatAttributes = Schema.Struct({ userId: Schema.String, name: Schema.String })
export type ChatAttributes = typeof ChatAttributes.Type

/**
 * GET …/chat/identity: who the session's player is to an outside chat (Chatwoot's `setUser`), with
 * the server-made `identifierHash` (HMAC-SHA256 of `userId` with the inbox's secret token, hex) that
 * Chatwoot's identity validation checks; null when the server has no such token.
 */
export const ChatIdentity = Schema.Struct({
  userId: Schema.String,
  identifierHash: Schema.NullOr(Schema.String),
})
export type ChatIdentity = typeof ChatIdentity.Type

/**
 * Pushed on `GET /chat-service/api/v1/chat/events` (server-sent events named by `type`): a new
 * message in the conversation (either side's), or the conversation closed by staff.
 */
export const ChatEvent = Schema.Union([
  Schema.Struct({ type: Schema.Literal("message"), conversationId: Schema.String, message: ChatMessage }),
  Schema.Struct({ type: Schema.Literal("closed"), conversationId: Schema.String }),
])
export type ChatEvent = typeof ChatEvent.Type
