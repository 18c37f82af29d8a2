import { Unauthenticated } from "../services/errors.ts"
import { authMachine } from "./auth.machine.ts"
import { defineModel } from "./model.ts"

const user = { id: "u-1", email: "ada@example.com", fullName: "Ada Lovelace", confirmed: false }
const profile = {
  email: user.email,
  confirmed: false,
  firstName: "Ada",
  lastName: "Lovelace",
  receiveEmailPromo: false,
  idVerification: { verified: false },
  billVerification: { verified: false },
  userDetails: {
    phone: { phoneNumber: null, dialingCode: null },
    address: null,
    address2: null,
    nickName: null,
    zipCode: null,
    country: null,
    city: null,
    state: null,
    gender: null,
    dateOfBirth: null,
    receiveEmailPromo: false,
  },
}
const fund = [{ currency: "EUR", default: true, balance: "0", freeSpinWallet: null }]

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
