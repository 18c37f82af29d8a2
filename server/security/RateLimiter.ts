/**
 * Rate limits kept in the database, so every server process counts the same attempts.
 *
 * Fixed windows: a key's hits in the current window (aligned on the epoch, database clock) are one
 * row, bumped by a single atomic `INSERT … ON CONFLICT … DO UPDATE … RETURNING`. Once `max` is
 * passed the call fails with `RateLimited` (429) and the current HTTP response gets a `Retry-After`
 * header with the seconds left in the window. Expired rows are swept in the background. A limit
 * that counts only failures (the back office's sign-in) records them and reads, before the next
 * attempt, whether its window is full.
 */
import { Context, Duration, Effect, Layer } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"
import { SqlClient } from "effect/sql"
import { RateLimited } from "../../services/errors.ts"
import type { RateLimit } from "../config.ts"
import { Jobs } from "../lifecycle/Jobs.ts"

export interface RateLimiterShape {
  /** Counts one attempt under `key`; fails with `RateLimited` once `limit.max` attempts were made in the window. */
  consume(key: string, limit: RateLimit): Effect.Effect<void, RateLimited>
  /**
   * For limits that count only failures: `record` counts one under `key` and refuses nothing;
   * `blockedFor` reads, counting nothing, the seconds left in the window once it holds `limit.max`
   * (0 while it holds fewer). The caller refuses, before the attempt, what `blockedFor` blocks.
   */
  record(key: string, limit: RateLimit): Effect.Effect<void>
  blockedFor(key: string, limit: RateLimit): Effect.Effect<number>
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

/** The refusal of a full window: 429 `RateLimited`, with `Retry-After` on the current response. */
export const refuseFor = (seconds: number): Effect.Effect<never, RateLimited> =>
  Effect.andThen(
    setRetryAfter(seconds),
    Effect.fail(new RateLimited({ message: rateLimitedMessage, retryAfterSeconds: seconds })),
  )

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

      const windowStart = (window: number) =>
        sql`to_timestamp(floor(extract(epoch FROM now()) / ${window}::int) * ${window}::int)`

      const bump = (key: string, window: number) =>
        sql<CounterRow>`
          INSERT INTO rate_limit_counters AS c (key, window_seconds, window_start, hits, expires_at)
          SELECT ${key}, ${window}::int, w.start, 1, w.start + make_interval(secs => ${window}::int)
          FROM (SELECT ${windowStart(window)} AS start) AS w
          ON CONFLICT (key, window_seconds, window_start) DO UPDATE SET hits = c.hits + 1
          RETURNING c.hits,
            GREATEST(1, ceil(extract(epoch FROM (c.expires_at - now()))))::int AS retry_after
        `.pipe(Effect.orDie)

      const consume = Effect.fn("RateLimiter.consume")(function* (key: string, limit: RateLimit) {
        const rows = yield* bump(key, limit.windowSeconds)
        const row = rows[0]
        if (row === undefined) return yield* Effect.die(new Error("rate limiter: no row returned"))
        if (row.hits > limit.max) return yield* refuseFor(row.retry_after)
      })

      const record = (key: string, limit: RateLimit) => Effect.asVoid(bump(key, limit.windowSeconds))

      const blockedFor = Effect.fn("RateLimiter.blockedFor")(function* (key: string, limit: RateLimit) {
        const window = limit.windowSeconds
        const rows = yield* sql<CounterRow>`
          SELECT c.hits, GREATEST(1, ceil(extract(epoch FROM (c.expires_at - now()))))::int AS retry_after
          FROM rate_limit_counters c
          WHERE c.key = ${key} AND c.window_seconds = ${window}::int AND c.window_start = ${windowStart(window)}
        `.pipe(Effect.orDie)
        const row = rows[0]
        return row !== undefined && row.hits >= limit.max ? row.retry_after : 0
      })

      return RateLimiter.of({ consume, record, blockedFor })
    }),
  )
}

/**
 * Expired windows swept every 10 minutes, once for the cluster (its lease): the server's, not the
 * operator CLI's, which uses the limiter without running jobs.
 */
export const rateLimitSweep = Layer.effectDiscard(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const jobs = yield* Jobs
    yield* jobs.every(
      "rate-limits.sweep",
      sql`DELETE FROM rate_limit_counters WHERE expires_at < now()`,
      Duration.minutes(10),
      { firstAfter: Duration.minutes(1) },
    )
  }),
)
