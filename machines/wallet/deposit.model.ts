/**
 * Generated-path model of machines/wallet/deposit.machine.ts, the dialog around its steps (each step
 * has its own model in machines/wallet/deposit/). A player with a EUR wallet and a profile of a fresh
 * registration. The dialog opens as the host reopens it after a payment frame closed without a credit
 * (`check`): the payment was declined (with its reason), expired, is still open, or cannot be read;
 * Try again pays with the same method, Choose another method shows the list. Or it opens afresh
 * (`(fresh)` paths): the cookie is empty, unreadable, or remembers 30 EUR with brpay failed. The
 * amount step ends with "Play with" in EUR or USD (no wallet yet: added first), with BTC for the
 * crypto form (its wallet added first, or already there), with the session gone, or crashes; the
 * payment step ends with the provider's page, the session gone, or back at the amount step with the
 * limit's message, or crashes. Every answer of the wallet calls and of the crypto form.
 */
import { Unauthenticated } from "../../services/errors.ts"
import { MoneyMessages } from "../../services/money-rules.ts"
import { fixtureCurrencies, fixtureSiteConfig, transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { completeProfile, fixtureProfile } from "../profile/fixtures.ts"
import { thirtyEuros } from "./deposit/fixtures.ts"
import { frameOf } from "./deposit/rules.ts"
import type { AmountInput, AmountOutput, DepositInput, PaymentOutput } from "./deposit/types.ts"
import { depositMachine } from "./deposit.machine.ts"
import {
  eurMinimums,
  fixtureDepositHistory,
  fixtureFund,
  redirectAnswer,
  twoWallets,
  usdMinimums,
} from "./fixtures.ts"
import { hasWallet } from "./support.ts"

const gone = new Unauthenticated({ message: "Session expired" })
const crash = new Error("child crashed")
const btcWallet = { currency: "BTC", default: false, balance: "0", freeSpinWallet: null } as const

const opened: DepositInput = {
  currencies: fixtureCurrencies,
  siteConfig: fixtureSiteConfig,
  profile: fixtureProfile,
  fund: fixtureFund,
}

/** The amount step's answer: its order as the player left it, the wallets as it read them. */
const amountDone = (end: AmountOutput["end"], step: Partial<AmountInput>, cryptoCurrency: string | null) => ({
  type: "xstate.done.actor.amount",
  output: {
    end,
    step: { ...thirtyEuros, fund: fixtureFund, message: null, ...step },
    cryptoCurrency,
  } satisfies AmountOutput,
})

const paymentDone = (end: PaymentOutput["end"], message: string | null) => ({
  type: "xstate.done.actor.payment",
  output: {
    end,
    message,
    profile: completeProfile,
    config: { ...thirtyEuros.config, tabs: { brpay: MoneyMessages.providerFailed } },
  } satisfies PaymentOutput,
})

export const model = defineModel({
  name: "deposit",
  // The note to the modal host needs a parent; traversal runs alone.
  machine: depositMachine.provide({ actions: { announceChange: () => {} } }),
  input: { ...opened, check: { depositId: "3b1d9f0e-6a2c-4e8b-8f7a-5c4d3e2f1a09", currency: "EUR" } },
  otherInputs: [{ name: "fresh", input: opened }],
  events: (snapshot) => {
    const c = snapshot.context
    const declinedRow = fixtureDepositHistory[1]
    // The server's wallets: the fixture's, plus any added on the way (back from a step).
    const fund = c.fund ?? fixtureFund
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
      ...(snapshot.matches("checkingPayment") && declinedRow !== undefined
        ? [
            // The card payment of the fixture history, declined ("Card declined")…
            {
              type: "xstate.done.actor.loadOutcome",
              output: { deposit: declinedRow, minimums: eurMinimums, profile: null },
            },
            // …or expired (the profile as saved meanwhile), or still open at the provider, or the
            // history could not be read.
            {
              type: "xstate.done.actor.loadOutcome",
              output: {
                deposit: { ...declinedRow, status: "expired", reason: null },
                minimums: eurMinimums,
                profile: completeProfile,
              },
            },
            {
              type: "xstate.done.actor.loadOutcome",
              output: {
                deposit: { ...declinedRow, status: "initiated", reason: null },
                minimums: eurMinimums,
                profile: null,
              },
            },
            { type: "xstate.error.actor.loadOutcome", error: transportError() },
            { type: "xstate.error.actor.loadOutcome", error: gone },
          ]
        : []),
      ...(snapshot.matches("declined") || snapshot.matches("expired")
        ? [{ type: "PAY_AGAIN" }, { type: "OTHER_METHOD" }]
        : []),
      ...(snapshot.matches("amount")
        ? [
            amountDone("play", { fund }, null),
            amountDone("play", { fund, currency: "USD", minimums: usdMinimums }, null),
            amountDone("crypto", { fund }, "BTC"),
            amountDone("crypto", { fund: [...fund, btcWallet] }, "BTC"),
            amountDone("sessionEnded", { fund }, null),
            { type: "xstate.error.actor.amount", error: crash },
            // The amount step's typed code, for the dialog's checker…
            { type: "CHECK_COUPON", value: "WELCOME" },
            // …which failing is ignored (its own model: couponCheck).
            { type: "xstate.error.actor.coupon", error: new Error("checker stopped") },
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
            { type: "xstate.done.actor.addWallet", output: [...fund, btcWallet] },
            { type: "xstate.error.actor.addWallet", error: transportError() },
            { type: "xstate.error.actor.addWallet", error: gone },
          ]
        : []),
      ...(snapshot.matches("crypto")
        ? [
            { type: "xstate.done.actor.cryptoDeposit", output: { type: "sessionEnded" } },
            { type: "xstate.error.actor.cryptoDeposit", error: crash },
            { type: "BACK" },
          ]
        : []),
      ...(snapshot.matches("payment")
        ? [
            paymentDone(frameOf(redirectAnswer, c.currency), null),
            paymentDone({ type: "sessionEnded" }, null),
            paymentDone({ type: "amount" }, MoneyMessages.limitExceeded("10.00")),
            { type: "xstate.error.actor.payment", error: crash },
            // The completion step's save, relayed by the payment step.
            { type: "ACCOUNT_CHANGED" },
          ]
        : []),
    ]
  },
  projectContext: (snapshot) => {
    const c = snapshot.context
    return {
      currency: c.currency,
      amount: c.amountText,
      wallet: hasWallet(c.fund, c.currency),
      cryptoWallet: hasWallet(c.fund, "BTC"),
      retry: c.retryMethod,
      declined: c.declineReason !== null,
      message: c.message !== null,
    }
  },
})
