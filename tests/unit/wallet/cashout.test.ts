/**
 * The cashout on a real actor with controlled doubles: the amount prefilled with
 * minWithdraw once loaded; the click's checks in the spec's order; the requests each path makes
 * (crypto, Skrill, bank e-mail) in minor units; the toasts; the refusals' messages; the verification
 * message leading to /profile/verification; closing clears the content at once and resets the form
 * after exactly 500 ms (SimulatedClock).
 */
import { describe, expect, it } from "vitest"
import { createActor, fromPromise, SimulatedClock, waitFor } from "xstate"
import { fixtureCurrencies, transportError } from "../../../machines/flowFixtures.ts"
import { fixtureProfile } from "../../../machines/profile/fixtures.ts"
import {
  type CashoutBasics,
  CashoutLoadFailed,
  cashoutMachine,
  forfeitQuestion,
  type WithdrawRequest,
} from "../../../machines/wallet/cashout.machine.ts"
import {
  btcCashoutBasics,
  cashoutFund,
  eurCashoutBasics,
  eurCashoutBonus,
  requestedWithdrawal,
} from "../../../machines/wallet/cashoutFixtures.ts"
import { CashoutMessages } from "../../../services/cashout-rules.ts"
import type { Withdrawal } from "../../../services/cashout-service.ts"
import { BonusForfeitRequired, InvalidAddress, WithdrawDailyLimitReached } from "../../../services/errors.ts"
import type { Fund } from "../../../services/profile-service.ts"
import { controlled, settle, toastRecorder } from "../account/doubles.ts"

const start = (
  basics: (currency: string | null) => Promise<CashoutBasics> = async (currency) =>
    currency === "BTC" ? btcCashoutBasics : eurCashoutBasics,
  clock?: SimulatedClock,
  fund: Fund | null = cashoutFund,
) => {
  const withdraw = controlled<Withdrawal, WithdrawRequest>()
  const { toasts, toast } = toastRecorder()
  const loads: Array<string | null> = []
  const actor = createActor(
    cashoutMachine.provide({
      actors: {
        loadBasics: fromPromise(({ input }: { input: string | null }) => {
          loads.push(input)
          return basics(input)
        }),
        withdraw: withdraw.logic,
      },
      actions: { toast },
    }),
    {
      input: { currencies: fixtureCurrencies, fund, profile: fixtureProfile },
      // The system clock unless the test drives time itself.
      ...(clock === undefined ? {} : { clock }),
    },
  )
  actor.start()
  return { actor, withdraw, toasts, loads }
}

describe("opened before the session read its fund", () => {
  it("the first load reads it: the selector lists the player's wallets, the default one chosen", async () => {
    // The fund as the load reads it: BTC is this player's default wallet.
    const read: Fund = [
      { currency: "EUR", default: false, balance: "50000", freeSpinWallet: null },
      { currency: "BTC", default: true, balance: "5000000", freeSpinWallet: null },
    ]
    const { actor, loads } = start(
      async (currency) =>
        currency === null ? { ...btcCashoutBasics, fund: { fund: read, currency: "BTC" } } : eurCashoutBasics,
      undefined,
      null,
    )
    expect(actor.getSnapshot().context.wallets).toEqual([])
    await waitFor(actor, (s) => s.matches({ form: "ready" }))
    expect(loads).toEqual([null])
    expect(actor.getSnapshot().context).toMatchObject({
      wallets: ["EUR", "BTC"],
      currency: "BTC",
      fundKnown: true,
      minWithdraw: "100000",
      amountText: "0.001",
    })
    // From then on a currency change loads that currency, as with a known fund.
    actor.send({ type: "CURRENCY", currency: "EUR" })
    await waitFor(actor, (s) => s.matches({ form: "ready" }) && s.context.currency === "EUR")
    expect(loads).toEqual([null, "EUR"])
  })
})

describe("the amount step", () => {
  it("loads the default wallet's minimum and prefills the amount with it", async () => {
    const { actor, loads } = start()
    expect(actor.getSnapshot().context.amountText).toBe("")
    await settle()
    expect(loads).toEqual(["EUR"])
    expect(actor.getSnapshot().matches({ form: "ready" })).toBe(true)
    expect(actor.getSnapshot().context.amountText).toBe("10.00")
  })

  it("loads again for another wallet, refuses a currency the player has no wallet in", async () => {
    const { actor, loads } = start()
    await settle()
    actor.send({ type: "CURRENCY", currency: "USD" })
    expect(actor.getSnapshot().context.currency).toBe("EUR")
    actor.send({ type: "CURRENCY", currency: "BTC" })
    await settle()
    expect(loads).toEqual(["EUR", "BTC"])
    expect(actor.getSnapshot().context.amountText).toBe("0.001")
  })

  it("says 'Get Withdrawable did not work' when the withdrawable cannot be read, and tries again", async () => {
    let fail = true
    const { actor } = start(async () => {
      if (fail) throw new CashoutLoadFailed("withdrawable", transportError())
      return eurCashoutBasics
    })
    await settle()
    expect(actor.getSnapshot().matches({ form: "failed" })).toBe(true)
    expect(actor.getSnapshot().context.loadError).toBe(CashoutMessages.withdrawableFailed)
    fail = false
    actor.send({ type: "RETRY" })
    await settle()
    expect(actor.getSnapshot().matches({ form: "ready" })).toBe(true)
  })
})

