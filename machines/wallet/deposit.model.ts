/**
 * Generated-path model of machines/wallet/deposit.machine.ts: a player with a EUR wallet and a profile
 * of a fresh registration (no address: every method needs the completion step first) deposits in EUR
 * or USD (no wallet yet: added first). The cookie is empty, unreadable, or remembers 30 EUR with brpay
 * failed; the amount is below the minimum, between the minimum and the 10 EUR gateway gate, or 30.
 * Every answer of every call: the basics, the minimums, the wallet, the gateways, each deposit call
 * (including a gateway down, so the cascade moves on, and every refusal the contract declares).
 */
import {
  DepositLimitExceeded,
  GatewayUnavailable,
  PaymentsBlocked,
  ProfileIncomplete,
  Unauthenticated,
} from "../../services/errors.ts"
import { MoneyMessages, meetsMinimum, passesGatewayGate } from "../../services/money-rules.ts"
import { fixtureCurrencies, fixtureSiteConfig, transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { completeProfile, fixtureProfile, welcomeOffer } from "../profile/fixtures.ts"
import { BasicsFailed, depositMachine, missingFor } from "./deposit.machine.ts"
import { eurMinimums, fixtureFund, noDeposits, redirectAnswer, twoWallets, usdMinimums } from "./fixtures.ts"
import { hasWallet, quoteOf } from "./support.ts"

const gone = new Unauthenticated({ message: "Session expired" })
const crash = new Error("child crashed")

export const model = defineModel({
  name: "deposit",
  // Cookie writes, analytics and the parent note need a page and a parent; traversal runs alone.
  machine: depositMachine.provide({
    actions: { saveConfig: () => {}, trackMethod: () => {}, announceChange: () => {} },
  }),
  input: {
    currencies: fixtureCurrencies,
    siteConfig: fixtureSiteConfig,
    profile: fixtureProfile,
    fund: fixtureFund,
  },
  // Offered only where they matter, in one order (the basics before the minimums, typing once both
  // loaded), so the graph stays small; every transition is still reached.
  events: (snapshot) => {
    const c = snapshot.context
    const inAmount = snapshot.matches("amount")
    const basicsLoading = snapshot.matches({ amount: { basics: "loading" } })
    const minimumsLoading = snapshot.matches({ amount: { minimums: "loading" } })
    const ready = snapshot.matches({ amount: { basics: "ready", minimums: "ready" } })
    const failed =
      snapshot.matches({ amount: { basics: "failed" } }) ||
      snapshot.matches({ amount: { minimums: "failed" } })
    const inMethods = snapshot.matches("methods")
    return [
      ...(snapshot.matches("restoring")
        ? [
            { type: "xstate.done.actor.readConfig", output: null },
            {
              type: "xstate.done.actor.readConfig",
              output: {
                tabs: { brpay: MoneyMessages.providerFailed },
                depositAmount: "30",
                currency: "EUR",
                promotionCoupon: "",
              },
            },
            { type: "xstate.error.actor.readConfig", error: crash },
          ]
        : []),
      ...(basicsLoading
        ? [
            // The server's wallets: the fixture's, plus any added on the way (back from a step).
            {
              type: "xstate.done.actor.loadBasics",
              output: { fund: c.fund ?? fixtureFund, totals: noDeposits, offer: welcomeOffer },
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
            // Crypto is not offered in the fiat flow: refused by the guard.
            { type: "CURRENCY", currency: "BTC" },
            // The crypto form: BTC is a crypto entry; EUR is not one.
            { type: "CRYPTO", currency: "BTC" },
            { type: "CRYPTO", currency: "EUR" },
            { type: "TOGGLE_COUPON" },
            { type: "COUPON", value: "WELCOME" },
            // The code checker (its own model: couponCheck) failing is ignored by the deposit.
            { type: "xstate.error.actor.coupon", error: new Error("checker stopped") },
            { type: "BONUS", take: true },
            { type: "BONUS", take: false },
            { type: "PLAY" },
          ]
        : []),
      ...(snapshot.matches("addingWallet")
        ? [
            { type: "xstate.done.actor.addWallet", output: twoWallets },
            { type: "xstate.error.actor.addWallet", error: transportError() },
            { type: "xstate.error.actor.addWallet", error: gone },
          ]
        : []),
      ...(snapshot.matches("addingCryptoWallet")
        ? [
            {
              type: "xstate.done.actor.addWallet",
              output: [
                ...fixtureFund,
                { currency: c.cryptoCurrency ?? "BTC", default: false, balance: "0", freeSpinWallet: null },
              ],
            },
            { type: "xstate.error.actor.addWallet", error: transportError() },
            { type: "xstate.error.actor.addWallet", error: gone },
          ]
        : []),
      ...(snapshot.matches("crypto")
        ? [
            { type: "xstate.done.actor.cryptoDeposit", output: { type: "sessionEnded" } },
            { type: "xstate.error.actor.cryptoDeposit", error: crash },
          ]
        : []),
      ...(inMethods
        ? [
            { type: "CHOOSE_METHOD", method: "card" },
            { type: "CHOOSE_METHOD", method: "skrill" },
            { type: "CHOOSE_METHOD", method: "jeton" },
            { type: "CHOOSE_METHOD", method: "mifinity" },
          ]
        : []),
      ...(inAmount ? [] : [{ type: "BACK" }]),
      ...(snapshot.matches("completingProfile")
        ? [
            {
              type: "xstate.done.actor.completeProfile",
              output: { type: "saved", profile: completeProfile },
            },
            { type: "xstate.done.actor.completeProfile", output: { type: "sessionEnded" } },
            { type: "xstate.error.actor.completeProfile", error: crash },
          ]
        : []),
      ...(snapshot.matches({ card: "loadingGateways" })
        ? [
            { type: "xstate.done.actor.loadGateways", output: ["brpay", "paypound"] },
            { type: "xstate.error.actor.loadGateways", error: transportError() },
            { type: "xstate.error.actor.loadGateways", error: gone },
          ]
        : []),
      ...(snapshot.matches({ jeton: "choosing" }) ? [{ type: "JETON", tab: "QR" }] : []),
      { type: "xstate.done.actor.pay", output: redirectAnswer },
      { type: "xstate.done.actor.pay", output: { ...redirectAnswer, redirectUrl: null } },
      {
        type: "xstate.error.actor.pay",
        error: new GatewayUnavailable({ message: "down", gateway: c.gateway ?? "brpay" }),
      },
      { type: "xstate.error.actor.pay", error: gone },
      {
        type: "xstate.error.actor.pay",
        error: new ProfileIncomplete({ message: "Missing: city", fields: ["city"] }),
      },
      {
        type: "xstate.error.actor.pay",
        error: new DepositLimitExceeded({ message: "limit", remaining: "1000" }),
      },
      { type: "xstate.error.actor.pay", error: new PaymentsBlocked({ message: "blocked" }) },
      { type: "ACCOUNT_CHANGED" },
    ]
  },
  projectContext: (snapshot) => {
    const c = snapshot.context
    const quote = quoteOf(c)
    const amount =
      quote === null ? "none" : !meetsMinimum(quote) ? "below" : !passesGatewayGate(quote) ? "gate" : "ok"
    return snapshot.matches("amount") || snapshot.matches("restoring")
      ? {
          currency: c.currency,
          amount,
          wallet: hasWallet(c.fund, c.currency),
          loaded: c.fund !== null,
          cryptoWallet: hasWallet(c.fund, "BTC"),
          offer: c.offer?.id ?? null,
          takeBonus: c.takeBonus,
        }
      : {
          amount,
          wallet: hasWallet(c.fund, c.currency),
          cryptoWallet: hasWallet(c.fund, "BTC"),
          method: c.method,
          complete: missingFor(c.profile, "card").length === 0,
          failed: Object.keys(c.config.tabs).length,
          gateways: c.gateways.length,
        }
  },
})
