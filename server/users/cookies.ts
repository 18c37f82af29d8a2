/**
 * The session cookie: `casino_session`, HttpOnly, SameSite=Lax, Path=/, Secure when
 * `COOKIE_SECURE` is on, Max-Age = the session TTL. Set and cleared through a pre-response handler
 * of the current request, so handlers keep returning plain values.
 */
import { Duration, Effect } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"
import type { AppConfigShape } from "../config.ts"

export const SESSION_COOKIE = "casino_session"
/** Set by marketing landing pages; registration stores it when the payload carries none. */
export const CLICK_ID_COOKIE = "clickId"

export const readCookie = (
  request: HttpServerRequest.HttpServerRequest,
  name: string,
): string | undefined => {
  const value = request.cookies[name]
  return value === undefined || value === "" ? undefined : value
}

const cookieOptions = (config: Pick<AppConfigShape, "cookieSecure">) =>
  ({ httpOnly: true, sameSite: "lax", path: "/", secure: config.cookieSecure }) as const

/** Runs `handler` on the response of the current request (cookies, headers). */
export const onResponse = (handler: HttpEffect.PreResponseHandler): Effect.Effect<void> =>
  Effect.withFiber((fiber) => {
    HttpEffect.appendPreResponseHandlerUnsafe(fiber.context, handler)
    return Effect.void
  })

/** `Cache-Control: no-store` on the current response (captcha challenges are single-use). */
export const noStore: Effect.Effect<void> = onResponse((_request, response) =>
  Effect.succeed(HttpServerResponse.setHeader(response, "cache-control", "no-store")),
)

export const setSessionCookie = (
  config: Pick<AppConfigShape, "cookieSecure" | "sessionTtlHours">,
  token: string,
): Effect.Effect<void> =>
  onResponse((_request, response) =>
    Effect.orDie(
      HttpServerResponse.setCookie(response, SESSION_COOKIE, token, {
        ...cookieOptions(config),
        maxAge: Duration.hours(config.sessionTtlHours),
      }),
    ),
  )

export const clearSessionCookie = (config: Pick<AppConfigShape, "cookieSecure">): Effect.Effect<void> =>
  onResponse((_request, response) =>
    Effect.orDie(HttpServerResponse.expireCookie(response, SESSION_COOKIE, cookieOptions(config))),
  )