describe("the click's checks, in the spec's order", () => {
  it("below the minimum nothing happens, even when the player is not verified either", async () => {
    const { actor, withdraw } = start(async () => ({ ...eurCashoutBasics, verified: false }))
    await settle()
    actor.send({ type: "AMOUNT", value: "9.99" })
    const before = actor.getSnapshot()
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().value).toEqual(before.value)
    expect(actor.getSnapshot().context.failed).toBeNull()
    expect(withdraw.calls).toHaveLength(0)
  })

  it("not verified comes before not enough money; its message ends the flow towards verification", async () => {
    const { actor } = start(async () => ({ ...eurCashoutBasics, verified: false, withdrawable: "0" }))
    await settle()
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().context.failed).toBe("notVerified")
    actor.send({ type: "VERIFY" })
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({ type: "verificationNeeded" })
  })

  it("not enough money comes before an empty address", async () => {
    const { actor } = start()
    await settle()
    actor.send({ type: "CURRENCY", currency: "BTC" })
    await settle()
    actor.send({ type: "AMOUNT", value: "0.06" })
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().context.failed).toBe("notEnoughMoney")
    actor.send({ type: "AMOUNT", value: "0.05" })
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().context.failed).toBe("destinationMissing")
  })
})

describe("the requests", () => {
  it("crypto: sends the address and the amount in satoshi, toasts, and closes", async () => {
    const { actor, withdraw, toasts } = start()
    await settle()
    actor.send({ type: "CURRENCY", currency: "BTC" })
    await settle()
    actor.send({ type: "AMOUNT", value: "0.0125" })
    actor.send({ type: "ADDRESS", value: "  bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu " })
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().matches("sending")).toBe(true)
    expect(withdraw.last().input).toEqual({
      kind: "crypto",
      payload: { amount: "1250000", currency: "BTC", address: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu" },
    })
    withdraw.last().resolve(requestedWithdrawal)
    await settle()
    expect(toasts).toEqual([{ kind: "success", message: CashoutMessages.requestSent }])
    expect(actor.getSnapshot().matches("closing")).toBe(true)
  })

  it("fiat: the payment-wallet tab posts Skrill, the Bank Account tab asks for its e-mail first", async () => {
    const { actor, withdraw } = start()
    await settle()
    actor.send({ type: "AMOUNT", value: "25,50" })
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().matches("fiat")).toBe(true)
    actor.send({ type: "TAB", tab: "bank" })
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().context.failed).toBe("destinationMissing")
    expect(withdraw.calls).toHaveLength(0)
    actor.send({ type: "EMAIL", value: "ada@bank.example" })
    actor.send({ type: "CASHOUT" })
    expect(withdraw.last().input).toEqual({
      kind: "bank",
      payload: { amount: "2550", currency: "EUR", email: "ada@bank.example" },
    })
    withdraw
      .last()
      .reject(new WithdrawDailyLimitReached({ message: "cap", remaining: "1500", currency: "EUR" }))
    await settle()
    // A refusal goes back to the step it came from, with its message.
    expect(actor.getSnapshot().matches("fiat")).toBe(true)
    expect(actor.getSnapshot().context.message).toBe(CashoutMessages.dailyLimit("15.00", "EUR"))
    actor.send({ type: "TAB", tab: "wallet" })
    actor.send({ type: "CASHOUT" })
    expect(withdraw.last().input).toEqual({ kind: "skrill", payload: { amount: "2550", currency: "EUR" } })
  })

  it("a refused address shows on the amount step; the network's failure toasts and closes", async () => {
    const { actor, withdraw, toasts } = start()
    await settle()
    actor.send({ type: "CURRENCY", currency: "BTC" })
    await settle()
    actor.send({ type: "ADDRESS", value: "not-an-address" })
    actor.send({ type: "CASHOUT" })
    withdraw.last().reject(new InvalidAddress({ message: "checksum", currency: "BTC" }))
    await settle()
    expect(actor.getSnapshot().matches({ form: "ready" })).toBe(true)
    expect(actor.getSnapshot().context.message).toBe(CashoutMessages.invalidAddress("BTC"))
    actor.send({ type: "CASHOUT" })
    withdraw.last().reject(transportError())
    await settle()
    expect(toasts).toEqual([{ kind: "error", message: CashoutMessages.requestFailed }])
    expect(actor.getSnapshot().matches("closing")).toBe(true)
  })
})

