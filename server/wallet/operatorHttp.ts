/**
 * The operator endpoint of rates (what `npm run operator -- rates …` calls when a server holds the
 * embedded database), beside the kyc ones of server/operator/http.ts and with the same rules:
 * `Authorization: Bearer <operator secret>` (constant-time), `X-Operator` names who acts (audited
 * with " via server"). Routes (JSON):
 *   GET  /api/operator/v1/rates                 every currency's rate and minimums
 *   POST /api/operator/v1/rates/set  { currency, eurRate?, minDeposit?, minPromotion?, minWithdraw? }
 *        (minimums as decimal strings of minor units); refused: 404 unknown currency, 422 invalid.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { formatDecimal } from "../../services/money-rules.ts"
import { AppConfig } from "../config.ts"
import {
  operatorJson as json,
  OPERATOR_PREFIX,
  operatorAuthentication,
  refusalResponse,
} from "../operator/endpoint.ts"
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

export const ratesOperatorRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const rates = yield* Rates

    /** The acting operator, or the refusal to answer. */
    const authenticate = operatorAuthentication(config).pipe(
      Effect.map((actor) => ({ actor })),
      Effect.catchTag("OperatorRefused", (e) => Effect.succeed({ refused: refusalResponse(e) })),
    )

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
