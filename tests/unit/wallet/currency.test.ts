/**
 * The wallets (currency) modal on a real actor with doubles: the spec's messages, which
 * currencies may be added, the call's input, the output the modal host reads, a gone session.
 */
import { describe, expect, it } from "vitest"
import { createActor } from "xstate"
import { addableCurrencies, currencyMachine } from "../../../machines/wallet/currency.machine.ts"
import { fixtureCurrenciesWithGbp, fixtureFund, twoWallets } from "../../../machines/wallet/fixtures.ts"
import { Unauthenticated } from "../../../services/errors.ts"
import { MoneyMessages } from "../../../services/money-rules.ts"
import type { Fund } from "../../../services/profile-service.ts"
import { controlled, settle, toastRecorder } from "../account/doubles.ts"

const start = (fund: Fund = fixtureFund) => {
  const add = controlled<Fund, string>()
  const makeDefault = controlled<Fund, string>()
  const { toasts, toast } = toastRecorder()
  const actor = createActor(
    currencyMachine.provide({
      actors: { add: add.logic, makeDefault: makeDefault.logic },
      actions: { toast },
    }),
    { input: { currencies: fixtureCurrenciesWithGbp, fund } },
  )
  actor.start()
  return { actor, add, makeDefault, toasts }
}

describe("the wallets modal", () => {
  it("offers only fiat currencies the player has no wallet in", () => {
    expect(
      addableCurrencies({ currencies: fixtureCurrenciesWithGbp, fund: fixtureFund }).map((c) => c.code),
    ).toEqual(["USD", "GBP"])
    expect(
      addableCurrencies({ currencies: fixtureCurrenciesWithGbp, fund: twoWallets }).map((c) => c.code),
    ).toEqual(["GBP"])
  })

  it("asks for a currency first, with the spec's message, and calls nothing", () => {
    const { actor, add } = start()
    actor.send({ type: "ADD" })
    expect(actor.getSnapshot().context.error).toBe(MoneyMessages.currencyRequired)
    expect(add.calls).toHaveLength(0)
  })

  it("adds the chosen currency: 'Currency is added!' and the fund changed", async () => {
    const { actor, add, toasts } = start()
    actor.send({ type: "SELECT", currency: "GBP" })
    actor.send({ type: "ADD" })
    expect(add.last().input).toBe("GBP")
    add.last().resolve(twoWallets)
    await settle()
    expect(actor.getSnapshot().output).toEqual({ type: "fundChanged" })
    expect(toasts).toEqual([{ kind: "success", message: MoneyMessages.currencyAdded }])
  })

  it("a refused add says 'Couldn't add currency, please contact support' and stays open", async () => {
    const { actor, add, toasts } = start()
    actor.send({ type: "SELECT", currency: "GBP" })
    actor.send({ type: "ADD" })
    add.last().reject(new Error("500"))
    await settle()
    expect(actor.getSnapshot().value).toBe("idle")
    expect(actor.getSnapshot().context.error).toBe(MoneyMessages.currencyAddFailed)
    expect(toasts).toEqual([{ kind: "error", message: MoneyMessages.currencyAddFailed }])
  })

  it("makes another wallet the default; the default one and unknown ones are refused", async () => {
    const { actor, makeDefault } = start(twoWallets)
    actor.send({ type: "MAKE_DEFAULT", currency: "EUR" })
    actor.send({ type: "MAKE_DEFAULT", currency: "GBP" })
    expect(makeDefault.calls).toHaveLength(0)
    actor.send({ type: "MAKE_DEFAULT", currency: "USD" })
    expect(makeDefault.last().input).toBe("USD")
    expect(actor.getSnapshot().context.makingDefault).toBe("USD")
    makeDefault.last().resolve(twoWallets)
    await settle()
    expect(actor.getSnapshot().output).toEqual({ type: "fundChanged" })
  })

  it("a gone session ends the modal with sessionEnded", async () => {
    const { actor, add } = start()
    actor.send({ type: "SELECT", currency: "USD" })
    actor.send({ type: "ADD" })
    add.last().reject(new Unauthenticated({ message: "Session expired" }))
    await settle()
    expect(actor.getSnapshot().output).toEqual({ type: "sessionEnded" })
  })
})
