/**
 * The crypto form on a real actor with doubles: the address and history calls settled by
 * hand, the clipboard a double, the push channel driven by the test, the simulated clock for the 2 s
 * copy feedback. What path coverage cannot show: what is copied, that "Copied" lasts exactly the
 * spec's 2 s (and restarts on a second copy), that pushes update the list in place (pending with its
 * confirmations counting up, then credited), ignore other currencies and stale pushes, merge with the
 * loaded history (the later state wins), are caught up on when the stream reopens, and that leaving
 * the form stops the subscription.
 */
import { describe, expect, it } from "vitest"
import { createActor, fromCallback, fromPromise, SimulatedClock } from "xstate"
import {
  type CryptoDepositEvent,
  cryptoDepositMachine,
} from "../../../machines/wallet/cryptoDeposit.machine.ts"
import {
  applyPush,
  type CryptoDepositPush,
  confirmationsText,
  feeText,
  minimumWarning,
} from "../../../machines/wallet/cryptoSupport.ts"
import {
  fixtureCryptoCurrencies,
  fixtureCryptoHistory,
  usdtAddress,
} from "../../../machines/wallet/fixtures.ts"
import type { CryptoDepositAddress, CryptoHistory } from "../../../services/crypto-service.ts"
import { CurrencyNotSupported, Unauthenticated } from "../../../services/errors.ts"
import type { PlayerEvent } from "../../../services/wallet-service.ts"
import { controlled, settle } from "../account/doubles.ts"

const start = (clipboard: { fail?: boolean } = {}) => {
  const address = controlled<CryptoDepositAddress, { currency: string; promotionCoupon: string | null }>()
  const history = controlled<CryptoHistory, { from: string; to: string }>()
  const copied: Array<string> = []
  const clock = new SimulatedClock()
  let push: ((event: PlayerEvent) => void) | undefined
  let open: (() => void) | undefined
  let unsubscribed = 0
  const actor = createActor(
    cryptoDepositMachine.provide({
      actors: {
        requestAddress: address.logic,
        loadTransfers: history.logic,
        copyText: fromPromise<void, string>(async ({ input }) => {
          if (clipboard.fail === true) throw new Error("NotAllowedError")
          copied.push(input)
        }),
        pushEvents: fromCallback<CryptoDepositEvent>(({ sendBack }) => {
          push = (event) => sendBack({ type: "PUSH", event })
          open = () => sendBack({ type: "STREAM_OPENED" })
          return () => {
            unsubscribed++
          }
        }),
      },
    }),
    {
      input: {
        currency: "USDT",
        currencies: fixtureCryptoCurrencies,
        promotionCoupon: "WELCOME",
        today: "2026-11-23",
      },
      clock,
    },
  )
  actor.start()
  return {
    actor,
    address,
    history,
    copied,
    clock,
    push: (event: PlayerEvent) => {
      if (push === undefined) throw new Error("no push subscription")
      push(event)
    },
    open: () => {
      if (open === undefined) throw new Error("no push subscription")
      open()
    },
    unsubscribed: () => unsubscribed,
  }
}

const pushOf = (confirmations: number, status: string, id = "t1"): CryptoDepositPush => ({
  type: "cryptoDeposit",
  id,
  currency: "USDT",
  txHash: `0x${id}`,
  amount: "12000000",
  confirmations,
  requiredConfirmations: 3,
  status,
})

const ready = async () => {
  const form = start()
  expect(form.address.last().input).toEqual({ currency: "USDT", promotionCoupon: "WELCOME" })
  form.address.last().resolve(usdtAddress)
  await settle()
  return form
}

/** Spec section 9: clipboard copy feedback 2 s. */
const COPY_FEEDBACK_MS_SPEC = 2_000

