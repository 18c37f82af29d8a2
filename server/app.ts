/**
 * The casino server, one Node process on one origin: the contract (services/api.ts) served by
 * HttpApiBuilder with /openapi.json and /docs, the CDN folder, the player app, the edge middleware
 * (head and body limits, origin check, compression, security headers, request log, 4xx JSON for
 * client mistakes, 404/405 for unknown routes, logged JSON 500s, request metrics), `/metrics` for
 * METRICS_ALLOW (server/metrics/), and 501 for the spec endpoints
 * whose capability is not built yet. `makeServer` migrates, seeds, writes the CDN files, then
 * listens on a Node server that answers unparseable requests cleanly (security/nodeServer.ts).
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Exit, Layer, Logger, References, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { makeDbLayer } from "../lib/db/client.ts"
import { CasinoApi } from "../services/api.ts"
import { AccountServicesLive } from "./account.ts"
import { AnalyticsHandlers } from "./analytics/http.ts"
import type { Backoffice } from "./backoffice/Backoffice.ts"
import { backofficeApiRoutes } from "./backoffice/http.ts"
import { backofficeOperatorEndpoints, backofficeOperatorRoutes } from "./backoffice/operatorHttp.ts"
import { Players } from "./backoffice/Players.ts"
import { Settings } from "./backoffice/Settings.ts"
import { Bonuses } from "./bonuses/Bonuses.ts"
import type { FreeSpinWallets } from "./bonuses/FreeSpinWallets.ts"
import { BonusHandlers, CouponHandlers } from "./bonuses/http.ts"
import { Promotions } from "./bonuses/Promotions.ts"
import { writeCdnFiles } from "./cdn/files.ts"
import { cdnRoutes } from "./cdn/http.ts"
import { Chat } from "./chat/Chat.ts"
import { ChatHandlers, chatEventEndpoints, chatEventRoutes } from "./chat/http.ts"
import { AppConfig, type AppConfigShape } from "./config.ts"
import type { Addresses } from "./crypto/Addresses.ts"
import type { CryptoDepositsRepo } from "./crypto/DepositsRepo.ts"
import { type EvmNode, evmLayer } from "./crypto/evm/EvmNode.ts"
import { CryptoHandlers } from "./crypto/http.ts"
import { CryptoBaseLive, CryptoWatcherLive } from "./crypto/index.ts"
import { onrampCallbackEndpoints, onrampCallbackRoutes } from "./crypto/onramp/callbacksHttp.ts"
import type { CryptoPayouts } from "./crypto/payouts.ts"
import type { Watcher } from "./crypto/Watcher.ts"
import { migrate } from "./db/migrate.ts"
import { seed } from "./db/seed.ts"
import { ErrorLoggerHandlersLive } from "./errorlog/http.ts"
import { eventEndpoints, eventRoutes } from "./events/http.ts"
import { PlayerEvents } from "./events/PlayerEvents.ts"
import { FreeRoundsSenderLive } from "./games/freeRoundsSender.ts"
import { Games } from "./games/Games.ts"
import { GamesRepo } from "./games/GamesRepo.ts"
import { GameWallet } from "./games/GameWallet.ts"
import { GameHandlers, gameEndpoints, gameWalletRoutes, PlayerGamesHandlers } from "./games/http.ts"
import { Integrations } from "./games/Integrations.ts"
import { Geo } from "./geo/Geo.ts"
import { IpHandlersLive } from "./geo/http.ts"
import { documentUploadBodyLimit } from "./kyc/http.ts"
import type { Kyc } from "./kyc/Kyc.ts"
import { ledgerCheckJob } from "./ledger/checkJob.ts"
import { Ledger } from "./ledger/Ledger.ts"
import { JobLeasesRepo } from "./lifecycle/JobLeasesRepo.ts"
import { Jobs } from "./lifecycle/Jobs.ts"
import { Lifecycle, type LifecycleShape, makeLifecycle } from "./lifecycle/Lifecycle.ts"
import { Loyalty } from "./loyalty/Loyalty.ts"
import { metricsRoute, routeLabel } from "./metrics/http.ts"
import type { OperatorAudit } from "./operator/Audit.ts"
import { removeOperatorEndpoint, writeOperatorEndpoint } from "./operator/endpointFile.ts"
import { Deposits } from "./payments/Deposits.ts"
import { DepositsRepo } from "./payments/DepositsRepo.ts"
import { Gateways } from "./payments/Gateways.ts"
import { PaymentsHandlers, paymentEndpoints, paymentRoutes } from "./payments/http.ts"
import { FiatPayouts } from "./payments/payouts.ts"
import { ProfileHandlers, unsubscribeRedirectRoute } from "./profile/http.ts"
import type { Profile } from "./profile/Profile.ts"
import { Reports } from "./reports/Reports.ts"
import type { ResponsibleGaming } from "./responsible-gaming/ResponsibleGaming.ts"
import { edgeMiddleware } from "./security/middleware.ts"
import { createNodeServer } from "./security/nodeServer.ts"
import { SHARED_ORIGIN_WARNING } from "./security/production.ts"
import { RateLimiter, rateLimitSweep } from "./security/RateLimiter.ts"
import { makeEndpointIndex, notBuiltEndpoints, notImplemented } from "./static/endpoints.ts"
import { healthEndpoints, healthRoute } from "./static/health.ts"
import { staticRoutes } from "./static/http.ts"
import { UserHandlers } from "./users/http.ts"
import type { Sessions } from "./users/Sessions.ts"
import type { Users } from "./users/Users.ts"
import { WalletHandlers } from "./wallet/http.ts"
import { Rates } from "./wallet/Rates.ts"
import { Wallets } from "./wallet/Wallets.ts"
import { CashoutHandlers, payoutCallbackEndpoints, payoutCallbackRoutes } from "./withdrawals/http.ts"
import { Withdrawals } from "./withdrawals/Withdrawals.ts"

export { type Capability, capabilities, notImplemented } from "./static/endpoints.ts"

/** One route per spec endpoint not built yet (the table in server/static/endpoints.ts): 501. */
const NotImplementedRoutes = notBuiltEndpoints.reduce<Layer.Layer<never, never, HttpRouter.HttpRouter>>(
  (routes, e) => Layer.merge(routes, HttpRouter.add(e.method, e.path, notImplemented(e.capability))),
  Layer.empty,
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
      // The back office's host routing itself is the edge's (security/middleware.ts, static/hosts.ts).
      if (config.nodeEnv === "production" && config.backofficeUrl === undefined)
        yield* Effect.logWarning(SHARED_ORIGIN_WARNING)
      yield* migrate()
      yield* seed
      yield* writeCdnFiles(config)
    }),
  )

