import { Unauthenticated } from "../services/errors.ts"
import { authMachine } from "./auth.machine.ts"
import { fixtureAccount, fixtureUser } from "./flowFixtures.ts"
import { defineModel } from "./model.ts"

const user = fixtureUser
const { profile, fund } = fixtureAccount

export const model = defineModel({
  name: "auth",
  // The parent-bound actions (navigation, loading modal) need a parent; traversal runs the machine alone.
  machine: authMachine.provide({
    actions: { navigateHome: () => {}, showLoading: () => {}, hideLoading: () => {}, notifyError: () => {} },
  }),
  events: [
    { type: "xstate.done.actor.checkSession", output: { isAuthenticated: true, user } },
    { type: "xstate.done.actor.checkSession", output: { isAuthenticated: false, user: null } },
    { type: "xstate.error.actor.checkSession", error: new Error("network down") },
    { type: "xstate.done.actor.loadAccount", output: { profile, fund } },
    { type: "xstate.error.actor.loadAccount", error: new Unauthenticated({ message: "Session expired" }) },
    { type: "xstate.error.actor.loadAccount", error: new Error("Get fund failed") },
    { type: "xstate.after.queryStale.auth.authenticated.ready" },
    { type: "xstate.done.actor.signOut" },
    { type: "xstate.error.actor.signOut", error: new Error("network down") },
    { type: "SIGNED_IN", user },
    { type: "RECHECK" },
    { type: "REFRESH" },
    { type: "SIGN_OUT" },
  ],
  projectContext: (snapshot) => ({
    user: snapshot.context.user?.id ?? null,
    loaded: snapshot.context.profile !== null,
  }),
})
