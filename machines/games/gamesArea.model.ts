/**
 * Generated-path model of machines/games/gamesArea.machine.ts, opened at the lobby: the session
 * checked, then anonymous or signed in (and changing while a page runs); every page's address (the
 * lobby, a game, the verifier, an unknown one) and the same page again; the verifier's code
 * downloaded, or not and retried; what the pages ask for (login, the fund, a re-check); a page that
 * crashed; the watcher's failure.
 */
import { defineModel } from "../model.ts"
import { gamesAreaMachine } from "./gamesArea.machine.ts"

const crash = new Error("page crashed")

export const model = defineModel({
  name: "gamesArea",
  // What the area asks of the shell and the session needs them; traversal runs it alone.
  machine: gamesAreaMachine.provide({
    actions: {
      askForLogin: () => {},
      recheckSession: () => {},
      tellLobby: () => {},
      tellGame: () => {},
      reportCrash: () => {},
    },
  }),
  input: { path: "/" },
  events: [
    { type: "SESSION", status: "checking", currency: null },
    { type: "SESSION", status: "anonymous", currency: null },
    { type: "SESSION", status: "signedIn", currency: "EUR" },
    { type: "ROUTE", path: "/" },
    { type: "ROUTE", path: "/game/dice-classic" },
    { type: "ROUTE", path: "/fairness" },
    { type: "ROUTE", path: "/game/NOT_AN_ID" },
    { type: "OPEN_LOGIN" },
    { type: "AUTH_RECHECK" },
    { type: "xstate.done.actor.loadVerifier" },
    {
      type: "xstate.error.actor.loadVerifier",
      error: new TypeError("Failed to fetch dynamically imported module"),
    },
    { type: "RETRY" },
    { type: "xstate.error.actor.lobby", error: crash },
    { type: "xstate.error.actor.game", error: crash },
    { type: "xstate.error.actor.verifier", error: crash },
    { type: "xstate.error.actor.session", error: crash },
  ],
  projectContext: (snapshot) => ({
    path: snapshot.context.path,
    session: snapshot.context.session,
  }),
})
