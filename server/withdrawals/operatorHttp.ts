/**
 * The operator endpoints of withdrawals (what `npm run operator -- withdrawals …` calls when a server
 * holds the embedded database), with the rules of server/operator/http.ts:
 * `Authorization: Bearer <operator secret>` (constant-time), `X-Operator` names who acts (audited
 * with " via server", in the same transaction as the move). Routes (JSON):
 *   GET  /api/operator/v1/withdrawals?status=requested&limit=100   oldest first
 *   POST /api/operator/v1/withdrawals/approve    { id }
 *   POST /api/operator/v1/withdrawals/reject     { id, reason }
 *   POST /api/operator/v1/withdrawals/mark-sent  { id, txHash }   a manual crypto payout
 *   POST /api/operator/v1/withdrawals/mark-paid  { id }
 * Refusals: 404 unknown withdrawal, 409 a move its status does not allow, 422 bad input, with
 * `{ error, message }`.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { withdrawalStatuses } from "../../services/cashout-service.ts"
import { AppConfig } from "../config.ts"
import {
  operatorBody as body,
  OPERATOR_PREFIX,
  operatorAnswer,
  operatorAuthentication,
  OperatorRefused as Refused,
} from "../operator/endpoint.ts"
import { type OperatorError, Withdrawals } from "./Withdrawals.ts"

const P = `${OPERATOR_PREFIX}/withdrawals`

export const withdrawalOperatorEndpoints = [
  { method: "GET", path: P },
  { method: "POST", path: `${P}/approve` },
  { method: "POST", path: `${P}/reject` },
  { method: "POST", path: `${P}/mark-sent` },
  { method: "POST", path: `${P}/mark-paid` },
] as const

const Id = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100))
const IdPayload = Schema.Struct({ id: Id })
const RejectPayload = Schema.Struct({ id: Id, reason: Schema.String.check(Schema.isMaxLength(2_000)) })
const SentPayload = Schema.Struct({ id: Id, txHash: Schema.String.check(Schema.isMaxLength(200)) })
const Status = Schema.Literals(withdrawalStatuses)

/** The HTTP status of each refusal of an operator action. */
export const refusalStatus = (e: OperatorError): number =>
  e._tag === "WithdrawalNotFound" ? 404 : e._tag === "WithdrawalMoveRefused" ? 409 : 422

export const withdrawalOperatorRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const withdrawals = yield* Withdrawals

    const authenticate = operatorAuthentication(config)

    const answer = operatorAnswer((e: OperatorError) => ({ status: refusalStatus(e), error: e._tag }))

    const list = answer(
      Effect.gen(function* () {
        yield* authenticate
        const request = yield* HttpServerRequest.HttpServerRequest
        const params = new URL(request.url, "http://operator.invalid").searchParams
        const rawStatus = params.get("status")
        const status = rawStatus === null ? undefined : Schema.decodeUnknownOption(Status)(rawStatus)
        if (status !== undefined && status._tag === "None")
          return yield* new Refused({
            status: 400,
            error: "BadRequest",
            message: `status is one of ${withdrawalStatuses.join(", ")}`,
          })
        const asked = Number(params.get("limit") ?? "100")
        const limit = Number.isInteger(asked) && asked >= 1 && asked <= 1_000 ? asked : 100
        return { withdrawals: yield* withdrawals.list(status?.value, limit) }
      }),
    )

    const approve = answer(
      Effect.gen(function* () {
        const actor = yield* authenticate
        const input = yield* body(IdPayload)
        return yield* withdrawals.approve(input.id, actor)
      }),
    )
    const reject = answer(
      Effect.gen(function* () {
        const actor = yield* authenticate
        const input = yield* body(RejectPayload)
        return yield* withdrawals.reject(input.id, actor, input.reason)
      }),
    )
    const markSent = answer(
      Effect.gen(function* () {
        const actor = yield* authenticate
        const input = yield* body(SentPayload)
        return yield* withdrawals.markSent(input.id, actor, input.txHash)
      }),
    )
    const markPaid = answer(
      Effect.gen(function* () {
        const actor = yield* authenticate
        const input = yield* body(IdPayload)
        return yield* withdrawals.markPaid(input.id, actor)
      }),
    )

    return Layer.mergeAll(
      HttpRouter.add("GET", P, list),
      HttpRouter.add("POST", `${P}/approve`, approve),
      HttpRouter.add("POST", `${P}/reject`, reject),
      HttpRouter.add("POST", `${P}/mark-sent`, markSent),
      HttpRouter.add("POST", `${P}/mark-paid`, markPaid),
    )
  }),
)
