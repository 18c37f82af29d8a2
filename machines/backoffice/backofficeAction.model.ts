/**
 * Generated-path model of one operator change: a one-click action and one with a reason (given or
 * left empty), cancelled, done and dismissed or timed out, refused by the server with its message,
 * failed and retried, a next change submitted while the last one's notice shows, the answer
 * dismissed, and the session ending on the call.
 */
import { Effect } from "effect"
import { LastAdmin } from "../../services/backoffice/errors.ts"
import { Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { actionMachine } from "./backofficeAction.machine.ts"

const run = () => Effect.succeed({ ok: true })

export const model = defineModel({
  name: "backofficeAction",
  machine: actionMachine,
  events: (snapshot) => [
    { type: "OPEN" },
    { type: "CANCEL" },
    { type: "SUBMIT", run },
    { type: "SUBMIT", run, reason: "Document expired" },
    { type: "SUBMIT", run, reason: "  " },
    { type: "DISMISS" },
    ...(snapshot.matches("submitting")
      ? [
          { type: "xstate.done.actor.run", output: { ok: true } },
          {
            type: "xstate.error.actor.run",
            error: new LastAdmin({ message: "The last active admin cannot lose the role or be disabled." }),
          },
          { type: "xstate.error.actor.run", error: transportError() },
          {
            type: "xstate.error.actor.run",
            error: new Unauthenticated({ message: "Sign in to the back office." }),
          },
        ]
      : []),
    ...(snapshot.matches("done") ? [{ type: "xstate.after.doneShown.backofficeAction.done" }] : []),
  ],
  projectContext: (snapshot) => ({
    result: snapshot.context.result !== null,
    error: snapshot.context.error,
  }),
})
