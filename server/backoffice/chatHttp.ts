/**
 * Handlers of the back office's support inbox (services/backoffice/api/chat.ts; the rules are
 * ./Support.ts) and its live stream:
 *
 * `GET /api/backoffice/v1/chat/events`: every conversation's chat events (`Chat.allEvents()`) as
 * server-sent events named by `type` (`message`, `closed`) with the `ChatEvent` JSON as data; the
 * first chunk is `: connected`, a heartbeat every 25 s (the player stream's framing). It is a plain
 * route, not a contract endpoint (a stream is not a JSON answer), so it runs the guard's checks
 * itself, in the guard's order: BACKOFFICE_ALLOW (403 ForbiddenAddress), the `bo_session` cookie
 * (401 Unauthenticated), `chat.answer` (403 Forbidden), a one-time password (403).
 */
import { Duration, Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { BackofficeApi } from "../../services/backoffice/api.ts"
import { type ConversationSummary, SUPPORT_EVENTS_PATH } from "../../services/backoffice/chat.ts"
import { CurrentOperator } from "../../services/backoffice/middleware.ts"
import { can } from "../../services/backoffice/permissions.ts"
import { Chat } from "../chat/Chat.ts"
import { AppConfig } from "../config.ts"
import { eventStreamResponse } from "../events/http.ts"
import { Lifecycle } from "../lifecycle/Lifecycle.ts"
import { readCookie } from "../users/cookies.ts"
import { actorOf, Backoffice } from "./Backoffice.ts"
import { cannedReplies } from "./cannedReplies.ts"
import { BACKOFFICE_COOKIE, checkAddress } from "./guard.ts"
import { Support } from "./Support.ts"

const currentActor = Effect.map(CurrentOperator, (current) => ({
  ...actorOf(current),
  operatorId: current.operator.id,
}))

const changed = (conversation: ConversationSummary) => ({ conversation })

const Handlers = HttpApiBuilder.group(
  BackofficeApi,
  "chat",
  Effect.fn(function* (handlers) {
    const support = yield* Support
    return handlers
      .handle("listConversations", ({ query }) =>
        Effect.map(support.list(query.status ?? "open"), (conversations) => ({ conversations })),
      )
      .handle("getConversation", ({ params }) => support.page(params.id))
      .handle("replyConversation", ({ params, payload }) =>
        Effect.flatMap(currentActor, (actor) => support.reply(actor, params.id, payload.body)),
      )
      .handle("assignConversation", ({ params, payload }) =>
        Effect.flatMap(currentActor, (actor) =>
          support.assign(
            actor,
            params.id,
            payload.operatorId === "me" ? actor.operatorId : payload.operatorId,
          ),
        ).pipe(Effect.map(changed)),
      )
      .handle("closeConversation", ({ params }) =>
        Effect.flatMap(currentActor, (actor) => support.close(actor, params.id)).pipe(Effect.map(changed)),
      )
      .handle("markConversationRead", ({ params, payload }) =>
        Effect.flatMap(currentActor, (actor) => support.markRead(actor, params.id, payload.lastReadId)).pipe(
          Effect.map(changed),
        ),
      )
      .handle("cannedReplies", () => Effect.succeed({ replies: cannedReplies }))
  }),
)

const refusal = (status: number, tag: string, message: string, extra: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(
    { _tag: tag, message, ...extra },
    { status, headers: { "cache-control": "no-store" } },
  )

const eventRoute = Layer.unwrap(
  Effect.gen(function* () {
    const chat = yield* Chat
    const backoffice = yield* Backoffice
    const config = yield* AppConfig
    const address = yield* checkAddress
    const lifecycle = yield* Lifecycle
    const handler = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const allowed = yield* Effect.result(address(request))
      if (allowed._tag === "Failure") return refusal(403, "ForbiddenAddress", allowed.failure.message)
      const found = yield* backoffice.resolve(readCookie(request, BACKOFFICE_COOKIE))
      if (Option.isNone(found)) return refusal(401, "Unauthenticated", "Sign in to the back office.")
      const { operator } = found.value
      if (!can(operator.role, "chat.answer"))
        return refusal(
          403,
          "Forbidden",
          `The ${operator.role} role does not have the chat.answer permission.`,
          {
            permission: "chat.answer",
          },
        )
      if (operator.mustChangePassword)
        return refusal(403, "PasswordChangeRequired", "Choose your own password first.")
      // Each heartbeat re-checks the session (without sliding it): a stream ends within one
      // heartbeat of a sign-out, the idle limit, a disabled operator or a role without chat.answer.
      const sessionId = found.value.sessionId
      return eventStreamResponse(lifecycle, chat.allEvents(), {
        heartbeat: Duration.seconds(config.backofficeStreamCheckSeconds),
        stillOpen: backoffice
          .stillSignedIn(sessionId)
          .pipe(Effect.map((now) => Option.isSome(now) && can(now.value.role, "chat.answer"))),
      })
    })
    return HttpRouter.add("GET", SUPPORT_EVENTS_PATH, handler)
  }),
)

/** The group's handlers and the stream, with the inbox service: one entry in http.ts. */
export const ChatInboxHandlers = Layer.mergeAll(Handlers, eventRoute).pipe(Layer.provide(Support.layer))
