/**
 * The game studio as a service of its own (docs/game-studio.md): its database (schema game_studio
 * on PostgreSQL, or its own PGlite), its migrations (./migrations), its routes under /studio/ on its
 * own port, the outbox loop that retries win/rollback calls until the casino acknowledges them, the
 * sweep of mines rounds left in play past the session lifetime, and the games list's RTPs computed
 * in the background from the start.
 */
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Context, Duration, Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { forkEvery } from "../../lib/background.ts"
import { makeDbLayer } from "../../lib/db/client.ts"
import { migrate } from "../../lib/db/migrate.ts"
import { type RunningService, serveRoutes, startService } from "../../lib/serve.ts"
import { warmRtps } from "./catalogue.ts"
import type { StudioConfig } from "./config.ts"
import { Crash } from "./crash/engine.ts"
import { studioRoutes } from "./http.ts"
import { Studio, StudioSettings } from "./Studio.ts"

export const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), "migrations")

const retryInterval = Duration.seconds(2)

/** Retries due outbox rows every 2 s, for the server's lifetime (stops with it). */
const OutboxLive = Layer.effectDiscard(
  Effect.flatMap(Studio, (studio) => forkEvery(studio.deliverDue(), retryInterval, "studio: outbox")),
)

/** Settles mines rounds left in play past the session lifetime (minesRounds.ts), every 2 s. */
const MinesSweepLive = Layer.effectDiscard(
  Effect.flatMap(Studio, (studio) => forkEvery(studio.mines.sweep(), retryInterval, "studio: mines sweep")),
)

/** The games list's exact RTPs, computed in the background from the start (≈ 3 s of CPU, once). */
const RtpWarmup = Layer.effectDiscard(Effect.forkScoped(warmRtps))

/** The routes and loops over the studio's services. */
const studioApp = Layer.unwrap(
  Effect.gen(function* () {
    const services = Layer.succeedContext(
      Context.make(Studio, yield* Studio).pipe(
        Context.add(StudioSettings, yield* StudioSettings),
        Context.add(Crash, yield* Crash),
      ),
    )
    return Layer.mergeAll(
      studioRoutes.pipe(HttpRouter.provideRequest(services)),
      OutboxLive.pipe(Layer.provide(services)),
      MinesSweepLive.pipe(Layer.provide(services)),
      RtpWarmup,
    )
  }),
)

/** Its database, migrated before anything serves, and its services. */
const studioServices = (config: StudioConfig) =>
  Layer.merge(Studio.layer, Crash.layer).pipe(
    Layer.provideMerge(Layer.effectDiscard(migrate(migrationsDir))),
    Layer.provideMerge(
      makeDbLayer({
        databaseUrl: config.databaseUrl,
        dataDir: config.dataDir,
        schema: config.schema,
        applicationName: "game-studio",
      }),
    ),
    Layer.provideMerge(Layer.succeed(StudioSettings, config)),
  )

const studioLayer = (config: StudioConfig) =>
  serveRoutes(
    { port: config.port, host: config.host, logLevel: config.logLevel },
    studioApp,
    studioServices(config),
  )

export type StudioServer = RunningService<Layer.Success<ReturnType<typeof studioLayer>>>

/** Starts the studio; resolves once it listens (its games list may answer NOT_READY a few seconds). */
export const startStudio = (config: StudioConfig): Promise<StudioServer> =>
  startService({ port: config.port, host: config.host, logLevel: config.logLevel }, studioLayer(config))
