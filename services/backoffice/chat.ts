/**
 * Schemas of the back office's support inbox (the `chat` group, docs/backoffice.md "Support inbox"):
 * the open conversations with unread counts, one conversation with its messages and the player's
 * context beside it, and the operator's actions (reply, assign, close, mark read). Browser-safe.
 * Message ids are decimal strings (bigserials); amounts strings of integer minor units; dates ISO.
 */
import { Schema } from "effect"
import { ChatMessage, MessageId } from "../chat-service.ts"
import { KycState, PlayerWallet } from "./players.ts"
import { StoredText } from "./text.ts"

export { SUPPORT_EVENTS_PATH } from "./paths.ts"

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const Uuid = Schema.String.check(Schema.isPattern(uuidPattern, { message: "a uuid" }))

export const ConversationStatus = Schema.Literals(["open", "closed"])

/** Open conversations by default; `closed` lists the latest 100 closed ones. */
export const ConversationsQuery = Schema.Struct({ status: Schema.optional(ConversationStatus) })

export const ConversationParams = Schema.Struct({ id: Uuid })

/** Who writes: a signed-in player (id, name, e-mail) or an anonymous visitor (`player: null`). */
export const ChatParty = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
})

export const ConversationSummary = Schema.Struct({
  id: Schema.String,
  status: ConversationStatus,
  player: Schema.NullOr(ChatParty),
  /** "Visitor" for an anonymous one; else the player's name. */
  label: Schema.String,
  assignedOperator: Schema.NullOr(Schema.Struct({ id: Schema.String, name: Schema.String })),
  /** Player or visitor messages after the staff's read marker. */
  unread: Schema.Int,
  lastBody: Schema.NullOr(Schema.String),
  lastMessageAt: Schema.NullOr(Schema.String),
})
export type ConversationSummary = typeof ConversationSummary.Type

/** Newest activity first, at most 500 open (100 closed). */
export const Conversations = Schema.Struct({ conversations: Schema.Array(ConversationSummary) })

export const StaffMessage = Schema.Struct({
  ...ChatMessage.fields,
  /** The operator who wrote an `operator` message (their name), else null. */
  operatorName: Schema.NullOr(Schema.String),
})

/** A small read-only view of the player, enough to answer without opening the player's page. */
export const PlayerContext = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  email: Schema.String,
  country: Schema.NullOr(Schema.String),
  registeredAt: Schema.String,
  locked: Schema.Boolean,
  kyc: KycState,
  wallets: Schema.Array(PlayerWallet),
  /** The last 5 deposits, newest first. */
  deposits: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      method: Schema.String,
      amount: Schema.String,
      currency: Schema.String,
      status: Schema.String,
      createdAt: Schema.String,
    }),
  ),
  /** Bonuses still active. */
  bonuses: Schema.Array(
    Schema.Struct({
      id: Schema.String,
      name: Schema.String,
      currency: Schema.String,
      balance: Schema.String,
      wagered: Schema.String,
      wageringRequired: Schema.String,
      expiresAt: Schema.String,
    }),
  ),
})
export type PlayerContext = typeof PlayerContext.Type

export const ConversationPage = Schema.Struct({
  conversation: ConversationSummary,
  /** Oldest first. */
  messages: Schema.Array(StaffMessage),
  /** null for a visitor. */
  context: Schema.NullOr(PlayerContext),
})
export type ConversationPage = typeof ConversationPage.Type

/** Trimmed by the server; 1–2,000 characters once trimmed (the player side's rule). */
export const ReplyPayload = Schema.Struct({ body: StoredText(2000, 1) })

/** `me`, another operator's id, or null to unassign. */
export const AssignPayload = Schema.Struct({
  operatorId: Schema.Union([Schema.Literal("me"), Uuid, Schema.Null]),
})

export const MarkReadPayload = Schema.Struct({ lastReadId: MessageId })

export const ConversationChanged = Schema.Struct({ conversation: ConversationSummary })

/** A canned reply (a fixed list in server/chat/canned.ts, not a table: changing one is a deploy). */
export const CannedReply = Schema.Struct({ id: Schema.String, title: Schema.String, body: Schema.String })
export const CannedReplies = Schema.Struct({ replies: Schema.Array(CannedReply) })
