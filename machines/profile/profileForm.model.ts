/**
 * Generated-path model of machines/profile/profileForm.machine.ts as the general tab runs it (every
 * field, no missing-info marks, staying open after a save): the profile loads (unconfirmed e-mail or
 * confirmed), fails or finds the session gone; the player types a phone and a postal code (one of
 * them wrong first) and saves; every outcome of the save; the children's ends.
 */
import { ProfileFieldLocked, Unauthenticated, ValidationFailed } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { completeProfile, fixtureCountries, fixtureProfile } from "./fixtures.ts"
import { profileFormMachine } from "./profileForm.machine.ts"

const gone = new Unauthenticated({ message: "Session expired" })
const crash = new Error("child crashed")

export const model = defineModel({
  name: "profileForm",
  // The parent note and the toasts need a parent and a page; traversal runs the form alone.
  machine: profileFormMachine.provide({ actions: { announceChange: () => {}, toast: () => {} } }),
  input: {},
  events: (snapshot) => {
    const inputs = snapshot.context.inputs
    return [
      { type: "xstate.done.actor.load", output: { profile: fixtureProfile, countries: fixtureCountries } },
      {
        type: "xstate.done.actor.load",
        output: { profile: { ...fixtureProfile, confirmed: true }, countries: fixtureCountries },
      },
      { type: "xstate.error.actor.load", error: transportError() },
      { type: "xstate.error.actor.load", error: gone },
      { type: "RETRY" },
      // One input at a time, in this order: a postal code one character too long, a good one, the
      // phone's number (still without its calling code: a problem), its calling code.
      ...(inputs.zipCode === "" ? [{ type: "CHANGE", input: "zipCode", value: "VLT 11170" } as const] : []),
      ...(inputs.zipCode === "VLT 11170"
        ? [{ type: "CHANGE", input: "zipCode", value: "VLT1117" } as const]
        : []),
      ...(inputs.zipCode === "VLT1117" && inputs.phoneNumber === ""
        ? [{ type: "CHANGE", input: "phoneNumber", value: "2123 4567" } as const]
        : []),
      ...(inputs.phoneNumber !== "" && inputs.dialingCode === ""
        ? [{ type: "CHANGE", input: "dialingCode", value: "356" } as const]
        : []),
      { type: "SAVE" },
      { type: "xstate.done.actor.save", output: completeProfile },
      {
        type: "xstate.error.actor.save",
        error: new ValidationFailed({ message: "Postal code is at most 7 characters", field: "zipCode" }),
      },
      {
        type: "xstate.error.actor.save",
        error: new ProfileFieldLocked({ message: "Already set", fields: ["phoneNumber"] }),
      },
      { type: "xstate.error.actor.save", error: transportError() },
      { type: "xstate.error.actor.save", error: gone },
      { type: "ACCOUNT_CHANGED" },
      { type: "xstate.done.actor.promo", output: { type: "sessionEnded" } },
      { type: "xstate.error.actor.promo", error: crash },
      { type: "xstate.error.actor.resend", error: crash },
    ]
  },
  projectContext: (snapshot) => {
    const c = snapshot.context
    const typed = [
      c.inputs.zipCode !== "",
      c.inputs.zipCode === "VLT1117",
      c.inputs.phoneNumber !== "",
      c.inputs.dialingCode !== "",
    ]
    return {
      loaded: c.profile !== null,
      saved: c.readOnly.length === c.fields.length,
      typed: typed.filter(Boolean).length,
      errors: Object.keys(c.errors).length > 0,
    }
  },
  uncovered: [
    {
      from: "profileForm.ready.form.saving",
      event: "xstate.done.actor.save",
      reason:
        "The branch to `saved` is taken only when the form is asked to finish after saving (the deposit's " +
        "completion step); one input per model: tests/unit/profile/profileForm.test.ts runs it with a parent.",
    },
    {
      from: "profileForm.ready.promo.start",
      event: "always",
      reason:
        "The promo switch is hidden only when the caller limits the fields (one input per model; the general " +
        "tab shows every field): tests/unit/profile/profileForm.test.ts starts it with a field list.",
    },
  ],
})
