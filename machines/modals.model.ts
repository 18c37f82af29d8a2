import { fixtureAccount, fixtureCurrencies, fixtureSiteConfig, fixtureUser } from "./flowFixtures.ts"
import { modalsMachine } from "./modals.machine.ts"
import { defineModel } from "./model.ts"

const crash = new Error("flow crashed")
const offline = new TypeError("Failed to fetch dynamically imported module")

export const model = defineModel({
  name: "modals",
  // The outcome routing sends to the shell (the parent); traversal runs the host alone.
  machine: modalsMachine.provide({
    actions: {
      routeOutcome: () => {},
      reportCrash: () => {},
      accountChanged: () => {},
    },
  }),
  input: { siteConfig: fixtureSiteConfig, currencies: fixtureCurrencies, request: null },
  events: [
    { type: "OPEN_LOGIN" },
    { type: "OPEN_REGISTER" },
    { type: "OPEN_FORGOT_PASSWORD" },
    { type: "OPEN_RESET_PASSWORD", token: "reset-token" },
    { type: "OPEN_CONFIRM_EMAIL", token: "confirm-token" },
    { type: "OPEN_VIDEO" },
    { type: "SWITCH_TO_LOGIN" },
    { type: "SWITCH_TO_REGISTER" },
    { type: "CLOSE_VIDEO" },
    { type: "CLOSE" },
    { type: "SHOW_LOADING" },
    { type: "HIDE_LOADING" },
    { type: "xstate.done.actor.loadFlow" },
    { type: "xstate.error.actor.loadFlow", error: offline },
    { type: "xstate.done.actor.login", output: { type: "signedIn", user: fixtureUser } },
    { type: "xstate.error.actor.login", error: crash },
    { type: "xstate.done.actor.register", output: { type: "registered", user: fixtureUser } },
    { type: "xstate.error.actor.register", error: crash },
    { type: "xstate.done.actor.forgotPassword", output: { type: "resetLinkSent" } },
    { type: "xstate.error.actor.forgotPassword", error: crash },
    { type: "xstate.done.actor.resetPassword", output: { type: "passwordReset" } },
    { type: "xstate.error.actor.resetPassword", error: crash },
    { type: "xstate.done.actor.confirmEmail", output: { type: "emailConfirmed" } },
    { type: "xstate.error.actor.confirmEmail", error: crash },
    { type: "OPEN_DEPOSIT", profile: fixtureAccount.profile, fund: fixtureAccount.fund },
    { type: "OPEN_CURRENCY", fund: fixtureAccount.fund },
    { type: "ACCOUNT_CHANGED" },
    { type: "xstate.done.actor.currency", output: { type: "fundChanged" } },
    { type: "xstate.error.actor.currency", error: crash },
    {
      type: "xstate.done.actor.deposit",
      output: { type: "frame", url: "/sandbox-pay/card/brpay/pay/p-1", depositId: "d-1", currency: "EUR" },
    },
    { type: "xstate.done.actor.deposit", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.deposit", error: crash },
    { type: "xstate.done.actor.iframe", output: { type: "closed", credited: true } },
    { type: "xstate.done.actor.iframe", output: { type: "closed", credited: false } },
    { type: "xstate.error.actor.iframe", error: crash },
    { type: "OPEN_CASHOUT", profile: fixtureAccount.profile, fund: fixtureAccount.fund },
    { type: "xstate.done.actor.cashout", output: { type: "cashoutClosed" } },
    { type: "xstate.done.actor.cashout", output: { type: "verificationNeeded" } },
    { type: "xstate.error.actor.cashout", error: crash },
  ],
  projectContext: (snapshot) => ({
    ...snapshot.context.content,
    frame: snapshot.context.wallet.frame !== null,
  }),
  uncovered: [
    {
      from: "modals.opening",
      event: "always",
      reason:
        "The branches to resetPassword and confirmEmail are taken only when the host starts with an e-mail link " +
        "in its input (one input per model); tests/unit/app-machines.test.ts starts it that way and the e2e journey follows both links.",
    },
  ],
})
