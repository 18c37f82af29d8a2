/**
 * A provider on its own HTTP server, with no casino routes, the way an external provider runs
 * (lib/serve.ts), over its configuration and its database, migrated before serving.
 */
import { Effect, Layer } from "effect"
import { makeDbLayer } from "../../lib/db/client.ts"
import { type RunningService, serveRoutes, startService } from "../../lib/serve.ts"
import { AppConfig, type AppConfigShape } from "../config.ts"
import { migrate } from "../db/migrate.ts"

export type StandaloneServer<R> = RunningService<R>

/** The configuration and the database, migrated (then `setup`, e.g. reference data) before serving. */
export const standaloneBase = <E = never, R = never>(
  config: AppConfigShape,
  setup?: Effect.Effect<void, E, R>,
) =>
  Layer.effectDiscard(Effect.andThen(migrate(), setup ?? Effect.void)).pipe(
    Layer.provideMerge(makeDbLayer(config)),
    Layer.provideMerge(AppConfig.layerFrom(config)),
  )

export const serveStandalone = serveRoutes
export const startStandalone = startService
