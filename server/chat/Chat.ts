/**
 * The support chat (docs/chat.md). A conversation belongs to an owner: a signed-in player (one open
 * conversation, the same on every device) or an anonymous visitor (the SHA-256 of the httpOnly
 * cookie token `casino_chat_visitor`). When a visitor signs in, their open conversation becomes the
 * player's, unless the player has one already. Bodies are trimmed and 1–2,000 characters; each
 * owner may send `chatSendLimit` messages per window (the shared database rate limiter).
 *
 * Visitors cost nothing to make (a request without the cookie is a new one), so their limits are
 * per address (./address.ts) too: conversations opened from an address
 * (`rateLimits.chatConversationsPerIp`), and messages (`rateLimits.chatMessagesPerIp`) counted
 * against the address that opened the visitor's conversation, wherever they are sent from. A
 * signed-in player is an account, limited as one: a stranger on the same address costs them nothing.
 *
 * Live updates go through `ChatEvents` (./ChatEvents.ts): published after the commit, heard by every
 * server process on the database (LISTEN/NOTIFY; in-process on PGlite). The player's SSE stream
 * filters its owner; the back office's inbox takes them all.
 */
import { Context, Effect, Layer, Schema, type Scope, Stream } from "effect"
import type { SqlError } from "effect/sql"
import {
  type ChatAttributes,
  type ChatConversation,
  type ChatEvent,
  type ChatMessage,
  chatBodyProblem,
} from "../../services/chat-service.ts"
import { type RateLimited, ValidationFailed } from "../../services/errors.ts"
import { AppConfig } from "../config.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { chatAddressOf } from "./address.ts"
import { makeChatEvents } from "./ChatEvents.ts"
import { ChatRepo, type ConversationRow, type InboxRow, type MessageRow } from "./ChatRepo.ts"

/** A staff call named a conversation that does not exist. */
export class ChatConversationNotFound extends Schema.TaggedError<ChatConversationNotFound>()(
  "ChatConversationNotFound",
  { message: Schema.String },
  { httpApiStatus: 404 },
) {}

/** Who is writing on the player's side. */
export type ChatOwner =
  | { readonly kind: "player"; readonly userId: string }
  | { readonly kind: "visitor"; readonly tokenHash: string }

/** The key events are routed by: each stream sees its owner's conversation only. */
export const ownerKey = (owner: ChatOwner): string =>
  owner.kind === "player" ? `user:${owner.userId}` : `visitor:${owner.tokenHash}`

const rowOwnerKey = (row: ConversationRow): string =>
  row.userId !== null ? `user:${row.userId}` : `visitor:${row.visitorTokenHash ?? ""}`

/** What the back office's inbox lists. */
export interface InboxEntry {
  readonly id: string
  readonly userId: string | null
  readonly assignedOperatorId: string | null
  readonly attributes: Record<string, unknown>
  readonly updatedAt: string
  readonly unread: number
  readonly lastBody: string | null
}

/** A conversation as staff read it. */
export interface StaffConversation {
  readonly id: string
  readonly userId: string | null
  readonly status: "open" | "closed"
  readonly assignedOperatorId: string | null
  readonly attributes: Record<string, unknown>
  readonly messages: ReadonlyArray<ChatMessage>
  /** Player or visitor messages after the staff's read marker. */
  readonly unread: number
}

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString()

const toMessage = (row: MessageRow): ChatMessage => ({
  id: row.id,
  author: row.author,
  body: row.body,
  createdAt: iso(row.createdAt),
})

const toInbox = (row: InboxRow): InboxEntry => ({ ...row, updatedAt: iso(row.updatedAt) })

const emptyConversation: ChatConversation = { id: null, status: "open", messages: [], unread: 0 }

export interface ChatShape {
  /** The owner's open conversation with its messages (an empty one, not stored, before the first message). */
  readonly conversation: (owner: ChatOwner) => Effect.Effect<ChatConversation>
  /** A signed-in player carrying a visitor cookie: the visitor's conversation becomes theirs. */
  readonly attachVisitor: (tokenHash: string, userId: string) => Effect.Effect<boolean>
  /** `ip`: the client's address (`Geo.clientIp`), what a visitor's limits count against. */
  readonly send: (
    owner: ChatOwner,
    body: string,
    ip: string,
  ) => Effect.Effect<ChatMessage, ValidationFailed | RateLimited>
  /** Staff messages up to `lastReadId` are read; answers what is still unread. */
  readonly markRead: (owner: ChatOwner, lastReadId: string) => Effect.Effect<number>
  /** The name and user id the widget reported, stored on the player's conversation for staff. */
  readonly setAttributes: (userId: string, attributes: ChatAttributes) => Effect.Effect<ChatAttributes>
  /** The owner's events from now on (subscribed in the caller's scope), as a stream. */
  readonly events: (owner: ChatOwner) => Effect.Effect<Stream.Stream<ChatEvent>, never, Scope.Scope>
  // The back office's side (its HTTP comes later).
  readonly inbox: () => Effect.Effect<ReadonlyArray<InboxEntry>>
  readonly read: (conversationId: string) => Effect.Effect<StaffConversation, ChatConversationNotFound>
  readonly reply: (
    conversationId: string,
    operatorId: string,
    body: string,
  ) => Effect.Effect<ChatMessage, ValidationFailed | ChatConversationNotFound>
  readonly assign: (
    conversationId: string,
    operatorId: string | null,
  ) => Effect.Effect<void, ChatConversationNotFound>
  readonly close: (conversationId: string) => Effect.Effect<void, ChatConversationNotFound>
  readonly markStaffRead: (
    conversationId: string,
    lastReadId: string,
  ) => Effect.Effect<void, ChatConversationNotFound>
  /** Every conversation's events from now on (the inbox's live view), like `events`. */
  readonly allEvents: () => Effect.Effect<Stream.Stream<ChatEvent>, never, Scope.Scope>
}

