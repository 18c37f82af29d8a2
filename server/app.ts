/**
 * The casino server, one Node process on one origin: the contract (services/api.ts) served by
 * HttpApiBuilder with /openapi.json and /docs, the CDN folder, the player app, the edge middleware
 * (origin check, body limits, security headers, request log, 400 for client mistakes) and 501 for
 * the capabilities not built yet. `makeServer` migrates, seeds, writes the CDN files, then listens.
 */
import { createServer } from "node:http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Exit, Layer, Logger, References, Scope } from "effect"
import { HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { CasinoApi } from "../services/api.ts"
import { writeCdnFiles } from "./cdn/files.ts"
import { cdnRoutes } from "./cdn/http.ts"
import { AppConfig, type AppConfigShape } from "./config.ts"
import { makeDbLayer } from "./db/client.ts"
import { migrate } from "./db/migrate.ts"
import { seed } from "./db/seed.ts"
import { ErrorLoggerHandlersLive } from "./errorlog/http.ts"
import { Geo } from "./geo/Geo.ts"
import { IpHandlersLive } from "./geo/http.ts"
import { edgeMiddleware, pathOf } from "./security/middleware.ts"
import { RateLimiter } from "./security/RateLimiter.ts"
import { staticRoutes } from "./static/http.ts"
import { ProfileHandlersLive, UserHandlersLive } from "./users/http.ts"

/** Capabilities of the spec that later work delivers; their calls answer 501 until then. */
export const capabilities = {
  profile: "profile",
  walletPayments: "wallet-and-payments",
  games: "games",
  bonuses: "bonuses",
} as const
export type Capability = (typeof capabilities)[keyof typeof capabilities]

const capabilityTitles: Readonly<Record<Capability, string>> = {
  profile: "Profile management",
  "wallet-and-payments": "Wallet and payments",
  games: "Games",
  bonuses: "Bonuses and promotions",
}

/** Which capability a profile-service path belongs to (spec section 7). */
export const profileServiceCapability = (path: string): Capability => {
  const rest = path.replace(/^\/profile-service\/api\/v1/, "")
  if (/^\/profile\/(promotion|promotion-eligible|redeem-promotion-coupon|loyalty-level)(\/|$)/.test(rest)) {
    return capabilities.bonuses
  }
  if (/^\/(profile\/favoriteGame|history\/bet)(\/|$)/.test(rest)) return capabilities.games
  if (
    /^\/rate\/limit(\/|$)/.test(rest) ||
    /^\/profile\/(currency|withdrawable|payment|fiat|crypto|skrill|jeton|mifinity|brpay|paypound|paystudio|payweb|ikajo|pgpaytech|devcode|kluwp|ems)(\/|$)/.test(
      rest,
    )
  ) {
    return capabilities.walletPayments
  }
  return capabilities.profile
}

export const notImplemented = (capability: Capability) =>
  HttpServerResponse.jsonUnsafe(
    {
      error: "NotImplemented",
      capability,
      message: `${capabilityTitles[capability]} is not available yet.`,
    },
    { status: 501, headers: { "cache-control": "no-store" } },
  )

const NotImplementedRoutes = Layer.mergeAll(
  HttpRouter.add("*", "/profile-service/*", (request) =>
    Effect.succeed(notImplemented(profileServiceCapability(pathOf(request.url)))),
  ),
  HttpRouter.add("*", "/game-aggregator-service/*", Effect.succeed(notImplemented(capabilities.games))),
  HttpRouter.add(
    "POST",
    "/user-service/api/v1/promotion/coupon",
    Effect.succeed(notImplemented(capabilities.bonuses)),
  ),
)

/** Migrations, reference data and the CDN folder, before anything listens. */
const bootstrap = (config: AppConfigShape) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      if (!config.captchaEnabled) {
        yield* Effect.logWarning(
          "CAPTCHA=off: sign-in, registration and password reset accept requests without a captcha",
        )
      }
      yield* migrate()
      yield* seed
      yield* writeCdnFiles(config)
    }),
  )

export const makeAppLayer = (config: AppConfigShape) => {
  const Config = AppConfig.layerFrom(config)
  const Db = makeDbLayer(config)
  const Infra = Layer.mergeAll(RateLimiter.layer, Geo.layer).pipe(
    Layer.provideMerge(bootstrap(config)),
    Layer.provideMerge(Db),
    Layer.provideMerge(Config),
  )
  const ApiRoutes = HttpApiBuilder.layer(CasinoApi, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide([UserHandlersLive, ProfileHandlersLive, IpHandlersLive, ErrorLoggerHandlersLive]),
  )
  const DocsRoute = HttpApiScalar.layer(CasinoApi, {
    path: "/docs",
    scalar: { withDefaultFonts: false },
  })
  const Routes = Layer.mergeAll(
    ApiRoutes,
    DocsRoute,
    cdnRoutes(config),
    NotImplementedRoutes,
    staticRoutes(config),
    edgeMiddleware(config),
  )
  const Logging = Layer.mergeAll(
    Logger.layer([config.nodeEnv === "production" ? Logger.consoleJson : Logger.consoleLogFmt]),
    Layer.succeed(References.MinimumLogLevel, config.logLevel),
  )
  // Infra (database, migrations, seed, CDN files) is built BEFORE the socket opens: nothing
  // connects to a server that cannot answer yet.
  const Server = HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(
      NodeHttpServer.layer(createServer, {
        port: config.port,
        host: config.host,
        gracefulShutdownTimeout: Duration.seconds(5),
      }),
    ),
  )
  return Server.pipe(Layer.provideMerge(Infra), Layer.provideMerge(Logging))
}

export interface RunningServer {
  /** Base URL with the real port, e.g. http://127.0.0.1:41234. */
  readonly url: string
  readonly close: () => Promise<void>
  /** Runs an effect with the server's own services (its database pool, config, rate limiter, geo). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, ServerServices>) => Promise<A>
}

export type ServerServices = AppConfig | SqlClient.SqlClient | PgClient.PgClient | RateLimiter | Geo

/** Builds and starts the server; resolves once it listens. `port: 0` picks a free port. */
export const makeServer = async (config: AppConfigShape): Promise<RunningServer> => {
  const scope = Scope.makeUnsafe()
  const exit = await Effect.runPromiseExit(Layer.buildWithScope(makeAppLayer(config), scope))
  if (Exit.isFailure(exit)) {
    await Effect.runPromise(Scope.close(scope, exit))
    return Effect.runPromise(Effect.failCause(exit.cause))
  }
  const server = Context.get(exit.value, HttpServer.HttpServer)
  const address = server.address
  const port = address._tag === "UnixPathAddress" ? config.port : address.port
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host
  const hostPart = host.includes(":") ? `[${host}]` : host
  let closing: Promise<void> | undefined
  const context = exit.value
  return {
    run: (effect) => Effect.runPromise(Effect.provideContext(effect, context)),
    url: `http://${hostPart}:${port}`,
    close: () => {
      closing ??= Effect.runPromise(Scope.close(scope, Exit.void))
      return closing
    },
  }
}
