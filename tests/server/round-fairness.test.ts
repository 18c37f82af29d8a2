/**
 * The verifier's round (docs/fairness.md, "Verify a round"), on PostgreSQL, with the real studio
 * beside the casino: a player plays a dice round; the casino's fairness endpoint answers the studio's
 * round details (signed round-details call, docs/game-wallet-protocol.md) with the server seed still
 * secret; after the player rotates the seed it answers the revealed seed, from which the verifier's
 * maths recomputes the very outcome played. Another player's (or an unknown) round is a 404; the
 * studio itself refuses an unsigned call and another player's round. The Bets tab's rows carry the
 * player's round number in each game.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { randomBytes } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { StudioHandle } from "../../compose/parties/studio.ts"
import { signBody } from "../../protocols/game-wallet/signature.ts"
import type { Game, GamesAndCategories } from "../../services/game-service.ts"
import { verifyRound } from "../../services/games/verify.ts"
import { newPlayer } from "./account-support.ts"
import { credit, GAMES } from "./games-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { userIdOf } from "./money-support.ts"
import { playRound, studioPost, studioSession, studioUrlOf } from "./studio-round-support.ts"
import { Browser } from "./users-support.ts"

const PROFILE = "/profile-service/api/v1"

describeOn("postgres", "the verifier's round through the provider", ({ start }) => {
  let server: TestServer
  let studioUrl: string
  let dice: Game
  let slot: Game

  beforeAll(async () => {
    server = await start({ captchaEnabled: false }, { parties: ["studio"], env: { RATE_LIMIT_SCALE: "100" } })
    studioUrl = studioUrlOf(server)
    const lobby = (await new Browser(server).get(`${GAMES}/games-and-categories/EUR`))
      .body as GamesAndCategories
    const find = (id: string) => {
      const g = lobby.games.find((x) => x.id === id)
      if (g === undefined) throw new Error(`no ${id} in the lobby`)
      return g
    }
    dice = find("dice-classic")
    slot = lobby.games.find((g) => g.kind === "slot") ?? find("none")
  }, 120_000)
  afterAll(async () => {
    await server?.close()
  })

  const session = studioSession
  const studioPostTo = (path: string, body?: unknown) => studioPost(studioUrl, path, body)
  const play = (id: string, options: unknown) => playRound(studioUrl, id, options)

  it("answers the round's details, the server seed only once rotated, and it recomputes the outcome", {
    timeout: 60_000,
  }, async () => {
    const player = await newPlayer(server, "fairness")
    await credit(server, await userIdOf(server, player.email), 10_000n)
    const id = await session(player, dice)
    await studioPostTo(`/studio/api/session/${id}/seed`, { clientSeed: "my-lucky-seed" })
    const options = { target: 40, direction: "over" }
    const first = await play(id, options)
    const second = await play(id, { target: 75.5, direction: "under" })

    const asked = await player.browser.get(`${PROFILE}/history/bet/fairness?round=${first.roundId}`)
    expect(asked.status, JSON.stringify(asked.body)).toBe(200)
    expect(asked.body).toEqual({
      roundId: first.roundId,
      gameId: "dice-classic",
      gameName: dice.name,
      kind: "dice",
      options: { target: 40, direction: "over" },
      clientSeed: "my-lucky-seed",
      nonce: first.nonce,
      serverSeedHash: first.serverSeedHash,
      serverSeed: null,
      currency: "EUR",
      bet: "100",
      win: first.win,
      roundNumber: 1,
      at: expect.any(String),
    })

    // The Bets tab counts the player's rounds per game: these are the 1st and 2nd of dice.
    const history = (await player.browser.get(`${PROFILE}/history/bet`)).body as {
      content: Array<{ roundId: string; roundNumber: number }>
    }
    expect(history.content.map((r) => [r.roundId, r.roundNumber])).toEqual([
      [second.roundId, 2],
      [first.roundId, 1],
    ])

    const rotated = await studioPostTo(`/studio/api/session/${id}/rotate`)
    expect(rotated.status).toBe(200)
    const revealed = (rotated.body.revealed as { serverSeed: string }).serverSeed
    for (const round of [first, second]) {
      const after = await player.browser.get(`${PROFILE}/history/bet/fairness?round=${round.roundId}`)
      expect(after.status).toBe(200)
      const details = after.body as {
        gameId: string
        options: unknown
        serverSeed: string | null
        serverSeedHash: string
        clientSeed: string
        nonce: number
      }
      expect(details.serverSeed).toBe(revealed)
      const outcome = await verifyRound({
        gameId: details.gameId,
        options: details.options,
        serverSeed: revealed,
        clientSeed: details.clientSeed,
        nonce: details.nonce,
      })
      expect(outcome.multiplier.toString()).toBe(round.multiplier)
      expect(outcome.detail).toEqual(round.detail)
    }
  })

  it("counts round numbers per game, not across games", { timeout: 60_000 }, async () => {
    const player = await newPlayer(server, "fairness-games")
    await credit(server, await userIdOf(server, player.email), 10_000n)
    const diceSession = await session(player, dice)
    const slotSession = await session(player, slot)
    const a = await play(diceSession, { target: 50, direction: "under" })
    const b = await play(slotSession, {})
    const c = await play(diceSession, { target: 50, direction: "under" })
    const history = (await player.browser.get(`${PROFILE}/history/bet`)).body as {
      content: Array<{ roundId: string; roundNumber: number }>
    }
    expect(history.content.map((r) => [r.roundId, r.roundNumber])).toEqual([
      [c.roundId, 2],
      [b.roundId, 1],
      [a.roundId, 1],
    ])
  })

  it("is the round's player's only: another player and an unknown round get 404, a visitor 401", {
    timeout: 60_000,
  }, async () => {
    const owner = await newPlayer(server, "fairness-owner")
    const ownerId = await userIdOf(server, owner.email)
    await credit(server, ownerId, 10_000n)
    const round = await play(await session(owner, dice), { target: 50, direction: "under" })
    const other = await newPlayer(server, "fairness-other")
    const theirs = await other.browser.get(`${PROFILE}/history/bet/fairness?round=${round.roundId}`)
    expect(theirs.status).toBe(404)
    expect(theirs.body).toMatchObject({ _tag: "RoundNotFound", message: "This round is not one of yours." })
    const unknown = await owner.browser.get(`${PROFILE}/history/bet/fairness?round=no-such-round`)
    expect(unknown.status).toBe(404)
    expect(
      (await new Browser(server).get(`${PROFILE}/history/bet/fairness?round=${round.roundId}`)).status,
    ).toBe(401)

    // The studio answers only a call signed with the casino key, and only about the named player's round.
    const studio = server.parties.get("studio")?.handle as StudioHandle | undefined
    if (studio === undefined) throw new Error("no studio")
    const keys = studio.keys
    const ask = (playerId: string, key: string) => {
      const body = JSON.stringify({
        requestId: randomBytes(16).toString("hex"),
        roundId: round.roundId,
        playerId,
      })
      return fetch(`${studioUrl}/studio/api/rounds/details`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-signature": signBody(key, body) },
        body,
      })
    }
    const forged = await ask(ownerId, "not-the-casino-key-0123456789")
    expect(forged.status).toBe(401)
    expect(await forged.json()).toEqual({ error: "INVALID_SIGNATURE" })
    const notTheirs = await ask("someone-else", keys.casinoKey)
    expect(notTheirs.status).toBe(404)
    expect(await notTheirs.json()).toEqual({ error: "UNKNOWN_ROUND" })
    const ok = await ask(ownerId, keys.casinoKey)
    expect(ok.status).toBe(200)
    expect(ok.headers.get("x-signature")).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
  })
})
