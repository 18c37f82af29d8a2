/**
 * Generated-path model of machines/profile/loyalty.machine.ts: the tab loads a Silver player's level,
 * or fails (then retries) or finds the session gone; a refresh reads again (a Gold player now),
 * fails while keeping what is shown, or finds the session gone.
 */
import { Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { silverLevel } from "./fixtures.ts"
import { loyaltyMachine } from "./loyalty.machine.ts"

const gone = new Unauthenticated({ message: "Session expired" })
const goldLevel = {
  ...silverLevel,
  level: 3,
  name: "Gold",
  points: "5000",
  nextLevel: { level: 4, name: "Platinum", minPoints: "25000" },
  pointsToNext: "20000",
  progressPercent: 0,
}

export const model = defineModel({
  name: "loyalty",
  machine: loyaltyMachine.provide({ actions: { toast: () => {} } }),
  events: [
    { type: "xstate.done.actor.load", output: silverLevel },
    { type: "xstate.error.actor.load", error: transportError() },
    { type: "xstate.error.actor.load", error: gone },
    { type: "RETRY" },
    { type: "REFRESH" },
    { type: "xstate.done.actor.refresh", output: goldLevel },
    { type: "xstate.error.actor.refresh", error: transportError() },
    { type: "xstate.error.actor.refresh", error: gone },
  ],
  projectContext: (snapshot) => ({ level: snapshot.context.status?.name ?? null }),
})
