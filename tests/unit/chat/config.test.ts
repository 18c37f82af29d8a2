/**
 * CHAT_PROVIDER and what the page learns of it: builtin by default, chatwoot only with both its
 * URL and token, the `<meta name="chat-provider">` the server writes into index.html and the page
 * reads back, the CSP allowing Chatwoot's script and socket only in chatwoot mode, and the HMAC
 * token that stays on the server.
 */
import { describe, expect, it } from "vitest"
import { chatOrigins, loadChatConfig } from "../../../server/chat/config.ts"
import { appCsp } from "../../../server/security/middleware.ts"
import { injectChatProvider } from "../../../server/static/http.ts"
import { type ChatProviderMeta, readChatProviderConfig } from "../../../services/chat-provider.ts"

const page = '<head><meta name="chat-provider" content="builtin" /></head>'

/** The meta tag of `html` as the page reads it (content and data attributes). */
const docOf = (html: string): ChatProviderMeta => {
  const attrs = new Map([...html.matchAll(/([a-z-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]))
  return {
    content: attrs.get("content") ?? "",
    dataset: { baseUrl: attrs.get("data-base-url"), websiteToken: attrs.get("data-website-token") },
  }
}

describe("CHAT_PROVIDER", () => {
  it("is builtin by default", () => {
    expect(loadChatConfig({})).toEqual({ provider: "builtin" })
    expect(chatOrigins({ provider: "builtin" })).toEqual([])
  })

  it("takes Chatwoot with its base URL and website token", () => {
    expect(
      loadChatConfig({
        CHAT_PROVIDER: "chatwoot",
        CHATWOOT_BASE_URL: "https://chat.example.com/",
        CHATWOOT_WEBSITE_TOKEN: "tok_123",
      }),
    ).toEqual({ provider: "chatwoot", baseUrl: "https://chat.example.com", websiteToken: "tok_123" })
  })

  it("refuses chatwoot without its URL or token, and an unknown provider", () => {
    expect(() => loadChatConfig({ CHAT_PROVIDER: "chatwoot", CHATWOOT_WEBSITE_TOKEN: "tok_123" })).toThrow(
      "CHATWOOT_BASE_URL",
    )
    expect(() =>
      loadChatConfig({ CHAT_PROVIDER: "chatwoot", CHATWOOT_BASE_URL: "https://chat.example.com" }),
    ).toThrow("CHATWOOT_WEBSITE_TOKEN")
    expect(() => loadChatConfig({ CHAT_PROVIDER: "intercom" })).toThrow("CHAT_PROVIDER")
  })

  it("keeps CHATWOOT_HMAC_TOKEN on the server: read, never written into the page, refused when malformed", () => {
    const env = {
      CHAT_PROVIDER: "chatwoot",
      CHATWOOT_BASE_URL: "https://chat.example.com",
      CHATWOOT_WEBSITE_TOKEN: "tok_123",
    }
    const chat = loadChatConfig({ ...env, CHATWOOT_HMAC_TOKEN: "cw-hmac-secret-value" })
    expect(chat).toEqual({
      provider: "chatwoot",
      baseUrl: "https://chat.example.com",
      websiteToken: "tok_123",
      hmacToken: "cw-hmac-secret-value",
    })
    expect(injectChatProvider(page, chat)).not.toContain("cw-hmac-secret-value")
    for (const bad of ["short", "has a space in it"]) {
      const message = (() => {
        try {
          loadChatConfig({ ...env, CHATWOOT_HMAC_TOKEN: bad })
          return "accepted"
        } catch (error) {
          return String(error)
        }
      })()
      expect(message).toContain("CHATWOOT_HMAC_TOKEN")
      expect(message).not.toContain(bad)
    }
  })

  it("tells the page which provider through the meta tag", () => {
    expect(injectChatProvider(page, { provider: "builtin" })).toBe(page)
    const chatwoot = injectChatProvider(page, {
      provider: "chatwoot",
      baseUrl: "https://chat.example.com",
      websiteToken: "tok_123",
    })
    expect(chatwoot).toBe(
      '<head><meta name="chat-provider" content="chatwoot" data-base-url="https://chat.example.com" data-website-token="tok_123" /></head>',
    )
    expect(readChatProviderConfig(docOf(chatwoot))).toEqual({
      provider: "chatwoot",
      baseUrl: "https://chat.example.com",
      websiteToken: "tok_123",
    })
    expect(readChatProviderConfig(docOf(page))).toEqual({ provider: "builtin" })
    expect(readChatProviderConfig(undefined)).toEqual({ provider: "builtin" })
  })

  it("lets the page load Chatwoot's script and open its socket only in chatwoot mode", () => {
    const origins = chatOrigins({
      provider: "chatwoot",
      baseUrl: "https://chat.example.com",
      websiteToken: "tok_123",
    })
    expect(origins).toEqual(["https://chat.example.com", "wss://chat.example.com"])
    const csp = appCsp([], ["'self'"], origins)
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval' https://chat.example.com;")
    expect(csp).toContain("connect-src 'self' https://chat.example.com wss://chat.example.com;")
    expect(appCsp()).toContain("script-src 'self' 'wasm-unsafe-eval';")
  })
})
