/**
 * The studio on its own HTTP server (no casino routes): migrations, its routes, its outbox fiber.
 * Tests use it to exercise the studio alone against a fake casino wallet; an operator may run it as a
 * separate process, as the external provider it pretends to be.
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
import { makeStudioLayer } from "./index.ts"
import { StudioOptions, type StudioOptionsShape } from "./Studio.ts"

export interface StudioServer {
  readonly url: string
  readonly close: () => Promise<void>
  readonly run: <A, E>(
    effect: Effect.Effect<A, E, AppConfig | SqlClient.SqlClient | PgClient.PgClient>,
  ) => Promise<A>
}

export const makeStudioServer = async (
  config: AppConfigShape,
  options: StudioOptionsShape,
): Promise<StudioServer> => {
  const Base = Layer.effectDiscard(migrate()).pipe(
    Layer.provideMerge(makeDbLayer(config)),
    Layer.provideMerge(AppConfig.layerFrom(config)),
  )
  const Logging = Layer.mergeAll(
    Logger.layer([Logger.consoleLogFmt]),
    Layer.succeed(References.MinimumLogLevel, config.logLevel),
  )
  const App = HttpRouter.serve(makeStudioLayer(Layer.succeed(StudioOptions, options)), {
    disableLogger: true,
    disableListenLog: true,
  }).pipe(
    Layer.provideMerge(
      NodeHttpServer.layer(createServer, {
        port: config.port,
        host: config.host,
        gracefulShutdownTimeout: Duration.seconds(2),
      }),
    ),
    Layer.provideMerge(Base),
    Layer.provideMerge(Logging),
  )
  const scope = Scope.makeUnsafe()
  const exit = await Effect.runPromiseExit(Layer.buildWithScope(App, scope))
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
