/**
 * Chatwoot's identity validation (docs/chat.md, "Chatwoot"): the widget's
 * `$chatwoot.setUser(identifier, { identifier_hash })` is trusted only when `identifier_hash` is the
 * HMAC-SHA256 of the identifier keyed with the website inbox's HMAC token, in lowercase hex
 * (Chatwoot's documented recipe). The token is a secret, so the hash is made here for the signed-in
 * player only and the browser never sees the token.
 */
import { createHmac } from "node:crypto"
import type { ChatConfig } from "./config.ts"

export const chatwootIdentifierHash = (hmacToken: string, identifier: string): string =>
  createHmac("sha256", hmacToken).update(identifier, "utf8").digest("hex")

/** The hash for this identifier, or null when no HMAC token is configured (or the chat is built in). */
export const identifierHashOf = (chat: ChatConfig, identifier: string): string | null =>
  chat.provider === "chatwoot" && chat.hmacToken !== undefined
    ? chatwootIdentifierHash(chat.hmacToken, identifier)
    : null
