/**
 * Live support chat, the player's side (docs/chat.md): the signed-in player's conversation (or an
 * anonymous visitor's, keyed by an httpOnly cookie the first call sets), sending a message, marking
 * staff messages read, the attributes the widget reports 3 s after load, and (Chatwoot) the signed
 * identity it hands to Chatwoot. Live updates are the plain SSE route
 * `GET /chat-service/api/v1/chat/events` (server/chat/http.ts), outside this group like the other
 * event streams. The back office's side is a service only (server/chat/Chat.ts).
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  ChatAttributes,
  ChatAttributesPayload,
  ChatConversation,
  ChatIdentity,
  ChatMessage,
  ChatRead,
  MarkChatReadPayload,
  SendChatMessagePayload,
} from "../chat-service.ts"
import { RateLimited, Unauthenticated, ValidationFailed } from "../errors.ts"

export class ChatServiceApi extends HttpApiGroup.make("chat")
  .add(
    HttpApiEndpoint.get("conversation", "/chat/conversation", {
      success: ChatConversation,
    }),
    HttpApiEndpoint.post("send", "/chat/messages", {
      payload: SendChatMessagePayload,
      success: ChatMessage,
      error: [ValidationFailed, RateLimited],
    }),
    HttpApiEndpoint.post("markRead", "/chat/read", {
      payload: MarkChatReadPayload,
      success: ChatRead,
    }),
    // Signed-in players only: a visitor has no name or id to report.
    HttpApiEndpoint.post("attributes", "/chat/attributes", {
      payload: ChatAttributesPayload,
      success: ChatAttributes,
      error: [Unauthenticated, ValidationFailed],
    }),
    // Signed-in players only; the Chatwoot widget's identity (the hash is made with a server secret).
    HttpApiEndpoint.get("identity", "/chat/identity", {
      success: ChatIdentity,
      error: [Unauthenticated],
    }),
  )
  .prefix("/chat-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "chat-service: live support",
      description:
        "The player's support conversation (a visitor's is kept by the httpOnly cookie " +
        "`casino_chat_visitor`), sending and reading messages. New messages are pushed as server-sent " +
        "events on `GET /chat-service/api/v1/chat/events` (event `message` or `closed`, JSON data).",
    }),
  ) {}
