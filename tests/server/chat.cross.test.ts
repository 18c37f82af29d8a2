/**
 * The support chat across server processes (docs/chat.md, "Live updates"): two servers on ONE
 * PostgreSQL database, each with its own pool and LISTEN connection. A staff reply written on A
 * reaches the player's stream held by B, a player's message written on B reaches the staff stream
 * held by A (a body too long for NOTIFY's 8,000 bytes included: it crosses by id), a close on B
 * reaches a stream on A — and every stream, the writer's own process included, gets each event once.
 * PostgreSQL only: PGlite is one process by construction (its single-process path is chat.test.ts).
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeServer, type RunningServer } from "../../server/app.ts"
import { newPlayer } from "./account-support.ts"
import { BO, createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { postgresUnavailable, startTestServer, type TestServer } from "./harness.ts"
import { Browser } from "./users-support.ts"

const CHAT = "/chat-service/api/v1/chat"
const PASSWORD = "correct horse battery staple"
const problem = await postgresUnavailable()

/** The same browser (its cookies) talking to another server of the same casino. */
const sameBrowserOn = (server: TestServer, browser: Browser): Browser => {
  const other = new Browser(server, browser.ip)
  other.cookies = browser.cookies
  return other
}

/** The `message` events' data in a stream's text so far. */
const messagesIn = (
  text: string,
): Array<{ conversationId: string; message: { author: string; body: string } }> =>
  text
    .split("\n\n")
    .filter((block) => block.startsWith("event: message\n"))
    .map((block) => JSON.parse(block.slice(block.indexOf("data: ") + "data: ".length)))

const count = (text: string, part: string): number => text.split(part).length - 1

describe.skipIf(problem !== undefined && process.env.CI !== "true")(
  "chat: two servers on one PostgreSQL [postgres]",
  () => {
    const clock = new TestClock()
    let a: TestServer
    let b: RunningServer
    let bDir: string
    /** Server B as the test helpers address a server (only its URL differs from A's). */
    let onB: TestServer
    let agentA: Browser
    let agentB: Browser
    let playerA: Browser
    let playerB: Browser
    let conversationId = ""

    beforeAll(async () => {
      a = await startTestServer(
        { captchaEnabled: false, backofficeClock: clock.read },
        { backend: "postgres" },
      )
      bDir = await mkdtemp(join(tmpdir(), "casino-chat-b-"))
      // The second process: same database and configuration, its own port, pool and data folder.
      b = await makeServer({ ...a.config, port: 0, dataDir: bDir })
      onB = { ...a, url: b.url }
      await createOperator(a, {
        email: "sam@cross.example",
        role: "support",
        password: PASSWORD,
        name: "Sam",
      })
      agentA = await signIn(a, clock, "sam@cross.example", PASSWORD)
      agentB = sameBrowserOn(onB, agentA)
      playerA = (await newPlayer(a, "chat-cross", "Grace Hopper")).browser
      playerB = sameBrowserOn(onB, playerA)
      const first = await playerA.post(`${CHAT}/messages`, { body: "Hello from server A" })
      expect(first.status).toBe(200)
      const conversation = (await playerA.get(`${CHAT}/conversation`)).body as { id: string }
      conversationId = conversation.id
    }, 120_000)
    afterAll(async () => {
      await b?.close()
      await a?.close()
      if (bDir !== undefined) await rm(bDir, { recursive: true, force: true })
    })

    it("a staff reply written on A reaches the player's stream on B, and each stream gets it once", async () => {
      const onBStream = await playerB.eventStream(`${CHAT}/events`)
      const onAStream = await playerA.eventStream(`${CHAT}/events`)
      const reply = await agentA.post(`${BO}/chat/conversations/${conversationId}/reply`, {
        body: "Reply written on A",
      })
      expect(reply.status).toBe(200)
      const seenOnB = await onBStream.until("Reply written on A")
      expect(messagesIn(seenOnB)).toEqual([
        { type: "message", conversationId, message: expect.objectContaining({ author: "operator" }) },
      ])
      // A later reply, written on B: PostgreSQL delivers notifications in commit order, so once a
      // stream shows it, any second copy of the first reply would already be there.
      const second = await agentB.post(`${BO}/chat/conversations/${conversationId}/reply`, {
        body: "Second reply, written on B",
      })
      expect(second.status).toBe(200)
      for (const stream of [onAStream, onBStream]) {
        const text = await stream.until("Second reply, written on B")
        expect(count(text, "Reply written on A")).toBe(1)
        expect(messagesIn(text).map((e) => e.message.body)).toEqual([
          "Reply written on A",
          "Second reply, written on B",
        ])
      }
      await onAStream.close()
      await onBStream.close()
    })

    it("a player's message written on B reaches the staff stream on A, a long body included", async () => {
      const staffOnA = await agentA.eventStream(`${BO}/chat/events`)
      // Control characters are stored as sent but JSON-escaped to six bytes each: this body's event
      // cannot travel inside a NOTIFY payload (at most 8,000 bytes).
      const long = `${"\u0007".repeat(1_970)} Long question from B`
      expect(Buffer.byteLength(JSON.stringify({ body: long }))).toBeGreaterThan(8_000)
      const sent = await playerB.post(`${CHAT}/messages`, { body: long })
      expect(sent.status).toBe(200)
      const text = await staffOnA.until("Long question from B")
      expect(messagesIn(text)).toEqual([
        {
          type: "message",
          conversationId,
          message: expect.objectContaining({ author: "player", body: long }),
        },
      ])
      await staffOnA.close()
    })

    it("a close on B reaches the player's stream on A", async () => {
      const onAStream = await playerA.eventStream(`${CHAT}/events`)
      const closed = await agentB.post(`${BO}/chat/conversations/${conversationId}/close`)
      expect(closed.status).toBe(200)
      const text = await onAStream.until("event: closed")
      expect(text).toContain(`"conversationId":"${conversationId}"`)
      await onAStream.close()
    })
  },
)
