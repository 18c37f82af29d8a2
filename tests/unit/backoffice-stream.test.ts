/**
 * Actor-level tests of the support inbox's live stream (machines/backoffice/backofficeStream) with a
 * stream double and a simulated clock: what it tells the inbox to reload, that leaving the stream
 * closes it, the backoff before a reopen, and a 401 ending it. The path tests cover the graph; these
 * check the payloads and the timing the graph does not show.
 */
import { describe, expect, it } from "vitest"
import { createActor, fromCallback, fromPromise, SimulatedClock } from "xstate"
import {
  backoffMs,
  concerns,
  type StreamChanged,
  type StreamEvent,
  streamMachine,
} from "../../machines/backoffice/backofficeStream.machine.ts"
import { kycOfficer } from "../../machines/flowFixtures.ts"
import type { Me } from "../../services/backoffice/operators.ts"
import type { ChatEvent } from "../../services/chat-service.ts"
import { Unauthenticated } from "../../services/errors.ts"

const A = "5b0c3f4e-3a51-4d6b-9d1e-0d6f3c2a1b10"
const B = "0e9d6c1a-2b3f-4c5d-8e7f-a1b2c3d4e5f6"

const message = (conversationId: string, id: string): ChatEvent => ({
  type: "message",
  conversationId,
  message: { id, author: "player", body: "Hello?", createdAt: "2026-11-28T10:00:00.000Z" },
})

const start = () => {
  const clock = new SimulatedClock()
  const opened: Array<(event: StreamEvent) => void> = []
  let closed = 0
  const checks: Array<{ resolve: (me: Me) => void; reject: (error: unknown) => void }> = []
  const actor = createActor(
    streamMachine.provide({
      actors: {
        stream: fromCallback<StreamEvent>(({ sendBack }) => {
          opened.push(sendBack)
          return () => {
            closed += 1
          }
        }),
        session: fromPromise<Me>(
          () => new Promise<Me>((resolve, reject) => checks.push({ resolve, reject })),
        ),
      },
    }),
    { clock },
  )
  const changes: Array<StreamChanged["conversationIds"]> = []
  actor.on("changed", (event) => changes.push(event.conversationIds))
  actor.start()
  /** What the newest EventSource double tells the machine. */
  const server = (event: StreamEvent) => opened.at(-1)?.(event)
  return { actor, clock, opened, closedCount: () => closed, checks, changes, server }
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

describe("backofficeStream", () => {
  it("reloads everything when the stream opens, then once per burst with the conversations it touched", () => {
    const { actor, clock, changes, server } = start()
    expect(actor.getSnapshot().matches({ streaming: "connecting" })).toBe(true)
    server({ type: "STREAM_OPEN" })
    expect(changes).toEqual([null])
    server({ type: "STREAM_EVENT", event: message(A, "1") })
    server({ type: "STREAM_EVENT", event: message(B, "2") })
    server({ type: "STREAM_EVENT", event: { type: "closed", conversationId: A } })
    expect(changes).toEqual([null])
    clock.increment(250)
    expect(changes).toEqual([null, [A, B]])
    server({ type: "STREAM_EVENT", event: message(B, "3") })
    clock.increment(250)
    expect(changes).toEqual([null, [A, B], [B]])
    expect(actor.getSnapshot().matches({ streaming: { connected: "idle" } })).toBe(true)
  })

  it("a drop mid-burst still reloads what was noted, closes the stream, and reopens after the backoff", async () => {
    const { actor, clock, opened, closedCount, checks, changes, server } = start()
    server({ type: "STREAM_OPEN" })
    server({ type: "STREAM_EVENT", event: message(A, "1") })
    server({ type: "STREAM_DROP" })
    expect(changes).toEqual([null, [A]])
    expect(closedCount()).toBe(1)
    expect(actor.getSnapshot().matches({ reconnecting: "checking" })).toBe(true)

    checks[0]?.resolve(kycOfficer)
    await settled()
    expect(actor.getSnapshot().matches({ reconnecting: "waiting" })).toBe(true)
    clock.increment(999)
    expect(opened).toHaveLength(1)
    clock.increment(1)
    expect(opened).toHaveLength(2)
    expect(actor.getSnapshot().matches({ streaming: "connecting" })).toBe(true)

    // Refused again before opening: the second wait is twice as long.
    server({ type: "STREAM_DROP" })
    checks[1]?.resolve(kycOfficer)
    await settled()
    clock.increment(1999)
    expect(opened).toHaveLength(2)
    clock.increment(1)
    expect(opened).toHaveLength(3)

    // Open again: the next drop starts from 1 s.
    server({ type: "STREAM_OPEN" })
    expect(changes).toEqual([null, [A], null])
    server({ type: "STREAM_DROP" })
    checks[2]?.resolve(kycOfficer)
    await settled()
    clock.increment(1000)
    expect(opened).toHaveLength(4)
  })

  it("a stream that does not open in 15 s is dropped and tried again", () => {
    const { actor, clock, closedCount } = start()
    clock.increment(14_999)
    expect(actor.getSnapshot().matches({ streaming: "connecting" })).toBe(true)
    clock.increment(1)
    expect(closedCount()).toBe(1)
    expect(actor.getSnapshot().matches({ reconnecting: "checking" })).toBe(true)
  })

  it("ends in signedOut when the session answers 401 after a refusal", async () => {
    const { actor, checks, server } = start()
    server({ type: "STREAM_DROP" })
    checks[0]?.reject(new Unauthenticated({ message: "Sign in to the back office." }))
    await settled()
    expect(actor.getSnapshot().value).toBe("signedOut")
    expect(actor.getSnapshot().status).toBe("done")
  })

  it("without EventSource it stops instead of failing", () => {
    const actor = createActor(
      streamMachine.provide({
        actors: {
          stream: fromCallback(() => {
            throw new Error("EventSource is not available")
          }),
        },
      }),
    ).start()
    expect(actor.getSnapshot().value).toBe("stopped")
    expect(actor.getSnapshot().status).toBe("active")
  })

  it("backs off 1 s, 2 s, 4 s … up to 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(backoffMs)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ])
  })

  it("a change concerns the conversations it names, or every one when it names none", () => {
    expect(concerns({ type: "changed", conversationIds: [A] }, A)).toBe(true)
    expect(concerns({ type: "changed", conversationIds: [A] }, B)).toBe(false)
    expect(concerns({ type: "changed", conversationIds: null }, B)).toBe(true)
  })
})
