/**
 * Generated-path model of machines/confirmEmail.machine.ts: every outcome of the `confirmAccount`
 * call, the retry after a transport failure, Continue and the automatic continue timer.
 */
import { InvalidToken } from "../../services/errors.ts"
import { flowInput, statusError, transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { confirmEmailMachine } from "./confirmEmail.machine.ts"

export const model = defineModel({
  name: "confirmEmail",
  machine: confirmEmailMachine,
  input: flowInput("9a0d7e4c3b8a6f5e4d3c2b1a094f1c2b"),
  events: [
    { type: "xstate.done.actor.confirmAccount", output: { confirmed: true } },
    { type: "xstate.done.actor.confirmAccount", output: { confirmed: false } },
    { type: "xstate.error.actor.confirmAccount", error: new InvalidToken({ message: "Expired" }) },
    { type: "xstate.error.actor.confirmAccount", error: transportError() },
    { type: "xstate.error.actor.confirmAccount", error: statusError(502) },
    { type: "xstate.after.continueDelay.confirmEmail.confirmed" },
    { type: "CONTINUE" },
    { type: "RETRY" },
  ],
  projectContext: (snapshot) => ({ retried: snapshot.context.attempts > 1 }),
})
