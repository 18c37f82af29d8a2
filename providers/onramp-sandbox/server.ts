/**
 * `startOnrampSandbox(config)`: the sandbox on-ramp on its own port with its own storage (its schema
 * `onramp_sandbox` on a PostgreSQL, else its PGlite in `<data dir>/pglite`), its migrations, its
 * prices (ONRAMP_SANDBOX_PRICES applied at start), its pages. It pays through the sandbox chains'
 * faucet over HTTP and tells the casino over its callback URL: nothing else is shared.
 */
import { fileURLToPath } from "node:url"
import { Context, Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { makeDbLayer } from "../../lib/db/client.ts"
import { migrate } from "../../lib/db/migrate.ts"
import { type RunningService, serveRoutes, startService } from "../../lib/serve.ts"
import type { OnrampSandboxConfig } from "./config.ts"
import { Faucet } from "./Faucet.ts"
import { onrampRoutes } from "./http.ts"
import { Onramp } from "./Onramp.ts"
import { OnrampConfig } from "./OnrampConfig.ts"
import { OrdersRepo } from "./OrdersRepo.ts"
import { PricesRepo } from "./PricesRepo.ts"

export const migrationsDir = fileURLToPath(new URL("./migrations", import.meta.url))

/** Its tables migrated and its configured prices set, before the socket opens. */
const storage = (config: OnrampSandboxConfig) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      yield* migrate(migrationsDir)
      const prices = yield* PricesRepo
      for (const [currency, rate] of config.prices) yield* prices.set(currency, rate)
    }),
  ).pipe(
    Layer.provideMerge(PricesRepo.layer),
    Layer.provideMerge(
      makeDbLayer({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        schema: config.schema,
        applicationName: "onramp-sandbox",
      }),
    ),
  )

const services = (config: OnrampSandboxConfig) =>
  Onramp.layerNoDeps.pipe(
    Layer.provideMerge(Layer.mergeAll(OrdersRepo.layer, Faucet.layer)),
    Layer.provideMerge(storage(config)),
    Layer.provideMerge(OnrampConfig.layerFrom(config)),
  )

/** The routes with what they read per request. */
const routes = Layer.unwrap(
  Effect.gen(function* () {
    const context = Context.make(Onramp, yield* Onramp).pipe(Context.add(OnrampConfig, yield* OnrampConfig))
    return onrampRoutes.pipe(HttpRouter.provideRequest(Layer.succeedContext(context)))
  }),
)

export const makeOnrampSandboxLayer = (config: OnrampSandboxConfig) => {
  const listen = { port: config.port, host: config.host, logLevel: config.logLevel }
  return serveRoutes(listen, routes, services(config))
}

export type OnrampSandboxServer = RunningService<Layer.Success<ReturnType<typeof makeOnrampSandboxLayer>>>

export const startOnrampSandbox = (config: OnrampSandboxConfig): Promise<OnrampSandboxServer> =>
  startService(
    { port: config.port, host: config.host, logLevel: config.logLevel },
    makeOnrampSandboxLayer(config),
  )
