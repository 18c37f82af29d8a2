/**
 * The casino's answer for the verifier's round (server/games/roundFairness.ts), with the provider's
 * answers arranged: the details with the casino's record; the provider not knowing the round, a
 * round the player does not have, and a provider that does not answer (or is not configured any
 * more) each say so in their own words.
 */
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import type { GameProviderConfig } from "../../../server/config.ts"
import type { PlayerRoundRow } from "../../../server/games/GamesRepo.ts"
import type { RoundDetailsAnswer } from "../../../server/games/Integrations.ts"
import { roundFairness } from "../../../server/games/roundFairness.ts"

const row: PlayerRoundRow = {
  roundId: "r-1",
  gameId: "dice-classic",
  gameName: "Dice",
  provider: "Lumen Play",
  currency: "EUR",
  bet: "100",
  win: "90",
  status: "settled",
  at: new Date("2026-11-28T03:00:00.000Z"),
  roundNumber: 7,
  integration: "studio",
}

const studio: GameProviderConfig = {
  code: "studio",
  launchUrl: "http://127.0.0.1:9/studio/api/launch",
  gamesUrl: "http://127.0.0.1:9/studio/api/games",
  freeRoundsUrl: "http://127.0.0.1:9/studio/api/freerounds",
  casinoKey: "casino-key-0123456789",
  walletSecret: "wallet-secret-0123456789",
}

const ask = (
  round: PlayerRoundRow | undefined,
  answer: RoundDetailsAnswer,
  configured: GameProviderConfig | null = studio,
) =>
  Effect.runPromiseExit(
    roundFairness(
      { playerRound: () => Effect.succeed(round) },
      { get: () => Effect.succeed(configured ?? undefined), roundDetails: () => Effect.succeed(answer) },
      "user-1",
      "r-1",
    ),
  )

const failure = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit) ? exit.cause.reasons.find((r) => r._tag === "Fail")?.error : undefined

describe("the verifier's round", () => {
  it("answers the provider's details with what the casino recorded", async () => {
    const exit = await ask(row, {
      _tag: "ok",
      details: {
        roundId: "r-1",
        gameId: "dice-classic",
        kind: "dice",
        options: { target: 40, direction: "over" },
        clientSeed: "seed",
        nonce: 3,
        serverSeedHash: "ab".repeat(32),
        serverSeed: null,
      },
    })
    expect(exit).toEqual(
      Exit.succeed({
        roundId: "r-1",
        gameId: "dice-classic",
        gameName: "Dice",
        kind: "dice",
        options: { target: 40, direction: "over" },
        clientSeed: "seed",
        nonce: 3,
        serverSeedHash: "ab".repeat(32),
        serverSeed: null,
        currency: "EUR",
        bet: "100",
        win: "90",
        roundNumber: 7,
        at: "2026-11-28T03:00:00.000Z",
      }),
    )
  })

  it("is not found when the player has no such round, or the provider does not know it", async () => {
    for (const exit of [
      await ask(undefined, { _tag: "unknown-round" }),
      await ask(row, { _tag: "unknown-round" }),
    ])
      expect(failure(exit)).toMatchObject({
        _tag: "RoundNotFound",
        message: "This round is not one of yours.",
      })
  })

  it("says the provider did not answer when it is down or no longer configured", async () => {
    for (const exit of [
      await ask(row, { _tag: "unavailable", reason: "ECONNREFUSED" }),
      await ask(row, { _tag: "unknown-round" }, null),
    ])
      expect(failure(exit)).toMatchObject({
        _tag: "GameUnavailable",
        message: "The game's provider did not answer: try again in a moment.",
        provider: "studio",
      })
  })
})
