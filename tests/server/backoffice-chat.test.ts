/**
 * The back office's support inbox on PostgreSQL (docs/backoffice.md, "Support inbox"): a support
 * agent lists the open conversations with unread counts and the player's name, reads one with the
 * player's context, replies (the player sees it over GET and live over the chat's SSE stream),
 * assigns, marks read and closes — each change one audit row; bad input is 4xx; the staff event
 * stream passes the guard's checks; a kyc officer may answer too, payments may not.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { newPlayer } from "./account-support.ts"
import { BO, createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { userIdOf } from "./money-support.ts"
import { Browser, uniqueIp } from "./users-support.ts"

const CHAT = "/chat-service/api/v1/chat"
const PASSWORD = "correct horse battery staple"

interface Summary {
  readonly id: string
  readonly status: string
  readonly label: string
  readonly player: { readonly id: string; readonly name: string; readonly email: string } | null
  readonly assignedOperator: { readonly id: string; readonly name: string } | null
  readonly unread: number
  readonly lastBody: string | null
  readonly lastMessageAt: string | null
}

/** An SSE reader with the browser's cookies. */
const sse = async (browser: Browser, path: string) => {
  const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  const res = await fetch(`${browser.server.url}${path}`, { headers: { cookie } })
  if (!res.headers.get("content-type")?.includes("text/event-stream") || res.body === null)
    return {
      status: res.status,
      body: await res.text(),
      until: async () => "",
      ended: async () => true,
      close: async () => {},
    }
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  let text = ""
  const until = async (marker: string): Promise<string> => {
    while (!text.includes(marker)) {
      const chunk = await reader.read()
      if (chunk.done) break
      text += decoder.decode(chunk.value, { stream: true })
    }
    return text
  }
  /** Reads to the end: the server closed the stream. */
  const ended = async (): Promise<boolean> => {
    for (;;) if ((await reader.read()).done) return true
  }
  await until(": connected")
  return { status: res.status, body: "", until, ended, close: () => reader.cancel() }
}

