/**
 * Generated-path model of machines/profile/sessions.machine.ts: the list loads (this device and a
 * phone), fails or finds the session gone; revoking the current one is refused, the phone's is
 * confirmed or cancelled; every outcome of the revocation.
 */
import { SessionNotFound, Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { fixtureSessions } from "./fixtures.ts"
import { sessionsMachine } from "./sessions.machine.ts"

const gone = new Unauthenticated({ message: "Session expired" })

export const model = defineModel({
  name: "sessions",
  machine: sessionsMachine.provide({ actions: { toast: () => {} } }),
  events: [
    { type: "xstate.done.actor.list", output: fixtureSessions },
    { type: "xstate.error.actor.list", error: transportError() },
    { type: "xstate.error.actor.list", error: gone },
    { type: "RETRY" },
    { type: "REFRESH" },
    { type: "REVOKE", id: "s-current" },
    { type: "REVOKE", id: "s-phone" },
    { type: "CANCEL" },
    { type: "CONFIRM" },
    { type: "xstate.done.actor.revoke" },
    { type: "xstate.error.actor.revoke", error: new SessionNotFound({ message: "No such session" }) },
    { type: "xstate.error.actor.revoke", error: transportError() },
    { type: "xstate.error.actor.revoke", error: gone },
  ],
  projectContext: (snapshot) => ({
    sessions: snapshot.context.sessions.length,
    selected: snapshot.context.selected?.id ?? null,
  }),
})
