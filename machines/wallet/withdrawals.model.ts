/**
 * Generated-path model of machines/wallet/withdrawals.machine.ts: the list loads (two withdrawals, or
 * none), fails (Try again), or finds the session gone; a `withdrawal` push event or the stream
 * (re)opening reads it again (also while a load or refresh runs), another event does not; the
 * refresh fails or finds the session gone; the push events cannot be followed.
 */
import { Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { fixtureWithdrawals } from "./cashoutFixtures.ts"
import { withdrawalsMachine } from "./withdrawals.machine.ts"

const gone = new Unauthenticated({ message: "Session expired" })

export const model = defineModel({
  name: "withdrawals",
  machine: withdrawalsMachine,
  events: [
    { type: "xstate.done.actor.load", output: fixtureWithdrawals },
    { type: "xstate.done.actor.load", output: [] },
    { type: "xstate.error.actor.load", error: transportError() },
    { type: "xstate.error.actor.load", error: gone },
    { type: "RETRY" },
    {
      type: "PUSH",
      event: { type: "withdrawal", id: "w-1", currency: "EUR", amount: "2500", status: "rejected" },
    },
    { type: "PUSH", event: { type: "balance", currency: "EUR", balance: "5000" } },
    { type: "STREAM_OPENED" },
    { type: "xstate.done.actor.refresh", output: fixtureWithdrawals },
    { type: "xstate.error.actor.refresh", error: transportError() },
    { type: "xstate.error.actor.refresh", error: gone },
    { type: "xstate.error.actor.pushEvents", error: new Error("no EventSource") },
  ],
  projectContext: (snapshot) => ({
    withdrawals: snapshot.context.withdrawals.length,
    live: snapshot.context.live,
  }),
})
