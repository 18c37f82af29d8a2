/**
 * Generated-path model of machines/profile/profileArea.machine.ts, opened at /profile/security: the
 * session is checked, anonymous (the login modal) or signed in; every tab's address, an unknown one
 * and a tab's own address again; the deposits tab's code downloaded, or not and retried (and the bets and crypto deposits tabs'); what the
 * tabs report (an account change, a session that ended, a self-exclusion, a crash); the watcher's
 * failure.
 */
import { defineModel } from "../model.ts"
import { profileAreaMachine } from "./profileArea.machine.ts"

const crash = new Error("tab crashed")

export const model = defineModel({
  name: "profileArea",
  // What the area asks of the shell needs a parent; traversal runs it alone.
  machine: profileAreaMachine.provide({
    actions: {
      askForLogin: () => {},
      announceChange: () => {},
      routeTabOutput: () => {},
      reportCrash: () => {},
    },
  }),
  input: { path: "/profile/security" },
  events: [
    { type: "SESSION", status: "checking" },
    { type: "SESSION", status: "anonymous" },
    { type: "SESSION", status: "signedIn" },
    { type: "LOG_IN" },
    { type: "ROUTE", path: "/profile" },
    { type: "ROUTE", path: "/profile/deposits" },
    { type: "ROUTE", path: "/profile/withdrawals" },
    { type: "ROUTE", path: "/profile/bets" },
    { type: "ROUTE", path: "/profile/crypto-deposits" },
    { type: "ROUTE", path: "/profile/verification" },
    { type: "ROUTE", path: "/profile/bonuses" },
    { type: "ROUTE", path: "/profile/loyalty" },
    { type: "ROUTE", path: "/profile/sessions" },
    { type: "ROUTE", path: "/profile/security/" },
    { type: "ROUTE", path: "/profile/responsible-gaming" },
    { type: "ROUTE", path: "/profile/promo" },
    { type: "ROUTE", path: "/profile/nothing-here" },
    { type: "ACCOUNT_CHANGED" },
    { type: "xstate.done.actor.general", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.general", error: crash },
    { type: "xstate.done.actor.loadDeposits" },
    { type: "xstate.error.actor.loadDeposits", error: new Error("offline") },
    { type: "RETRY" },
    { type: "xstate.done.actor.deposits", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.deposits", error: crash },
    { type: "xstate.done.actor.loadWithdrawals" },
    { type: "xstate.error.actor.loadWithdrawals", error: new Error("offline") },
    { type: "xstate.done.actor.withdrawals", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.withdrawals", error: crash },
    { type: "xstate.done.actor.loadCryptoDeposits" },
    { type: "xstate.error.actor.loadCryptoDeposits", error: new Error("offline") },
    { type: "xstate.done.actor.cryptoDeposits", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.cryptoDeposits", error: crash },
    { type: "xstate.done.actor.loadBets" },
    { type: "xstate.error.actor.loadBets", error: new Error("offline") },
    { type: "xstate.done.actor.bets", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.bets", error: crash },
    { type: "xstate.done.actor.idDocument", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.idDocument", error: crash },
    { type: "xstate.done.actor.billDocument", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.billDocument", error: crash },
    { type: "xstate.done.actor.bonuses", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.bonuses", error: crash },
    { type: "xstate.done.actor.loyalty", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.loyalty", error: crash },
    { type: "xstate.done.actor.sessions", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.sessions", error: crash },
    { type: "xstate.done.actor.security", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.security", error: crash },
    { type: "xstate.done.actor.responsibleGaming", output: { type: "selfExcluded" } },
    { type: "xstate.error.actor.responsibleGaming", error: crash },
    { type: "xstate.done.actor.promo", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.promo", error: crash },
    { type: "xstate.error.actor.session", error: crash },
  ],
  projectContext: (snapshot) => snapshot.context.tab,
})
