/**
 * Generated-path model of the support inbox's live stream: opening (or not within its time),
 * events gathered into one change, a drop while idle or mid-burst, the session asked after a drop
 * (standing, ended with a 401, unreachable), the backoff and the reopen, and no EventSource at all.
 */
import type { ChatEvent } from "../../services/chat-service.ts"
import { Unauthenticated } from "../../services/errors.ts"
import { kycOfficer, transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { streamMachine } from "./backofficeStream.machine.ts"

const message: ChatEvent = {
  type: "message",
  conversationId: "5b0c3f4e-3a51-4d6b-9d1e-0d6f3c2a1b10",
  message: { id: "7", author: "player", body: "Is anyone there?", createdAt: "2026-11-28T10:00:00.000Z" },
}
const closed: ChatEvent = { type: "closed", conversationId: "0e9d6c1a-2b3f-4c5d-8e7f-a1b2c3d4e5f6" }

export const model = defineModel({
  name: "backofficeStream",
  machine: streamMachine,
  events: (snapshot) => [
    ...(snapshot.matches("streaming")
      ? [
          { type: "STREAM_OPEN" },
          { type: "STREAM_DROP" },
          { type: "STREAM_EVENT", event: message },
          { type: "STREAM_EVENT", event: closed },
          { type: "xstate.error.actor.stream", error: new Error("EventSource is not available") },
        ]
      : []),
    ...(snapshot.matches({ streaming: "connecting" })
      ? [{ type: "xstate.after.openTimeout.backofficeStream.streaming.connecting" }]
      : []),
    ...(snapshot.matches({ streaming: { connected: "settling" } })
      ? [{ type: "xstate.after.settle.backofficeStream.streaming.connected.settling" }]
      : []),
    ...(snapshot.matches({ reconnecting: "checking" })
      ? [
          { type: "xstate.done.actor.check", output: kycOfficer },
          {
            type: "xstate.error.actor.check",
            error: new Unauthenticated({ message: "Sign in to the back office." }),
          },
          { type: "xstate.error.actor.check", error: transportError() },
        ]
      : []),
    ...(snapshot.matches({ reconnecting: "waiting" })
      ? [{ type: "xstate.after.backoff.backofficeStream.reconnecting.waiting" }]
      : []),
  ],
  // Whether it is retrying and whether a burst is waiting; the counts only set the delays.
  projectContext: (snapshot) => ({
    retrying: snapshot.context.attempt > 0,
    pending: snapshot.context.pending.length > 0,
  }),
})
