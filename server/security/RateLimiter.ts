/**
 * Rate limits kept in the database, so every server process counts the same attempts.
 *
 * Fixed windows: a key's hits in the current window (aligned on the epoch, database clock) are one
 * row, bumped by a single atomic `INSERT … ON CONFLICT … DO UPDATE … RETURNING`. Once `max` is
 * passed the call fails with `RateLimited` (429) and the current HTTP response gets a `Retry-After`
 * header with the seconds left in the window. Expired rows are swept in the background.
 */
import { Context, Duration, Effect, Layer, Schedule } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { RateLimited } from "../../services/errors.ts"
import type { RateLimit } from "../config.ts"

export interface RateLimiterShape {
  /** Counts one attempt under `key`; fails with `RateLimited` once `limit.max` attempts were made in the window. */
  consume(key: string, limit: RateLimit): Effect.Effect<void, RateLimited>
}

export const rateLimitedMessage = "Too many attempts, please try again later."

/** Adds `Retry-After` to the HTTP response of the request running this fiber (no-op outside a request). */
export const setRetryAfter = (seconds: number): Effect.Effect<void> =>
  Effect.withFiber((fiber) => {
    HttpEffect.appendPreResponseHandlerUnsafe(fiber.context, (_request, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", String(seconds))),
    )
    return Effect.void
  })

interface CounterRow {
  readonly hits: number
  readonly retry_after: number
}

export class RateLimiter extends Context.Service<RateLimiter, RateLimiterShape>()(
  "casino/server/RateLimiter",
) {
  static readonly layer: Layer.Layer<RateLimiter, never, SqlClient.SqlClient> = Layer.effect(
    RateLimiter,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const sweep = sql`DELETE FROM rate_limit_counters WHERE expires_at < now()`.pipe(
        Effect.catchCause((cause) => Effect.logWarning("rate-limit sweep failed", cause)),
      )
      yield* sweep.pipe(
        Effect.repeat(Schedule.spaced(Duration.minutes(10))),
        Effect.delay(Duration.minutes(1)),
        Effect.forkScoped,
      )

      const consume = Effect.fn("RateLimiter.consume")(function* (key: string, limit: RateLimit) {
        const window = limit.windowSeconds
        const rows = yield* sql<CounterRow>`
          INSERT INTO rate_limit_counters AS c (key, window_seconds, window_start, hits, expires_at)
          SELECT ${key}, ${window}::int, w.start, 1, w.start + make_interval(secs => ${window}::int)
          FROM (SELECT to_timestamp(floor(extract(epoch FROM now()) / ${window}::int) * ${window}::int) AS start) AS w
          ON CONFLICT (key, window_seconds, window_start) DO UPDATE SET hits = c.hits + 1
          RETURNING c.hits,
            GREATEST(1, ceil(extract(epoch FROM (c.expires_at - now()))))::int AS retry_after
        `.pipe(Effect.orDie)
        const row = rows[0]
        if (row === undefined) return yield* Effect.die(new Error("rate limiter: no row returned"))
        if (row.hits > limit.max) {
          yield* setRetryAfter(row.retry_after)
          return yield* new RateLimited({ message: rateLimitedMessage, retryAfterSeconds: row.retry_after })
        }
      })

      return RateLimiter.of({ consume })
    }),
  )
}
