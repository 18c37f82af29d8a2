/**
 * Generated-path model of a back-office screen's data: loaded, refused (role, bad filter), failed
 * and retried, refreshed by hand and by the poll, a failed refresh keeping the data, a new filter,
 * and the session ending on the first load or on a refresh.
 */
import { Effect } from "effect"
import { BadInput, Forbidden } from "../../services/backoffice/errors.ts"
import { Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { resourceMachine } from "./backofficeResource.machine.ts"

const load = () => Effect.succeed({ entries: [] })

export const model = defineModel({
  name: "backofficeResource",
  machine: resourceMachine,
  input: { load, pollMs: 5000 },
  otherInputs: [{ name: "no polling", input: { load, pollMs: null } }],
  events: (snapshot) => [
    ...(snapshot.matches("loading")
      ? [
          { type: "xstate.done.actor.load", output: { entries: [{ id: "1" }] } },
          {
            type: "xstate.error.actor.load",
            error: new Forbidden({ message: "no", permission: "audit.read" }),
          },
          {
            type: "xstate.error.actor.load",
            error: new BadInput({ message: "The window is at most 366 days." }),
          },
          { type: "xstate.error.actor.load", error: transportError() },
          {
            type: "xstate.error.actor.load",
            error: new Unauthenticated({ message: "Sign in to the back office." }),
          },
        ]
      : []),
    { type: "RETRY" },
    { type: "REFRESH" },
    { type: "LOAD", load },
    ...(snapshot.matches({ ready: "waiting" })
      ? [{ type: "xstate.after.poll.backofficeResource.ready.waiting" }]
      : []),
    ...(snapshot.matches({ ready: "refreshing" })
      ? [
          { type: "xstate.done.actor.refresh", output: { entries: [{ id: "2" }] } },
          { type: "xstate.error.actor.refresh", error: transportError() },
          {
            type: "xstate.error.actor.refresh",
            error: new Unauthenticated({ message: "Sign in to the back office." }),
          },
        ]
      : []),
  ],
  projectContext: (snapshot) => ({
    data: snapshot.context.data !== null,
    error: snapshot.context.error,
    polls: snapshot.context.pollMs !== null,
  }),
})
