/**
 * The error logger: `POST /api/error-logger` (spec section 7). The payload is validated by the
 * contract's schema (services/error-logger.ts); the body is limited to `errorReportMaxBytes` (413,
 * enforced by the server middleware before the body is read); each IP may report
 * `rateLimits.errorLogPerIp` times per window (429 + Retry-After). A report is stored in
 * `error_reports` (jsonb + ip + user agent + time), logged, and answered 202.
 *
 * Whose report it is comes from the session cookie (`user_id`, NULL for a visitor), never from the
 * `user` record the browser writes into it: that record is whatever the page's storage holds, which
 * anyone can edit, so it is not stored.
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

/**
 * The report as jsonb accepts it. A browser's error text may contain anything — jsonb refuses
 * `\u0000` and unpaired surrogates (that was a 500, found by the contract fuzzer) — and a report
 * is diagnostics worth keeping, so such characters are stored as U+FFFD instead of refusing it.
 */
const storableJson = (report: unknown): string =>
  JSON.stringify(report, (_key, value: unknown) =>
    typeof value === "string" ? toStorableText(value) : value,
  )

/** Largest accepted error report body, in bytes. */
export const errorReportMaxBytes = 64 * 1024

export const ErrorLoggerHandlersLive = HttpApiBuilder.group(
  CasinoApi,
  "errorLogger",
  Effect.fn(function* (handlers) {
    const config = yield* AppConfig
    const sql = yield* SqlClient.SqlClient
    const geo = yield* Geo
    const limiter = yield* RateLimiter
    const sessions = yield* Sessions
    return handlers.handle("report", ({ payload, request }) =>
      Effect.gen(function* () {
        const ip = geo.clientIp(request)
        yield* limiter.consume(`error-logger:ip:${ip}`, config.rateLimits.errorLogPerIp)
        const userAgent = request.headers["user-agent"]?.slice(0, 512) ?? null
        const session = yield* sessions.resolve(readCookie(request, SESSION_COOKIE))
        const userId = session._tag === "Some" ? session.value.user.id : null
        const { user: _claimed, ...report } = payload
        const rows = yield* sql<{ readonly id: string }>`
          INSERT INTO error_reports (report, ip, user_agent, user_id)
          VALUES (${storableJson(report)}::jsonb, ${ip}, ${userAgent}, ${userId})
          RETURNING id::text AS id
        `.pipe(Effect.orDie)
        yield* Effect.logWarning(
          `browser error report: ${payload.error.name}: ${payload.error.message}`,
        ).pipe(
          Effect.annotateLogs({
            reportId: rows[0]?.id ?? "",
            ip,
            url: payload.browser.url,
            userId: userId ?? "",
          }),
        )
      }),
    )
  }),
)
