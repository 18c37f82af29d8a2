/**
 * Generated-path model of machines/profile/realityCheck.machine.ts: the settings read with an
 * interval (30 minutes, signed in 40 minutes ago) or without, or not at all; the timer fires (the
 * simulated clock); the player continues or signs out; a settings change reads them again.
 */
import { defineModel } from "../model.ts"
import { realityCheckMachine } from "./realityCheck.machine.ts"

const now = Date.parse("2026-11-23T10:40:00Z")
const signedInAt = Date.parse("2026-11-23T10:00:00Z")

export const model = defineModel({
  name: "realityCheck",
  machine: realityCheckMachine,
  events: [
    { type: "xstate.done.actor.loadSettings", output: { minutes: 30, signedInAt, now } },
    { type: "xstate.done.actor.loadSettings", output: { minutes: null, signedInAt, now } },
    { type: "xstate.error.actor.loadSettings", error: new Error("network down") },
    { type: "xstate.after.untilReminder.realityCheck.waiting" },
    { type: "CONTINUE", at: now + 21 * 60_000 },
    { type: "SIGN_OUT" },
    { type: "REFRESH" },
  ],
  projectContext: (snapshot) => ({
    interval: snapshot.context.intervalMs,
    nextAt: snapshot.context.nextAt - signedInAt,
    elapsed: snapshot.context.elapsedMs,
  }),
})
