/**
 * The lobby and the game page on real actors with doubles: one failed section leaves the
 * others and says its spec message; the catalogue's currency; a visitor's favorite asks to log in; a
 * player's favorite is POSTed with the spec's body and DELETEd by id, each refusal its message; the
 * search waits for typing to pause (simulated clock); the pools are read again every 30 s; the game
 * page's launch body, real money for a visitor, the frame's messages, the excluded player's message.
 */
import { describe, expect, it } from "vitest"
import { createActor, SimulatedClock } from "xstate"
import { fixtureCatalogue, fixtureFavorites, fixtureJackpots } from "../../../machines/games/fixtures.ts"
import { GamePageMessages, gamePageMachine } from "../../../machines/games/gamePage.machine.ts"
import { allGamesOf, lobbyMachine } from "../../../machines/games/lobby.machine.ts"
import { parseFrameMessage } from "../../../machines/games/support.ts"
import type { RecommendedGames } from "../../../services/cdn.ts"
import { ClientError } from "../../../services/client.ts"
import { PlayBlocked } from "../../../services/errors.ts"
import type {
  FavoriteGame,
  FavoriteGames,
  Games,
  GamesAndCategories,
  Jackpots,
  LaunchPayload,
  LaunchResponse,
  SkinConfiguration,
  Winners,
} from "../../../services/game-service.ts"
import { JACKPOT_REFRESH_MS, LobbyMessages, SEARCH_DEBOUNCE_MS } from "../../../services/lobby-rules.ts"
import { controlled, settle } from "../account/doubles.ts"

const failure = () => new ClientError({ reason: "Transport", method: "GET", url: "/x", status: null })

const startLobby = (session: "anonymous" | "signedIn" = "anonymous") => {
  const catalogue = controlled<GamesAndCategories, string>()
  const top = controlled<Games, unknown>()
  const jackpots = controlled<Jackpots, unknown>()
  const favorites = controlled<FavoriteGames, unknown>()
  const add = controlled<FavoriteGames, FavoriteGame>()
  const remove = controlled<FavoriteGames, string>()
  const toasts: Array<string> = []
  const asked: Array<string> = []
  const clock = new SimulatedClock()
  const actor = createActor(
    lobbyMachine.provide({
      actors: {
        catalogue: catalogue.logic,
        top: top.logic,
        // Never answered here: these sections stay empty.
        featured: controlled<Games, unknown>().logic,
        newGames: controlled<Games, unknown>().logic,
        winners: controlled<Winners, unknown>().logic,
        skin: controlled<SkinConfiguration, unknown>().logic,
        recommended: controlled<RecommendedGames, unknown>().logic,
        jackpots: jackpots.logic,
        favorites: favorites.logic,
        addFavorite: add.logic,
        removeFavorite: remove.logic,
      },
      actions: {
        notifyError: (_, params) => {
          toasts.push(params.message)
        },
        askForLogin: () => {
          asked.push("OPEN_LOGIN")
        },
      },
    }),
    { input: { currency: "usd", session }, clock },
  )
  actor.start()
  return { actor, catalogue, top, jackpots, favorites, add, remove, toasts, asked, clock }
}

describe("the lobby", () => {
  it("asks for the catalogue in the session's currency, upper-cased (EUR when it is not 3 letters)", () => {
    const { catalogue } = startLobby()
    expect(catalogue.last().input).toBe("USD")
  })

  it("a failed section says its message and leaves the others", async () => {
    const { actor, catalogue, top, toasts } = startLobby()
    top.last().reject(failure())
    catalogue.last().resolve(fixtureCatalogue)
    await settle()
    expect(toasts).toEqual([LobbyMessages.topGames])
    expect(actor.getSnapshot().context.failed).toEqual(["top"])
    expect(actor.getSnapshot().matches({ catalogue: "ready" })).toBe(true)
    expect(allGamesOf(actor.getSnapshot().context)).toHaveLength(30)
  })

  it("a visitor's favorite asks for the login modal and calls nothing", async () => {
    const { actor, catalogue, add, asked } = startLobby()
    catalogue.last().resolve(fixtureCatalogue)
    await settle()
    actor.send({ type: "TOGGLE_FAVORITE", gameId: "game-1" })
    expect(asked).toEqual(["OPEN_LOGIN"])
    expect(add.calls).toHaveLength(0)
  })

  it("a player's favorite is added with the spec's body, removed by id; refusals say so", async () => {
    const { actor, catalogue, favorites, add, remove, toasts } = startLobby("signedIn")
    catalogue.last().resolve(fixtureCatalogue)
    favorites.last().resolve(fixtureFavorites)
    await settle()
    actor.send({ type: "TOGGLE_FAVORITE", gameId: "game-1" })
    expect(add.last().input).toEqual({
      id: "game-1",
      launchId: "studio-game-1",
      category: "table",
      name: "Game 1",
      provider: "Red Comet",
    })
    expect(actor.getSnapshot().context.favoriteRequested).toBe("game-1")
    add.last().reject(failure())
    await settle()
    expect(toasts).toEqual([LobbyMessages.addFavorite])
    expect(actor.getSnapshot().context.favoriteRequested).toBeNull()
    actor.send({ type: "TOGGLE_FAVORITE", gameId: "game-2" })
    expect(remove.last().input).toBe("game-2")
    remove.last().reject(failure())
    await settle()
    expect(toasts).toEqual([LobbyMessages.addFavorite, LobbyMessages.deleteFavorite])
    actor.send({ type: "TOGGLE_FAVORITE", gameId: "game-2" })
    remove.last().resolve([])
    await settle()
    expect(actor.getSnapshot().context.favorites).toEqual([])
  })

  it("filters once typing pauses, and starts again at 12", async () => {
    const { actor, catalogue, clock } = startLobby()
    catalogue.last().resolve(fixtureCatalogue)
    await settle()
    actor.send({ type: "MORE" })
    expect(actor.getSnapshot().context.numberOfGames).toBe(24)
    actor.send({ type: "SEARCH", term: "aur" })
    clock.increment(SEARCH_DEBOUNCE_MS - 1)
    actor.send({ type: "SEARCH", term: "aurora" })
    clock.increment(SEARCH_DEBOUNCE_MS - 1)
    expect(actor.getSnapshot().context.searchTerm).toBe("")
    clock.increment(1)
    expect(actor.getSnapshot().context.searchTerm).toBe("aurora")
    expect(actor.getSnapshot().context.numberOfGames).toBe(12)
    expect(allGamesOf(actor.getSnapshot().context).map((g) => g.id)).toEqual(["game-0"])
  })

  it("reads the pools again every 30 s, keeping the amounts when a refresh fails", async () => {
    const { actor, jackpots, clock, toasts } = startLobby()
    jackpots.last().resolve(fixtureJackpots)
    await settle()
    clock.increment(JACKPOT_REFRESH_MS)
    expect(jackpots.calls).toHaveLength(2)
    jackpots.last().reject(failure())
    await settle()
    expect(actor.getSnapshot().context.jackpots).toEqual(fixtureJackpots)
    expect(toasts).toEqual([])
    clock.increment(JACKPOT_REFRESH_MS)
    expect(jackpots.calls).toHaveLength(3)
  })
})

