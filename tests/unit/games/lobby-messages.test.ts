/**
 * The lobby's failure messages (spec section 8) on the real actor: each section's call that fails
 * says its own message — 'Get New Games did not work', 'Get Featured Games did not work',
 * 'Get Favorit did not work' (and Top, Games, Jackpots) — once, marks only that section failed and
 * leaves the others; through the machine's own notify action, the message reaches the toaster as an
 * error toast. (lobby.test.ts covers Top, Add and Delete favorit.)
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { createActor } from "xstate"
import { fixtureCatalogue, fixtureFavorites } from "../../../machines/games/fixtures.ts"
import { type LobbySection, lobbyMachine, sectionMessage } from "../../../machines/games/lobby.machine.ts"
import type { RecommendedGames } from "../../../services/cdn.ts"
import { ClientError } from "../../../services/client.ts"
import type {
  FavoriteGame,
  FavoriteGames,
  Games,
  GamesAndCategories,
  Jackpots,
  SkinConfiguration,
  Winners,
} from "../../../services/game-service.ts"
import { LobbyMessages } from "../../../services/lobby-rules.ts"
import { toasterMounted } from "../../../services/notify.ts"
import { controlled, settle } from "../account/doubles.ts"

const sonner = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), info: vi.fn() }))
vi.mock("sonner", () => ({ toast: sonner }))

const failure = () => new ClientError({ reason: "Transport", method: "GET", url: "/x", status: 503 })

/** The lobby with every call a controlled double; `toasts` records notifyError unless `realNotify`. */
const startLobby = (session: "anonymous" | "signedIn", realNotify = false) => {
  const calls = {
    catalogue: controlled<GamesAndCategories, string>(),
    top: controlled<Games, unknown>(),
    featured: controlled<Games, unknown>(),
    newGames: controlled<Games, unknown>(),
    winners: controlled<Winners, unknown>(),
    skin: controlled<SkinConfiguration, unknown>(),
    recommended: controlled<RecommendedGames, unknown>(),
    jackpots: controlled<Jackpots, unknown>(),
    favorites: controlled<FavoriteGames, unknown>(),
    addFavorite: controlled<FavoriteGames, FavoriteGame>(),
    removeFavorite: controlled<FavoriteGames, string>(),
  }
  const toasts: Array<string> = []
  const machine = lobbyMachine.provide({
    actors: {
      catalogue: calls.catalogue.logic,
      top: calls.top.logic,
      featured: calls.featured.logic,
      newGames: calls.newGames.logic,
      winners: calls.winners.logic,
      skin: calls.skin.logic,
      recommended: calls.recommended.logic,
      jackpots: calls.jackpots.logic,
      favorites: calls.favorites.logic,
      addFavorite: calls.addFavorite.logic,
      removeFavorite: calls.removeFavorite.logic,
    },
    actions: realNotify
      ? {}
      : {
          notifyError: (_, params) => {
            toasts.push(params.message)
          },
        },
  })
  const actor = createActor(machine, { input: { currency: "EUR", session } })
  actor.start()
  return { actor, calls, toasts }
}

afterEach(() => {
  sonner.error.mockClear()
})

/** The sections whose failure the player is told about, the call that fails and the spec's words. */
const told: ReadonlyArray<{
  readonly section: LobbySection
  readonly call: "newGames" | "featured" | "favorites" | "top"
  readonly message: string
  readonly words: string
}> = [
  {
    section: "newGames",
    call: "newGames",
    message: LobbyMessages.newGames,
    words: "Get New Games did not work",
  },
  {
    section: "featured",
    call: "featured",
    message: LobbyMessages.featuredGames,
    words: "Get Featured Games did not work",
  },
  {
    section: "favorites",
    call: "favorites",
    message: LobbyMessages.favorites,
    words: "Get Favorit did not work",
  },
  { section: "top", call: "top", message: LobbyMessages.topGames, words: "Get Top Games did not work" },
]

describe("the lobby's failure messages", () => {
  it.each(told)("$words: said once when its call fails; only its section fails", async (t) => {
    expect(t.message).toBe(t.words)
    expect(sectionMessage(t.section)).toBe(t.words)
    const { actor, calls, toasts } = startLobby("signedIn")
    calls[t.call].last().reject(failure())
    // Everything else answers.
    calls.catalogue.last().resolve(fixtureCatalogue)
    for (const other of ["newGames", "featured", "top"] as const)
      if (other !== t.call) calls[other].last().resolve(fixtureCatalogue.games.slice(0, 3))
    if (t.call !== "favorites") calls.favorites.last().resolve(fixtureFavorites)
    await settle()
    expect(toasts).toEqual([t.words])
    const context = actor.getSnapshot().context
    expect(context.failed).toEqual([t.section])
    expect(actor.getSnapshot().matches({ catalogue: "ready" })).toBe(true)
    for (const other of ["newGames", "featured", "top"] as const)
      expect(context[other]).toHaveLength(other === t.call ? 0 : 3)
    expect(context.favorites).toEqual(t.call === "favorites" ? [] : fixtureFavorites)
  })

  it("'Get Favorit did not work': the favorites stay unknown (a toggle does nothing) until Try again reads them", async () => {
    const { actor, calls, toasts } = startLobby("signedIn")
    calls.catalogue.last().resolve(fixtureCatalogue)
    calls.favorites.last().reject(failure())
    await settle()
    expect(toasts).toEqual([LobbyMessages.favorites])
    expect(actor.getSnapshot().matches({ favorites: "failed" })).toBe(true)
    actor.send({ type: "TOGGLE_FAVORITE", gameId: "game-1" })
    expect(calls.addFavorite.calls).toHaveLength(0)
    actor.send({ type: "RETRY" })
    expect(calls.favorites.calls).toHaveLength(2)
    calls.favorites.last().resolve(fixtureFavorites)
    await settle()
    expect(actor.getSnapshot().matches({ favorites: "ready" })).toBe(true)
    expect(actor.getSnapshot().context.failed).toEqual([])
    expect(toasts).toEqual([LobbyMessages.favorites])
  })

  it("a visitor is not asked for favorites, so 'Get Favorit did not work' is never said", async () => {
    const { calls, toasts } = startLobby("anonymous")
    calls.catalogue.last().resolve(fixtureCatalogue)
    await settle()
    expect(calls.favorites.calls).toHaveLength(0)
    expect(toasts).toEqual([])
  })

  it("all three failing at once: each message once, in the order the calls failed", async () => {
    const { actor, calls, toasts } = startLobby("signedIn")
    calls.featured.last().reject(failure())
    calls.favorites.last().reject(failure())
    calls.newGames.last().reject(failure())
    await settle()
    expect(toasts).toEqual([LobbyMessages.featuredGames, LobbyMessages.favorites, LobbyMessages.newGames])
    expect([...actor.getSnapshot().context.failed].sort()).toEqual(["favorites", "featured", "newGames"])
  })

  it("through the machine's own notify action, each message reaches the toaster as an error toast", async () => {
    toasterMounted()
    const { calls } = startLobby("signedIn", true)
    calls.newGames.last().reject(failure())
    calls.featured.last().reject(failure())
    calls.favorites.last().reject(failure())
    await settle()
    await vi.waitFor(() => expect(sonner.error).toHaveBeenCalledTimes(3))
    expect(sonner.error.mock.calls.map(([message]) => message)).toEqual([
      "Get New Games did not work",
      "Get Featured Games did not work",
      "Get Favorit did not work",
    ])
    expect(sonner.success).not.toHaveBeenCalled()
  })
})
