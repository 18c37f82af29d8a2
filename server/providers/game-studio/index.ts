/**
 * The in-house game studio (docs/game-studio.md): its routes under /studio/ and the outbox fiber
 * that retries win/rollback calls until the casino acknowledges them, as one layer the casino server
 * mounts — or nothing at all with STUDIO=off. Needs AppConfig and the database (migration 0030).
 * It shares no code with server/games: only docs/game-wallet-protocol.md and services/games.
 */
import { Cause, Context, Duration, Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { AppConfig } from "../../config.ts"
import { warmRtps } from "./catalogue.ts"
import { studioRoutes } from "./http.ts"
import { Studio, StudioOptions } from "./Studio.ts"

export { studioEndpoints } from "./http.ts"
export { Studio, StudioOptions } from "./Studio.ts"

const retryInterval = Duration.seconds(2)

/** Retries due outbox rows every 2 s, for the server's lifetime (stops with it). */
const OutboxLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const studio = yield* Studio
    yield* studio.deliverDue().pipe(
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause)
          ? Effect.failCause(cause)
          : Effect.logWarning("game-studio: outbox", cause),
      ),
      Effect.andThen(Effect.sleep(retryInterval)),
      Effect.forever,
      Effect.forkScoped,
    )
  }),
)

/** The games list's exact RTPs, computed in the background from the start (≈ 3 s of CPU, once). */
const RtpWarmup = Layer.effectDiscard(Effect.forkScoped(warmRtps))

/** The studio with its wallet options given (tests: a fake casino). */
export const makeStudioLayer = <E, R>(options: Layer.Layer<StudioOptions, E, R>) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const studio = yield* Studio
      const services = Layer.succeedContext(Context.make(Studio, studio))
      return Layer.mergeAll(
        studioRoutes.pipe(HttpRouter.provideRequest(services)),
        OutboxLive.pipe(Layer.provide(services)),
        RtpWarmup,
      )
    }),
  ).pipe(Layer.provide(Studio.layerNoDeps.pipe(Layer.provide(options))))

export const gameStudioLayer = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    return config.studioEnabled ? makeStudioLayer(StudioOptions.fromConfig) : Layer.empty
  }),
)
