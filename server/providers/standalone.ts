/**
 * A provider on its own HTTP server, with no casino routes, the way an external provider runs.
 * The payment sandbox, the on-ramp sandbox and the game studio each compose their own layers
 * (`standalone.ts` beside them). This module serves the routes on Node's HTTP server, adds logfmt
 * logs, builds the layer in a scope of its own, and hands back the address, a way to run effects in
 * that context (tests seed and inspect through it), and an idempotent close.
 */
import { createServer } from "node:http"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Duration, Effect, Exit, Layer, Logger, References, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { AppConfig, type AppConfigShape } from "../config.ts"
import { makeDbLayer } from "../db/client.ts"
import { migrate } from "../db/migrate.ts"

export interface StandaloneServer<R> {
  readonly url: string
  readonly close: () => Promise<void>
  readonly run: <A, E>(effect: Effect.Effect<A, E, R>) => Promise<A>
}

/** The configuration and the database, migrated (then `setup`, e.g. reference data) before serving. */
export const standaloneBase = <E = never, R = never>(
  config: AppConfigShape,
  setup?: Effect.Effect<void, E, R>,
) =>
  Layer.effectDiscard(Effect.andThen(migrate(), setup ?? Effect.void)).pipe(
    Layer.provideMerge(makeDbLayer(config)),
    Layer.provideMerge(AppConfig.layerFrom(config)),
  )

/** `routes` served on `config.host:config.port` (0: any free port), over `services`. */
export const serveStandalone = <E, R, ROut, E2, R2>(
  config: AppConfigShape,
  routes: Layer.Layer<never, E, R>,
  services: Layer.Layer<ROut, E2, R2>,
) =>
  HttpRouter.serve(routes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(
      NodeHttpServer.layer(createServer, {
        port: config.port,
        host: config.host,
        gracefulShutdownTimeout: Duration.seconds(2),
      }),
    ),
    Layer.provideMerge(services),
    Layer.provideMerge(
      Layer.mergeAll(
        Logger.layer([Logger.consoleLogFmt]),
        Layer.succeed(References.MinimumLogLevel, config.logLevel),
      ),
    ),
  )

/**
 * Builds `layer` and starts serving; a failure to build (a taken port, a database that does not
 * answer) closes what was opened and rejects with its cause.
 */
export const startStandalone = async <R, E>(
  config: AppConfigShape,
  layer: Layer.Layer<R | HttpServer.HttpServer, E, never>,
): Promise<StandaloneServer<R | HttpServer.HttpServer>> => {
  const scope = Scope.makeUnsafe()
  const exit = await Effect.runPromiseExit(Layer.buildWithScope(layer, scope))
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
