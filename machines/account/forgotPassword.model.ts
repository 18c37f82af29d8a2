/**
 * Generated-path model of machines/forgotPassword.machine.ts: a valid and an invalid e-mail, and
 * every outcome of the `forgotPassword` call (sent, each typed failure, a transport failure).
 */
import { RateLimited, ValidationFailed } from "../../services/errors.ts"
import { flowInput, transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { forgotPasswordMachine } from "./forgotPassword.machine.ts"

export const model = defineModel({
  name: "forgotPassword",
  machine: forgotPasswordMachine,
  input: flowInput(),
  events: [
    { type: "CHANGE_EMAIL", value: "ada@lovelace.example" },
    { type: "CHANGE_EMAIL", value: "ada@" },
    { type: "SUBMIT" },
    {
      type: "xstate.done.actor.forgotPassword",
      output: { message: "If the account exists, a link was sent." },
    },
    {
      type: "xstate.error.actor.forgotPassword",
      error: new ValidationFailed({ message: "Invalid", field: "email" }),
    },
    {
      type: "xstate.error.actor.forgotPassword",
      error: new RateLimited({ message: "Slow down", retryAfterSeconds: 30 }),
    },
    { type: "xstate.error.actor.forgotPassword", error: transportError() },
  ],
  projectContext: (snapshot) => ({
    validEmail: snapshot.context.validEmail,
    submitted: snapshot.context.submitted,
    errors: snapshot.context.errors,
  }),
})
