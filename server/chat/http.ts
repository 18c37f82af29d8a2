/**
 * The chat group (services/api/chat-service.ts) and its event stream. The owner of a call is the
 * session's player, else the visitor of the httpOnly cookie `casino_chat_visitor` (random 32 bytes;
 * only its SHA-256 is stored), which the first call without either sets. A signed-in player who
 * still carries a visitor cookie takes over that visitor's conversation once, and the cookie goes.
 *
 * Sending passes the client's address (`Geo.clientIp`: the peer, or what a trusted proxy saw) for
 * the visitors' limits per address (./Chat.ts).
 *
 * `GET …/chat/identity` answers the signed-in player's id with Chatwoot's identity hash (./identity.ts).
 *
 * `GET /chat-service/api/v1/chat/events`: the owner's chat events as server-sent events (named by
 * `type`, JSON data), the same framing as `/api/events`: a first comment opens the stream, a
 * heartbeat every 25 s keeps proxies from closing it. 401 JSON when the request has no owner.
 */
import { Duration, Effect, Layer, Option } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CasinoApi } from "../../services/api.ts"
import { ValidationFailed } from "../../services/errors.ts"
import { AppConfig, type AppConfigShape } from "../config.ts"
import { eventStreamResponse } from "../events/http.ts"
import { Geo } from "../geo/Geo.ts"
import { Lifecycle } from "../lifecycle/Lifecycle.ts"
import { requireSession, UnauthenticatedMessage } from "../users/auth.ts"
import { readCookie, SESSION_COOKIE } from "../users/cookies.ts"
import { Sessions } from "../users/Sessions.ts"
import { hashToken, looksLikeToken, newToken } from "../users/tokens.ts"
import { Chat, type ChatOwner } from "./Chat.ts"
import { identifierHashOf } from "./identity.ts"

export const CHAT_VISITOR_COOKIE = "casino_chat_visitor"
export const CHAT_EVENTS_PATH = "/chat-service/api/v1/chat/events"
/** A visitor's conversation is kept this long after their last call (the cookie's Max-Age). */
const VISITOR_COOKIE_DAYS = 30

const visitorCookie = (config: Pick<AppConfigShape, "cookieSecure">, token: string | null) =>
  Effect.withFiber<void>((fiber) => {
    HttpEffect.appendPreResponseHandlerUnsafe(fiber.context, (_request, response) =>
      Effect.orDie(
        token === null
          ? HttpServerResponse.expireCookie(response, CHAT_VISITOR_COOKIE, {
              httpOnly: true,
              sameSite: "lax",
              path: "/",
              secure: config.cookieSecure,
            })
          : HttpServerResponse.setCookie(response, CHAT_VISITOR_COOKIE, token, {
              httpOnly: true,
              sameSite: "lax",
              path: "/",
              secure: config.cookieSecure,
              maxAge: Duration.days(VISITOR_COOKIE_DAYS),
            }),
      ),
    )
    return Effect.void
  })

const noStore = Effect.withFiber<void>((fiber) => {
  HttpEffect.appendPreResponseHandlerUnsafe(fiber.context, (_request, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, "cache-control", "no-store")),
  )
  return Effect.void
})

const visitorToken = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const token = readCookie(request, CHAT_VISITOR_COOKIE)
  return token !== undefined && looksLikeToken(token) ? token : undefined
}

/**
 * Who the request speaks for. `create`: a request with no owner yet becomes a new visitor (the
 * cookie is set on its response); otherwise it has none.
 */
const ownerOf = Effect.gen(function* () {
  const sessions = yield* Sessions
  const chat = yield* Chat
  const config = yield* AppConfig
  return (request: HttpServerRequest.HttpServerRequest, create: boolean) =>
    Effect.gen(function* () {
      const session = yield* sessions.resolve(readCookie(request, SESSION_COOKIE))
      const token = visitorToken(request)
      if (Option.isSome(session)) {
        const userId = session.value.user.id
        if (token !== undefined) {
          yield* chat.attachVisitor(hashToken(token), userId)
          yield* visitorCookie(config, null)
        }
        return Option.some<ChatOwner>({ kind: "player", userId })
      }
      if (token !== undefined) return Option.some<ChatOwner>({ kind: "visitor", tokenHash: hashToken(token) })
      if (!create) return Option.none<ChatOwner>()
      const fresh = newToken()
      yield* visitorCookie(config, fresh)
      return Option.some<ChatOwner>({ kind: "visitor", tokenHash: hashToken(fresh) })
    })
})

const owned = (owner: Option.Option<ChatOwner>) =>
  Option.isSome(owner)
    ? Effect.succeed(owner.value)
    : Effect.die(new Error("chat: a creating lookup always has an owner"))

export const ChatHandlers = HttpApiBuilder.group(
  CasinoApi,
  "chat",
  Effect.fn(function* (handlers) {
    const sessions = yield* Sessions
    const chat = yield* Chat
    const config = yield* AppConfig
    const geo = yield* Geo
    const owner = yield* ownerOf
    return handlers
      .handle("conversation", ({ request }) =>
        owner(request, true).pipe(Effect.flatMap(owned), Effect.flatMap(chat.conversation)),
      )
      .handle("send", ({ request, payload }) =>
        owner(request, true).pipe(
          Effect.flatMap(owned),
          Effect.flatMap((o) => chat.send(o, payload.body, geo.clientIp(request))),
        ),
      )
      .handle("markRead", ({ request, payload }) =>
        owner(request, true).pipe(
          Effect.flatMap(owned),
          Effect.flatMap((o) => chat.markRead(o, payload.lastReadId)),
          Effect.map((unread) => ({ unread })),
        ),
      )
      .handle("attributes", ({ request, payload }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          // The id is the session's: a page cannot label someone else's conversation.
          if (payload.userId !== session.user.id)
            return yield* new ValidationFailed({
              message: "These attributes are not yours.",
              field: "userId",
            })
          return yield* chat.setAttributes(session.user.id, payload)
        }),
      )
      .handle("identity", ({ request }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          // A credential of this player's: no cache may keep it for the next person.
          yield* noStore
          return { userId: session.user.id, identifierHash: identifierHashOf(config.chat, session.user.id) }
        }),
      )
  }),
)

export const chatEventRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const chat = yield* Chat
    const owner = yield* ownerOf
    const lifecycle = yield* Lifecycle
    const handler = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const who = yield* owner(request, false)
      if (Option.isNone(who))
        return HttpServerResponse.jsonUnsafe(
          { _tag: "Unauthenticated", message: UnauthenticatedMessage },
          {
            status: 401,
            headers: { "cache-control": "no-store" },
          },
        )
      return eventStreamResponse(lifecycle, chat.events(who.value))
    })
    return HttpRouter.add("GET", CHAT_EVENTS_PATH, handler)
  }),
)

export const chatEventEndpoints = [{ method: "GET", path: CHAT_EVENTS_PATH }] as const
