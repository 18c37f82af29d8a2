/**
 * The verifier's round (GET /profile-service/api/v1/history/bet/fairness?round=…, docs/fairness.md):
 * the player's own round with that provider round id, the provider's round details for it (signed
 * call, Integrations.roundDetails), and what the casino recorded. Someone else's round or an unknown
 * one is the same 404; a provider that does not answer is a 503 the page can retry.
 */
import { Effect } from "effect"
import { GameUnavailable, RoundNotFound } from "../../services/errors.ts"
import type { RoundFairness } from "../../services/game-service.ts"
import type { GamesRepoShape } from "./GamesRepo.ts"
import type { IntegrationsShape } from "./Integrations.ts"

export const RoundFairnessMessages = {
  notFound: "This round is not one of yours.",
  unavailable: "The game's provider did not answer: try again in a moment.",
} as const

export const roundFairness = (
  repo: Pick<GamesRepoShape, "playerRound">,
  integrations: Pick<IntegrationsShape, "get" | "roundDetails">,
  userId: string,
  roundId: string,
): Effect.Effect<RoundFairness, RoundNotFound | GameUnavailable> =>
  Effect.gen(function* () {
    const notFound = new RoundNotFound({ message: RoundFairnessMessages.notFound, roundId })
    const round = yield* repo.playerRound(userId, roundId).pipe(Effect.orDie)
    if (round === undefined) return yield* notFound
    const integration = yield* integrations.get(round.integration)
    const unavailable = new GameUnavailable({
      message: RoundFairnessMessages.unavailable,
      provider: round.integration,
    })
    if (integration === undefined) return yield* unavailable
    const answer = yield* integrations.roundDetails(integration, round.roundId, userId)
    if (answer._tag === "unknown-round") return yield* notFound
    if (answer._tag === "unavailable") return yield* unavailable
    const d = answer.details
    return {
      roundId: round.roundId,
      gameId: d.gameId,
      gameName: round.gameName,
      kind: d.kind,
      options: d.options,
      clientSeed: d.clientSeed,
      nonce: d.nonce,
      serverSeedHash: d.serverSeedHash,
      serverSeed: d.serverSeed,
      currency: round.currency,
      bet: round.bet,
      win: round.win,
      roundNumber: round.roundNumber,
      at: round.at.toISOString(),
    }
  })
