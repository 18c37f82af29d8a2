/**
 * The payment frame on a real actor with doubles: the fund read by hand, the push channel
 * driven by the test, the simulated clock for the 15 s poll, the settle window and the 10 minutes.
 * What path coverage cannot show: which push closes which frame, the baseline taken from the first
 * read, the toasts, the output the modal host reads, and that leaving stops the push subscription.
 */
import { describe, expect, it } from "vitest"
import { createActor, fromCallback, SimulatedClock } from "xstate"
import { fixtureFund, redirectAnswer } from "../../../machines/wallet/fixtures.ts"
import {
  type IframeEvent,
  IframeMessages,
  iframeMachine,
  SETTLE_MS,
} from "../../../machines/wallet/iframe.machine.ts"
import { MoneyConstants, MoneyMessages } from "../../../services/money-rules.ts"
import type { Fund } from "../../../services/profile-service.ts"
import type { PlayerEvent } from "../../../services/wallet-service.ts"
import { controlled, settle, toastRecorder } from "../account/doubles.ts"

const depositId = redirectAnswer.depositId
const credited: Fund = fixtureFund.map((f) => ({ ...f, balance: "4250" }))

const start = () => {
  const fund = controlled<Fund, unknown>()
  const { toasts, toast } = toastRecorder()
  const clock = new SimulatedClock()
  let push: ((event: PlayerEvent) => void) | undefined
  let subscriptions = 0
  let unsubscribed = 0
  const actor = createActor(
    iframeMachine.provide({
      actors: {
        loadFund: fund.logic,
        pushEvents: fromCallback<IframeEvent>(({ sendBack }) => {
          subscriptions++
          push = (event) => sendBack({ type: "PUSH", event })
          return () => {
            unsubscribed++
          }
        }),
      },
      actions: { toast },
    }),
    { input: { url: redirectAnswer.redirectUrl ?? "", depositId, currency: "EUR" }, clock },
  )
  actor.start()
  return {
    actor,
    fund,
    toasts,
    clock,
    push: (event: PlayerEvent) => {
      if (push === undefined) throw new Error("no push subscription")
      push(event)
    },
    counts: () => ({ subscriptions, unsubscribed }),
  }
}

const depositEvent = (
  status: "completed" | "failed" | "expired" | "pending",
  id = depositId,
): PlayerEvent => ({
  type: "deposit",
  depositId: id,
  status,
  amount: "3000",
  currency: "EUR",
})

