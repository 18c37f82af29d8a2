/**
 * Generated-path model of machines/wallet/depositHistory.machine.ts, opened on 2026-11-23: the list
 * loads (two deposits, or none), fails, or finds the session gone; Try again; a new range typed and
 * shown — a valid one, an empty date, a start after the end — from the list and from the failure; a
 * pushed deposit status reads the list again (a balance push does not); the stream failing changes nothing.
 */
import { Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { depositHistoryMachine } from "./depositHistory.machine.ts"
import { fixtureDepositHistory } from "./fixtures.ts"

export const model = defineModel({
  name: "depositHistory",
  machine: depositHistoryMachine,
  input: { today: "2026-11-23" },
  events: [
    { type: "xstate.done.actor.load", output: fixtureDepositHistory },
    { type: "xstate.done.actor.load", output: [] },
    { type: "xstate.error.actor.load", error: transportError() },
    { type: "xstate.error.actor.load", error: new Unauthenticated({ message: "Session expired" }) },
    { type: "RETRY" },
    { type: "FROM", value: "2026-11-01" },
    { type: "FROM", value: "" },
    { type: "TO", value: "2026-10-01" },
    { type: "SHOW" },
    {
      type: "PUSH",
      event: {
        type: "deposit",
        depositId: "3b1d9f0e-6a2c-4e8b-8f7a-5c4d3e2f1a09",
        status: "expired",
        amount: "3000",
        currency: "EUR",
      },
    },
    { type: "PUSH", event: { type: "balance", currency: "EUR", balance: "100" } },
    { type: "xstate.error.actor.pushEvents", error: new Error("no EventSource") },
  ],
  projectContext: (snapshot) => ({
    from: snapshot.context.from,
    to: snapshot.context.to,
    shown: snapshot.context.shown,
    deposits: snapshot.context.deposits.length,
    rangeError: snapshot.context.rangeError,
  }),
})
