/**
 * Handlers of the back-office contract (services/backoffice/api/). The guards (./guard.ts) have
 * already checked the address, the session and the permission; a handler reads the signed-in
 * operator from `CurrentOperator` and records it as the actor of what it changes.
 */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BackofficeApi } from "../../services/backoffice/api.ts"
import { CurrentOperator } from "../../services/backoffice/middleware.ts"
import { permissionsOf } from "../../services/backoffice/permissions.ts"
import { AppConfig } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import { readCookie } from "../users/cookies.ts"
import { ApiTokens } from "./ApiTokens.ts"
import { actorOf, Backoffice, type OperatorView, PENDING_LOGIN_MINUTES } from "./Backoffice.ts"
import { ChatInboxHandlers } from "./chatHttp.ts"
import {
  BACKOFFICE_COOKIE,
  BackofficeAddressLive,
  BackofficeGuardLive,
  clearBackofficeCookie,
  setBackofficeCookie,
} from "./guard.ts"
import { PlayersHandlers } from "./playersHttp.ts"
import { queuesHandlers } from "./queuesHttp.ts"
import { ReportsHandlers } from "./reportsHttp.ts"
import { SettingsHandlers } from "./settingsHttp.ts"

const meOf = (operator: OperatorView) => ({
  operator,
  role: operator.role,
  permissions: permissionsOf(operator.role),
})

const LoginHandlers = HttpApiBuilder.group(
  BackofficeApi,
  "login",
  Effect.fn(function* (handlers) {
    const config = yield* AppConfig
    const geo = yield* Geo
    const backoffice = yield* Backoffice
    const meta = (request: Parameters<typeof geo.clientIp>[0]) => ({
      ip: geo.clientIp(request),
      userAgent: request.headers["user-agent"],
    })
    return handlers
      .handle("login", ({ request, payload }) =>
        Effect.gen(function* () {
          const { token, answer } = yield* backoffice.login(payload, meta(request))
          yield* setBackofficeCookie(config, token, PENDING_LOGIN_MINUTES * 60)
          return answer
        }),
      )
      .handle("loginTotp", ({ request, payload }) =>
        Effect.gen(function* () {
          const { token, operator } = yield* backoffice.loginTotp(
            readCookie(request, BACKOFFICE_COOKIE),
            payload.code.trim(),
            meta(request),
          )
          yield* setBackofficeCookie(config, token, config.backofficeSessionHours * 3600)
          return meOf(operator)
        }),
      )
  }),
)

const SessionHandlers = HttpApiBuilder.group(
  BackofficeApi,
  "session",
  Effect.fn(function* (handlers) {
    const config = yield* AppConfig
    const backoffice = yield* Backoffice
    return handlers
      .handle("logout", () =>
        Effect.gen(function* () {
          yield* backoffice.logout(yield* CurrentOperator)
          yield* clearBackofficeCookie(config)
          return { loggedOut: true } as const
        }),
      )
      .handle("changePassword", ({ payload }) =>
        Effect.gen(function* () {
          return meOf(yield* backoffice.changePassword(yield* CurrentOperator, payload))
        }),
      )
      .handle("me", () =>
        Effect.gen(function* () {
          return meOf((yield* CurrentOperator).operator)
        }),
      )
  }),
)

const OperatorsHandlers = HttpApiBuilder.group(
  BackofficeApi,
  "operators",
  Effect.fn(function* (handlers) {
    const backoffice = yield* Backoffice
    return handlers
      .handle("listOperators", () => Effect.map(backoffice.listOperators(), (operators) => ({ operators })))
      .handle("createOperator", ({ payload }) =>
        Effect.gen(function* () {
          return yield* backoffice.createOperator(actorOf(yield* CurrentOperator), payload)
        }),
      )
      .handle("updateOperator", ({ params, payload }) =>
        Effect.gen(function* () {
          return yield* backoffice.updateOperator(actorOf(yield* CurrentOperator), params.id, payload)
        }),
      )
      .handle("resetOperator", ({ params, payload }) =>
        Effect.gen(function* () {
          return yield* backoffice.resetOperator(actorOf(yield* CurrentOperator), params.id, payload.what)
        }),
      )
      .handle("audit", ({ query }) =>
        Effect.gen(function* () {
          const limit = query.limit ?? 50
          const entries = yield* backoffice.audit(limit, query.before)
          return { entries, next: entries.length === limit ? (entries.at(-1)?.id ?? null) : null }
        }),
      )
  }),
)

const TokensHandlers = HttpApiBuilder.group(
  BackofficeApi,
  "tokens",
  Effect.fn(function* (handlers) {
    const tokens = yield* ApiTokens
    return handlers
      .handle("listTokens", () =>
        Effect.gen(function* () {
          return { tokens: yield* tokens.list(yield* CurrentOperator) }
        }),
      )
      .handle("createToken", ({ payload }) =>
        Effect.gen(function* () {
          return yield* tokens.create(yield* CurrentOperator, payload)
        }),
      )
      .handle("revokeToken", ({ params }) =>
        Effect.gen(function* () {
          return yield* tokens.revoke(yield* CurrentOperator, params.id)
        }),
      )
  }),
)

/** The back-office API's routes, with its handlers and guards. */
export const backofficeApiRoutes = HttpApiBuilder.layer(BackofficeApi, {
  openapiPath: "/api/backoffice/openapi.json",
}).pipe(
  Layer.provide([
    LoginHandlers,
    SessionHandlers,
    OperatorsHandlers,
    TokensHandlers,
    ReportsHandlers,
    SettingsHandlers,
    ...queuesHandlers,
  ]),
  Layer.provide(PlayersHandlers),
  Layer.provide(ChatInboxHandlers),
  Layer.provide([BackofficeAddressLive, BackofficeGuardLive]),
)
