/**
 * The back-office API (`/api/backoffice/v1/…`, JSON), routed from the table in ./endpoints.ts.
 * Every request passes, in this order:
 *
 * 1. BACKOFFICE_ALLOW: the client IP (TRUST_PROXY-resolved, as everywhere) must be in the list
 *    when one is set, else 403 `ForbiddenAddress` — before anything else is read;
 * 2. the session cookie `bo_session` (Path=/api/backoffice, HttpOnly, SameSite=Strict, Secure with
 *    an https PUBLIC_URL or COOKIE_SECURE), else 401 `Unauthenticated`;
 * 3. the endpoint's permission against the operator's role (./permissions.ts), else 403
 *    `Forbidden` — nothing is read or changed on a refusal;
 * 4. the body or query, decoded with a schema: 400 `BadRequest` with the reason.
 * Writes also pass the edge's Origin check (server/security/middleware.ts) like the player API.
 */
import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import proxyaddr from "proxy-addr"
import { AppConfig, type AppConfigShape } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import { OperatorRefused, operatorBody, operatorJson, refusalResponse } from "../operator/endpoint.ts"
import { readCookie } from "../users/cookies.ts"
import { actorOf, Backoffice, type CurrentOperator, PENDING_LOGIN_MINUTES } from "./Backoffice.ts"
import { type BackofficeEndpointKey, backofficeEndpointList, backofficeEndpoints } from "./endpoints.ts"
import { can, permissionsOf, roles } from "./permissions.ts"

export const BACKOFFICE_COOKIE = "bo_session"
/** The cookie goes only to the back-office API: the player app and its API never see it. */
export const BACKOFFICE_COOKIE_PATH = "/api/backoffice"

/** The router patterns of every back-office endpoint (the edge's 404/405 index). */
export const backofficeKnownEndpoints = backofficeEndpointList.map((e) => ({
  method: e.method,
  path: e.path,
}))

const Email = Schema.String.check(Schema.isMaxLength(254))
const Role = Schema.Literals(roles)
const LoginPayload = Schema.Struct({ email: Email, password: Schema.String.check(Schema.isMaxLength(128)) })
const TotpPayload = Schema.Struct({ code: Schema.String.check(Schema.isMaxLength(16)) })
const CreatePayload = Schema.Struct({
  email: Email,
  name: Schema.String.check(Schema.isMaxLength(100)),
  role: Role,
  password: Schema.optional(Schema.String.check(Schema.isMaxLength(128))),
})
const UpdatePayload = Schema.Struct({
  role: Schema.optional(Role),
  disabled: Schema.optional(Schema.Boolean),
})

interface Answer {
  readonly status?: number
  readonly body: unknown
  /** Sets (token, seconds) or clears (null) the session cookie. */
  readonly cookie?: { readonly token: string; readonly maxAgeSeconds: number } | null
}

interface Context {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly ip: string
  /** Present on every endpoint that is not public. */
  readonly current: CurrentOperator | undefined
}

type Handler = (
  ctx: Context,
) => Effect.Effect<Answer, OperatorRefused, HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext>

const cookieOptions = (config: AppConfigShape) =>
  ({
    httpOnly: true,
    sameSite: "strict",
    path: BACKOFFICE_COOKIE_PATH,
    secure: config.cookieSecure || config.publicUrl.startsWith("https://"),
  }) as const

const bad = (message: string) => new OperatorRefused({ status: 400, error: "BadRequest", message })

const signedInOperator = (ctx: Context): Effect.Effect<CurrentOperator> =>
  ctx.current === undefined
    ? Effect.die(new Error("back office: a signed-in endpoint ran without a session"))
    : Effect.succeed(ctx.current)

