/**
 * The operator endpoint of the support chat, beside the other operator endpoints and with their
 * rules (`Authorization: Bearer <operator secret>`, constant-time): a back-office operator's reply
 * to a player's open conversation, found by the player's e-mail, until the back office has its own
 * inbox screen. It goes through `Chat.reply`, so the player's widget shows it live.
 *   POST /api/operator/v1/chat/reply  { playerEmail, operatorEmail, body }
 *        refused: 404 no open conversation or no such operator, 400 invalid body.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { AppConfig } from "../config.ts"
import {
  operatorJson as json,
  OPERATOR_PREFIX,
  operatorAuthentication,
  operatorBody,
  refusalResponse,
} from "../operator/endpoint.ts"
import { Chat } from "./Chat.ts"
import { ChatRepo } from "./ChatRepo.ts"

export const chatOperatorEndpoints = [{ method: "POST", path: `${OPERATOR_PREFIX}/chat/reply` }] as const

const ReplyPayload = Schema.Struct({
  playerEmail: Schema.String.check(Schema.isMaxLength(254)),
  operatorEmail: Schema.String.check(Schema.isMaxLength(254)),
  body: Schema.String.check(Schema.isMaxLength(20_000)),
})

export const chatOperatorRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const chat = yield* Chat
    const repo = yield* ChatRepo
    const reply = Effect.gen(function* () {
      yield* operatorAuthentication(config)
      const input = yield* operatorBody(ReplyPayload)
      const conversation = yield* Effect.orDie(repo.openForEmail(input.playerEmail))
      if (conversation === undefined)
        return json(404, { error: "NotFound", message: "That player has no open conversation." })
      const operatorId = yield* Effect.orDie(repo.operatorIdByEmail(input.operatorEmail))
      if (operatorId === undefined)
        return json(404, { error: "NotFound", message: "No active back-office operator has that e-mail." })
      return yield* chat.reply(conversation.id, operatorId, input.body).pipe(
        Effect.map((message) => json(200, message)),
        Effect.catchTags({
          ValidationFailed: (e) =>
            Effect.succeed(json(400, { error: "ValidationFailed", message: e.message })),
          ChatConversationNotFound: (e) =>
            Effect.succeed(json(404, { error: "NotFound", message: e.message })),
        }),
      )
    }).pipe(Effect.catchTag("OperatorRefused", (e) => Effect.succeed(refusalResponse(e))))
    return HttpRouter.add("POST", `${OPERATOR_PREFIX}/chat/reply`, reply)
  }),
)
