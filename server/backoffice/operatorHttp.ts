/**
 * The first admin's bootstrap endpoint: what `npm run operator -- operators add` without a token
 * calls when a server holds the embedded database (otherwise the command opens the database itself).
 *
 *   POST /api/operator/v1/backoffice/operators  { email, name, role: "admin" }
 *
 * Checked in the back office's order: BACKOFFICE_ALLOW (403 `ForbiddenAddress`), the operator
 * secret (401, ../operator/endpoint.ts), the body (400), then `Backoffice.bootstrap`: an admin only
 * (400 `BadInput`), only while no active admin exists (409 `BootstrapClosed`, logged), 409
 * `EmailTaken`. The answer holds the one-time password (the only time it is shown); the audit row is
 * `operators.bootstrap`, "bootstrap (operator secret <name>)", with the address.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import type { BadInput, BootstrapClosed, ForbiddenAddress } from "../../services/backoffice/errors.ts"
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
import { checkAddress } from "./guard.ts"

export const backofficeOperatorEndpoints = [
  { method: "POST", path: `${OPERATOR_PREFIX}/backoffice/operators` },
] as const

const AddPayload = Schema.Struct({
  email: Schema.String.check(Schema.isMaxLength(254)),
  name: Schema.String.check(Schema.isMaxLength(100)),
  role: Schema.Literals(roles),
})

const statusOf: Record<(BadInput | BootstrapClosed | EmailTaken | ForbiddenAddress)["_tag"], number> = {
  ForbiddenAddress: 403,
  BadInput: 400,
  BootstrapClosed: 409,
  EmailTaken: 409,
}

export const backofficeOperatorRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const backoffice = yield* Backoffice
    const address = yield* checkAddress
    const authenticate = operatorAuthentication(config)
    // The refusals are the back-office contract's errors: the same status here.
    const answer = operatorAnswer((e: BadInput | BootstrapClosed | EmailTaken | ForbiddenAddress) => ({
      status: statusOf[e._tag],
      error: e._tag,
    }))

    const add = answer(
      Effect.gen(function* () {
        const ip = yield* address(yield* HttpServerRequest.HttpServerRequest)
        const secretName = yield* authenticate
        const input = yield* operatorBody(AddPayload)
        return yield* backoffice.bootstrap({ secretName, ip }, input)
      }),
    )
    return HttpRouter.add("POST", `${OPERATOR_PREFIX}/backoffice/operators`, add)
  }),
)
