/**
 * CHAT_PROVIDER: who answers the live-support chat. `builtin` (default) is this server's own chat
 * (server/chat/); `chatwoot` hands the widget to a Chatwoot installation and needs its base URL
 * (CHATWOOT_BASE_URL, its origin) and the website inbox token
 * (CHATWOOT_WEBSITE_TOKEN). The page learns the choice from `<meta name="chat-provider">`.
 * CHATWOOT_HMAC_TOKEN, the inbox's identity-validation secret, stays on the server: it signs the
 * player's id (`GET /chat/identity`, ./identity.ts) and is never written into the page.
 */
import { invalid, originOf, text } from "../../lib/env.ts"

export type ChatConfig =
  | { readonly provider: "builtin" }
  | {
      readonly provider: "chatwoot"
      readonly baseUrl: string
      readonly websiteToken: string
      /** Absent: no identity validation (the inbox must not enforce it). */
      readonly hmacToken?: string
    }

type Env = Record<string, string | undefined>

export const loadChatConfig = (env: Env): ChatConfig => {
  const provider = (text(env, "CHAT_PROVIDER") ?? "builtin").toLowerCase()
  if (provider === "builtin") return { provider: "builtin" }
  if (provider !== "chatwoot") return invalid("CHAT_PROVIDER", provider, '"builtin" or "chatwoot"')
  const baseRaw = text(env, "CHATWOOT_BASE_URL")
  const websiteToken = text(env, "CHATWOOT_WEBSITE_TOKEN")
  if (baseRaw === undefined)
    return invalid("CHATWOOT_BASE_URL", "", "the Chatwoot URL (CHAT_PROVIDER=chatwoot)")
  if (websiteToken === undefined)
    return invalid("CHATWOOT_WEBSITE_TOKEN", "", "the website inbox token (CHAT_PROVIDER=chatwoot)")
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(websiteToken))
    return invalid("CHATWOOT_WEBSITE_TOKEN", "(hidden)", "letters, digits, _ and -")
  const baseUrl = originOf("CHATWOOT_BASE_URL", baseRaw)
  const hmacToken = text(env, "CHATWOOT_HMAC_TOKEN")
  if (hmacToken === undefined) return { provider: "chatwoot", baseUrl, websiteToken }
  // The value is a secret: the message never repeats it.
  if (!/^[\x21-\x7e]{8,200}$/.test(hmacToken))
    return invalid("CHATWOOT_HMAC_TOKEN", "(hidden)", "8–200 printable characters without spaces")
  return { provider: "chatwoot", baseUrl, websiteToken, hmacToken }
}

/** Origins the page must be allowed to load scripts from and talk to (the CSP). */
export const chatOrigins = (chat: ChatConfig): ReadonlyArray<string> =>
  chat.provider === "chatwoot" ? [chat.baseUrl, chat.baseUrl.replace(/^http/, "ws")] : []
