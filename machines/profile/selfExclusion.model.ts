/**
 * Generated-path model of machines/profile/selfExclusion.machine.ts for a player with an active
 * one-week time-out (as the settings would say if the server let them in): choosing a shorter period
 * is refused, a longer one is confirmed or cancelled; every outcome of the call.
 */
import { ExclusionNotShortened, Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { selfExclusionMachine } from "./selfExclusion.machine.ts"

const now = Date.parse("2026-11-23T10:00:00Z")

export const model = defineModel({
  name: "selfExclusion",
  machine: selfExclusionMachine.provide({ actions: { toast: () => {} } }),
  input: { current: { period: "7d", until: "2026-11-30T10:00:00Z" }, now },
  events: [
    { type: "CHOOSE", period: "24h" },
    { type: "CHOOSE", period: "6m" },
    { type: "CANCEL" },
    { type: "CONFIRM" },
    { type: "xstate.done.actor.exclude", output: { period: "6m", until: "2027-05-25T10:00:00Z" } },
    {
      type: "xstate.error.actor.exclude",
      error: new ExclusionNotShortened({ message: "Ends later", until: "2026-11-30T10:00:00Z" }),
    },
    { type: "xstate.error.actor.exclude", error: transportError() },
    { type: "xstate.error.actor.exclude", error: new Unauthenticated({ message: "Session expired" }) },
  ],
  projectContext: (snapshot) => ({ chosen: snapshot.context.chosen, error: snapshot.context.error }),
})