const startGame = (session: "anonymous" | "signedIn") => {
  const catalogue = controlled<GamesAndCategories, string>()
  const launch = controlled<LaunchResponse, LaunchPayload>()
  const asked: Array<string> = []
  const actor = createActor(
    gamePageMachine.provide({
      actors: { catalogue: catalogue.logic, launch: launch.logic },
      actions: {
        askForLogin: () => {
          asked.push("OPEN_LOGIN")
        },
        recheckSession: () => {
          asked.push("AUTH_RECHECK")
        },
      },
    }),
    { input: { gameId: "game-0", session, currency: "EUR", platform: "desktop", lang: "en" } },
  )
  actor.start()
  return { actor, catalogue, launch, asked }
}

describe("the game page", () => {
  it("a visitor plays the demo; real money asks to log in, then launches for real once signed in", async () => {
    const { actor, catalogue, launch, asked } = startGame("anonymous")
    catalogue.last().resolve(fixtureCatalogue)
    await settle()
    expect(launch.last().input).toEqual({
      id: "game-0",
      gameName: "Aurora Reels",
      demo: true,
      lang: "en",
      launchId: "studio-game-0",
      imageId: "game-0",
      platform: "desktop",
      provider: "Lumen Play",
      category: "slots",
    })
    launch.last().resolve({ url: "/studio/play/x", demo: true, currency: "EUR" })
    await settle()
    actor.send({ type: "PLAY", mode: "real" })
    expect(actor.getSnapshot().value).toBe("needsLogin")
    expect(asked).toEqual(["OPEN_LOGIN"])
    actor.send({ type: "SESSION", status: "signedIn" })
    expect(launch.last().input.demo).toBe(false)
  })

  it("the frame's messages: a round's balance asks for nothing (it is pushed), too little money shows the message", async () => {
    const { actor, catalogue, launch, asked } = startGame("signedIn")
    catalogue.last().resolve(fixtureCatalogue)
    await settle()
    expect(launch.last().input.demo).toBe(false)
    launch.last().resolve({ url: "/studio/play/x", demo: false, currency: "EUR" })
    await settle()
    const balance = parseFrameMessage({ type: "studio:balance", balance: "100" })
    const low = parseFrameMessage({ type: "studio:error", code: "INSUFFICIENT_FUNDS" })
    if (balance === null || low === null) throw new Error("the frame's messages did not parse")
    actor.send({ type: "FRAME", message: balance })
    expect(asked).toEqual([])
    expect(actor.getSnapshot().matches({ playing: "frame" })).toBe(true)
    actor.send({ type: "FRAME", message: low })
    expect(actor.getSnapshot().matches({ playing: "lowBalance" })).toBe(true)
    actor.send({ type: "DISMISS" })
    expect(actor.getSnapshot().matches({ playing: "frame" })).toBe(true)
    expect(parseFrameMessage("studio:balance")).toBeNull()
    expect(parseFrameMessage({ type: "other" })).toBeNull()
  })

  it("an excluded player is told why, and may play the demo", async () => {
    const { actor, catalogue, launch } = startGame("signedIn")
    catalogue.last().resolve(fixtureCatalogue)
    await settle()
    launch.last().reject(new PlayBlocked({ message: "excluded", reason: "excluded" }))
    await settle()
    expect(actor.getSnapshot().value).toBe("refused")
    expect(actor.getSnapshot().context.message).toBe(GamePageMessages.excluded)
    expect(GamePageMessages.excluded).toBe("You cannot play for real money while your account is excluded")
    actor.send({ type: "PLAY", mode: "demo" })
    expect(launch.last().input.demo).toBe(true)
  })

  it("an id the catalogue does not have is not found, and nothing is launched", async () => {
    const { actor, catalogue, launch } = startGame("anonymous")
    catalogue.last().resolve({ ...fixtureCatalogue, games: [] })
    await settle()
    expect(actor.getSnapshot().value).toBe("notFound")
    expect(launch.calls).toHaveLength(0)
  })
})
