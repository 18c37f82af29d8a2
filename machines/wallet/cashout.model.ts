/**
 * Generated-path model of machines/wallet/cashout.machine.ts: a player with a EUR (default) and a BTC
 * wallet cashes out. The amount step loads (verified or not), fails, or finds the session gone; the
 * amount is below the minimum, fine, or above the withdrawable; the address and the bank e-mail are
 * empty or typed; each failing check of the click, in order; the fiat tabs; every answer of the
 * withdraw call (sent, a refusal from each step, the verification refusal, the network, 401); an
 * active bonus (known when the step loads, or named by the server's answer) and its forfeit question
 * kept or confirmed; the close from every step and the 500 ms reset.
 */
import { firstFailingCheck } from "../../services/cashout-rules.ts"
import {
  BonusForfeitRequired,
  NotEnoughMoney,
  RateLimited,
  Unauthenticated,
  VerificationRequired,
} from "../../services/errors.ts"
import { fixtureCurrencies, transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { fixtureProfile } from "../profile/fixtures.ts"
import { CashoutLoadFailed, cashoutMachine, factsOf } from "./cashout.machine.ts"
import {
  btcCashoutBasics,
  cashoutFund,
  eurCashoutBasics,
  eurCashoutBonus,
  requestedWithdrawal,
} from "./cashoutFixtures.ts"

const gone = new Unauthenticated({ message: "Session expired" })

export const model = defineModel({
  name: "cashout",
  // Toasts need a page; traversal runs the flow alone.
  machine: cashoutMachine.provide({ actions: { toast: () => {} } }),
  input: { currencies: fixtureCurrencies, fund: cashoutFund, profile: fixtureProfile },
  events: (snapshot) => {
    const c = snapshot.context
    const basics = c.currency === "BTC" ? btcCashoutBasics : eurCashoutBasics
    return [
      ...(snapshot.matches({ form: "loading" })
        ? [
            { type: "xstate.done.actor.loadBasics", output: basics },
            { type: "xstate.done.actor.loadBasics", output: { ...basics, verified: false } },
            ...(c.currency === "EUR"
              ? [{ type: "xstate.done.actor.loadBasics", output: { ...basics, bonus: eurCashoutBonus } }]
              : []),
            {
              type: "xstate.error.actor.loadBasics",
              error: new CashoutLoadFailed("withdrawable", transportError()),
            },
            { type: "xstate.error.actor.loadBasics", error: new CashoutLoadFailed("profile", gone) },
          ]
        : []),
      ...(snapshot.matches({ form: "failed" }) ? [{ type: "RETRY" }] : []),
      ...(snapshot.matches({ form: "ready" })
        ? [
            { type: "AMOUNT", value: "0.5" },
            { type: "AMOUNT", value: c.currency === "BTC" ? "0.01" : "25" },
            { type: "AMOUNT", value: "900" },
            ...(c.currency === "BTC" ? [{ type: "ADDRESS", value: "bc1qexample" }] : []),
            { type: "ADDRESS", value: "" },
            { type: "CURRENCY", currency: c.currency === "BTC" ? "EUR" : "BTC" },
            // USD is no wallet of this player: refused by the guard.
            { type: "CURRENCY", currency: "USD" },
          ]
        : []),
      ...(snapshot.matches("fiat")
        ? [
            { type: "TAB", tab: c.tab === "bank" ? "wallet" : "bank" },
            { type: "EMAIL", value: c.email === "" ? "ada@bank.example" : "" },
            { type: "BACK" },
          ]
        : []),
      { type: "CASHOUT" },
      { type: "VERIFY" },
      ...(snapshot.matches("forfeit") ? [{ type: "CONFIRM" }, { type: "BACK" }] : []),
      ...(snapshot.matches("sending")
        ? [
            { type: "xstate.done.actor.withdraw", output: requestedWithdrawal },
            {
              type: "xstate.error.actor.withdraw",
              error: new NotEnoughMoney({ message: "no", withdrawable: "0", currency: c.currency }),
            },
            {
              type: "xstate.error.actor.withdraw",
              error: new RateLimited({ message: "slow down", retryAfterSeconds: 30 }),
            },
            { type: "xstate.error.actor.withdraw", error: new VerificationRequired({ message: "verify" }) },
            ...(c.forfeitConfirmed
              ? []
              : [
                  {
                    type: "xstate.error.actor.withdraw",
                    error: new BonusForfeitRequired({
                      message: "asked",
                      currency: c.currency,
                      bonusId: eurCashoutBonus.id,
                      name: eurCashoutBonus.name,
                      bonusBalance: eurCashoutBonus.balance,
                    }),
                  },
                ]),
            { type: "xstate.error.actor.withdraw", error: transportError() },
            { type: "xstate.error.actor.withdraw", error: gone },
          ]
        : []),
      ...(snapshot.matches("closing") ? [{ type: "xstate.after.resetDelay.cashout.closing" }] : []),
      { type: "CLOSE" },
    ]
  },
  projectContext: (snapshot) => {
    const c = snapshot.context
    return {
      currency: c.currency,
      loaded: c.minWithdraw !== null,
      amountCheck: c.minWithdraw === null ? null : firstFailingCheck(factsOf(c, "amount")),
      fiatCheck: c.minWithdraw === null ? null : firstFailingCheck(factsOf(c, "fiat")),
      tab: c.tab,
      failed: c.failed,
      message: c.message !== null,
      empty: c.amountText === "" && c.email === "" && c.address === "",
      bonus: c.bonus !== null,
      confirmed: c.forfeitConfirmed,
      forfeitFrom: snapshot.matches("forfeit") ? c.forfeitFrom : null,
    }
  },
})
