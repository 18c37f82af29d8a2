/**
 * Who runs the live-support chat on this page: the casino's own (`builtin`) or Chatwoot. The server
 * says which in `<meta name="chat-provider">` (CHAT_PROVIDER, docs/chat.md). Both sides of the
 * widget speak through `ChatProvider`: 3 s after load it is given the player's name and user id, and
 * on sign-out it forgets them.
 */
import { runForActor } from "./bridge.ts"
import type { ChatAttributes, ChatIdentity } from "./chat-service.ts"
import { chatClient } from "./clients/chat.ts"

export type ChatProviderConfig =
  | { readonly provider: "builtin" }
  | { readonly provider: "chatwoot"; readonly baseUrl: string; readonly websiteToken: string }

/** The signed-in player as the chat learns them (spec: name and user id). */
export interface ChatUser {
  readonly id: string
  readonly name: string
}

export interface ChatProvider {
  readonly kind: ChatProviderConfig["provider"]
  /** Tells the chat who the player is; rejects when it could not. */
  readonly setAttributes: (user: ChatUser) => Promise<ChatAttributes>
  /** The player left (sign-out): the next person on this device must not see their conversation. */
  readonly reset: () => void
}

/** What is read of `<meta name="chat-provider">` (an HTMLMetaElement in the page). */
export interface ChatProviderMeta {
  readonly content: string
  readonly dataset: { readonly baseUrl?: string | undefined; readonly websiteToken?: string | undefined }
}

export const CHAT_PROVIDER_META = 'meta[name="chat-provider"]'

/** The page's chat configuration; builtin when the meta tag is missing or incomplete. */
export const readChatProviderConfig = (meta: ChatProviderMeta | null | undefined): ChatProviderConfig => {
  if (meta?.content !== "chatwoot") return { provider: "builtin" }
  const baseUrl = meta.dataset.baseUrl ?? ""
  const websiteToken = meta.dataset.websiteToken ?? ""
  return baseUrl === "" || websiteToken === ""
    ? { provider: "builtin" }
    : { provider: "chatwoot", baseUrl, websiteToken }
}

/** The built-in chat: the attributes are stored on the player's conversation for staff. */
export const builtinChatProvider: ChatProvider = {
  kind: "builtin",
  setAttributes: (user) =>
    runForActor(
      chatClient.attributes({ payload: { userId: user.id, name: user.name } }),
      new AbortController().signal,
    ),
  // Nothing to forget on the device: the conversation is the session's, and the session is gone.
  reset: () => undefined,
}

/** The signed-in player's id with Chatwoot's identity hash, made by the server (its secret). */
export const fetchChatIdentity = (): Promise<ChatIdentity> =>
  runForActor(chatClient.identity(), new AbortController().signal)
