/**
 * Generated-path model of machines/wallet/deposit/depositPayment.machine.ts: 30 EUR for a player of a
 * fresh registration (no address: every method needs the completion step first), choosing from the
 * list; or Try again with the card (a complete profile, brpay marked failed in the cookie) for 7.50 EUR,
 * below the 10 EUR gateway gate. Every outcome of the completion step, of the gateway list and of
 * each deposit call (a gateway down, so the cascade moves on until none is left, and every refusal the
 * contract declares); BACK from each step.
 */
import {
  DepositLimitExceeded,
  GatewayUnavailable,
  PaymentsBlocked,
  ProfileIncomplete,
  Unauthenticated,
} from "../../../services/errors.ts"
import { MoneyMessages } from "../../../services/money-rules.ts"
import { transportError } from "../../flowFixtures.ts"
import { defineModel } from "../../model.ts"
import { completeProfile, fixtureProfile } from "../../profile/fixtures.ts"
import { redirectAnswer } from "../fixtures.ts"
import { depositPaymentMachine } from "./depositPayment.machine.ts"
import { thirtyEuros } from "./fixtures.ts"
import { missingFor } from "./rules.ts"
import type { PaymentInput } from "./types.ts"

const gone = new Unauthenticated({ message: "Session expired" })

const fromTheList: PaymentInput = {
  ...thirtyEuros,
  language: "en",
  profile: fixtureProfile,
  method: null,
  jetonTab: "Checkout",
  message: null,
}

export const model = defineModel({
  name: "depositPayment",
  // Cookie writes, analytics and the note to the dialog need a page and a parent; traversal runs alone.
  machine: depositPaymentMachine.provide({
    actions: { saveConfig: () => {}, trackMethod: () => {}, announceChange: () => {} },
  }),
  input: fromTheList,
  otherInputs: [
    {
      name: "again",
      input: {
        ...fromTheList,
        amountText: "7.50",
        profile: completeProfile,
        method: "card",
        config: {
          tabs: { brpay: MoneyMessages.providerFailed },
          depositAmount: "7.50",
          currency: "EUR",
          promotionCoupon: "",
        },
      } satisfies PaymentInput,
    },
  ],
  events: (snapshot) => {
    const c = snapshot.context
    return [
      ...(snapshot.matches("methods")
        ? [
            { type: "CHOOSE_METHOD", method: "card" },
            { type: "CHOOSE_METHOD", method: "skrill" },
            { type: "CHOOSE_METHOD", method: "jeton" },
            { type: "CHOOSE_METHOD", method: "mifinity" },
          ]
        : []),
      ...(snapshot.matches("profile")
        ? [
            { type: "xstate.done.actor.profile", output: { type: "complete", profile: completeProfile } },
            { type: "xstate.done.actor.profile", output: { type: "failed" } },
            { type: "xstate.done.actor.profile", output: { type: "sessionEnded" } },
            { type: "xstate.error.actor.profile", error: new Error("child crashed") },
            // The completion step's save, relayed to the dialog.
            { type: "ACCOUNT_CHANGED" },
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
      { type: "BACK" },
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
    ]
  },
  projectContext: (snapshot) => {
    const c = snapshot.context
    return {
      method: c.method,
      complete: missingFor(c.profile, "card").length === 0,
      failed: Object.keys(c.config.tabs).length,
      gateways: c.gateways.length,
      asked: c.askedFields,
    }
  },
})
