/**
 * The chat's live updates (`GET /chat-service/api/v1/chat/events`, server-sent events of
 * `ChatEvent`; the back office's inbox follows its staff stream of the same events). One
 * EventSource per subscriber (the page has one chat widget). The browser's EventSource reconnects
 * by itself after a drop; each (re)open is told to the subscriber, who re-reads the conversation
 * then: the stream carries no history.
 */
import { Effect, Exit, Schema } from "effect"
import { type ChatEvent, ChatEvent as ChatEventSchema } from "./chat-service.ts"

export const CHAT_EVENTS_PATH = "/chat-service/api/v1/chat/events"

const decode = Schema.decodeUnknownEffect(ChatEventSchema)

/** The event a message's `data` carries, or null when it is not one of the contract's. */
export const parseChatEvent = async (data: unknown): Promise<ChatEvent | null> => {
  if (typeof data !== "string") return null
  let json: unknown
  try {
    json = JSON.parse(data)
  } catch {
    return null
  }
  const exit = await Effect.runPromiseExit(decode(json))
  return Exit.isSuccess(exit) ? exit.value : null
}

export interface ChatStreamHandlers {
  readonly onEvent: (event: ChatEvent) => void
  readonly onOpen: () => void
  readonly onDrop: () => void
}

/** Follows the chat stream at `path` (the player's by default) until the returned function is called. */
export const subscribeChatEvents = (
  handlers: ChatStreamHandlers,
  path: string = CHAT_EVENTS_PATH,
): (() => void) => {
  if (typeof EventSource === "undefined") throw new Error("EventSource is not available")
  const source = new EventSource(path, { withCredentials: true })
  const deliver = (message: MessageEvent) => {
    void parseChatEvent(message.data).then((event) => {
      if (event !== null) handlers.onEvent(event)
    })
  }
  source.addEventListener("message", deliver)
  source.addEventListener("closed", deliver)
  source.addEventListener("open", handlers.onOpen)
  source.addEventListener("error", handlers.onDrop)
  return () => source.close()
}