export const makeAppLayer = (config: AppConfigShape, lifecycle: LifecycleShape = makeLifecycle()) => {
  const Config = AppConfig.layerFrom(config)
  const Db = makeDbLayer(config)
  // The push stream is infrastructure: account services (the reality check) publish on it too.
  // Background jobs run on the node holding each one's lease (lifecycle/Jobs.ts): once per cluster.
  const Background = Jobs.layer.pipe(Layer.provideMerge(JobLeasesRepo.layer))
  const Infra = Layer.mergeAll(
    RateLimiter.layer,
    rateLimitSweep,
    Geo.layer,
    PlayerEvents.layer,
    Layer.succeed(Lifecycle, lifecycle),
  ).pipe(
    Layer.provideMerge(Background),
    Layer.provideMerge(bootstrap(config)),
    Layer.provideMerge(Db),
    Layer.provideMerge(Config),
  )
  // The account services (users, sessions, profile, kyc, responsible gaming) on top of Infra; kept
  // in the server's context so `RunningServer.run` (tests, tools) reaches the same instances.
  const Account = AccountServicesLive.pipe(Layer.provideMerge(Infra))
  // Money in: the ledger, wallets and rates, gateways and deposits.
  const MoneyBase = Layer.mergeAll(
    Ledger.layer,
    Rates.layer,
    Wallets.layer,
    Gateways.layer,
    DepositsRepo.layer,
  ).pipe(Layer.provideMerge(Account))
  // Bonuses: promotions, the bonuses players hold (their money is the ledger's).
  const BonusLayer = Layer.mergeAll(Bonuses.layer, Promotions.layer).pipe(Layer.provideMerge(MoneyBase))
  // Loyalty levels: points from the wallet's settled bets, the weekly cashback (docs/loyalty.md).
  const LoyaltyLayer = Loyalty.layer.pipe(Layer.provideMerge(BonusLayer))
  // Games: the catalogue and lobby, launch, and the seamless wallet providers call.
  const GamesBase = Layer.mergeAll(GamesRepo.layer, Integrations.layer).pipe(Layer.provideMerge(LoyaltyLayer))
  const GamesLayer = Layer.mergeAll(Games.layer, GameWallet.layer, FreeRoundsSenderLive).pipe(
    Layer.provideMerge(GamesBase),
  )
  const Services = Layer.mergeAll(Deposits.layer, Reports.layer, Settings.layer, ledgerCheckJob).pipe(
    Layer.provideMerge(GamesLayer),
  )
  // Crypto: the EVM node (EVM_RPC_URL) and its hot wallet, addresses, transfers, and the chain
  // watcher over every configured chain.
  const EvmLayer = evmLayer.pipe(Layer.provideMerge(Services))
  const CryptoLayer = CryptoWatcherLive.pipe(Layer.provideMerge(CryptoBaseLive), Layer.provideMerge(EvmLayer))
  // Money out: withdrawals and their payout rails (the fiat gateways, the EVM hot wallet).
  const WithdrawalsLayer = Withdrawals.layer.pipe(
    Layer.provideMerge(FiatPayouts.layer),
    Layer.provideMerge(CryptoLayer),
  )
  // Live support chat (docs/chat.md).
  const ChatLayer = Chat.layer.pipe(Layer.provideMerge(WithdrawalsLayer))
  const ApiRoutes = HttpApiBuilder.layer(CasinoApi, { openapiPath: "/openapi.json" }).pipe(
    Layer.provide([
      UserHandlers,
      ProfileHandlers,
      IpHandlersLive,
      ErrorLoggerHandlersLive,
      WalletHandlers,
      PaymentsHandlers,
      AnalyticsHandlers,
      GameHandlers,
      PlayerGamesHandlers,
      CryptoHandlers,
      CashoutHandlers,
      BonusHandlers,
      CouponHandlers,
      ChatHandlers,
    ]),
  )
  const DocsRoute = HttpApiScalar.layer(CasinoApi, {
    path: "/docs",
    scalar: { withDefaultFonts: false },
  })
  const endpoints = makeEndpointIndex([
    ...healthEndpoints,
    { method: "GET", path: `${config.cdnBasePath}/*` },
    { method: "GET", path: "/profile-service/api/v1/profile/unsubscribe/:id" },
    { method: "GET", path: "/api/backoffice/openapi.json" },
    ...backofficeOperatorEndpoints,
    ...payoutCallbackEndpoints,
    ...paymentEndpoints,
    ...eventEndpoints,
    ...gameEndpoints,
    ...onrampCallbackEndpoints,
    ...chatEventEndpoints,
  ])
  const Routes = Layer.mergeAll(
    ApiRoutes,
    DocsRoute,
    healthRoute(config, lifecycle),
    cdnRoutes(config),
    unsubscribeRedirectRoute(config),
    backofficeApiRoutes,
    backofficeOperatorRoutes,
    payoutCallbackRoutes,
    paymentRoutes,
    eventRoutes,
    gameWalletRoutes,
    onrampCallbackRoutes,
    chatEventRoutes,
    NotImplementedRoutes,
    metricsRoute(config, endpoints),
    staticRoutes(config, endpoints),
    edgeMiddleware(config, endpoints, [documentUploadBodyLimit], routeLabel(config, endpoints), lifecycle),
  )
  const Logging = Layer.mergeAll(
    Logger.layer([config.logFormat === "json" ? Logger.consoleJson : Logger.consoleLogFmt]),
    Layer.succeed(References.MinimumLogLevel, config.logLevel),
  )
  // Infra (database, migrations, seed, CDN files) is built BEFORE the socket opens: nothing
  // connects to a server that cannot answer yet.
  const Server = HttpRouter.serve(Routes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(
      NodeHttpServer.layer(createNodeServer, {
        port: config.port,
        host: config.host,
        gracefulShutdownTimeout: Duration.seconds(5),
      }),
    ),
  )
  return Server.pipe(
    Layer.provideMerge(Players.layer),
    Layer.provideMerge(ChatLayer),
    Layer.provideMerge(Logging),
  )
}

