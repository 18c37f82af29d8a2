/**
 * The support chat end to end on PostgreSQL (docs/chat.md): a player's conversation follows them
 * to a second sign-in, a visitor's is kept by its cookie and becomes theirs when they register,
 * bodies are checked (400, never 500), sending is rate limited (429), staff replies reach the player
 * by GET and by the SSE stream (only once committed: a rolled-back reply is pushed nowhere), the
 * inbox counts unread messages, closing ends the conversation, the widget's attributes are stored
 * for staff, and writes carry the edge's Origin check.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { Effect, Stream } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Chat } from "../../server/chat/Chat.ts"
import { newPlayer, PASSWORD } from "./account-support.ts"
import { BO } from "./backoffice-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { bearerCall, type OperatorToken, operatorToken } from "./operator-token.ts"
import { Browser, register, signIn, uniqueIp } from "./users-support.ts"

const CHAT = "/chat-service/api/v1/chat"

interface Conversation {
  readonly id: string | null
  readonly status: string
  readonly messages: ReadonlyArray<{ readonly id: string; readonly author: string; readonly body: string }>
  readonly unread: number
}

const conversationOf = async (browser: Browser): Promise<Conversation> => {
  const res = await browser.get(`${CHAT}/conversation`)
  expect(res.status).toBe(200)
  return res.body as Conversation
}

/** An SSE reader on the chat stream with the browser's cookies. */
const chatStream = (browser: Browser) => browser.eventStream(`${CHAT}/events`)

