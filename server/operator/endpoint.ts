/**
 * What every operator endpoint shares (kyc and audit in ./http.ts, rates, withdrawals): the secret
 * (`Authorization: Bearer <OPERATOR_SECRET>` or the generated `${DATA_DIR}/operator-secret`) compared
 * in constant time, the acting operator named by `X-Operator` (audited with " via server"), JSON
 * bodies decoded with a schema, and `{ error, message }` refusals with their status.
 */
import { timingSafeEqual } from "node:crypto"
import { Effect, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { type AppConfigShape, persistentOperatorSecret } from "../config.ts"

export const OPERATOR_PREFIX = "/api/operator/v1"

/** A refusal of an operator request, answered as `{ error, message }` with `status`. */
export class OperatorRefused extends Schema.TaggedError<OperatorRefused>()("OperatorRefused", {
  status: Schema.Int,
  error: Schema.String,
  message: Schema.String,
}) {}

export const operatorJson = (status: number, body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })

export const refusalResponse = (e: OperatorRefused) =>
  operatorJson(e.status, { error: e.error, message: e.message })

const Actor = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(100),
  Schema.isPattern(/^[^\p{Cc}\p{Cs}]*$/u),
)

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given, "utf8")
  const b = Buffer.from(expected, "utf8")
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * The acting operator ("<name> via server") once the secret is right, else 401 (logged) or 400.
 * Built by a server that starts: the secret is generated into DATA_DIR only then, never by merely
 * loading the config.
 */
export const operatorAuthentication = (config: AppConfigShape) => {
  const secret = config.operatorSecret ?? persistentOperatorSecret(config.dataDir)
  return Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const header = request.headers.authorization ?? ""
    const token = header.startsWith("Bearer ") ? header.slice(7).trim() : ""
    if (!sameSecret(token, secret)) {
      yield* Effect.logWarning(`operator endpoint ${request.method} ${request.url}: wrong or missing secret`)
      return yield* new OperatorRefused({
        status: 401,
        error: "OperatorUnauthenticated",
        message: "The operator secret is missing or wrong.",
      })
    }
    const actor = Schema.decodeUnknownOption(Actor)(request.headers["x-operator"])
    if (actor._tag === "None")
      return yield* new OperatorRefused({
        status: 400,
        error: "OperatorUnnamed",
        message: "Name the operator in the X-Operator header (1 to 100 printable characters).",
      })
    return `${actor.value} via server`
  })
}

/** The request's JSON body decoded with `schema`, or a 400 refusal. */
export const operatorBody = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const raw = yield* request.json.pipe(
      Effect.mapError(
        () => new OperatorRefused({ status: 400, error: "BadRequest", message: "Expected a JSON body." }),
      ),
    )
    return yield* Schema.decodeUnknownEffect(schema)(raw).pipe(
      Effect.mapError((e) => new OperatorRefused({ status: 400, error: "BadRequest", message: e.message })),
    )
  })