describe("an active bonus", () => {
  const withBonus = async (currency: string | null) =>
    currency === "BTC"
      ? { ...btcCashoutBasics, bonus: { ...eurCashoutBonus, balance: "150000" } }
      : { ...eurCashoutBasics, bonus: eurCashoutBonus }

  it("fiat: after the checks, asks what the cashout forfeits; Keep goes back, Confirm sends the consent", async () => {
    const { actor, withdraw } = start(withBonus)
    await settle()
    actor.send({ type: "AMOUNT", value: "25" })
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().matches("fiat")).toBe(true)
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().matches("forfeit")).toBe(true)
    expect(withdraw.calls).toHaveLength(0)
    expect(forfeitQuestion(actor.getSnapshot().context)).toBe(
      "You have an active bonus (Welcome bonus). Cashing out now forfeits it: 37.50 EUR of bonus money goes back to the casino. Your cash is not touched.",
    )
    actor.send({ type: "BACK" })
    expect(actor.getSnapshot().matches("fiat")).toBe(true)
    actor.send({ type: "CASHOUT" })
    actor.send({ type: "CONFIRM" })
    expect(actor.getSnapshot().matches("sending")).toBe(true)
    expect(withdraw.last().input).toEqual({
      kind: "skrill",
      payload: { amount: "2500", currency: "EUR", forfeitBonus: true },
    })
  })

  it("crypto: the question comes from the amount step and Keep returns there", async () => {
    const { actor, withdraw } = start(withBonus)
    await settle()
    actor.send({ type: "CURRENCY", currency: "BTC" })
    await settle()
    actor.send({ type: "ADDRESS", value: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu" })
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().matches("forfeit")).toBe(true)
    expect(forfeitQuestion(actor.getSnapshot().context)).toBe(
      "You have an active bonus (Welcome bonus). Cashing out now forfeits it: 0.0015 BTC of bonus money goes back to the casino. Your cash is not touched.",
    )
    actor.send({ type: "BACK" })
    expect(actor.getSnapshot().matches({ form: "ready" })).toBe(true)
    expect(withdraw.calls).toHaveLength(0)
  })

  it("a bonus the step did not know: the server asks, the same question follows, a refusal asks again", async () => {
    const { actor, withdraw } = start()
    await settle()
    actor.send({ type: "CASHOUT" })
    actor.send({ type: "CASHOUT" })
    expect(withdraw.last().input).toEqual({ kind: "skrill", payload: { amount: "1000", currency: "EUR" } })
    withdraw.last().reject(
      new BonusForfeitRequired({
        message: "asked",
        currency: "EUR",
        bonusId: eurCashoutBonus.id,
        name: "Welcome bonus",
        bonusBalance: "3750",
      }),
    )
    await settle()
    expect(actor.getSnapshot().matches("forfeit")).toBe(true)
    expect(forfeitQuestion(actor.getSnapshot().context)).toContain("37.50 EUR of bonus money")
    actor.send({ type: "CONFIRM" })
    expect(withdraw.last().input).toEqual({
      kind: "skrill",
      payload: { amount: "1000", currency: "EUR", forfeitBonus: true },
    })
    withdraw
      .last()
      .reject(new WithdrawDailyLimitReached({ message: "cap", remaining: "500", currency: "EUR" }))
    await settle()
    expect(actor.getSnapshot().matches("fiat")).toBe(true)
    // Nothing was forfeited: the next click asks again.
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().matches("forfeit")).toBe(true)
  })
})

describe("closing", () => {
  it("clears the content at once and resets the form after exactly 500 ms", async () => {
    const clock = new SimulatedClock()
    const { actor } = start(undefined, clock)
    await settle()
    actor.send({ type: "AMOUNT", value: "900" })
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().context.failed).toBe("notEnoughMoney")
    actor.send({ type: "CLOSE" })
    expect(actor.getSnapshot().matches("closing")).toBe(true)
    expect(actor.getSnapshot().context.failed).toBeNull()
    expect(actor.getSnapshot().context.amountText).toBe("900")
    clock.increment(499)
    expect(actor.getSnapshot().context.amountText).toBe("900")
    expect(actor.getSnapshot().status).toBe("active")
    clock.increment(1)
    expect(actor.getSnapshot().context.amountText).toBe("")
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({ type: "cashoutClosed" })
  })

  it("closing while the request runs aborts it", async () => {
    const { actor, withdraw } = start()
    await settle()
    actor.send({ type: "CASHOUT" })
    actor.send({ type: "CASHOUT" })
    expect(actor.getSnapshot().matches("sending")).toBe(true)
    actor.send({ type: "CLOSE" })
    expect(withdraw.last().signal.aborted).toBe(true)
  })
})
