/**
 * One HTTP service on its own port, the way each outside party runs (the payment sandbox, the
 * on-ramp sandbox, the chains, the game studio): its routes on Node's HTTP server, logfmt logs, its
 * layer built in a scope of its own, and back the address, a way to run effects in that context
 * (tests seed and inspect through it) and an idempotent close.
 */
import { createServer } from "node:http"
import { createServer as createTcpServer } from "node:net"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Context, Duration, Effect, Exit, Layer, Logger, type LogLevel, References, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"

export interface Listen {
  readonly port: number
  readonly host: string
  readonly logLevel: LogLevel.LogLevel
}

export interface RunningService<R> {
  /** http://host:port with the real port (loopback for a wildcard host). */
  readonly url: string
  readonly close: () => Promise<void>
  readonly run: <A, E>(effect: Effect.Effect<A, E, R>) => Promise<A>
}

/** `routes` served on `listen.host:listen.port` (0: any free port), over `services`. */
export const serveRoutes = <E, R, ROut, E2, R2>(
  listen: Listen,
  routes: Layer.Layer<never, E, R>,
  services: Layer.Layer<ROut, E2, R2>,
) =>
  HttpRouter.serve(routes, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(
      NodeHttpServer.layer(createServer, {
        port: listen.port,
        host: listen.host,
        gracefulShutdownTimeout: Duration.seconds(2),
      }),
    ),
    Layer.provideMerge(services),
    Layer.provideMerge(
      Layer.mergeAll(
        Logger.layer([Logger.consoleLogFmt]),
        Layer.succeed(References.MinimumLogLevel, listen.logLevel),
      ),
    ),
  )

/** The address a client on this machine reaches a server listening on `host:port` at. */
export const loopbackUrl = (host: string, port: number): string => {
  const h = host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host
  return `http://${h.includes(":") ? `[${h}]` : h}:${port}`
}

/**
 * Builds `layer` and starts serving; a failure to build (a taken port, a database that does not
 * answer) closes what was opened and rejects with its cause.
 */
export const startService = async <R, E>(
  listen: Listen,
  layer: Layer.Layer<R | HttpServer.HttpServer, E, never>,
): Promise<RunningService<R | HttpServer.HttpServer>> => {
  const scope = Scope.makeUnsafe()
  const exit = await Effect.runPromiseExit(Layer.buildWithScope(layer, scope))
  if (Exit.isFailure(exit)) {
    await Effect.runPromise(Scope.close(scope, exit))
    return Effect.runPromise(Effect.failCause(exit.cause))
  }
  const context = exit.value
  const address = Context.get(context, HttpServer.HttpServer).address
  const port = address._tag === "UnixPathAddress" ? listen.port : address.port
  let closing: Promise<void> | undefined
  return {
    url: loopbackUrl(listen.host, port),
    run: (effect) => Effect.runPromise(Effect.provideContext(effect, context)),
    close: () => {
      closing ??= Effect.runPromise(Scope.close(scope, Exit.void))
      return closing
    },
  }
}

/** A port free on `host` now (a service that must name its port before listening, in its public URL). */
export const freePort = (host = "127.0.0.1"): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createTcpServer()
    probe.unref()
    probe.once("error", reject)
    probe.listen(0, host, () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })
