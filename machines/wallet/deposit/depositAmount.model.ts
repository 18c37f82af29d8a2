/**
 * Generated-path model of machines/wallet/deposit/depositAmount.machine.ts: a new dialog's amount
 * step (EUR, nothing typed) for a player with a EUR wallet. Every answer of the basics (loaded with the
 * welcome offer, the totals failing, the session gone) and of the minimums (EUR or USD, failing), then
 * the amount below the minimum, between the minimum and the 10 EUR gateway gate, or a quick 30 EUR; USD
 * instead, a crypto currency refused as a fiat one, BTC chosen for the crypto form (EUR refused there),
 * the bonus code typed, the offer taken and declined, "Play with".
 */
import { Unauthenticated } from "../../../services/errors.ts"
import { meetsMinimum, passesGatewayGate } from "../../../services/money-rules.ts"
import { transportError } from "../../flowFixtures.ts"
import { defineModel } from "../../model.ts"
import { welcomeOffer } from "../../profile/fixtures.ts"
import { eurMinimums, fixtureFund, noDeposits, usdMinimums } from "../fixtures.ts"
import { quoteOf } from "../support.ts"
import { depositAmountMachine } from "./depositAmount.machine.ts"
import { freshOrder } from "./fixtures.ts"
import { BasicsFailed } from "./types.ts"

const gone = new Unauthenticated({ message: "Session expired" })

export const model = defineModel({
  name: "depositAmount",
  // The cookie write and the code sent to the dialog's checker need a page and a parent.
  machine: depositAmountMachine.provide({ actions: { saveConfig: () => {}, checkCoupon: () => {} } }),
  input: { ...freshOrder, fund: null, message: null },
  // Offered only where they matter, in one order (the basics before the minimums, typing once both
  // loaded), so the graph stays small; every transition is still reached.
  events: (snapshot) => {
    const c = snapshot.context
    const basicsLoading = snapshot.matches({ editing: { basics: "loading" } })
    const minimumsLoading = snapshot.matches({ editing: { minimums: "loading" } })
    const ready = snapshot.matches({ editing: { basics: "ready", minimums: "ready" } })
    const failed =
      snapshot.matches({ editing: { basics: "failed" } }) ||
      snapshot.matches({ editing: { minimums: "failed" } })
    return [
      ...(basicsLoading
        ? [
            {
              type: "xstate.done.actor.loadBasics",
              output: { fund: fixtureFund, totals: noDeposits, offer: welcomeOffer },
            },
            { type: "xstate.error.actor.loadBasics", error: new BasicsFailed("totals", transportError()) },
            { type: "xstate.error.actor.loadBasics", error: new BasicsFailed("fund", gone) },
          ]
        : []),
      ...(minimumsLoading && !basicsLoading
        ? [
            {
              type: "xstate.done.actor.loadMinimums",
              output: c.currency === "USD" ? usdMinimums : eurMinimums,
            },
            { type: "xstate.error.actor.loadMinimums", error: transportError() },
          ]
        : []),
      ...(failed && !basicsLoading && !minimumsLoading ? [{ type: "RETRY" }] : []),
      ...(ready
        ? [
            { type: "AMOUNT", value: "1" },
            { type: "AMOUNT", value: "7.50" },
            { type: "QUICK", euros: 30 },
            ...(c.currency === "EUR" ? [{ type: "CURRENCY", currency: "USD" }] : []),
            // Crypto is not offered in the fiat list: refused by the guard.
            { type: "CURRENCY", currency: "BTC" },
            // The crypto form: BTC is a crypto entry; EUR is not one.
            { type: "CRYPTO", currency: "BTC" },
            { type: "CRYPTO", currency: "EUR" },
            { type: "TOGGLE_COUPON" },
            { type: "COUPON", value: "WELCOME" },
            { type: "BONUS", take: true },
            { type: "BONUS", take: false },
            { type: "PLAY" },
          ]
        : []),
    ]
  },
  projectContext: (snapshot) => {
    const c = snapshot.context
    const quote = quoteOf(c)
    return {
      currency: c.currency,
      amount:
        quote === null ? "none" : !meetsMinimum(quote) ? "below" : !passesGatewayGate(quote) ? "gate" : "ok",
      loaded: c.fund !== null,
      offer: c.offer?.id ?? null,
      takeBonus: c.takeBonus,
      coupon: c.couponOpen,
    }
  },
})
