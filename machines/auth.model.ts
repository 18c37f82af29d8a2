import { Unauthenticated } from "../services/errors.ts"
import { authMachine } from "./auth.machine.ts"
import { fixtureAccount, fixtureUser } from "./flowFixtures.ts"
import { defineModel } from "./model.ts"

const user = fixtureUser
const { profile, fund, loyalty } = fixtureAccount
const otherUser = {
  ...fixtureUser,
  id: "5a3e1c7b-9d2f-4e6a-8b1c-0f4d2e6a9b37",
  email: "charles@babbage.example",
}

export const model = defineModel({
  name: "auth",
  // The parent-bound actions (navigation, loading modal) need a parent; traversal runs the machine alone.
  machine: authMachine.provide({
    actions: {
      navigateHome: () => {},
      showLoading: () => {},
      hideLoading: () => {},
      notifyError: () => {},
      notifyLevelUp: () => {},
    },
  }),
  events: [
    { type: "xstate.done.actor.checkSession", output: { isAuthenticated: true, user } },
    { type: "xstate.done.actor.checkSession", output: { isAuthenticated: false, user: null } },
    { type: "xstate.error.actor.checkSession", error: new Error("network down") },
    { type: "xstate.done.actor.loadAccount", output: { profile, fund, loyalty } },
    { type: "xstate.error.actor.loadAccount", error: new Unauthenticated({ message: "Session expired" }) },
    { type: "xstate.error.actor.loadAccount", error: new Error("Get fund failed") },
    { type: "xstate.after.queryStale.auth.authenticated.account.ready" },
    // A bet in the known EUR wallet, then a first win in a wallet the session does not know yet.
    { type: "BALANCE", currency: "EUR", balance: "1150" },
    { type: "BALANCE", currency: "USDT", balance: "25000000" },
    { type: "STREAM_OPENED" },
    { type: "xstate.done.actor.loadFund", output: fund },
    { type: "xstate.error.actor.loadFund", error: new Unauthenticated({ message: "Session expired" }) },
    { type: "xstate.error.actor.loadFund", error: new Error("Get fund failed") },
    { type: "FUND_CHANGED" },
    { type: "REALITY_CHECK_ANSWERED" },
    // The accrual job pushed a higher level: the header shows it, a toast says so.
    { type: "LEVEL_UP", level: 2, name: "Silver" },
    { type: "xstate.error.actor.pushEvents", error: new Error("no EventSource") },
    { type: "PAGE_VISIBLE" },
    { type: "xstate.done.actor.verifySession", output: { isAuthenticated: true, user } },
    { type: "xstate.done.actor.verifySession", output: { isAuthenticated: true, user: otherUser } },
    { type: "xstate.done.actor.verifySession", output: { isAuthenticated: false, user: null } },
    { type: "xstate.error.actor.verifySession", error: new Error("network down") },
    { type: "xstate.done.actor.loadRealityCheck" },
    {
      type: "xstate.error.actor.loadRealityCheck",
      error: new Error("Failed to fetch dynamically imported module"),
    },
    { type: "xstate.done.actor.realityCheck", output: { type: "signOut" } },
    { type: "xstate.error.actor.realityCheck", error: new Error("reality check crashed") },
    { type: "xstate.done.actor.signOut" },
    { type: "xstate.error.actor.signOut", error: new Error("network down") },
    // The push stream failing changes nothing: the fund still refreshes when stale.
    { type: "xstate.error.actor.pushEvents", error: new Error("stream failed") },
    { type: "SIGNED_IN", user },
    { type: "RECHECK" },
    { type: "REFRESH" },
    { type: "SIGN_OUT" },
  ],
  projectContext: (snapshot) => ({
    user: snapshot.context.user?.id ?? null,
    loaded: snapshot.context.profile !== null,
    balances: snapshot.context.fund?.map((w) => `${w.currency}=${w.balance}`).join(",") ?? null,
  }),
})
