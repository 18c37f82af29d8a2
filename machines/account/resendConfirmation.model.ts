import { RateLimited } from "../../services/errors.ts"
import { defineModel } from "../model.ts"
import { resendConfirmationMachine } from "./resendConfirmation.machine.ts"

export const model = defineModel({
  name: "resendConfirmation",
  machine: resendConfirmationMachine.provide({ actions: { toast: () => {} } }),
  events: [
    { type: "RESEND" },
    { type: "xstate.done.actor.resend", output: { message: "sent" } },
    {
      type: "xstate.error.actor.resend",
      error: new RateLimited({ message: "slow down", retryAfterSeconds: 60 }),
    },
  ],
})