describeOn("postgres", "back office: the support inbox", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  let agent: Browser
  let player: Browser
  let playerId = ""
  let conversationId = ""
  const auditCount = async () =>
    (await server.query<{ n: number }>("SELECT count(*)::int AS n FROM operator_audit"))[0]?.n ?? 0

  beforeAll(async () => {
    // The stream re-checks its session every second here (25 s by default).
    server = await start({
      captchaEnabled: false,
      backofficeClock: clock.read,
      backofficeStreamCheckSeconds: 1,
    })
    await createOperator(server, {
      email: "sam@chat.example",
      role: "support",
      password: PASSWORD,
      name: "Sam",
    })
    await createOperator(server, { email: "kim@chat.example", role: "kyc", password: PASSWORD, name: "Kim" })
    await createOperator(server, { email: "pat@chat.example", role: "payments", password: PASSWORD })
    agent = await signIn(server, clock, "sam@chat.example", PASSWORD)
    const created = await newPlayer(server, "bo-chat", "Grace Hopper")
    player = created.browser
    playerId = await userIdOf(server, created.email)
  }, 120_000)
  afterAll(() => server?.close())

  it("lists the player's conversation with unread messages, the name and the last message", async () => {
    expect((await player.post(`${CHAT}/messages`, { body: "Where is my deposit?" })).status).toBe(200)
    expect((await player.post(`${CHAT}/messages`, { body: "It was 50 EUR" })).status).toBe(200)
    const visitor = new Browser(server, uniqueIp())
    expect((await visitor.post(`${CHAT}/messages`, { body: "Do you take BTC?" })).status).toBe(200)

    const list = await agent.get(`${BO}/chat/conversations`)
    expect(list.status).toBe(200)
    const conversations = (list.body as { conversations: ReadonlyArray<Summary> }).conversations
    const mine = conversations.find((c) => c.player?.id === playerId)
    expect(mine).toMatchObject({
      status: "open",
      label: "Grace Hopper",
      unread: 2,
      lastBody: "It was 50 EUR",
      assignedOperator: null,
    })
    expect(mine?.player?.email).toMatch(/@/)
    expect(mine?.lastMessageAt).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect(conversations.find((c) => c.player === null)).toMatchObject({ label: "Visitor", unread: 1 })
    conversationId = mine?.id ?? ""
  })

  it("reads a conversation with the player's context beside it", async () => {
    const page = await agent.get(`${BO}/chat/conversations/${conversationId}`)
    expect(page.status).toBe(200)
    const body = page.body as {
      messages: ReadonlyArray<{ author: string; body: string }>
      context: { id: string; name: string; kyc: string; wallets: ReadonlyArray<{ currency: string }> }
    }
    expect(body.messages.map((m) => [m.author, m.body])).toEqual([
      ["player", "Where is my deposit?"],
      ["player", "It was 50 EUR"],
    ])
    expect(body.context).toMatchObject({ id: playerId, name: "Grace Hopper", kyc: "none" })
    expect(Array.isArray(body.context.wallets)).toBe(true)
  })

  it("replies: the player sees it over GET and live over the chat stream; one audit row", async () => {
    const stream = await sse(player, `${CHAT}/events`)
    const staff = await sse(agent, `${BO}/chat/events`)
    const before = await auditCount()
    const reply = await agent.post(`${BO}/chat/conversations/${conversationId}/reply`, {
      body: "  I am checking it now.  ",
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({
      author: "operator",
      body: "I am checking it now.",
      operatorName: "Sam",
    })
    expect(await stream.until("I am checking it now.")).toContain("event: message")
    expect(await staff.until("I am checking it now.")).toContain(conversationId)
    await stream.close()
    await staff.close()
    expect((await auditCount()) - before).toBe(1)
    const [row] = await server.query<Record<string, unknown>>(
      "SELECT action, subject, operator_email FROM operator_audit ORDER BY id DESC LIMIT 1",
    )
    expect(row).toEqual({ action: "chat.reply", subject: conversationId, operator_email: "sam@chat.example" })
    const seen = (await player.get(`${CHAT}/conversation`)).body as {
      messages: ReadonlyArray<{ body: string }>
    }
    expect(seen.messages.map((m) => m.body)).toContain("I am checking it now.")
    const page = (await agent.get(`${BO}/chat/conversations/${conversationId}`)).body as {
      messages: ReadonlyArray<{ author: string; operatorName: string | null }>
    }
    expect(page.messages.at(-1)).toMatchObject({ author: "operator", operatorName: "Sam" })
  })

  it("assigns to me and unassigns, marks read, each one audit row", async () => {
    let before = await auditCount()
    const me = await agent.post(`${BO}/chat/conversations/${conversationId}/assign`, { operatorId: "me" })
    expect(me.status).toBe(200)
    expect((me.body as { conversation: Summary }).conversation.assignedOperator?.name).toBe("Sam")
    expect((await auditCount()) - before).toBe(1)

    await player.post(`${CHAT}/messages`, { body: "Thanks!" })
    const page = (await agent.get(`${BO}/chat/conversations/${conversationId}`)).body as {
      conversation: Summary
      messages: ReadonlyArray<{ id: string }>
    }
    expect(page.conversation.unread).toBe(1)
    before = await auditCount()
    const read = await agent.post(`${BO}/chat/conversations/${conversationId}/read`, {
      lastReadId: page.messages.at(-1)?.id,
    })
    expect(read.status).toBe(200)
    expect((read.body as { conversation: Summary }).conversation.unread).toBe(0)
    expect((await auditCount()) - before).toBe(1)

    const none = await agent.post(`${BO}/chat/conversations/${conversationId}/assign`, { operatorId: null })
    expect((none.body as { conversation: Summary }).conversation.assignedOperator).toBeNull()
  })

  it("answers bad input with a 4xx, never a 500, and changes nothing", async () => {
    const before = await auditCount()
    const url = `${BO}/chat/conversations/${conversationId}`
    expect((await agent.post(`${url}/reply`, { body: "" })).status).toBe(400)
    expect((await agent.post(`${url}/reply`, { body: "   " })).status).toBe(400)
    expect((await agent.post(`${url}/reply`, { body: "x".repeat(2001) })).status).toBe(400)
    expect((await agent.post(`${url}/reply`, { body: "a\u0000b" })).status).toBe(400)
    expect((await agent.post(`${url}/reply`, { text: "wrong field" })).status).toBe(400)
    expect((await agent.post(`${url}/assign`, { operatorId: "someone" })).status).toBe(400)
    expect(
      (await agent.post(`${url}/assign`, { operatorId: "00000000-0000-4000-8000-000000000000" })).status,
    ).toBe(404)
    expect((await agent.post(`${url}/read`, { lastReadId: "-1" })).status).toBe(400)
    expect((await agent.get(`${BO}/chat/conversations/not-a-uuid`)).status).toBe(400)
    expect((await agent.get(`${BO}/chat/conversations/00000000-0000-4000-8000-000000000000`)).status).toBe(
      404,
    )
    expect((await agent.get(`${BO}/chat/conversations?status=archived`)).status).toBe(400)
    expect(await auditCount()).toBe(before)
  })

  it("offers canned replies", async () => {
    const canned = await agent.get(`${BO}/chat/canned-replies`)
    expect(canned.status).toBe(200)
    const replies = (canned.body as { replies: ReadonlyArray<{ id: string; title: string; body: string }> })
      .replies
    expect(replies.length).toBeGreaterThan(2)
    expect(replies[0]).toMatchObject({ id: "greeting", title: "Greeting" })
  })

  it("closes: the player's stream hears it, the inbox moves it to closed, a second close is 409", async () => {
    const stream = await sse(player, `${CHAT}/events`)
    const before = await auditCount()
    const closed = await agent.post(`${BO}/chat/conversations/${conversationId}/close`)
    expect(closed.status).toBe(200)
    expect((closed.body as { conversation: Summary }).conversation.status).toBe("closed")
    expect(await stream.until("event: closed")).toContain(conversationId)
    await stream.close()
    expect((await auditCount()) - before).toBe(1)
    const open = (await agent.get(`${BO}/chat/conversations`)).body as {
      conversations: ReadonlyArray<Summary>
    }
    expect(open.conversations.map((c) => c.id)).not.toContain(conversationId)
    const gone = (await agent.get(`${BO}/chat/conversations?status=closed`)).body as {
      conversations: ReadonlyArray<Summary>
    }
    expect(gone.conversations.map((c) => c.id)).toContain(conversationId)
    const again = await agent.post(`${BO}/chat/conversations/${conversationId}/close`)
    expect(again.status).toBe(409)
    const late = await agent.post(`${BO}/chat/conversations/${conversationId}/reply`, { body: "Hello?" })
    expect(late.status).toBe(409)
    expect(await auditCount()).toBe(before + 1)
  })

  it("a kyc officer answers too; payments gets 403 on the calls and the stream; no session is 401", async () => {
    const kim = await signIn(server, clock, "kim@chat.example", PASSWORD)
    expect((await kim.get(`${BO}/chat/conversations`)).status).toBe(200)
    const kimStream = await sse(kim, `${BO}/chat/events`)
    expect(kimStream.status).toBe(200)
    await kimStream.close()

    const pat = await signIn(server, clock, "pat@chat.example", PASSWORD)
    const refused = await pat.get(`${BO}/chat/conversations`)
    expect(refused.status).toBe(403)
    expect((refused.body as { _tag: string })._tag).toBe("Forbidden")
    const patStream = await sse(pat, `${BO}/chat/events`)
    expect(patStream.status).toBe(403)
    expect(JSON.parse(patStream.body)).toMatchObject({ _tag: "Forbidden", permission: "chat.answer" })
    const nobody = await sse(new Browser(server), `${BO}/chat/events`)
    expect(nobody.status).toBe(401)
  })

  it("the staff stream ends with its session (sign-out, idle limit) and does not keep it alive", async () => {
    const kim = await signIn(server, clock, "kim@chat.example", PASSWORD)
    const signedOut = await sse(kim, `${BO}/chat/events`)
    expect((await kim.post(`${BO}/logout`)).status).toBe(200)
    expect(await signedOut.ended()).toBe(true)

    const again = await signIn(server, clock, "kim@chat.example", PASSWORD)
    const idle = await sse(again, `${BO}/chat/events`)
    // 31 minutes with only the stream open: the stream is no use of the session, which ends.
    clock.advance(31 * 60_000)
    expect(await idle.ended()).toBe(true)
    expect((await again.get(`${BO}/me`)).status).toBe(401)
  })
})
