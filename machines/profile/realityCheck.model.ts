/**
 * Generated-path model of machines/profile/realityCheck.machine.ts: the settings read with an
 * interval (30 minutes, signed in 40 minutes ago) — the 10:30 reminder answered at 10:35, or owed and
 * shown at once — or without one, or not at all; the timer fires (the simulated clock); the player
 * continues (the server records it, or cannot) or signs out; a settings change reads them again;
 * an answer pushed from another page reads them again while the reminder shows (answered here: it
 * closes; still owed, or unknown: it stays).
 */
import { defineModel } from "../model.ts"
import { realityCheckMachine } from "./realityCheck.machine.ts"

const now = Date.parse("2026-11-23T10:40:00Z")
const signedInAt = Date.parse("2026-11-23T10:00:00Z")
const acknowledgedAt = Date.parse("2026-11-23T10:35:00Z")
const continuedAt = now + 21 * 60_000

export const model = defineModel({
  name: "realityCheck",
  machine: realityCheckMachine,
  events: [
    { type: "xstate.done.actor.loadSettings", output: { minutes: 30, signedInAt, acknowledgedAt, now } },
    { type: "xstate.done.actor.loadSettings", output: { minutes: 30, signedInAt, now } },
    { type: "xstate.done.actor.loadSettings", output: { minutes: null, signedInAt, now } },
    { type: "xstate.error.actor.loadSettings", error: new Error("network down") },
    { type: "xstate.after.untilReminder.realityCheck.waiting" },
    { type: "xstate.after.untilReminder.realityCheck.continuing" },
    { type: "CONTINUE", at: continuedAt },
    {
      type: "xstate.done.actor.acknowledge",
      output: { acknowledgedAt: continuedAt + 1_000, now: continuedAt + 1_000 },
    },
    { type: "xstate.error.actor.acknowledge", error: new Error("network down") },
    { type: "SIGN_OUT" },
    { type: "REFRESH" },
    { type: "ANSWERED_ELSEWHERE" },
    { type: "xstate.done.actor.recheckSettings", output: { minutes: 30, signedInAt, acknowledgedAt, now } },
    { type: "xstate.done.actor.recheckSettings", output: { minutes: 30, signedInAt, now } },
    { type: "xstate.done.actor.recheckSettings", output: { minutes: null, signedInAt, now } },
    { type: "xstate.error.actor.recheckSettings", error: new Error("network down") },
  ],
  projectContext: (snapshot) => ({
    interval: snapshot.context.intervalMs,
    nextAt: snapshot.context.nextAt - signedInAt,
    acknowledged:
      snapshot.context.acknowledgedAt === null ? null : snapshot.context.acknowledgedAt - signedInAt,
    elapsed: snapshot.context.elapsedMs,
  }),
})
