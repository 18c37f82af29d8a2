/**
 * The back office's support inbox (the staff side of the live chat, docs/chat.md): conversations,
 * one conversation with the player's context, and the operator's actions on it. Every role with
 * `chat.answer` (support, kyc, admin). The live stream `GET /api/backoffice/v1/chat/events` is a
 * plain route beside this group (server/backoffice/chatHttp.ts), behind the same guard checks.
 */
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Audits, needs, Requires } from "../access.ts"
import {
  AssignPayload,
  CannedReplies,
  ConversationChanged,
  ConversationPage,
  ConversationParams,
  Conversations,
  ConversationsQuery,
  MarkReadPayload,
  ReplyPayload,
  StaffMessage,
} from "../chat.ts"
import { BadInput, Conflict, NotFound, OperatorNotFound } from "../errors.ts"
import { BackofficeGuard } from "../middleware.ts"

export class ChatApi extends HttpApiGroup.make("chat")
  .add(
    HttpApiEndpoint.get("listConversations", "/chat/conversations", {
      query: ConversationsQuery,
      success: Conversations,
    }).annotate(Requires, needs("chat.answer")),
    HttpApiEndpoint.get("getConversation", "/chat/conversations/:id", {
      params: ConversationParams,
      success: ConversationPage,
      error: [NotFound],
    }).annotate(Requires, needs("chat.answer")),
    HttpApiEndpoint.post("replyConversation", "/chat/conversations/:id/reply", {
      params: ConversationParams,
      payload: ReplyPayload,
      success: StaffMessage,
      error: [BadInput, NotFound, Conflict],
    })
      .annotate(Requires, needs("chat.answer"))
      .annotate(Audits, ["chat.reply"]),
    HttpApiEndpoint.post("assignConversation", "/chat/conversations/:id/assign", {
      params: ConversationParams,
      payload: AssignPayload,
      success: ConversationChanged,
      error: [NotFound, OperatorNotFound],
    })
      .annotate(Requires, needs("chat.answer"))
      .annotate(Audits, ["chat.assign"]),
    HttpApiEndpoint.post("closeConversation", "/chat/conversations/:id/close", {
      params: ConversationParams,
      success: ConversationChanged,
      error: [NotFound, Conflict],
    })
      .annotate(Requires, needs("chat.answer"))
      .annotate(Audits, ["chat.close"]),
    HttpApiEndpoint.post("markConversationRead", "/chat/conversations/:id/read", {
      params: ConversationParams,
      payload: MarkReadPayload,
      success: ConversationChanged,
      error: [NotFound],
    })
      .annotate(Requires, needs("chat.answer"))
      .annotate(Audits, ["chat.read"]),
    HttpApiEndpoint.get("cannedReplies", "/chat/canned-replies", { success: CannedReplies }).annotate(
      Requires,
      needs("chat.answer"),
    ),
  )
  .middleware(BackofficeGuard)
  .prefix("/api/backoffice/v1") {}
