/**
 * The chat widget's answer to a refused send (machines/chat/chatWidget.machine.ts) on a real actor
 * with doubles for its calls: a 429 says to wait, for as long as the server's Retry-After asks, and
 * keeps the draft; a refused body says why.
 */
import { describe, expect, it } from "vitest"
import { createActor, fromCallback, fromPromise } from "xstate"
import { chatWidgetMachine } from "../../../machines/chat/chatWidget.machine.ts"
import type { ChatConversation, ChatMessage } from "../../../services/chat-service.ts"
import { RateLimited, ValidationFailed } from "../../../services/errors.ts"

const empty: ChatConversation = { id: null, status: "open", messages: [], unread: 0 }

const refusedWith = (error: unknown) => {
  const actor = createActor(
    chatWidgetMachine.provide({
      actors: {
        load: fromPromise<ChatConversation>(async () => empty),
        send: fromPromise<ChatMessage, string>(async () => {
          throw error
        }),
        stream: fromCallback(() => () => undefined),
      },
    }),
    { input: { provider: "builtin", user: null } },
  )
  actor.start()
  return actor
}

const sendDraft = async (error: unknown) => {
  const actor = refusedWith(error)
  actor.send({ type: "OPEN" })
  await new Promise((resolve) => setTimeout(resolve, 0))
  actor.send({ type: "EDIT", value: "Where is my deposit?" })
  actor.send({ type: "SEND" })
  await new Promise((resolve) => setTimeout(resolve, 0))
  const snapshot = actor.getSnapshot()
  actor.stop()
  return snapshot
}

describe("chat widget: a refused send", () => {
  it.each([
    [1, "Too many messages for now. Please try again in 1 second."],
    [45, "Too many messages for now. Please try again in 45 seconds."],
    [119, "Too many messages for now. Please try again in 119 seconds."],
    [120, "Too many messages for now. Please try again in 2 minutes."],
    [3599, "Too many messages for now. Please try again in 60 minutes."],
  ])("429 with Retry-After %i: %s", async (seconds, text) => {
    const snapshot = await sendDraft(
      new RateLimited({ message: "Too many attempts, please try again later.", retryAfterSeconds: seconds }),
    )
    expect(snapshot.matches({ active: { panel: { open: "sendFailed" } } })).toBe(true)
    expect(snapshot.context.error).toBe(text)
    expect(snapshot.context.draft).toBe("Where is my deposit?")
  })

  it("a refused body shows the server's reason", async () => {
    const snapshot = await sendDraft(
      new ValidationFailed({ message: "Write a message first.", field: "body" }),
    )
    expect(snapshot.context.error).toBe("Write a message first.")
  })

  it("a lost call asks to check the connection", async () => {
    const snapshot = await sendDraft(new TypeError("fetch failed"))
    expect(snapshot.context.error).toBe("Your message was not sent. Check your connection and try again.")
  })
})
