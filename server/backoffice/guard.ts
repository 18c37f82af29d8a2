/**
 * The back office's guards (declared in services/backoffice/middleware.ts). Every request passes,
 * in this order:
 *
 * 1. BACKOFFICE_ALLOW: the client IP (TRUST_PROXY-resolved, as everywhere) must be in the list
 *    when one is set, else 403 `ForbiddenAddress` — before anything else is read;
 * 2. an API token (`Authorization: Bearer bo_…`, ./ApiTokens.ts) or else the session cookie
 *    `bo_session`, else 401 `Unauthenticated`; a token is refused (403) where the endpoint is
 *    `SessionOnly`;
 * 3. the endpoint's `Requires` annotation against the operator's role, else 403 `Forbidden` — an
 *    endpoint without the annotation is refused to everyone (fail closed);
 * 4. then the handler, whose input the contract has decoded (400 with the reason).
 * Nothing is read or changed on a refusal. Writes also pass the edge's Origin check.
 */
import { Duration, Effect, Layer, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import proxyaddr from "proxy-addr"
import { accessOf, isSessionOnly } from "../../services/backoffice/access.ts"
import { Forbidden, ForbiddenAddress, PasswordChangeRequired } from "../../services/backoffice/errors.ts"
import { BackofficeAddress, BackofficeGuard, CurrentOperator } from "../../services/backoffice/middleware.ts"
import { can } from "../../services/backoffice/permissions.ts"
import { Unauthenticated } from "../../services/errors.ts"
import { AppConfig, type AppConfigShape } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import { onResponse, readCookie } from "../users/cookies.ts"
import { ApiTokens } from "./ApiTokens.ts"
import { Backoffice } from "./Backoffice.ts"

export const BACKOFFICE_COOKIE = "bo_session"
/** The cookie goes only to the back-office API: the player app and its API never see it. */
export const BACKOFFICE_COOKIE_PATH = "/api/backoffice"

const cookieOptions = (config: AppConfigShape) =>
  ({
    httpOnly: true,
    sameSite: "strict",
    path: BACKOFFICE_COOKIE_PATH,
    secure: config.cookieSecure || config.publicUrl.startsWith("https://"),
  }) as const

export const setBackofficeCookie = (config: AppConfigShape, token: string, seconds: number) =>
  onResponse((_request, response) =>
    Effect.orDie(
      HttpServerResponse.setCookie(response, BACKOFFICE_COOKIE, token, {
        ...cookieOptions(config),
        maxAge: Duration.seconds(seconds),
      }),
    ),
  )

export const clearBackofficeCookie = (config: AppConfigShape) =>
  onResponse((_request, response) =>
    Effect.orDie(HttpServerResponse.expireCookie(response, BACKOFFICE_COOKIE, cookieOptions(config))),
  )

/** The BACKOFFICE_ALLOW check, also used by the plain routes beside the contract (the inbox stream). */
export const checkAddress = Effect.gen(function* () {
  const config = yield* AppConfig
  const geo = yield* Geo
  const allowed =
    config.backofficeAllow.length === 0 ? () => true : proxyaddr.compile([...config.backofficeAllow])
  return (request: HttpServerRequest.HttpServerRequest) =>
    Effect.gen(function* () {
      const ip = geo.clientIp(request)
      if (allowed(ip, 0)) return ip
      yield* Effect.logWarning(
        `back office: ${request.method} ${request.url} refused for ${ip} (BACKOFFICE_ALLOW)`,
      )
      return yield* new ForbiddenAddress({ message: "The back office cannot be reached from this address." })
    })
})

/** The credential of `Authorization: Bearer <token>`, if the request has one. */
const bearerOf = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")
  return match?.[1]
}

export const BackofficeAddressLive = Layer.effect(
  BackofficeAddress,
  Effect.gen(function* () {
    const address = yield* checkAddress
    return (httpEffect) =>
      Effect.gen(function* () {
        yield* address(yield* HttpServerRequest.HttpServerRequest)
        return yield* httpEffect
      })
  }),
)

export const BackofficeGuardLive = Layer.effect(
  BackofficeGuard,
  Effect.gen(function* () {
    const address = yield* checkAddress
    const backoffice = yield* Backoffice
    const tokens = yield* ApiTokens
    return (httpEffect, { endpoint, group }) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const ip = yield* address(request)
        const bearer = bearerOf(request)
        const found =
          bearer === undefined
            ? yield* backoffice.resolve(readCookie(request, BACKOFFICE_COOKIE))
            : yield* tokens.resolve(bearer, ip)
        if (Option.isNone(found))
          return yield* new Unauthenticated({
            message:
              bearer === undefined
                ? "Sign in to the back office."
                : "The API token is not valid: unknown, revoked or expired.",
          })
        const { operator, via } = found.value
        if (via.kind === "token" && isSessionOnly(endpoint.annotations))
          return yield* new Forbidden({
            message: "This needs a signed-in browser session; an API token cannot do it.",
            permission: "session",
          })
        const access = accessOf(endpoint.annotations)
        if (access === undefined || access.kind === "public") {
          yield* Effect.logError(`back office: ${endpoint.identifier} has no Requires annotation; refused`)
          return yield* new Forbidden({
            message: "This endpoint is not open to any role.",
            permission: "none",
          })
        }
        if (access.kind === "permission" && !can(operator.role, access.permission))
          return yield* new Forbidden({
            message: `The ${operator.role} role does not have the ${access.permission} permission.`,
            permission: access.permission,
          })
        // A one-time password opens only the session's own calls (me, the new password, sign-out).
        if (operator.mustChangePassword && group.identifier !== "session")
          return yield* new PasswordChangeRequired({ message: "Choose your own password first." })
        return yield* Effect.provideService(httpEffect, CurrentOperator, { ...found.value, ip })
      })
  }),
)
