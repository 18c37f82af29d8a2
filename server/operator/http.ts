/**
 * The operator endpoints: what `npm run operator` calls when it cannot open the database itself
 * (a server holds the embedded PGlite, which is one process per data folder). Not part of the
 * player contract and not in /openapi.json: nothing in the player app links here.
 *
 * - Authentication: `Authorization: Bearer <OPERATOR_SECRET>` (or the generated
 *   `${DATA_DIR}/operator-secret`), compared in constant time; anything else is 401 and logged.
 * - `X-Operator` names the person acting (1–100 printable characters); it goes to the audit with
 *   " via server" appended, beside the decision itself (Kyc writes both in one transaction).
 * - Routes (JSON): GET  /api/operator/v1/kyc/pending
 *                  GET  /api/operator/v1/kyc/documents?email=…
 *                  POST /api/operator/v1/kyc/approve  { email, kind: "ID" | "BILL" }
 *                  POST /api/operator/v1/kyc/reject   { email, kind, reason }
 *                  GET  /api/operator/v1/audit?limit=…
 *   A refused decision is 404 (unknown player), 409 (nothing pending) or 400 (no reason), with
 *   `{ error, message }`.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { AppConfig } from "../config.ts"
import { Kyc, type KycReviewRefused } from "../kyc/Kyc.ts"
import { OperatorAudit } from "./Audit.ts"
import { operatorBody as body, OPERATOR_PREFIX, operatorAnswer, operatorAuthentication } from "./endpoint.ts"

export { OPERATOR_PREFIX } from "./endpoint.ts"

export const operatorEndpoints = [
  { method: "GET", path: `${OPERATOR_PREFIX}/kyc/pending` },
  { method: "GET", path: `${OPERATOR_PREFIX}/kyc/documents` },
  { method: "POST", path: `${OPERATOR_PREFIX}/kyc/approve` },
  { method: "POST", path: `${OPERATOR_PREFIX}/kyc/reject` },
  { method: "GET", path: `${OPERATOR_PREFIX}/audit` },
] as const

const Kind = Schema.Literals(["ID", "BILL"])
const ApprovePayload = Schema.Struct({ email: Schema.String.check(Schema.isMaxLength(254)), kind: Kind })
const RejectPayload = Schema.Struct({
  email: Schema.String.check(Schema.isMaxLength(254)),
  kind: Kind,
  reason: Schema.String.check(Schema.isMaxLength(2_000)),
})

const refusedStatus: Readonly<Record<KycReviewRefused["reason"], number>> = {
  UnknownPlayer: 404,
  NothingPending: 409,
  ReasonRequired: 400,
}

export const operatorRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const kyc = yield* Kyc
    const audit = yield* OperatorAudit

    /** The acting operator, once the secret is right. */
    const authenticate = operatorAuthentication(config)

    const answer = operatorAnswer((e: KycReviewRefused) => ({
      status: refusedStatus[e.reason],
      error: e.reason,
    }))

    const pending = answer(
      Effect.gen(function* () {
        yield* authenticate
        return { documents: yield* kyc.pending() }
      }),
    )

    const documents = answer(
      Effect.gen(function* () {
        yield* authenticate
        const request = yield* HttpServerRequest.HttpServerRequest
        const email = new URL(request.url, "http://operator.invalid").searchParams.get("email") ?? ""
        return yield* kyc.documentsOf(email)
      }),
    )

    const approve = answer(
      Effect.gen(function* () {
        const actor = yield* authenticate
        const input = yield* body(ApprovePayload)
        return yield* kyc.approve({ email: input.email, kind: input.kind, actor })
      }),
    )

    const reject = answer(
      Effect.gen(function* () {
        const actor = yield* authenticate
        const input = yield* body(RejectPayload)
        return yield* kyc.reject({ email: input.email, kind: input.kind, reason: input.reason, actor })
      }),
    )

    const auditLog = answer(
      Effect.gen(function* () {
        yield* authenticate
        const request = yield* HttpServerRequest.HttpServerRequest
        const asked = Number(
          new URL(request.url, "http://operator.invalid").searchParams.get("limit") ?? "20",
        )
        const limit = Number.isInteger(asked) && asked >= 1 && asked <= 1_000 ? asked : 20
        const rows = yield* audit.latest(limit).pipe(Effect.orDie)
        return { entries: rows.map((r) => ({ ...r, at: r.at.toISOString() })) }
      }),
    )

    return Layer.mergeAll(
      HttpRouter.add("GET", `${OPERATOR_PREFIX}/kyc/pending`, pending),
      HttpRouter.add("GET", `${OPERATOR_PREFIX}/kyc/documents`, documents),
      HttpRouter.add("POST", `${OPERATOR_PREFIX}/kyc/approve`, approve),
      HttpRouter.add("POST", `${OPERATOR_PREFIX}/kyc/reject`, reject),
      HttpRouter.add("GET", `${OPERATOR_PREFIX}/audit`, auditLog),
    )
  }),
)
