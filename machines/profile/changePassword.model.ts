/**
 * Generated-path model of machines/profile/changePassword.machine.ts: the fields typed in the order
 * that trips each of the reset rules in turn (no edits, too short, below 8, mismatch, current
 * password missing), then every outcome of the call.
 */
import { IncorrectPassword, PasswordRejected, RateLimited, Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { changePasswordMachine } from "./changePassword.machine.ts"

export const model = defineModel({
  name: "changePassword",
  machine: changePasswordMachine.provide({ actions: { toast: () => {} } }),
  events: (snapshot) => {
    const c = snapshot.context
    // Each step is offered once the previous one is in: a SUBMIT between two trips the next rule.
    const step =
      c.newPassword === ""
        ? { type: "CHANGE", field: "newPassword", value: "ab" }
        : c.newPassword === "ab"
          ? { type: "CHANGE", field: "newPassword", value: "abcdef" }
          : c.newPassword === "abcdef"
            ? { type: "CHANGE", field: "newPassword", value: "difference engine" }
            : c.confirmPassword === ""
              ? { type: "CHANGE", field: "confirmPassword", value: "difference engine" }
              : c.oldPassword === ""
                ? { type: "CHANGE", field: "oldPassword", value: "analytical engine" }
                : null
    return [
      ...(step === null ? [] : [step]),
      { type: "SUBMIT" },
      { type: "xstate.done.actor.change" },
      { type: "xstate.error.actor.change", error: new IncorrectPassword({ message: "Wrong password" }) },
      { type: "xstate.error.actor.change", error: new PasswordRejected({ message: "Used before" }) },
      {
        type: "xstate.error.actor.change",
        error: new RateLimited({ message: "Slow down", retryAfterSeconds: 30 }),
      },
      { type: "xstate.error.actor.change", error: transportError() },
      { type: "xstate.error.actor.change", error: new Unauthenticated({ message: "Session expired" }) },
    ]
  },
  projectContext: (snapshot) => ({
    old: snapshot.context.oldPassword !== "",
    new: snapshot.context.newPassword,
    confirm: snapshot.context.confirmPassword !== "",
    errors: snapshot.context.errors,
  }),
})
