/**
 * The sandbox on-ramp on its own HTTP server (no casino routes): migrations and reference data (the
 * rates it sells at), its routes, and the faucets it is given. Tests use it with a faucet double;
 * `config.publicUrl` must be the address the pages are reached at.
 */
import { createServer } from "node:http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Exit, Layer, Logger, References, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import type { SqlClient } from "effect/sql"
import { AppConfig, type AppConfigShape } from "../../config.ts"
import { makeDbLayer } from "../../db/client.ts"
import { migrate } from "../../db/migrate.ts"
import { seed } from "../../db/seed.ts"
import { OperatorAudit } from "../../operator/Audit.ts"
import { Rates } from "../../wallet/Rates.ts"
import { onrampSandboxLayer } from "./index.ts"
import type { OnrampFaucets } from "./OnrampFaucets.ts"

export interface OnrampServer {
  readonly url: string
  readonly close: () => Promise<void>
  readonly run: <A, E>(
    effect: Effect.Effect<A, E, AppConfig | SqlClient.SqlClient | PgClient.PgClient | Rates>,
  ) => Promise<A>
}

export const makeOnrampLayer = (config: AppConfigShape, faucets: Layer.Layer<OnrampFaucets>) => {
  const Base = Layer.effectDiscard(Effect.andThen(migrate(), seed)).pipe(
    Layer.provideMerge(makeDbLayer(config)),
    Layer.provideMerge(AppConfig.layerFrom(config)),
  )
  const Services = Layer.mergeAll(Rates.layer.pipe(Layer.provide(OperatorAudit.layer)), faucets).pipe(
    Layer.provideMerge(Base),
  )
  const Logging = Layer.mergeAll(
    Logger.layer([Logger.consoleLogFmt]),
    Layer.succeed(References.MinimumLogLevel, config.logLevel),
  )
  return HttpRouter.serve(onrampSandboxLayer, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(
      NodeHttpServer.layer(createServer, {
        port: config.port,
        host: config.host,
        gracefulShutdownTimeout: Duration.seconds(2),
      }),
    ),
    Layer.provideMerge(Services),
    Layer.provideMerge(Logging),
  )
}

export const makeOnrampServer = async (
  config: AppConfigShape,
  faucets: Layer.Layer<OnrampFaucets>,
): Promise<OnrampServer> => {
  const scope = Scope.makeUnsafe()
  const exit = await Effect.runPromiseExit(Layer.buildWithScope(makeOnrampLayer(config, faucets), scope))
  if (Exit.isFailure(exit)) {
    await Effect.runPromise(Scope.close(scope, exit))
    return Effect.runPromise(Effect.failCause(exit.cause))
  }
  const context = exit.value
  const address = Context.get(context, HttpServer.HttpServer).address
  const port = address._tag === "UnixPathAddress" ? config.port : address.port
  let closing: Promise<void> | undefined
  return {
    url: `http://127.0.0.1:${port}`,
    run: (effect) => Effect.runPromise(Effect.provideContext(effect, context)),
    close: () => {
      closing ??= Effect.runPromise(Scope.close(scope, Exit.void))
      return closing
    },
  }
}
