/**
 * The operator endpoints of back-office accounts: what `npm run operator -- operators …` calls when
 * a server holds the embedded database (otherwise the command opens the database itself). Same
 * rules as the other operator endpoints (server/operator/endpoint.ts): Bearer operator secret,
 * the audit records "<operator> via server". Routes (JSON):
 *   GET  /api/operator/v1/backoffice/operators                          every back-office operator
 *   POST /api/operator/v1/backoffice/operators  { email, name, role }   creates one; its one-time
 *        password is in the answer (the only time it is shown); 409 for an e-mail already taken.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter } from "effect/http"
import type { BadInput } from "../../services/backoffice/errors.ts"
import { roles } from "../../services/backoffice/permissions.ts"
import type { EmailTaken } from "../../services/errors.ts"
import { AppConfig } from "../config.ts"
import {
  OPERATOR_PREFIX,
  operatorAnswer,
  operatorAuthentication,
  operatorBody,
} from "../operator/endpoint.ts"
import { Backoffice } from "./Backoffice.ts"

export const backofficeOperatorEndpoints = [
  { method: "GET", path: `${OPERATOR_PREFIX}/backoffice/operators` },
  { method: "POST", path: `${OPERATOR_PREFIX}/backoffice/operators` },
] as const

const AddPayload = Schema.Struct({
  email: Schema.String.check(Schema.isMaxLength(254)),
  name: Schema.String.check(Schema.isMaxLength(100)),
  role: Schema.Literals(roles),
})

export const backofficeOperatorRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const backoffice = yield* Backoffice
    const authenticate = operatorAuthentication(config)
    // The service's refusals are the back-office contract's errors: the same status here.
    const answer = operatorAnswer((e: BadInput | EmailTaken) => ({
      status: e._tag === "EmailTaken" ? 409 : 400,
      error: e._tag,
    }))

    const list = answer(
      Effect.gen(function* () {
        yield* authenticate
        return { operators: yield* backoffice.listOperators() }
      }),
    )
    const add = answer(
      Effect.gen(function* () {
        const actor = yield* authenticate
        const input = yield* operatorBody(AddPayload)
        return yield* backoffice.createOperator(
          { operatorId: null, email: null, label: actor, ip: null },
          input,
        )
      }),
    )
    return Layer.mergeAll(
      HttpRouter.add("GET", `${OPERATOR_PREFIX}/backoffice/operators`, list),
      HttpRouter.add("POST", `${OPERATOR_PREFIX}/backoffice/operators`, add),
    )
  }),
)
