/**
 * Generated-path model of machines/wallet/deposit/depositProfile.machine.ts: the card chosen by a
 * player of a fresh registration (no address: the form asks the missing fields), by one whose profile
 * is complete (the step ends at once), and with the fields the server named (ProfileIncomplete). The
 * form saves, ends with the session gone, or crashes; its promo note is relayed.
 */
import { defineModel } from "../../model.ts"
import { completeProfile, fixtureProfile } from "../../profile/fixtures.ts"
import { depositProfileMachine } from "./depositProfile.machine.ts"

export const model = defineModel({
  name: "depositProfile",
  // The note to the payment step needs a parent; traversal runs alone.
  machine: depositProfileMachine.provide({ actions: { announceChange: () => {} } }),
  input: { profile: fixtureProfile, method: "card", fields: null },
  otherInputs: [
    { name: "complete", input: { profile: completeProfile, method: "card", fields: null } },
    { name: "asked", input: { profile: completeProfile, method: "card", fields: ["city"] } },
  ],
  events: [
    { type: "xstate.done.actor.completeProfile", output: { type: "saved", profile: completeProfile } },
    { type: "xstate.done.actor.completeProfile", output: { type: "sessionEnded" } },
    { type: "xstate.error.actor.completeProfile", error: new Error("child crashed") },
    { type: "ACCOUNT_CHANGED" },
  ],
  projectContext: (snapshot) => ({
    missing: snapshot.context.missing,
    outcome: snapshot.context.outcome.type,
  }),
})
