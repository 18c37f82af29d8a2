/**
 * The operator endpoint of rates (what `npm run operator -- rates …` calls when a server holds the
 * embedded database), beside the kyc ones of server/operator/http.ts and with the same rules:
 * `Authorization: Bearer <operator secret>` (constant-time), `X-Operator` names who acts (audited
 * with " via server"). Routes (JSON):
 *   GET  /api/operator/v1/rates                 every currency's rate and minimums
 *   POST /api/operator/v1/rates/set  { currency, eurRate?, minDeposit?, minPromotion?, minWithdraw? }
 *        (minimums as decimal strings of minor units); refused: 404 unknown currency, 422 invalid.
 */
import { timingSafeEqual } from "node:crypto"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { formatDecimal } from "../../services/money-rules.ts"
import { AppConfig, persistentOperatorSecret } from "../config.ts"
import { OPERATOR_PREFIX } from "../operator/http.ts"
import { type CurrencyRate, Rates } from "./Rates.ts"

export const ratesOperatorEndpoints = [
  { method: "GET", path: `${OPERATOR_PREFIX}/rates` },
  { method: "POST", path: `${OPERATOR_PREFIX}/rates/set` },
] as const

const Minor = Schema.String.check(Schema.isPattern(/^\d{1,38}$/))
const SetPayload = Schema.Struct({
  currency: Schema.String.check(Schema.isPattern(/^[A-Z0-9]{2,10}$/)),
  eurRate: Schema.optional(Schema.String.check(Schema.isMaxLength(40))),
  minDeposit: Schema.optional(Minor),
  minPromotion: Schema.optional(Minor),
  minWithdraw: Schema.optional(Minor),
})
const Actor = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(100),
  Schema.isPattern(/^[^\p{Cc}\p{Cs}]*$/u),
)

/** A rate as JSON for the operator (exact strings). */
export const rateView = (r: CurrencyRate) => ({
  currency: r.currency,
  type: r.type,
  enabled: r.enabled,
  eurRate: formatDecimal(r.eurRate),
  minDeposit: r.minDeposit.toString(),
  minPromotion: r.minPromotion.toString(),
  minWithdraw: r.minWithdraw.toString(),
  updatedAt: r.updatedAt.toISOString(),
  updatedBy: r.updatedBy,
})

const json = (status: number, body: unknown) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { "cache-control": "no-store" } })

const sameSecret = (given: string, expected: string): boolean => {
  const a = Buffer.from(given, "utf8")
  const b = Buffer.from(expected, "utf8")
  return a.length === b.length && timingSafeEqual(a, b)
}

export const ratesOperatorRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const secret = config.operatorSecret ?? persistentOperatorSecret(config.dataDir)
    const rates = yield* Rates

    /** The acting operator, or the refusal to answer. */
    const authenticate = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const header = request.headers.authorization ?? ""
      const token = header.startsWith("Bearer ") ? header.slice(7).trim() : ""
      if (!sameSecret(token, secret)) {
        yield* Effect.logWarning(
          `operator endpoint ${request.method} ${request.url}: wrong or missing secret`,
        )
        return {
          refused: json(401, {
            error: "OperatorUnauthenticated",
            message: "The operator secret is missing or wrong.",
          }),
        }
      }
      const actor = Schema.decodeUnknownOption(Actor)(request.headers["x-operator"])
      if (actor._tag === "None")
        return {
          refused: json(400, {
            error: "OperatorUnnamed",
            message: "Name the operator in the X-Operator header (1 to 100 printable characters).",
          }),
        }
      return { actor: `${actor.value} via server` }
    })

    const list = Effect.gen(function* () {
      const auth = yield* authenticate
      if ("refused" in auth) return auth.refused
      return json(200, { rates: (yield* rates.list()).map(rateView) })
    })

    const set = Effect.gen(function* () {
      const auth = yield* authenticate
      if ("refused" in auth) return auth.refused
      const request = yield* HttpServerRequest.HttpServerRequest
      const raw = yield* request.json.pipe(Effect.option)
      const input = raw._tag === "None" ? raw : Schema.decodeUnknownOption(SetPayload)(raw.value)
      if (input._tag === "None")
        return json(400, { error: "BadRequest", message: "Expected { currency, eurRate?, min…? }." })
      const p = input.value
      const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v))
      return yield* rates
        .set({
          currency: p.currency,
          eurRate: p.eurRate,
          minDeposit: big(p.minDeposit),
          minPromotion: big(p.minPromotion),
          minWithdraw: big(p.minWithdraw),
          actor: auth.actor,
        })
        .pipe(
          Effect.map((r) => json(200, rateView(r))),
          Effect.catchTag("RateChangeRefused", (e) =>
            Effect.succeed(
              json(e.reason === "UnknownCurrency" ? 404 : 422, { error: e.reason, message: e.message }),
            ),
          ),
        )
    })

    return Layer.mergeAll(
      HttpRouter.add("GET", `${OPERATOR_PREFIX}/rates`, list),
      HttpRouter.add("POST", `${OPERATOR_PREFIX}/rates/set`, set),
    )
  }),
)