describe("the payment frame", () => {
  it("closes credited on its deposit's completed push, with the toast, and stops listening", async () => {
    const { actor, fund, toasts, push, counts } = start()
    fund.last().resolve(fixtureFund)
    await settle()
    expect(actor.getSnapshot().context.baseline).toBe("1250")
    // Another deposit's news and a pending status leave it open.
    push(depositEvent("completed", "someone-else"))
    push(depositEvent("pending"))
    expect(actor.getSnapshot().status).toBe("active")
    push(depositEvent("completed"))
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({ type: "closed", credited: true })
    expect(toasts).toEqual([{ kind: "success", message: MoneyMessages.depositCompleted }])
    expect(counts()).toEqual({ subscriptions: 1, unsubscribed: 1 })
  })

  it("closes declined on a failed or expired push, without a toast (the reopened dialog says why)", async () => {
    for (const status of ["failed", "expired"] as const) {
      const { actor, push, toasts } = start()
      push(depositEvent(status))
      expect(actor.getSnapshot().output).toEqual({ type: "closed", credited: false })
      expect(toasts).toEqual([])
    }
  })

  it("a balance push closes it only once the baseline is known and only for its currency", async () => {
    const { actor, fund, push } = start()
    push({ type: "balance", currency: "EUR", balance: "4250" })
    expect(actor.getSnapshot().status).toBe("active")
    fund.last().resolve(fixtureFund)
    await settle()
    push({ type: "balance", currency: "USD", balance: "999" })
    push({ type: "balance", currency: "EUR", balance: "1250" })
    expect(actor.getSnapshot().status).toBe("active")
    push({ type: "balance", currency: "EUR", balance: "4250" })
    expect(actor.getSnapshot().output).toEqual({ type: "closed", credited: true })
  })

  it("polls the fund every 15 s and closes when the balance moved", async () => {
    const { actor, fund, clock } = start()
    fund.last().resolve(fixtureFund)
    await settle()
    expect(fund.calls).toHaveLength(1)
    clock.increment(MoneyConstants.iframePollMs - 1)
    expect(fund.calls).toHaveLength(1)
    clock.increment(1)
    expect(fund.calls).toHaveLength(2)
    fund.last().resolve(fixtureFund)
    await settle()
    expect(actor.getSnapshot().status).toBe("active")
    clock.increment(MoneyConstants.iframePollMs)
    // A failed read waits for the next poll.
    fund.last().reject(new Error("offline"))
    await settle()
    clock.increment(MoneyConstants.iframePollMs)
    fund.last().resolve(credited)
    await settle()
    expect(actor.getSnapshot().output).toEqual({ type: "closed", credited: true })
  })

  it("the first load is the page; the second (the provider's return) settles, reading the fund once", async () => {
    const { actor, fund, clock, toasts } = start()
    fund.last().resolve(fixtureFund)
    await settle()
    actor.send({ type: "FRAME_LOADED" })
    actor.send({ type: "FRAME_READY" })
    expect(actor.getSnapshot().matches({ open: { frame: "shown" } })).toBe(true)
    actor.send({ type: "FRAME_LOADED" })
    expect(actor.getSnapshot().value).toBe("settling")
    expect(fund.calls).toHaveLength(2)
    fund.last().resolve(fixtureFund)
    await settle()
    expect(actor.getSnapshot().value).toBe("settling")
    // Nothing heard within the window: closed, neither credited nor declined (no toast).
    clock.increment(SETTLE_MS)
    expect(actor.getSnapshot().output).toEqual({ type: "closed", credited: false })
    expect(toasts).toEqual([])
  })

  it("while settling, the credit seen in the fund closes it credited", async () => {
    const { actor, fund } = start()
    fund.last().resolve(fixtureFund)
    await settle()
    // The page may say it is there before its own `load`: that `load` is still not the return.
    actor.send({ type: "FRAME_READY" })
    actor.send({ type: "FRAME_LOADED" })
    expect(actor.getSnapshot().matches({ open: { frame: "shown" } })).toBe(true)
    actor.send({ type: "FRAME_LOADED" })
    fund.last().resolve(credited)
    await settle()
    expect(actor.getSnapshot().output).toEqual({ type: "closed", credited: true })
  })

  it("a page that never says it is there: after 15 s, could not be loaded; Try again loads a new frame", () => {
    const { actor, clock } = start()
    // The browser's error page fires `load` too: it is not the page.
    actor.send({ type: "FRAME_LOADED" })
    clock.increment(15_000 - 1)
    expect(actor.getSnapshot().matches({ open: { frame: "loading" } })).toBe(true)
    clock.increment(1)
    expect(actor.getSnapshot().matches({ open: { frame: "failed" } })).toBe(true)
    expect(actor.getSnapshot().context.frameFailure).toBe("timeout")
    expect(IframeMessages.loadFailed).toBe("The payment page could not be loaded.")
    actor.send({ type: "RETRY" })
    expect(actor.getSnapshot().matches({ open: { frame: "loading" } })).toBe(true)
    expect(actor.getSnapshot().context).toMatchObject({
      frameAttempt: 1,
      frameFailure: null,
      pageLoaded: false,
    })
    // The new frame's page answers: its own `load` is not the return.
    actor.send({ type: "FRAME_READY" })
    actor.send({ type: "FRAME_LOADED" })
    expect(actor.getSnapshot().matches({ open: { frame: "shown" } })).toBe(true)
  })

  it("a frame the browser blocked fails at once, saying so", () => {
    const { actor } = start()
    actor.send({ type: "FRAME_BLOCKED" })
    expect(actor.getSnapshot().matches({ open: { frame: "failed" } })).toBe(true)
    expect(actor.getSnapshot().context.frameFailure).toBe("blocked")
    // The deposit is still followed: its push closes the modal whatever the frame did.
    expect(actor.getSnapshot().status).toBe("active")
  })

  it("closes after 10 minutes whatever happened", () => {
    const { actor, clock } = start()
    clock.increment(MoneyConstants.iframeAutoCloseMs - 1)
    expect(actor.getSnapshot().status).toBe("active")
    clock.increment(1)
    expect(actor.getSnapshot().output).toEqual({ type: "closed", credited: false })
  })
})
