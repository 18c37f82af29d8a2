/**
 * Generated-path model of machines/profile/promoEmail.machine.ts: started without the flag (the
 * promo tab reads it), every outcome of reading it and of setting it.
 */
import { Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { promoEmailMachine } from "./promoEmail.machine.ts"

const gone = new Unauthenticated({ message: "Session expired" })

export const model = defineModel({
  name: "promoEmail",
  // The parent note and the toasts need a parent and a page; traversal runs the machine alone.
  machine: promoEmailMachine.provide({ actions: { announceChange: () => {}, toast: () => {} } }),
  input: { subscribed: null },
  events: [
    { type: "xstate.done.actor.readFlag", output: false },
    { type: "xstate.error.actor.readFlag", error: transportError() },
    { type: "xstate.error.actor.readFlag", error: gone },
    { type: "RETRY" },
    { type: "TOGGLE" },
    { type: "xstate.done.actor.setFlag", output: true },
    { type: "xstate.done.actor.setFlag", output: false },
    { type: "xstate.error.actor.setFlag", error: transportError() },
    { type: "xstate.error.actor.setFlag", error: gone },
  ],
  projectContext: (snapshot) => snapshot.context.subscribed,
  uncovered: [
    {
      from: "promoEmail.start",
      event: "always",
      reason:
        "The branch to ready is taken only when the caller passes the flag (the general tab's form does); one " +
        "input per model: tests/unit/profile/promoEmail.test.ts starts it with a flag.",
    },
  ],
})
