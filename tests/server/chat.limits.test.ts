/**
 * The chat's limits per address (docs/chat.md, "Limits per address"), on PostgreSQL, behind a
 * trusted proxy (TRUST_PROXY=1: the test's X-Forwarded-For is the client's address):
 *
 * - a request without the visitor cookie is a new visitor, so cookie-less sends from one address
 *   open new conversations until that address's limit (10 an hour by default), then answer 429 with
 *   `Retry-After` and store nothing; a signed-in player on that address is not affected;
 * - a visitor's messages count against the address that opened their conversation (RATE_LIMITS sets
 *   that limit to 3 here), wherever they are sent from, so neither new addresses nor new cookies
 *   reset it.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { awayFromWindowEnd } from "../support/windows.ts"
import { newPlayer } from "./account-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { Browser, uniqueIp } from "./users-support.ts"

const CHAT = "/chat-service/api/v1/chat"

const openConversations = async (server: TestServer): Promise<number> =>
  (
    await server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM chat_conversations WHERE user_id IS NULL AND status = 'open'",
    )
  )[0]?.n ?? 0

describeOn("postgres", "chat: limits per address", ({ start }) => {
  describe("with the default limits", () => {
    let server: TestServer
    beforeAll(async () => {
      server = await start({ captchaEnabled: false }, { env: { TRUST_PROXY: "1" } })
    })
    afterAll(() => server?.close())

    it("refuses cookie-less sends from one address past the limit with 429 and Retry-After", async () => {
      // The conversations' window is an hour; the messages' ten minutes.
      await awayFromWindowEnd(3600)
      await awayFromWindowEnd(600)
      const address = uniqueIp()
      const before = await openConversations(server)
      const statuses: Array<number> = []
      let refused: { readonly retryAfter: string | null; readonly body: unknown } | undefined
      for (let i = 1; i <= 50; i++) {
        // A new Browser each time: no cookie, so every send is a new visitor.
        const reply = await new Browser(server, address).post(`${CHAT}/messages`, { body: `Hello ${i}` })
        statuses.push(reply.status)
        if (reply.status === 429)
          refused ??= { retryAfter: reply.headers.get("retry-after"), body: reply.body }
      }
      expect(statuses.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 200))
      expect(statuses.slice(10)).toEqual(Array.from({ length: 40 }, () => 429))
      expect(refused?.retryAfter).toMatch(/^\d+$/)
      expect(Number(refused?.retryAfter)).toBeGreaterThan(0)
      expect(Number(refused?.retryAfter)).toBeLessThanOrEqual(3600)
      expect(refused?.body).toMatchObject({ _tag: "RateLimited" })
      // The refused ones stored no conversation.
      expect((await openConversations(server)) - before).toBe(10)

      // Another address opens its own; a signed-in player on the busy address still writes.
      expect((await new Browser(server, uniqueIp()).post(`${CHAT}/messages`, { body: "Hi" })).status).toBe(
        200,
      )
      const { browser } = await newPlayer(server, "chat-shared-address")
      const player = new Browser(server, address)
      player.cookies = browser.cookies
      expect((await player.post(`${CHAT}/messages`, { body: "I am signed in" })).status).toBe(200)
    })
  })

  describe("with RATE_LIMITS setting 3 visitor messages per address", () => {
    let server: TestServer
    beforeAll(async () => {
      server = await start(
        { captchaEnabled: false },
        {
          env: {
            TRUST_PROXY: "1",
            RATE_LIMITS: JSON.stringify({ chatMessagesPerIp: { max: 3, windowSeconds: 600 } }),
          },
        },
      )
    })
    afterAll(() => server?.close())

    it("counts a visitor's messages against the address that opened the conversation", async () => {
      await awayFromWindowEnd(3600)
      await awayFromWindowEnd(600)
      const opener = uniqueIp()
      const visitor = new Browser(server, opener)
      expect((await visitor.post(`${CHAT}/messages`, { body: "one" })).status).toBe(200)
      // The same visitor (its cookie) from other addresses: still the opener's budget.
      const travelling = (ip: string) => {
        const b = new Browser(server, ip)
        b.cookies = visitor.cookies
        return b
      }
      expect((await travelling(uniqueIp()).post(`${CHAT}/messages`, { body: "two" })).status).toBe(200)
      expect((await travelling(uniqueIp()).post(`${CHAT}/messages`, { body: "three" })).status).toBe(200)
      const fresh = uniqueIp()
      const fourth = await travelling(fresh).post(`${CHAT}/messages`, { body: "four" })
      expect(fourth.status).toBe(429)
      expect(fourth.headers.get("retry-after")).toMatch(/^\d+$/)
      // A new cookie on the opener's address does not reset it either.
      expect((await new Browser(server, opener).post(`${CHAT}/messages`, { body: "again" })).status).toBe(429)
      // The address the fourth came from spent nothing: a visitor opening there writes.
      expect((await new Browser(server, fresh).post(`${CHAT}/messages`, { body: "mine" })).status).toBe(200)
    })
  })
})