describeOn("postgres", "chat: the player's support conversation", ({ start }) => {
  let server: TestServer
  let operatorId: string
  let support: OperatorToken
  beforeAll(async () => {
    server = await start({ captchaEnabled: false }, { env: { TRUST_PROXY: "1" } })
    support = await operatorToken(server, {
      role: "support",
      email: "support@example.com",
      name: "Sam Support",
    })
    operatorId = support.operatorId
  })
  afterAll(async () => {
    await server?.close()
  })

  it("follows a signed-in player to a second sign-in", async () => {
    const { browser, email } = await newPlayer(server, "chat-devices")
    expect(await conversationOf(browser)).toEqual({ id: null, status: "open", messages: [], unread: 0 })
    const sent = await browser.post(`${CHAT}/messages`, { body: "  Hello, is anyone there?  " })
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({ author: "player", body: "Hello, is anyone there?" })

    const phone = new Browser(server, uniqueIp())
    expect((await signIn(phone, email, PASSWORD)).status).toBe(200)
    const onPhone = await conversationOf(phone)
    const onDesktop = await conversationOf(browser)
    expect(onPhone.id).not.toBeNull()
    expect(onPhone.id).toBe(onDesktop.id)
    expect(onPhone.messages.map((m) => m.body)).toEqual(["Hello, is anyone there?"])
    await phone.post(`${CHAT}/messages`, { body: "Now from my phone" })
    expect((await conversationOf(browser)).messages.map((m) => m.body)).toEqual([
      "Hello, is anyone there?",
      "Now from my phone",
    ])
  })

  it("keeps a visitor's conversation by its httpOnly cookie, and hands it over on registration", async () => {
    const visitor = new Browser(server, uniqueIp())
    const first = await visitor.get(`${CHAT}/conversation`)
    expect(first.status).toBe(200)
    const cookieLine = first.setCookie.find((l) => l.startsWith("casino_chat_visitor="))
    expect(cookieLine).toMatch(/HttpOnly/i)
    expect((await visitor.post(`${CHAT}/messages`, { body: "Can I deposit in BTC?" })).status).toBe(200)
    expect((await conversationOf(visitor)).messages).toMatchObject([
      { author: "visitor", body: "Can I deposit in BTC?" },
    ])

    const stranger = new Browser(server, uniqueIp())
    expect((await conversationOf(stranger)).messages).toEqual([])

    const stored = await server.query<{ visitor_token_hash: string }>(
      `SELECT visitor_token_hash FROM chat_conversations WHERE user_id IS NULL AND visitor_token_hash IS NOT NULL`,
    )
    const token = visitor.cookies.get("casino_chat_visitor") ?? ""
    expect(stored.map((r) => r.visitor_token_hash)).not.toContain(token)

    const res = await register(visitor, `visitor.${Date.now()}@example.com`)
    expect(res.status).toBe(200)
    const mine = await conversationOf(visitor)
    expect(mine.messages.map((m) => m.body)).toEqual(["Can I deposit in BTC?"])
    expect(visitor.cookies.has("casino_chat_visitor")).toBe(false)
  })

  it("answers 400 for an empty, oversized or unstorable body, never 500", async () => {
    const { browser } = await newPlayer(server, "chat-bodies")
    // A NUL or a lone surrogate cannot be stored as text (found by the contract fuzzer).
    for (const body of ["", "   \n ", "x".repeat(2001), "y".repeat(25_000), "\u0000", "hi \ud800"]) {
      const res = await browser.post(`${CHAT}/messages`, { body })
      expect(res.status).toBe(400)
    }
    const blank = await browser.post(`${CHAT}/messages`, { body: "  " })
    expect(blank.body).toMatchObject({ _tag: "ValidationFailed", message: "Write a message first." })
    const long = await browser.post(`${CHAT}/messages`, { body: "x".repeat(2001) })
    expect(long.body).toMatchObject({ message: "A message holds at most 2000 characters." })
    expect((await browser.post(`${CHAT}/messages`, { text: "wrong field" })).status).toBe(400)
    expect((await browser.post(`${CHAT}/messages`, { body: "x".repeat(2000) })).status).toBe(200)
  })

  it("rate limits sending per player (20 a minute)", async () => {
    const { browser } = await newPlayer(server, "chat-limit")
    for (let i = 1; i <= 20; i++) {
      expect((await browser.post(`${CHAT}/messages`, { body: `message ${i}` })).status).toBe(200)
    }
    const refused = await browser.post(`${CHAT}/messages`, { body: "one too many" })
    expect(refused.status).toBe(429)
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/)
  })

  it("shows a staff reply to the player, over GET and live over the SSE stream", async () => {
    const { browser } = await newPlayer(server, "chat-reply")
    await browser.post(`${CHAT}/messages`, { body: "My deposit is missing" })
    const { id } = await conversationOf(browser)
    const stream = await chatStream(browser)
    await server.run(Effect.flatMap(Chat, (chat) => chat.reply(id ?? "", operatorId, "Looking into it now")))
    const pushed = await stream.until("Looking into it now")
    expect(pushed).toContain("event: message")
    expect(pushed).toContain('"author":"operator"')
    await stream.close()

    const after = await conversationOf(browser)
    expect(after.messages.map((m) => [m.author, m.body])).toEqual([
      ["player", "My deposit is missing"],
      ["operator", "Looking into it now"],
    ])
    expect(after.unread).toBe(1)
    const lastId = after.messages[1]?.id ?? "0"
    const read = await browser.post(`${CHAT}/read`, { lastReadId: lastId })
    expect(read.body).toEqual({ unread: 0 })
    expect((await conversationOf(browser)).unread).toBe(0)
  })

  it("pushes a reply only once its transaction commits: a rolled-back one reaches no stream", async () => {
    const { browser } = await newPlayer(server, "chat-rollback")
    await browser.post(`${CHAT}/messages`, { body: "Is this pushed?" })
    const { id } = await conversationOf(browser)
    const stream = await chatStream(browser)
    const rolledBack = await server.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const chat = yield* Chat
        return yield* sql
          .withTransaction(
            chat.reply(id ?? "", operatorId, "Never committed").pipe(Effect.andThen(Effect.fail("undo"))),
          )
          .pipe(Effect.flip)
      }),
    )
    expect(rolledBack).toBe("undo")
    await server.run(Effect.flatMap(Chat, (chat) => chat.reply(id ?? "", operatorId, "Committed reply")))
    // Events arrive in commit order: once the later reply is there, the rolled-back one never comes.
    const pushed = await stream.until("Committed reply")
    expect(pushed).not.toContain("Never committed")
    await stream.close()
    expect((await conversationOf(browser)).messages.map((m) => m.body)).toEqual([
      "Is this pushed?",
      "Committed reply",
    ])
  })

  it("gives staff an inbox with unread counts, assignment, mark read and close", async () => {
    const { browser } = await newPlayer(server, "chat-inbox")
    await browser.post(`${CHAT}/messages`, { body: "First question" })
    await browser.post(`${CHAT}/messages`, { body: "Second question" })
    const { id } = await conversationOf(browser)
    const conversationId = id ?? ""
    const entry = await server.run(
      Effect.flatMap(Chat, (chat) => chat.inbox()).pipe(
        Effect.map((rows) => rows.find((r) => r.id === conversationId)),
      ),
    )
    expect(entry).toMatchObject({ unread: 2, lastBody: "Second question", assignedOperatorId: null })

    const stream = await chatStream(browser)
    const staff = await server.run(
      Effect.gen(function* () {
        const chat = yield* Chat
        yield* chat.assign(conversationId, operatorId)
        const before = yield* chat.read(conversationId)
        const last = before.messages.at(-1)?.id ?? "0"
        yield* chat.markStaffRead(conversationId, last)
        const after = yield* chat.read(conversationId)
        yield* chat.close(conversationId)
        const missing = yield* chat.read("00000000-0000-0000-0000-000000000000").pipe(Effect.flip)
        return { before, after, missing }
      }),
    )
    expect(staff.before).toMatchObject({ unread: 2, assignedOperatorId: operatorId, status: "open" })
    expect(staff.after.unread).toBe(0)
    expect(staff.missing._tag).toBe("ChatConversationNotFound")
    expect(await stream.until("event: closed")).toContain(conversationId)
    await stream.close()
    expect(await conversationOf(browser)).toEqual({ id: null, status: "open", messages: [], unread: 0 })
  })

  it("publishes every conversation's events for the back office's live inbox", async () => {
    const { browser } = await newPlayer(server, "chat-all")
    // Subscribed before the message is sent: nothing to wait for.
    const seen = await server.run(
      Effect.scoped(
        Effect.gen(function* () {
          const events = yield* (yield* Chat).allEvents()
          yield* Effect.promise(() => browser.post(`${CHAT}/messages`, { body: "Anyone on duty?" }))
          return yield* events.pipe(
            Stream.filter((e) => e.type === "message" && e.message.body === "Anyone on duty?"),
            Stream.take(1),
            Stream.runCollect,
          )
        }),
      ),
    )
    expect(seen.length).toBe(1)
  })

  it("stores the widget's attributes for staff, only for the session's own player", async () => {
    const { browser, email } = await newPlayer(server, "chat-attrs", "Grace Hopper")
    const users = await server.query<{ id: string }>(`SELECT id::text AS id FROM users WHERE email = $1`, [
      email,
    ])
    const userId = users[0]?.id ?? "missing"
    const ok = await browser.post(`${CHAT}/attributes`, { userId, name: "Grace Hopper" })
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ userId, name: "Grace Hopper" })
    const rows = await server.query<{ attributes: unknown }>(
      `SELECT attributes FROM chat_conversations WHERE user_id = $1 AND status = 'open'`,
      [userId],
    )
    expect(rows[0]?.attributes).toEqual({ userId, name: "Grace Hopper" })
    const foreign = await browser.post(`${CHAT}/attributes`, {
      userId: "00000000-0000-0000-0000-000000000000",
      name: "Someone Else",
    })
    expect(foreign.status).toBe(400)
    const visitor = new Browser(server, uniqueIp())
    expect((await visitor.post(`${CHAT}/attributes`, { userId, name: "x" })).status).toBe(401)
  })

  it("answers the player's identity without a hash when no Chatwoot token is set", async () => {
    const { browser, email } = await newPlayer(server, "chat-identity")
    const rows = await server.query<{ id: string }>(`SELECT id::text AS id FROM users WHERE email = $1`, [
      email,
    ])
    const res = await browser.get(`${CHAT}/identity`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ userId: rows[0]?.id, identifierHash: null })
  })

  it("refuses the stream without an owner, and a write from a foreign origin", async () => {
    const res = await fetch(`${server.url}${CHAT}/events`)
    expect(res.status).toBe(401)
    const { browser } = await newPlayer(server, "chat-origin")
    const foreign = await browser.call(
      "POST",
      `${CHAT}/messages`,
      { body: "hi" },
      { origin: "https://evil.example" },
    )
    expect(foreign.status).toBe(403)
  })

  it("lets support reply through the back-office API with a token, refusing a wrong token or an unknown conversation", async () => {
    const { browser } = await newPlayer(server, "chat-operator")
    await browser.post(`${CHAT}/messages`, { body: "Anyone?" })
    const { id } = await conversationOf(browser)
    const path = (conversation: string) => `${BO}/chat/conversations/${conversation}/reply`
    const ok = await support.call("POST", path(id ?? ""), { body: "Yes, hello!" })
    expect(ok.status).toBe(200)
    expect((await conversationOf(browser)).messages.map((m) => [m.author, m.body])).toEqual([
      ["player", "Anyone?"],
      ["operator", "Yes, hello!"],
    ])
    const wrong = await bearerCall(server.url, "bo_nope", "POST", path(id ?? ""), { body: "x" })
    expect(wrong.status).toBe(401)
    const anonymous = await new Browser(server).post(path(id ?? ""), { body: "x" })
    expect(anonymous.status).toBe(401)
    const noConversation = await support.call("POST", path("00000000-0000-0000-0000-000000000000"), {
      body: "x",
    })
    expect(noConversation.status).toBe(404)
    const blank = await support.call("POST", path(id ?? ""), { body: "  " })
    expect(blank.status).toBe(400)
  })
})
