/**
 * Real rounds at the game studio started beside the casino (`parties: ["studio"]`): a funded
 * player's real-money session of a lobby game, and rounds played in it through the studio's own
 * page API — the bet and win go through the casino's game wallet as in production. What the fairness
 * tests play before asking for a round's proof.
 */
import { expect } from "vitest"
import type { Game, GamesAndCategories } from "../../services/game-service.ts"
import type { Player } from "./account-support.ts"
import { credit, GAMES, launchBody } from "./games-support.ts"
import type { TestServer } from "./harness.ts"
import { userIdOf } from "./money-support.ts"
import { Browser } from "./users-support.ts"

/** What the studio answers for a round played on its page. */
export interface PlayedRound {
  readonly roundId: string
  readonly nonce: number
  readonly clientSeed: string
  readonly serverSeedHash: string
  readonly multiplier: string
  readonly win: string
  readonly detail: unknown
}

/** Where the studio started beside `server` listens. */
export const studioUrlOf = (server: TestServer): string => {
  const party = server.parties.get("studio")
  if (party === undefined) throw new Error("the studio did not start beside the casino")
  return party.url
}

/** A game of the casino's lobby (the studio's catalogue, synced at start), by id. */
export const lobbyGame = async (server: TestServer, id: string): Promise<Game> => {
  const lobby = (await new Browser(server).get(`${GAMES}/games-and-categories/EUR`))
    .body as GamesAndCategories
  const game = lobby.games.find((g) => g.id === id)
  if (game === undefined) throw new Error(`no ${id} in the lobby`)
  return game
}

export const studioPost = async (
  studioUrl: string,
  path: string,
  body?: unknown,
): Promise<{ readonly status: number; readonly body: Record<string, unknown> }> => {
  const r = await fetch(`${studioUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: r.status, body: (await r.json()) as Record<string, unknown> }
}

/** The player's real-money session of `game` at the studio: its id (the last part of the launch URL). */
export const studioSession = async (player: Player, game: Game): Promise<string> => {
  const launched = await player.browser.post(`${GAMES}/game`, launchBody(game, false))
  expect(launched.status, JSON.stringify(launched.body)).toBe(200)
  return (
    String((launched.body as { url: string }).url)
      .split("/")
      .pop() ?? ""
  )
}

/** One round of 1.00 EUR; the studio answers once the casino's wallet has settled it. */
export const playRound = async (
  studioUrl: string,
  session: string,
  options: unknown,
): Promise<PlayedRound> => {
  const played = await studioPost(studioUrl, `/studio/api/session/${session}/round`, { bet: "100", options })
  expect(played.status, JSON.stringify(played.body)).toBe(200)
  return played.body as unknown as PlayedRound
}

/** A new player credited 100.00 EUR, with a session of `gameId` open at the studio. */
export const fundedSession = async (
  server: TestServer,
  player: Player,
  gameId: string,
): Promise<{ readonly playerId: string; readonly session: string }> => {
  const playerId = await userIdOf(server, player.email)
  await credit(server, playerId, 10_000n)
  return { playerId, session: await studioSession(player, await lobbyGame(server, gameId)) }
}