describe("the crypto form", () => {
  it("a currency the casino takes no deposits in shows the server's reason, and no Try again", async () => {
    const form = start()
    form.address
      .last()
      .reject(
        new CurrencyNotSupported({ message: "USDT deposits are not available right now.", currency: "USDT" }),
      )
    await settle()
    const snapshot = form.actor.getSnapshot()
    expect(snapshot.matches("unavailable")).toBe(true)
    expect(snapshot.context.unavailable).toBe("USDT deposits are not available right now.")
    expect(snapshot.can({ type: "RETRY" })).toBe(false)
    // Any other failure still offers Try again.
    const other = start()
    other.address.last().reject(new Error("offline"))
    await settle()
    expect(other.actor.getSnapshot().matches("failed")).toBe(true)
    expect(other.actor.getSnapshot().can({ type: "RETRY" })).toBe(true)
  })

  it("asks for the address with the bonus code, then loads the last 30 days' transfers", async () => {
    const { actor, history } = await ready()
    expect(actor.getSnapshot().context.address).toEqual(usdtAddress)
    expect(history.last().input).toEqual({ from: "2026-10-25", to: "2026-11-23" })
    history.last().resolve(fixtureCryptoHistory)
    await settle()
    // Only the USDT transfer to this address (case-insensitive), not the BTC one.
    expect(actor.getSnapshot().context.transfers.map((t) => t.id)).toEqual(["c1"])
  })

  it("copies the address; Copied lasts 2 s, and a second copy restarts the 2 s", async () => {
    const { actor, copied, clock } = await ready()
    actor.send({ type: "COPY" })
    await settle()
    expect(copied).toEqual([usdtAddress.address])
    expect(actor.getSnapshot().matches({ ready: { copy: "copied" } })).toBe(true)
    clock.increment(COPY_FEEDBACK_MS_SPEC - 1)
    expect(actor.getSnapshot().matches({ ready: { copy: "copied" } })).toBe(true)
    actor.send({ type: "COPY" })
    await settle()
    expect(copied).toHaveLength(2)
    clock.increment(COPY_FEEDBACK_MS_SPEC - 1)
    expect(actor.getSnapshot().matches({ ready: { copy: "copied" } })).toBe(true)
    clock.increment(1)
    expect(actor.getSnapshot().matches({ ready: { copy: "idle" } })).toBe(true)
  })

  it("a refused clipboard says so for 2 s", async () => {
    const form = start({ fail: true })
    form.address.last().resolve(usdtAddress)
    await settle()
    form.actor.send({ type: "COPY" })
    await settle()
    expect(form.actor.getSnapshot().matches({ ready: { copy: "copyFailed" } })).toBe(true)
    form.clock.increment(COPY_FEEDBACK_MS_SPEC)
    expect(form.actor.getSnapshot().matches({ ready: { copy: "idle" } })).toBe(true)
  })

  it("shows a deposit pending with its confirmations counting up, then credited", async () => {
    const { actor, push, history } = await ready()
    history.last().resolve([])
    await settle()
    push(pushOf(0, "pending"))
    expect(actor.getSnapshot().context.transfers).toMatchObject([
      { id: "t1", confirmations: 0, status: "pending" },
    ])
    push(pushOf(2, "pending"))
    expect(confirmationsText(actor.getSnapshot().context.transfers[0] ?? pushOf(0, ""))).toBe(
      "2 of 3 confirmations",
    )
    // A late push with fewer confirmations does not count down.
    push(pushOf(1, "pending"))
    expect(actor.getSnapshot().context.transfers[0]?.confirmations).toBe(2)
    push(pushOf(3, "credited"))
    expect(actor.getSnapshot().context.transfers).toMatchObject([{ id: "t1", status: "credited" }])
    // Another currency's deposit and a balance are not this form's.
    push({ ...pushOf(1, "pending", "t2"), currency: "BTC" })
    push({ type: "balance", currency: "USDT", balance: "12000000" })
    expect(actor.getSnapshot().context.transfers).toHaveLength(1)
  })

  it("a push that arrived while the history loaded wins over the history's older row", async () => {
    const { actor, push, history } = await ready()
    push({ ...pushOf(3, "credited", "c1") })
    push(pushOf(1, "pending", "t9"))
    history
      .last()
      .resolve([{ ...fixtureCryptoHistory[0], confirmations: 1, status: "pending" } as CryptoHistory[0]])
    await settle()
    expect(actor.getSnapshot().context.transfers.map((t) => [t.id, t.status])).toEqual([
      ["t9", "pending"],
      ["c1", "credited"],
    ])
  })

  it("reads the transfers again when the stream (re)opens: a change it never sent shows", async () => {
    const { actor, push, open, history } = await ready()
    // Opened while the first read runs: that read starts over.
    open()
    expect(history.calls).toHaveLength(2)
    expect(history.calls[0]?.signal.aborted).toBe(true)
    history.last().resolve([])
    await settle()
    push(pushOf(1, "pending", "c1"))
    // The stream dropped and reopened: the credit it sent meanwhile was lost; the list is read again.
    open()
    expect(history.calls).toHaveLength(3)
    expect(actor.getSnapshot().matches({ ready: { transfers: "loading" } })).toBe(true)
    history.last().resolve(fixtureCryptoHistory)
    await settle()
    expect(actor.getSnapshot().context.transfers).toMatchObject([{ id: "c1", status: "credited" }])
    expect(actor.getSnapshot().matches({ ready: { transfers: "live" } })).toBe(true)
  })

  it("opens a purchase widget and goes back; an unknown one is refused", async () => {
    const { actor } = await ready()
    actor.send({ type: "TAB", tab: "buy" })
    actor.send({ type: "CHOOSE_WIDGET", id: "nope" })
    expect(actor.getSnapshot().matches({ ready: { buy: "list" } })).toBe(true)
    actor.send({ type: "CHOOSE_WIDGET", id: "moonpay" })
    expect(actor.getSnapshot().context.widget?.url).toBe("/sandbox-onramp/moonpay?currency=USDT")
    actor.send({ type: "WIDGETS" })
    expect(actor.getSnapshot().context.widget).toBeNull()
  })

  it("ends on a gone session; stops listening when it ends", async () => {
    const { actor, history, unsubscribed } = await ready()
    history.last().reject(new Unauthenticated({ message: "Session expired" }))
    await settle()
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({ type: "sessionEnded" })
    expect(unsubscribed()).toBe(1)
  })
})

describe("crypto rules of the form", () => {
  it("the minimum warning formats minDeposit in the currency's unit with its display name", () => {
    expect(minimumWarning(fixtureCryptoCurrencies, usdtAddress)).toBe("Minimum deposit: 10.00 USDT (Erc20)")
  })

  it("fees in basis points, without floats", () => {
    expect(feeText(500)).toBe("5 %")
    expect(feeText(450)).toBe("4.5 %")
    expect(feeText(125)).toBe("1.25 %")
  })

  it("a credited transfer never goes back to pending", () => {
    const credited = applyPush([], pushOf(3, "credited"))
    expect(applyPush(credited, pushOf(2, "pending"))).toBe(credited)
  })
})
