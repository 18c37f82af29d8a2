/**
 * Chatwoot's identity validation (docs/chat.md, "Chatwoot"): with CHAT_PROVIDER=chatwoot and
 * CHATWOOT_HMAC_TOKEN, `GET /chat-service/api/v1/chat/identity` answers the signed-in player's id
 * and its `identifierHash`, the HMAC-SHA256 of that id keyed with the token — checked here against
 * an HMAC computed by the test itself over the literal token — never cached, 401 for a visitor; the
 * token itself is in no answer. Without a token the hash is null (chat.test.ts: the built-in chat).
 */
import { createHmac } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newPlayer } from "./account-support.ts"
import { startTestServer, type TestServer } from "./harness.ts"
import { userIdOf } from "./money-support.ts"
import { Browser, uniqueIp } from "./users-support.ts"

const IDENTITY = "/chat-service/api/v1/chat/identity"
const HMAC_TOKEN = "cw-hmac-3f9a1c77e2b04d58a6b1"

describe("chat: Chatwoot identity hash [pglite]", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(
      { captchaEnabled: false },
      {
        env: {
          CHAT_PROVIDER: "chatwoot",
          CHATWOOT_BASE_URL: "https://chat.example.com",
          CHATWOOT_WEBSITE_TOKEN: "tok_123",
          CHATWOOT_HMAC_TOKEN: HMAC_TOKEN,
        },
      },
    )
  }, 120_000)
  afterAll(() => server?.close())

  it("answers the signed-in player's id with the HMAC-SHA256 of it under the inbox token", async () => {
    const { browser, email } = await newPlayer(server, "chatwoot-identity")
    const userId = await userIdOf(server, email)
    const res = await browser.get(IDENTITY)
    expect(res.status).toBe(200)
    expect(res.headers.get("cache-control")).toBe("no-store")
    const expected = createHmac("sha256", HMAC_TOKEN).update(userId).digest("hex")
    expect(res.body).toEqual({ userId, identifierHash: expected })
    expect(JSON.stringify(res.body)).not.toContain(HMAC_TOKEN)
  })

  it("gives each player their own hash", async () => {
    const one = await newPlayer(server, "chatwoot-one")
    const two = await newPlayer(server, "chatwoot-two")
    const a = (await one.browser.get(IDENTITY)).body as { identifierHash: string }
    const b = (await two.browser.get(IDENTITY)).body as { identifierHash: string }
    expect(a.identifierHash).toMatch(/^[0-9a-f]{64}$/)
    expect(b.identifierHash).toMatch(/^[0-9a-f]{64}$/)
    expect(a.identifierHash).not.toBe(b.identifierHash)
  })

  it("is 401 without a session", async () => {
    const visitor = new Browser(server, uniqueIp())
    const res = await visitor.get(IDENTITY)
    expect(res.status).toBe(401)
    expect(res.body).toMatchObject({ _tag: "Unauthenticated" })
  })
})
