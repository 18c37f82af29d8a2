/** Generated-path model of machines/profile/unsubscribe.machine.ts: every outcome of the one call. */
import { UnsubscribeLinkInvalid } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { unsubscribeMachine } from "./unsubscribe.machine.ts"

export const model = defineModel({
  name: "unsubscribe",
  machine: unsubscribeMachine,
  input: { id: "u_4Jx9fQ2mZ8pL1vR7sT3w" },
  events: [
    {
      type: "xstate.done.actor.unsubscribe",
      output: { message: "You are unsubscribed", email: "ada@lovelace.example" },
    },
    {
      type: "xstate.error.actor.unsubscribe",
      error: new UnsubscribeLinkInvalid({ message: "Unknown link" }),
    },
    { type: "xstate.error.actor.unsubscribe", error: transportError() },
    { type: "RETRY" },
  ],
  projectContext: (snapshot) => snapshot.context.email,
})
