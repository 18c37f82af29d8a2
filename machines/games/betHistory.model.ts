/**
 * Generated-path model of machines/games/betHistory.machine.ts: the list and the provider list load,
 * fail, or find the session gone; Try again; a provider chosen; another page; a new range typed and
 * shown — a valid one, an empty date, a start after the end — from the list and from the failure.
 */
import { Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { betHistoryMachine } from "./betHistory.machine.ts"
import { fixtureBetHistory } from "./fixtures.ts"

const gone = new Unauthenticated({ message: "Session expired" })

export const model = defineModel({
  name: "betHistory",
  machine: betHistoryMachine,
  input: { today: "2026-11-23" },
  // The provider list's outcomes happen once, at the start: offered only then, or the graph explodes.
  events: (snapshot) => [
    { type: "xstate.done.actor.load", output: fixtureBetHistory },
    { type: "xstate.error.actor.load", error: transportError() },
    { type: "xstate.error.actor.load", error: gone },
    ...(snapshot.context.history === null &&
    snapshot.context.providers.length === 0 &&
    snapshot.matches("loading")
      ? [
          { type: "xstate.done.actor.providers", output: ["Red Comet", "Odd Owl"] },
          { type: "xstate.error.actor.providers", error: transportError() },
          { type: "xstate.error.actor.providers", error: gone },
        ]
      : []),
    { type: "RETRY" },
    ...(snapshot.context.shown.provider === "" ? [{ type: "PROVIDER", provider: "Red Comet" }] : []),
    { type: "PAGE", page: 1 },
    { type: "PAGE", page: 7 },
    ...(snapshot.context.from === "2026-10-25"
      ? [
          { type: "FROM", value: "2026-11-01" },
          { type: "FROM", value: "" },
        ]
      : []),
    ...(snapshot.context.to === "2026-11-23" ? [{ type: "TO", value: "2026-10-01" }] : []),
    { type: "SHOW" },
  ],
  projectContext: (snapshot) => ({
    from: snapshot.context.from,
    to: snapshot.context.to,
    shown: `${snapshot.context.shown.from}|${snapshot.context.shown.provider}|${snapshot.context.shown.page}`,
    providers: snapshot.context.providers.length,
    loaded: snapshot.context.history !== null,
    rangeError: snapshot.context.rangeError,
  }),
})