export const backofficeRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const geo = yield* Geo
    const backoffice = yield* Backoffice
    const allowed =
      config.backofficeAllow.length === 0 ? () => true : proxyaddr.compile([...config.backofficeAllow])

    const handlers: Record<BackofficeEndpointKey, Handler> = {
      login: (ctx) =>
        Effect.gen(function* () {
          const input = yield* operatorBody(LoginPayload)
          const { token, answer } = yield* backoffice.login(input, {
            ip: ctx.ip,
            userAgent: ctx.request.headers["user-agent"],
          })
          return { body: answer, cookie: { token, maxAgeSeconds: PENDING_LOGIN_MINUTES * 60 } }
        }),
      loginTotp: (ctx) =>
        Effect.gen(function* () {
          const input = yield* operatorBody(TotpPayload)
          const { token, operator } = yield* backoffice.loginTotp(
            readCookie(ctx.request, BACKOFFICE_COOKIE),
            input.code.trim(),
            { ip: ctx.ip, userAgent: ctx.request.headers["user-agent"] },
          )
          return {
            body: { operator, role: operator.role, permissions: permissionsOf(operator.role) },
            cookie: { token, maxAgeSeconds: config.backofficeSessionHours * 3600 },
          }
        }),
      logout: (ctx) =>
        Effect.gen(function* () {
          const current = yield* signedInOperator(ctx)
          yield* backoffice.logout(current, actorOf(current, ctx.ip))
          return { body: { loggedOut: true }, cookie: null }
        }),
      me: (ctx) =>
        Effect.map(signedInOperator(ctx), ({ operator }) => ({
          body: { operator, role: operator.role, permissions: permissionsOf(operator.role) },
        })),
      listOperators: () => Effect.map(backoffice.listOperators(), (operators) => ({ body: { operators } })),
      createOperator: (ctx) =>
        Effect.gen(function* () {
          const current = yield* signedInOperator(ctx)
          const input = yield* operatorBody(CreatePayload)
          const created = yield* backoffice.createOperator(actorOf(current, ctx.ip), input)
          return { status: 201, body: created }
        }),
      updateOperator: (ctx) =>
        Effect.gen(function* () {
          const current = yield* signedInOperator(ctx)
          const id = (yield* HttpRouter.params).id ?? ""
          const input = yield* operatorBody(UpdatePayload)
          return { body: yield* backoffice.updateOperator(actorOf(current, ctx.ip), id, input) }
        }),
      audit: (ctx) =>
        Effect.gen(function* () {
          const query = new URL(ctx.request.url, "http://backoffice.invalid").searchParams
          const limitRaw = query.get("limit") ?? "50"
          if (!/^\d{1,3}$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > 200)
            return yield* bad("limit is a whole number from 1 to 200.")
          const before = query.get("before") ?? undefined
          if (before !== undefined && !/^[1-9]\d{0,17}$/.test(before))
            return yield* bad("before is the id of an audit entry (a positive whole number).")
          const entries = yield* backoffice.audit(Number(limitRaw), before)
          return {
            body: {
              entries,
              next: entries.length === Number(limitRaw) ? (entries.at(-1)?.id ?? null) : null,
            },
          }
        }),
    }

    const respond = (answer: Answer) => {
      const response = operatorJson(answer.status ?? 200, answer.body)
      if (answer.cookie === undefined) return response
      if (answer.cookie === null)
        return HttpServerResponse.expireCookieUnsafe(response, BACKOFFICE_COOKIE, cookieOptions(config))
      return HttpServerResponse.setCookieUnsafe(response, BACKOFFICE_COOKIE, answer.cookie.token, {
        ...cookieOptions(config),
        maxAge: `${answer.cookie.maxAgeSeconds} seconds`,
      })
    }

    const route = (key: BackofficeEndpointKey) => {
      const endpoint = backofficeEndpoints[key]
      const handler = handlers[key]
      return Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const ip = geo.clientIp(request)
        if (!allowed(ip, 0)) {
          yield* Effect.logWarning(
            `back office: ${request.method} ${endpoint.path} refused for ${ip} (BACKOFFICE_ALLOW)`,
          )
          return yield* new OperatorRefused({
            status: 403,
            error: "ForbiddenAddress",
            message: "The back office cannot be reached from this address.",
          })
        }
        let current: CurrentOperator | undefined
        if (endpoint.access.kind !== "public") {
          const found = yield* backoffice.resolve(readCookie(request, BACKOFFICE_COOKIE))
          if (Option.isNone(found))
            return yield* new OperatorRefused({
              status: 401,
              error: "Unauthenticated",
              message: "Sign in to the back office.",
            })
          current = found.value
          if (
            endpoint.access.kind === "permission" &&
            !can(current.operator.role, endpoint.access.permission)
          )
            return yield* new OperatorRefused({
              status: 403,
              error: "Forbidden",
              message: `The ${current.operator.role} role does not have the ${endpoint.access.permission} permission.`,
            })
        }
        return respond(yield* handler({ request, ip, current }))
      }).pipe(Effect.catchTag("OperatorRefused", (e) => Effect.succeed(refusalResponse(e))))
    }

    return backofficeEndpointList.reduce<Layer.Layer<never, never, HttpRouter.HttpRouter>>(
      (routes, e) => Layer.merge(routes, HttpRouter.add(e.method, e.path, route(e.key))),
      Layer.empty,
    )
  }),
)
