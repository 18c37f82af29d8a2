/**
 * The game integrations (docs/game-wallet-protocol.md): per provider code, where its launch and its
 * games list are, and its two keys — all from GAME_PROVIDERS, nothing else. A sandbox provider is
 * configured exactly like a real one (the composition root sets GAME_PROVIDERS for it).
 *
 * The two signed calls the casino makes: the launch, and the games list (the catalogue, fetched by
 * Games at start and every GAME_CATALOGUE_REFRESH_SECONDS; its answer is signed by the provider).
 */
import { randomBytes } from "node:crypto"
import { Cause, Context, Data, Effect, Exit, Layer } from "effect"
import { decodeGamesList, GAMES_LIST_MAX_CHARS } from "../../protocols/game-wallet/games-list.ts"
import { decodeLaunchAnswer, type LaunchRequest } from "../../protocols/game-wallet/launch.ts"
import {
  decodeRoundDetails,
  ROUND_DETAILS_MAX_CHARS,
  type RoundDetails,
  roundDetailsUrlFor,
} from "../../protocols/game-wallet/round-details.ts"
import { acceptedSignature, SIGNATURE_HEADER, signBody } from "../../protocols/game-wallet/signature.ts"
import { AppConfig, type GameProviderConfig } from "../config.ts"
import { type Catalogue, toCatalogue } from "./catalogue.ts"

/** What the casino sends at launch: every field of the protocol's body but its requestId, set. */
export type LaunchCall = Required<Omit<LaunchRequest, "requestId" | "lobbyUrl">> & {
  readonly lobbyUrl: string
}

export type LaunchAnswer =
  | { readonly _tag: "ok"; readonly url: string }
  | { readonly _tag: "unknown-game" }
  | { readonly _tag: "unavailable"; readonly reason: string }

/** Why an integration's games list was not taken: the last stored list stays. */
export class CatalogueUnavailable extends Data.TaggedError("CatalogueUnavailable")<{
  readonly integration: string
  /** False: no answer at all (network, timeout) — expected while a provider (or this server) starts. */
  readonly answered: boolean
  readonly reason: string
}> {}

/** A round-details call's outcome: the details, a round the provider does not know, or no usable answer. */
export type RoundDetailsAnswer =
  | { readonly _tag: "ok"; readonly details: RoundDetails }
  | { readonly _tag: "unknown-round" }
  | { readonly _tag: "unavailable"; readonly reason: string }

export interface IntegrationsShape {
  /** The integration of `code`, or undefined. */
  readonly get: (code: string) => Effect.Effect<GameProviderConfig | undefined>
  /** Every integration, in GAME_PROVIDERS' order. */
  readonly all: () => Effect.Effect<ReadonlyArray<GameProviderConfig>>
  /** The signed launch call; never fails: an unreachable or odd provider is `unavailable`. */
  readonly launch: (integration: GameProviderConfig, request: LaunchCall) => Effect.Effect<LaunchAnswer>
  /**
   * The integration's games list: signed request (casinoKey), signed answer checked (walletSecret,
   * tolerance), decoded with the protocol's schema, as catalogue rows under the integration's code.
   */
  readonly catalogue: (
    integration: GameProviderConfig,
  ) => Effect.Effect<
    { readonly catalogue: Catalogue; readonly skipped: ReadonlyArray<string> },
    CatalogueUnavailable
  >
  /**
   * A round's seeds and options for the verifier (docs/game-wallet-protocol.md, "Round details"):
   * signed request (casinoKey) to the launch URL's sibling `rounds/details`, signed answer checked
   * (walletSecret). Never fails: an unreachable or odd provider is `unavailable`.
   */
  readonly roundDetails: (
    integration: GameProviderConfig,
    roundId: string,
    playerId: string,
  ) => Effect.Effect<RoundDetailsAnswer>
}

/** fetch's own message is "fetch failed": the cause (ECONNREFUSED, a timeout) is what helps. */
const failureText = (e: unknown): string =>
  e instanceof Error
    ? e.cause instanceof Error
      ? `${e.message}: ${e.cause.message}`
      : e.message
    : "no answer"

const LAUNCH_TIMEOUT_MS = 5_000
const ROUND_DETAILS_TIMEOUT_MS = 5_000
const CATALOGUE_TIMEOUT_MS = 10_000