export class Chat extends Context.Service<Chat, ChatShape>()("casino/server/Chat") {
  static readonly layer = Layer.effect(
    Chat,
    Effect.gen(function* () {
      const repo = yield* ChatRepo
      const limiter = yield* RateLimiter
      const config = yield* AppConfig
      // A database failure is a defect here: the HTTP edge answers it with a logged 500.
      const db = <A>(effect: Effect.Effect<A, SqlError.SqlError>) => Effect.orDie(effect)
      const live = yield* makeChatEvents((conversationId, messageId) =>
        repo.messageById(conversationId, messageId).pipe(Effect.map((row) => row && toMessage(row))),
      )

      const openOf = (owner: ChatOwner) =>
        owner.kind === "player" ? repo.openForUser(owner.userId) : repo.openForVisitor(owner.tokenHash)

      const publish = (row: ConversationRow, event: ChatEvent) =>
        live.publish({ owner: rowOwnerKey(row), event })

      const validBody = (raw: string) => {
        const problem = chatBodyProblem(raw)
        return problem === null
          ? Effect.succeed(raw.trim())
          : Effect.fail(new ValidationFailed({ message: problem, field: "body" }))
      }

      const conversation = Effect.fn("Chat.conversation")(function* (owner: ChatOwner) {
        const row = yield* db(openOf(owner))
        if (row === undefined) return emptyConversation
        const messages = yield* db(repo.messages(row.id))
        const unread = yield* db(repo.unreadForPlayer(row.id))
        return {
          id: row.id,
          status: row.status,
          messages: messages.map(toMessage),
          unread,
        } satisfies ChatConversation
      })

      /**
       * The visitor's open conversation for one more message, or a new one: a new one counts against
       * the sender's address, every message against the address that opened the conversation.
       * Refused, nothing is stored.
       */
      const visitorConversation = (tokenHash: string, from: string) =>
        Effect.gen(function* () {
          const open = yield* db(repo.openForVisitor(tokenHash))
          if (open === undefined)
            yield* limiter.consume(`chat:conversations:ip:${from}`, config.rateLimits.chatConversationsPerIp)
          yield* limiter.consume(
            `chat:messages:ip:${open?.openedFrom ?? from}`,
            config.rateLimits.chatMessagesPerIp,
          )
          return open ?? (yield* db(repo.ensureForVisitor(tokenHash, from)))
        })

      const send = Effect.fn("Chat.send")(function* (owner: ChatOwner, raw: string, ip: string) {
        const body = yield* validBody(raw)
        yield* limiter.consume(`chat:${ownerKey(owner)}`, config.chatSendLimit)
        const row =
          owner.kind === "player"
            ? yield* db(repo.ensureForUser(owner.userId))
            : yield* visitorConversation(owner.tokenHash, chatAddressOf(ip))
        const message = yield* db(
          repo.insertMessage(row.id, owner.kind === "player" ? "player" : "visitor", null, body),
        )
        // The sender has read everything up to their own message.
        yield* db(repo.markPlayerRead(row.id, message.id))
        const out = toMessage(message)
        yield* publish(row, { type: "message", conversationId: row.id, message: out })
        return out
      })

      const markRead = Effect.fn("Chat.markRead")(function* (owner: ChatOwner, lastReadId: string) {
        const row = yield* db(openOf(owner))
        if (row === undefined) return 0
        yield* db(repo.markPlayerRead(row.id, lastReadId))
        return yield* db(repo.unreadForPlayer(row.id))
      })

      const setAttributes = Effect.fn("Chat.setAttributes")(function* (
        userId: string,
        attributes: ChatAttributes,
      ) {
        const row = yield* db(repo.ensureForUser(userId))
        const stored = { userId: attributes.userId, name: attributes.name.trim().slice(0, 200) }
        yield* db(repo.setAttributes(row.id, stored))
        return stored
      })

      const events = (owner: ChatOwner) => {
        const key = ownerKey(owner)
        return Effect.map(live.subscribe, (envelopes) =>
          envelopes.pipe(
            Stream.filter((e) => e.owner === key),
            Stream.map((e) => e.event),
          ),
        )
      }

      const existing = (conversationId: string) =>
        db(
          /^[0-9a-f-]{36}$/i.test(conversationId) ? repo.byId(conversationId) : Effect.succeed(undefined),
        ).pipe(
          Effect.flatMap((row) =>
            row === undefined
              ? Effect.fail(new ChatConversationNotFound({ message: "No such conversation." }))
              : Effect.succeed(row),
          ),
        )

      const read = Effect.fn("Chat.read")(function* (conversationId: string) {
        const row = yield* existing(conversationId)
        const messages = yield* db(repo.messages(row.id))
        const staffRead = BigInt(row.staffReadId)
        return {
          id: row.id,
          userId: row.userId,
          status: row.status,
          assignedOperatorId: row.assignedOperatorId,
          attributes: row.attributes,
          messages: messages.map(toMessage),
          unread: messages.filter(
            (m) => (m.author === "player" || m.author === "visitor") && BigInt(m.id) > staffRead,
          ).length,
        } satisfies StaffConversation
      })

      const reply = Effect.fn("Chat.reply")(function* (
        conversationId: string,
        operatorId: string,
        raw: string,
      ) {
        const body = yield* validBody(raw)
        const row = yield* existing(conversationId)
        const message = yield* db(repo.insertMessage(row.id, "operator", operatorId, body))
        yield* db(repo.markStaffRead(row.id, message.id))
        const out = toMessage(message)
        yield* publish(row, { type: "message", conversationId: row.id, message: out })
        return out
      })

      const assign = Effect.fn("Chat.assign")(function* (conversationId: string, operatorId: string | null) {
        const row = yield* existing(conversationId)
        yield* db(repo.assign(row.id, operatorId))
      })

      const close = Effect.fn("Chat.close")(function* (conversationId: string) {
        const row = yield* existing(conversationId)
        if (yield* db(repo.close(row.id))) yield* publish(row, { type: "closed", conversationId: row.id })
      })

      const markStaffRead = Effect.fn("Chat.markStaffRead")(function* (
        conversationId: string,
        lastReadId: string,
      ) {
        const row = yield* existing(conversationId)
        if (/^\d{1,18}$/.test(lastReadId)) yield* db(repo.markStaffRead(row.id, lastReadId))
      })

      return Chat.of({
        conversation,
        attachVisitor: (tokenHash, userId) => db(repo.attachVisitor(tokenHash, userId)),
        send,
        markRead,
        setAttributes,
        events,
        inbox: () => db(repo.inbox()).pipe(Effect.map((rows) => rows.map(toInbox))),
        read,
        reply,
        assign,
        close,
        markStaffRead,
        allEvents: () =>
          Effect.map(
            live.subscribe,
            Stream.map((e) => e.event),
          ),
      })
    }),
  ).pipe(Layer.provideMerge(ChatRepo.layer))
}
