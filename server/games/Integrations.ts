/**
 * The game integrations (docs/game-wallet-protocol.md): per provider code, where its launch goes
 * and its two keys. GAME_PROVIDERS adds or overrides them; the in-house studio is `studio` by
 * default (unless STUDIO=off): launchUrl `{INTERNAL_URL}/studio/api/launch`, keys derived from the
 * studio secret by the studio's own derivation (server/providers/game-studio/credentials.ts).
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { AppConfig, type GameProviderConfig } from "../config.ts"
import { signWebhook } from "../payments/adapters.ts"
import { studioCredentials, studioSecret } from "../providers/game-studio/credentials.ts"
import { STUDIO } from "./catalogue.ts"

export const SIGNATURE_HEADER = "x-signature"

/** `t=<unix s>,v1=<hex HMAC-SHA256(key, t + "." + body)>` — the protocol's header, both directions. */
export const signBody = (key: string, timestamp: number, rawBody: string): string =>
  signWebhook(key, timestamp, rawBody)

export interface LaunchRequest {
  readonly sessionToken: string | null
  readonly playerId: string | null
  readonly nickname: string | null
  readonly currency: string
  readonly gameId: string
  readonly demo: boolean
  readonly lang: string
  readonly platform: string
  readonly lobbyUrl: string
}

export type LaunchAnswer =
  | { readonly _tag: "ok"; readonly url: string }
  | { readonly _tag: "unknown-game" }
  | { readonly _tag: "unavailable"; readonly reason: string }

export interface IntegrationsShape {
  /** The integration of `code`, or undefined (unknown, or the studio's secret not there yet). */
  readonly get: (code: string) => Effect.Effect<GameProviderConfig | undefined>
  /** The signed launch call; never fails: an unreachable or odd provider is `unavailable`. */
  readonly launch: (integration: GameProviderConfig, request: LaunchRequest) => Effect.Effect<LaunchAnswer>
}

const LaunchReply = Schema.Struct({ url: Schema.String.check(Schema.isPattern(/^(https?:\/\/|\/)\S+$/)) })
const decodeLaunchReply = Schema.decodeUnknownOption(Schema.fromJsonString(LaunchReply))

const LAUNCH_TIMEOUT_MS = 5_000

export class Integrations extends Context.Service<Integrations, IntegrationsShape>()(
  "casino/server/GameIntegrations",
) {
  static readonly layer = Layer.effect(
    Integrations,
    Effect.gen(function* () {
      const config = yield* AppConfig
      const sql = yield* SqlClient.SqlClient
      const configured = new Map(config.gameProviders.map((p) => [p.code, p] as const))
      let studio: GameProviderConfig | undefined

      // The studio's own derivation (server/providers/game-studio/credentials.ts): the configured
      // secret, else the one generated into `studio_settings` (created here if the studio has not yet).
      const studioKeys = studioSecret(config.studioSecret).pipe(
        Effect.map(studioCredentials),
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.orElseSucceed(() => undefined),
      )

      const get = (code: string): Effect.Effect<GameProviderConfig | undefined> => {
        const own = configured.get(code)
        if (own !== undefined) return Effect.succeed(own)
        if (code !== STUDIO || !config.studioEnabled) return Effect.succeed(undefined)
        if (studio !== undefined) return Effect.succeed(studio)
        return studioKeys.pipe(
          Effect.map((keys) => {
            if (keys === undefined) return undefined
            studio = { code: STUDIO, launchUrl: `${config.internalUrl}/studio/api/launch`, ...keys }
            return studio
          }),
        )
      }

      const launch = (integration: GameProviderConfig, request: LaunchRequest): Effect.Effect<LaunchAnswer> =>
        Effect.tryPromise({
          try: async (signal) => {
            const body = JSON.stringify(request)
            const timestamp = Math.floor(Date.now() / 1000)
            const response = await fetch(integration.launchUrl, {
              method: "POST",
              headers: {
                "content-type": "application/json",
                [SIGNATURE_HEADER]: signBody(integration.casinoKey, timestamp, body),
              },
              body,
              signal: AbortSignal.any([signal, AbortSignal.timeout(LAUNCH_TIMEOUT_MS)]),
              redirect: "error",
            })
            const text = await response.text()
            if (response.status === 404) return { _tag: "unknown-game" } as const
            if (response.status !== 200)
              return { _tag: "unavailable", reason: `launch answered ${response.status}` } as const
            const reply = decodeLaunchReply(text)
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

      return { get, launch } satisfies IntegrationsShape
    }),
  )
}
