/**
 * The withdrawals tab on a real actor: the list loads; a `withdrawal` push event reads it
 * again (a rejection shows with its reason), any other event does not; the stream (re)opening reads it
 * again (a change it never sent); a failed refresh keeps the list; a 401 ends the tab.
 */
import { describe, expect, it } from "vitest"
import { createActor, fromCallback } from "xstate"
import { fixtureWithdrawals, requestedWithdrawal } from "../../../machines/wallet/cashoutFixtures.ts"
import { type WithdrawalsEvent, withdrawalsMachine } from "../../../machines/wallet/withdrawals.machine.ts"
import type { Withdrawals } from "../../../services/cashout-service.ts"
import { Unauthenticated } from "../../../services/errors.ts"
import type { PlayerEvent } from "../../../services/wallet-service.ts"
import { controlled, settle } from "../account/doubles.ts"

const start = () => {
  const load = controlled<Withdrawals, unknown>()
  let push: (event: PlayerEvent) => void = () => {
    throw new Error("not subscribed")
  }
  let open: () => void = () => {
    throw new Error("not subscribed")
  }
  const actor = createActor(
    withdrawalsMachine.provide({
      actors: {
        load: load.logic,
        pushEvents: fromCallback<WithdrawalsEvent>(({ sendBack }) => {
          push = (event) => sendBack({ type: "PUSH", event })
          open = () => sendBack({ type: "STREAM_OPENED" })
          return () => {}
        }),
      },
    }),
  )
  actor.start()
  return { actor, load, push: (event: PlayerEvent) => push(event), open: () => open() }
}

const rejected = {
  ...requestedWithdrawal,
  status: "rejected" as const,
  reason: "Documents expired",
  timeline: [
    ...requestedWithdrawal.timeline,
    { status: "rejected" as const, at: "2026-11-23T07:10:00.000Z", note: "Documents expired" },
  ],
}

describe("the withdrawals tab", () => {
  it("reads the list again on a withdrawal event, not on a balance event", async () => {
    const { actor, load, push } = start()
    load.last().resolve([requestedWithdrawal])
    await settle()
    expect(actor.getSnapshot().context.withdrawals).toEqual([requestedWithdrawal])
    push({ type: "balance", currency: "EUR", balance: "5000" })
    expect(load.calls).toHaveLength(1)
    push({
      type: "withdrawal",
      id: requestedWithdrawal.id,
      currency: "EUR",
      amount: "2500",
      status: "rejected",
    })
    expect(load.calls).toHaveLength(2)
    // The list stays shown while it is read again.
    expect(actor.getSnapshot().context.withdrawals).toEqual([requestedWithdrawal])
    load.last().resolve([rejected])
    await settle()
    expect(actor.getSnapshot().matches("ready")).toBe(true)
    expect(actor.getSnapshot().context.withdrawals[0]?.reason).toBe("Documents expired")
  })

  it("a second event during a refresh reads once more; a failed refresh keeps the list", async () => {
    const { actor, load, push } = start()
    load.last().resolve(fixtureWithdrawals)
    await settle()
    const event: PlayerEvent = { type: "withdrawal", id: "x", currency: "EUR", amount: "1", status: "paid" }
    push(event)
    push(event)
    expect(load.calls).toHaveLength(3)
    expect(load.calls[1]?.signal.aborted).toBe(true)
    load.last().reject(new Error("offline"))
    await settle()
    expect(actor.getSnapshot().matches("ready")).toBe(true)
    expect(actor.getSnapshot().context.withdrawals).toEqual(fixtureWithdrawals)
  })

  it("the stream opening late reads the list again: the change it never sent shows", async () => {
    const { actor, load, open } = start()
    // Opened while the first read runs: that read may predate the change; it starts over.
    open()
    expect(load.calls).toHaveLength(2)
    expect(load.calls[0]?.signal.aborted).toBe(true)
    load.last().resolve([requestedWithdrawal])
    await settle()
    // Reopened after a drop, while the list is shown: read again, the list kept meanwhile.
    open()
    expect(load.calls).toHaveLength(3)
    expect(actor.getSnapshot().context.withdrawals).toEqual([requestedWithdrawal])
    load.last().resolve([rejected])
    await settle()
    expect(actor.getSnapshot().matches("ready")).toBe(true)
    expect(actor.getSnapshot().context.withdrawals[0]?.status).toBe("rejected")
  })

  it("a 401 ends the tab", async () => {
    const { actor, load } = start()
    load.last().reject(new Unauthenticated({ message: "gone" }))
    await settle()
    expect(actor.getSnapshot().status).toBe("done")
  })
})
