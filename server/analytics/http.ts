/**
 * `POST /api/analytics/events`: the casino's own first-party event store (spec: an event on each
 * deposit method click). It keeps the event's name and flat properties, the session's player id
 * when signed in (nothing else about the visitor: no IP, no user agent), and the time. Rate-limited
 * per client IP; a visitor without a session may send events too.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { CasinoApi } from "../../services/api.ts"
import { toStorableText } from "../../services/rules.ts"
import { AppConfig } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { readCookie, SESSION_COOKIE } from "../users/cookies.ts"
import { Sessions } from "../users/Sessions.ts"

/** jsonb refuses NUL and lone surrogates: they become U+FFFD instead of a 500, in names and values alike. */
export const storable = (properties: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(properties).map(([k, v]) => [toStorableText(k), toStorableText(v)]))

export const AnalyticsHandlers = HttpApiBuilder.group(
  CasinoApi,
  "analytics",
  Effect.fn(function* (handlers) {
    const sql = yield* SqlClient.SqlClient
    const sessions = yield* Sessions
    const limiter = yield* RateLimiter
    const geo = yield* Geo
    const config = yield* AppConfig
    return handlers.handle("track", ({ request, payload }) =>
      Effect.gen(function* () {
        yield* limiter.consume(`analytics:${geo.clientIp(request)}`, config.analyticsLimit)
        const session = yield* sessions.resolve(readCookie(request, SESSION_COOKIE))
        const userId = session._tag === "Some" ? session.value.user.id : null
        yield* sql`
          INSERT INTO analytics_events (name, properties, user_id)
          VALUES (${payload.name}, ${JSON.stringify(storable(payload.properties))}::jsonb, ${userId})
        `.pipe(Effect.orDie)
      }),
    )
  }),
)
