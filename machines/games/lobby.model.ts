/**
 * Generated-path model of machines/games/lobby.machine.ts: every section's call answered and failed,
 * the catalogue retried, the jackpots refreshed on their timer (a refresh that fails keeps the
 * amounts), favorites for a visitor (login asked), a player (loaded, failed, added, removed, both
 * refused), a session that starts or ends, search debounced, a segment, "more".
 */
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import {
  fixtureCatalogue,
  fixtureFavorites,
  fixtureGames,
  fixtureJackpots,
  fixtureRecommended,
  fixtureSkin,
  fixtureWinners,
} from "./fixtures.ts"
import { lobbyMachine } from "./lobby.machine.ts"

const added = [
  ...fixtureFavorites,
  { id: "game-1", launchId: "studio-game-1", category: "table", name: "Game 1", provider: "Red Comet" },
]

/** The sections that load once, each answered or failed. */
const oneShots = [
  { type: "xstate.done.actor.top", output: fixtureGames.slice(0, 6) },
  { type: "xstate.error.actor.top", error: transportError() },
  { type: "xstate.done.actor.featured", output: fixtureGames.slice(0, 4) },
  { type: "xstate.error.actor.featured", error: transportError() },
  { type: "xstate.done.actor.newGames", output: fixtureGames.slice(0, 4) },
  { type: "xstate.error.actor.newGames", error: transportError() },
  { type: "xstate.done.actor.winners", output: fixtureWinners },
  { type: "xstate.error.actor.winners", error: transportError() },
  { type: "xstate.done.actor.skin", output: fixtureSkin },
  { type: "xstate.error.actor.skin", error: transportError() },
  { type: "xstate.done.actor.recommended", output: fixtureRecommended },
  { type: "xstate.error.actor.recommended", error: transportError() },
]

export const model = defineModel({
  name: "lobby",
  // The login modal is asked of a parent; traversal runs the lobby alone. Toasts are the view's.
  machine: lobbyMachine.provide({ actions: { askForLogin: () => {}, notifyError: () => {} } }),
  input: { currency: "eur", session: "anonymous" },
  // The regions run side by side; offering every event everywhere makes the graph explode (their
  // product). The walk takes them in turn instead: the catalogue and the one-shot sections first,
  // then, with nothing in flight elsewhere, the jackpots' tick, the favorites, the search and list.
  events: (snapshot) => {
    const at = (state: object) => snapshot.matches(state as Parameters<typeof snapshot.matches>[0])
    const c = snapshot.context
    if (at({ catalogue: "loading" }))
      return [
        { type: "xstate.done.actor.catalogue", output: fixtureCatalogue },
        { type: "xstate.error.actor.catalogue", error: transportError() },
        ...(c.top.length === 0 && c.failed.length === 0 ? oneShots : []),
      ]
    if (at({ catalogue: "failed" })) return [{ type: "RETRY" }]
    if (at({ jackpots: "loading" }))
      return [
        { type: "xstate.done.actor.jackpots", output: fixtureJackpots },
        { type: "xstate.error.actor.jackpots", error: transportError() },
      ]
    const favoritesIdle = at({ favorites: "off" }) || at({ favorites: "ready" })
    if (at({ search: "typing" }))
      return [
        { type: "xstate.after.searchDebounce.lobby.search.typing" },
        ...(c.searchInput === "game 1" ? [{ type: "SEARCH", term: "aurora" }] : []),
      ]
    if (at({ favorites: "loading" }))
      return [
        { type: "xstate.done.actor.favorites", output: fixtureFavorites },
        { type: "xstate.error.actor.favorites", error: transportError() },
      ]
    if (at({ favorites: "failed" })) return [{ type: "RETRY" }, { type: "SESSION", status: "anonymous" }]
    if (at({ favorites: "adding" }))
      return [
        { type: "xstate.done.actor.addFavorite", output: added },
        { type: "xstate.error.actor.addFavorite", error: transportError() },
      ]
    if (at({ favorites: "removing" }))
      return [
        { type: "xstate.done.actor.removeFavorite", output: [] },
        { type: "xstate.error.actor.removeFavorite", error: transportError() },
      ]
    return favoritesIdle
      ? [
          { type: "xstate.after.jackpotRefresh.lobby.jackpots.waiting" },
          { type: "SESSION", status: c.session === "signedIn" ? "anonymous" : "signedIn" },
          { type: "TOGGLE_FAVORITE", gameId: "game-1" },
          { type: "TOGGLE_FAVORITE", gameId: "game-2" },
          { type: "TOGGLE_FAVORITE", gameId: "no-such-game" },
          ...(c.searchTerm === "" ? [{ type: "SEARCH", term: "game 1" }] : []),
          ...(c.segment === null ? [{ type: "SEGMENT", segment: "slots" }] : []),
          ...(c.numberOfGames < 24 ? [{ type: "MORE" }] : []),
        ]
      : []
  },
  projectContext: (snapshot) => ({
    games: snapshot.context.games.length,
    jackpots: snapshot.context.jackpots.length,
    favorites: snapshot.context.favorites.length,
    session: snapshot.context.session,
    searchInput: snapshot.context.searchInput,
    searchTerm: snapshot.context.searchTerm,
    segment: snapshot.context.segment,
    numberOfGames: snapshot.context.numberOfGames,
  }),
})
