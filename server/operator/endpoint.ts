/**
 * What an operator endpoint needs (the one left is the first admin's bootstrap,
 * server/backoffice/operatorHttp.ts): the operator authenticated by their own secret
 * (`Authorization: Bearer <secret>`, OPERATOR_SECRETS, or the generated
 * `${DATA_DIR}/operator-secret` of the local operator), compared in constant time — the audit
 * records that secret's name, never a name the caller sends — JSON bodies decoded with a schema,
 * and `{ error, message }` refusals with their status.
 */
import { timingSafeEqual } from "node:crypto"
import { Effect, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { type AppConfigShape, type OperatorSecret, persistentOperatorSecret } from "../config.ts"

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

/**
 * An operator route's answer: the handler's value as 200 JSON; a failed authentication or body as
 * its own refusal; a domain refusal as `{ error, message }` with the status `statusOf` gives it.
 */
export const operatorAnswer =
  <E extends { readonly message: string }>(
    statusOf: (e: E) => { readonly status: number; readonly error: string },
  ) =>
  <A, R>(effect: Effect.Effect<A, OperatorRefused | E, R>) =>
    effect.pipe(
      Effect.map((value) => operatorJson(200, value)),
      Effect.catch((e: OperatorRefused | E) => {
        if (e instanceof OperatorRefused) return Effect.succeed(refusalResponse(e))
        const { status, error } = statusOf(e)
        return Effect.succeed(operatorJson(status, { error, message: e.message }))
      }),
    )

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given, "utf8")
  const b = Buffer.from(expected, "utf8")
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The operators a server knows: the configured ones, else the local operator's generated secret. */
export const knownOperators = (config: AppConfigShape): ReadonlyArray<OperatorSecret> =>
  config.operatorSecrets.length > 0
    ? config.operatorSecrets
    : [{ name: "local", secret: persistentOperatorSecret(config.dataDir) }]

/**
 * The name of the operator secret the request carries (OPERATOR_SECRETS' name, "local" for the
 * generated one), else 401 (logged). Built by a server that starts: the local secret is generated
 * into DATA_DIR only then, never by merely loading the config.
 */
export const operatorAuthentication = (config: AppConfigShape) => {
  const operators = knownOperators(config)
  return Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const header = request.headers.authorization ?? ""
    const token = header.startsWith("Bearer ") ? header.slice(7).trim() : ""
    // Every secret is compared (constant time each), so the time taken says nothing of which matched.
    let operator: OperatorSecret | undefined
    for (const o of operators) if (sameSecret(token, o.secret)) operator = o
    if (operator === undefined) {
      yield* Effect.logWarning(`operator endpoint ${request.method} ${request.url}: wrong or missing secret`)
      return yield* new OperatorRefused({
        status: 401,
        error: "OperatorUnauthenticated",
        message: "The operator secret is missing or wrong.",
      })
    }
    return operator.name
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
