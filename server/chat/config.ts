/**
 * CHAT_PROVIDER: who answers the live-support chat. `builtin` (default) is this server's own chat
 * (server/chat/); `chatwoot` hands the widget to a Chatwoot installation and needs its base URL
 * (CHATWOOT_BASE_URL, its origin) and the website inbox token
 * (CHATWOOT_WEBSITE_TOKEN). The page learns the choice from `<meta name="chat-provider">`.
 */
import { invalid, originOf, text } from "../../lib/env.ts"

export type ChatConfig =
  | { readonly provider: "builtin" }
  | { readonly provider: "chatwoot"; readonly baseUrl: string; readonly websiteToken: string }

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
  return { provider: "chatwoot", baseUrl, websiteToken }
}

/** Origins the page must be allowed to load scripts from and talk to (the CSP). */
export const chatOrigins = (chat: ChatConfig): ReadonlyArray<string> =>
  chat.provider === "chatwoot" ? [chat.baseUrl, chat.baseUrl.replace(/^http/, "ws")] : []
