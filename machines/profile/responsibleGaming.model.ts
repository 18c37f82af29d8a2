/**
 * Generated-path model of machines/profile/responsibleGaming.machine.ts: the settings load (no limits),
 * fail or find the session gone; the player types a wrong daily limit, a good one, saves, sets the
 * reality check; every outcome of the save (a raise left pending or not); the self-exclusion child's
 * ends.
 */
import { Unauthenticated, ValidationFailed } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { fixtureResponsibleGaming } from "./fixtures.ts"
import { responsibleGamingMachine } from "./responsibleGaming.machine.ts"

const readAt = Date.parse("2026-11-23T10:00:00Z")
const withDaily = {
  ...fixtureResponsibleGaming,
  depositLimits: {
    ...fixtureResponsibleGaming.depositLimits,
    daily: { amount: "5000", pending: null, used: "0", remaining: "5000" },
  },
  remainingDeposit: "5000",
}
const withPendingRaise = {
  ...withDaily,
  depositLimits: {
    ...withDaily.depositLimits,
    daily: {
      amount: "5000",
      pending: { amount: "10000", effectiveAt: "2026-11-24T10:00:00Z" },
      used: "0",
      remaining: "5000",
    },
  },
}

export const model = defineModel({
  name: "responsibleGaming",
  machine: responsibleGamingMachine.provide({ actions: { announceChange: () => {}, toast: () => {} } }),
  events: (snapshot) => {
    const daily = snapshot.context.inputs.daily
    return [
      { type: "xstate.done.actor.load", output: { settings: fixtureResponsibleGaming, readAt } },
      { type: "xstate.error.actor.load", error: transportError() },
      { type: "xstate.error.actor.load", error: new Unauthenticated({ message: "Session expired" }) },
      { type: "RETRY" },
      ...(daily === "" ? [{ type: "CHANGE_LIMIT", period: "daily", value: "fifty" } as const] : []),
      ...(daily === "fifty" ? [{ type: "CHANGE_LIMIT", period: "daily", value: "50" } as const] : []),
      { type: "SET_REALITY_CHECK", minutes: 30 },
      { type: "SAVE" },
      { type: "xstate.done.actor.save", output: withDaily },
      { type: "xstate.done.actor.save", output: withPendingRaise },
      {
        type: "xstate.error.actor.save",
        error: new ValidationFailed({ message: "A limit must be positive", field: "daily" }),
      },
      { type: "xstate.error.actor.save", error: transportError() },
      { type: "xstate.error.actor.save", error: new Unauthenticated({ message: "Session expired" }) },
      { type: "xstate.done.actor.selfExclusion", output: { type: "selfExcluded" } },
      { type: "xstate.done.actor.selfExclusion", output: { type: "sessionEnded" } },
      { type: "xstate.error.actor.selfExclusion", error: new Error("child crashed") },
    ]
  },
  projectContext: (snapshot) => ({
    loaded: snapshot.context.settings !== null,
    saved: snapshot.context.settings?.depositLimits.daily.amount ?? null,
    daily: snapshot.context.inputs.daily,
    realityCheck: snapshot.context.realityCheckMinutes,
    errors: Object.keys(snapshot.context.errors).length > 0,
  }),
})
