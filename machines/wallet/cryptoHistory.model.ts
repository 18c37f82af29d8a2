/**
 * Generated-path model of machines/wallet/cryptoHistory.machine.ts, opened on 2026-11-23: the list
 * loads (two transfers, or none), fails, or finds the session gone; Try again; a new range typed and
 * shown — a valid one, an empty date, a start after the end — from the list and from the failure; a
 * hash copied (the clipboard works or refuses), its 2 s feedback, and copied again meanwhile.
 */
import { Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { cryptoHistoryMachine } from "./cryptoHistory.machine.ts"
import { fixtureCryptoHistory } from "./fixtures.ts"

export const model = defineModel({
  name: "cryptoHistory",
  machine: cryptoHistoryMachine,
  input: { today: "2026-11-23" },
  // The range is edited only while no copy runs, and a copy starts only from the list: the two
  // regions are independent, so their product adds paths but no transition.
  events: (snapshot) => {
    const copyIdle = snapshot.matches({ open: { copy: "idle" } })
    return [
      ...(snapshot.matches({ open: { list: "loading" } })
        ? [
            { type: "xstate.done.actor.load", output: fixtureCryptoHistory },
            { type: "xstate.done.actor.load", output: [] },
            { type: "xstate.error.actor.load", error: transportError() },
            { type: "xstate.error.actor.load", error: new Unauthenticated({ message: "Session expired" }) },
          ]
        : []),
      ...(copyIdle
        ? [
            { type: "RETRY" },
            { type: "FROM", value: "2026-11-01" },
            { type: "FROM", value: "" },
            { type: "TO", value: "2026-10-01" },
            { type: "SHOW" },
          ]
        : []),
      ...(snapshot.matches({ open: { list: "ready" } }) && snapshot.context.rangeError === null
        ? [{ type: "COPY", txHash: fixtureCryptoHistory[0]?.txHash ?? "0x1" }]
        : []),
      ...(snapshot.matches({ open: { copy: "copying" } })
        ? [
            { type: "xstate.done.actor.copyText", output: undefined },
            { type: "xstate.error.actor.copyText", error: new Error("NotAllowedError") },
          ]
        : []),
      { type: "xstate.after.copyFeedback.cryptoHistory.open.copy.copied" },
      { type: "xstate.after.copyFeedback.cryptoHistory.open.copy.copyFailed" },
    ]
  },
  projectContext: (snapshot) => ({
    from: snapshot.context.from,
    to: snapshot.context.to,
    shown: snapshot.context.shown,
    transfers: snapshot.context.transfers.length,
    rangeError: snapshot.context.rangeError,
  }),
})
