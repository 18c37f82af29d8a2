/**
 * The operator endpoint of promotions: what `npm run operator -- promotions …` calls when a server
 * holds the embedded database (and what the back office will call), beside the kyc and rates ones,
 * with the same rules: `Authorization: Bearer <operator secret>` (constant-time), the operator the
 * secret belongs to audited with " via server". The input is what the operator typed (text), checked
 * by `Promotions` exactly as on the command line. Routes (JSON):
 *   GET  /api/operator/v1/promotions                  every promotion
 *   GET  /api/operator/v1/promotions/show?id=…        one
 *   POST /api/operator/v1/promotions/create           { id, kind, …changes }
 *   POST /api/operator/v1/promotions/update           { id, changes: {…} }
 *   POST /api/operator/v1/promotions/set-active       { id, active }
 * A refused change: 404 unknown promotion, 409 a duplicate id or code or nothing to change, 422 an
 * invalid value — each `{ error, message }` with the message the command line prints.
 */
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import {
  CreatePromotionPayload as CreatePayload,
  SetActiveBody as SetActivePayload,
  UpdatePromotionBody as UpdatePayload,
} from "../../services/backoffice/settings.ts"
import { AppConfig } from "../config.ts"
import {
  operatorBody as body,
  OPERATOR_PREFIX,
  operatorAnswer,
  operatorAuthentication,
} from "../operator/endpoint.ts"
import { type PromotionChangeRefused, Promotions } from "./Promotions.ts"

export const promotionsOperatorEndpoints = [
  { method: "GET", path: `${OPERATOR_PREFIX}/promotions` },
  { method: "GET", path: `${OPERATOR_PREFIX}/promotions/show` },
  { method: "POST", path: `${OPERATOR_PREFIX}/promotions/create` },
  { method: "POST", path: `${OPERATOR_PREFIX}/promotions/update` },
  { method: "POST", path: `${OPERATOR_PREFIX}/promotions/set-active` },
] as const

const refusedStatus: Readonly<Record<PromotionChangeRefused["reason"], number>> = {
  UnknownPromotion: 404,
  DuplicateId: 409,
  DuplicateCode: 409,
  NothingToChange: 409,
  InvalidBands: 422,
  InvalidValue: 422,
  UnknownGame: 422,
  UnknownCurrency: 422,
  InvalidDates: 422,
}

export const promotionsOperatorRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const promotions = yield* Promotions
    const authenticate = operatorAuthentication(config)

    const answer = operatorAnswer((e: PromotionChangeRefused) => ({
      status: refusedStatus[e.reason],
      error: e.reason,
    }))

    const list = answer(
      Effect.gen(function* () {
        yield* authenticate
        return { promotions: yield* promotions.list() }
      }),
    )

    const show = answer(
      Effect.gen(function* () {
        yield* authenticate
        const request = yield* HttpServerRequest.HttpServerRequest
        const id = new URL(request.url, "http://operator.invalid").searchParams.get("id") ?? ""
        return yield* promotions.show(id)
      }),
    )

    const create = answer(
      Effect.gen(function* () {
        const actor = yield* authenticate
        const input = yield* body(CreatePayload)
        return yield* promotions.create(input, actor)
      }),
    )

    const update = answer(
      Effect.gen(function* () {
        const actor = yield* authenticate
        const input = yield* body(UpdatePayload)
        return yield* promotions.update(input.id, input.changes, actor)
      }),
    )

    const setActive = answer(
      Effect.gen(function* () {
        const actor = yield* authenticate
        const input = yield* body(SetActivePayload)
        return yield* promotions.setActive(input.id, input.active, actor)
      }),
    )

    return Layer.mergeAll(
      HttpRouter.add("GET", `${OPERATOR_PREFIX}/promotions`, list),
      HttpRouter.add("GET", `${OPERATOR_PREFIX}/promotions/show`, show),
      HttpRouter.add("POST", `${OPERATOR_PREFIX}/promotions/create`, create),
      HttpRouter.add("POST", `${OPERATOR_PREFIX}/promotions/update`, update),
      HttpRouter.add("POST", `${OPERATOR_PREFIX}/promotions/set-active`, setActive),
    )
  }),
)