export class Integrations extends Context.Service<Integrations, IntegrationsShape>()(
  "casino/server/GameIntegrations",
) {
  static readonly layer = Layer.effect(
    Integrations,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const configured = new Map(config.gameProviders.map((p) => [p.code, p] as const))
      const get = (code: string) => Effect.succeed(configured.get(code))
      const all = () => Effect.succeed(config.gameProviders)

      const catalogueOf = (integration: GameProviderConfig) => {
        const unavailable = (answered: boolean, reason: string) =>
          new CatalogueUnavailable({ integration: integration.code, answered, reason })
        return Effect.tryPromise({
          try: async (signal) => {
            // A fresh id per request: two requests never carry the same signed bytes.
            const body = JSON.stringify({ requestId: randomBytes(16).toString("hex") })
            const response = await fetch(integration.gamesUrl, {
              method: "POST",
              headers: {
                "content-type": "application/json",
                [SIGNATURE_HEADER]: signBody(integration.casinoKey, body),
              },
              body,
              signal: AbortSignal.any([signal, AbortSignal.timeout(CATALOGUE_TIMEOUT_MS)]),
              redirect: "error",
            })
            return {
              status: response.status,
              text: await response.text(),
              signature: response.headers.get(SIGNATURE_HEADER) ?? undefined,
            }
          },
          catch: (e) => unavailable(false, failureText(e)),
        }).pipe(
          Effect.flatMap((reply) => {
            if (reply.status !== 200) return Effect.fail(unavailable(true, `answered ${reply.status}`))
            if (reply.text.length > GAMES_LIST_MAX_CHARS)
              return Effect.fail(unavailable(true, "answer too large"))
            const signed = acceptedSignature(
              integration.walletSecret,
              reply.signature,
              reply.text,
              Math.floor(Date.now() / 1000),
              config.webhookToleranceSeconds,
            )
            if (signed === undefined) {
              // Tell a stale answer (replayed, or a clock far off) from a forged one, for the operator.
              const late =
                acceptedSignature(
                  integration.walletSecret,
                  reply.signature,
                  reply.text,
                  0,
                  Number.MAX_SAFE_INTEGER,
                ) !== undefined
              return Effect.fail(
                unavailable(
                  true,
                  late ? "the answer's signature is stale" : "the answer's signature is missing or wrong",
                ),
              )
            }
            const decoded = decodeGamesList(reply.text)
            if (Exit.isFailure(decoded))
              return Effect.fail(
                unavailable(true, `not a games list: ${Cause.pretty(decoded.cause).slice(0, 500)}`),
              )
            return Effect.succeed(
              toCatalogue(
                integration.code,
                decoded.value,
                new URL(config.publicUrl).origin,
                config.frameOrigins,
              ),
            )
          }),
        )
      }

      const launch = (integration: GameProviderConfig, request: LaunchCall): Effect.Effect<LaunchAnswer> =>
        Effect.tryPromise({
          try: async (signal) => {
            // A fresh requestId: the provider refuses the same signed bytes twice (a replayed launch).
            const body = JSON.stringify({ ...request, requestId: randomBytes(16).toString("hex") })
            const response = await fetch(integration.launchUrl, {
              method: "POST",
              headers: {
                "content-type": "application/json",
                [SIGNATURE_HEADER]: signBody(integration.casinoKey, body),
              },
              body,
              signal: AbortSignal.any([signal, AbortSignal.timeout(LAUNCH_TIMEOUT_MS)]),
              redirect: "error",
            })
            const text = await response.text()
            if (response.status === 404) return { _tag: "unknown-game" } as const
            if (response.status !== 200)
              return { _tag: "unavailable", reason: `launch answered ${response.status}` } as const
            const reply = decodeLaunchAnswer(text)
            if (reply._tag === "None")
              return { _tag: "unavailable", reason: "launch answer without a url" } as const
            return { _tag: "ok", url: reply.value.url } as const
          },
          catch: (e) => e,
        }).pipe(
          Effect.catch((e) =>
            Effect.succeed<LaunchAnswer>({
              _tag: "unavailable",
              reason: e instanceof Error ? e.message : "launch failed",
            }),
          ),
          Effect.tap((answer) =>
            answer._tag === "unavailable"
              ? Effect.logWarning(`games: launch at ${integration.code} failed: ${answer.reason}`)
              : Effect.void,
          ),
        )

      const roundDetails = (
        integration: GameProviderConfig,
        roundId: string,
        playerId: string,
      ): Effect.Effect<RoundDetailsAnswer> =>
        Effect.tryPromise({
          try: async (signal): Promise<RoundDetailsAnswer> => {
            const body = JSON.stringify({ requestId: randomBytes(16).toString("hex"), roundId, playerId })
            const response = await fetch(roundDetailsUrlFor(integration.launchUrl), {
              method: "POST",
              headers: {
                "content-type": "application/json",
                [SIGNATURE_HEADER]: signBody(integration.casinoKey, body),
              },
              body,
              signal: AbortSignal.any([signal, AbortSignal.timeout(ROUND_DETAILS_TIMEOUT_MS)]),
              redirect: "error",
            })
            const text = await response.text()
            if (response.status === 404) return { _tag: "unknown-round" }
            if (response.status !== 200)
              return { _tag: "unavailable", reason: `round details answered ${response.status}` }
            if (text.length > ROUND_DETAILS_MAX_CHARS)
              return { _tag: "unavailable", reason: "answer too large" }
            const signed = acceptedSignature(
              integration.walletSecret,
              response.headers.get(SIGNATURE_HEADER) ?? undefined,
              text,
              Math.floor(Date.now() / 1000),
              config.webhookToleranceSeconds,
            )
            if (signed === undefined)
              return { _tag: "unavailable", reason: "the answer's signature is missing, wrong or stale" }
            const decoded = decodeRoundDetails(text)
            if (Exit.isFailure(decoded)) return { _tag: "unavailable", reason: "not round details" }
            // The provider answers the round asked for, or its answer is not about this round.
            if (decoded.value.roundId !== roundId)
              return { _tag: "unavailable", reason: "the answer is about another round" }
            return { _tag: "ok", details: decoded.value }
          },
          catch: (e) => e,
        }).pipe(
          Effect.catch((e) =>
            Effect.succeed<RoundDetailsAnswer>({ _tag: "unavailable", reason: failureText(e) }),
          ),
          Effect.tap((answer) =>
            answer._tag === "unavailable"
              ? Effect.logWarning(`games: round details at ${integration.code} failed: ${answer.reason}`)
              : Effect.void,
          ),
        )

      return { get, all, launch, catalogue: catalogueOf, roundDetails } satisfies IntegrationsShape
    }),
  )
}