export interface RunningServer {
  /** Base URL with the real port, e.g. http://127.0.0.1:41234. */
  readonly url: string
  readonly close: () => Promise<void>
  /**
   * Stops as a rolling deploy needs: readiness 503 and `Connection: close` at once, event streams
   * told to reconnect elsewhere; after `settleMs` (the proxy's health checks see it) the socket
   * stops accepting, requests in flight finish, background loops and the database close.
   */
  readonly drain: (settleMs: number) => Promise<void>
  /** Runs an effect with the server's own services (its database pool, config, rate limiter, geo). */
  readonly run: <A, E>(effect: Effect.Effect<A, E, ServerServices>) => Promise<A>
}

export type ServerServices =
  | AppConfig
  | SqlClient.SqlClient
  | PgClient.PgClient
  | RateLimiter
  | Geo
  | Users
  | Sessions
  | Profile
  | Kyc
  | ResponsibleGaming
  | Ledger
  | Rates
  | Wallets
  | Gateways
  | PlayerEvents
  | Deposits
  | Games
  | GameWallet
  | GamesRepo
  | Integrations
  | Withdrawals
  | Bonuses
  | FreeSpinWallets
  | Loyalty
  | FiatPayouts
  | OperatorAudit
  | Backoffice
  | EvmNode
  | CryptoPayouts
  | Addresses
  | CryptoDepositsRepo
  | Watcher
  | Chat
  | Jobs
  | Lifecycle

/** Builds and starts the server; resolves once it listens. `port: 0` picks a free port. */
export const makeServer = async (config: AppConfigShape): Promise<RunningServer> => {
  const scope = Scope.makeUnsafe()
  const lifecycle = makeLifecycle()
  const exit = await Effect.runPromiseExit(Layer.buildWithScope(makeAppLayer(config, lifecycle), scope))
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
  const url = `http://${hostPart}:${port}`
  // The embedded database is this process's alone: tell `npm run operator` where to ask instead.
  const embedded = config.databaseUrl === undefined
  if (embedded) writeOperatorEndpoint(config.dataDir, url)
  const close = () => {
    closing ??= Effect.runPromise(Scope.close(scope, Exit.void)).finally(() => {
      if (embedded) removeOperatorEndpoint(config.dataDir)
    })
    return closing
  }
  return {
    run: (effect) => Effect.runPromise(Effect.provideContext(effect, context)),
    url,
    close,
    drain: async (settleMs) => {
      lifecycle.beginDrain()
      if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs))
      await close()
    },
  }
}
