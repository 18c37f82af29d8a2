/**
 * Generated-path model of machines/games/gamePage.machine.ts, opened by a visitor on a game with
 * demo: the catalogue answered (the game, or not), failed and retried; demo launched; real money
 * asked (login, then signed in) and launched; every launch refusal (excluded, no wallet, not found,
 * session gone, unavailable and retried); the frame loading (its first message), blocked or silent
 * past its timeout and tried again; the frame's balance and low-balance messages; signed out
 * while playing for real; the reality check's reminder pausing play (while playing, or before the
 * launch answered) and its answer resuming it; the reality check's watcher failing.
 */
import { GameNotFound, GameUnavailable, PlayBlocked, Unauthenticated } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { fixtureCatalogue } from "./fixtures.ts"
import { gamePageMachine } from "./gamePage.machine.ts"

const launched = (demo: boolean) => ({ url: "/studio/play/abc", demo, currency: "EUR" })

export const model = defineModel({
  name: "gamePage",
  // What the page asks of the area needs a parent; traversal runs it alone.
  machine: gamePageMachine.provide({
    actions: { askForLogin: () => {}, recheckSession: () => {} },
  }),
  input: { gameId: "game-0", session: "anonymous", currency: null, platform: "desktop", lang: "en" },
  events: [
    { type: "xstate.done.actor.catalogue", output: fixtureCatalogue },
    { type: "xstate.done.actor.catalogue", output: { ...fixtureCatalogue, games: [] } },
    { type: "xstate.error.actor.catalogue", error: transportError() },
    { type: "RETRY" },
    { type: "xstate.done.actor.launch", output: launched(true) },
    {
      type: "xstate.error.actor.launch",
      error: new PlayBlocked({ message: "excluded", reason: "excluded" }),
    },
    {
      type: "xstate.error.actor.launch",
      error: new PlayBlocked({ message: "no wallet", reason: "currency" }),
    },
    {
      type: "xstate.error.actor.launch",
      error: new PlayBlocked({ message: "demo only", reason: "demo-only" }),
    },
    { type: "xstate.error.actor.launch", error: new GameNotFound({ message: "gone", id: "game-0" }) },
    { type: "xstate.error.actor.launch", error: new Unauthenticated({ message: "Session expired" }) },
    {
      type: "xstate.error.actor.launch",
      error: new GameUnavailable({ message: "down", provider: "studio" }),
    },
    { type: "PLAY", mode: "real" },
    { type: "PLAY", mode: "demo" },
    { type: "SESSION", status: "signedIn" },
    { type: "SESSION", status: "anonymous" },
    { type: "FRAME", message: { type: "balance" } },
    { type: "FRAME", message: { type: "insufficientFunds" } },
    { type: "FRAME", message: { type: "error", code: "BET_LIMIT" } },
    { type: "FRAME_BLOCKED" },
    { type: "xstate.after.frameTimeout.gamePage.playing.loading" },
    { type: "DISMISS" },
    { type: "PAUSE" },
    { type: "RESUME" },
    { type: "xstate.error.actor.realityCheck", error: new Error("no session actor") },
  ],
  projectContext: (snapshot) => ({
    session: snapshot.context.session,
    mode: snapshot.context.mode,
    message: snapshot.context.message,
    game: snapshot.context.game?.id ?? null,
    paused: snapshot.context.paused,
    frameFailure: snapshot.context.frameFailure,
  }),
})
