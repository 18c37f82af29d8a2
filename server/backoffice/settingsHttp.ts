/**
 * Handlers of the `settings` group (services/backoffice/api/settings.ts): restricted countries and
 * games through `Settings` (./Settings.ts), rates through `Rates` and promotions through
 * `Promotions` — the services the operator CLI's endpoints call — with the signed-in operator as
 * the actor of the one audit row each change writes.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BackofficeApi } from "../../services/backoffice/api.ts"
import { BadInput, Conflict, NotFound } from "../../services/backoffice/errors.ts"
import { CurrentOperator } from "../../services/backoffice/middleware.ts"
import { formatDecimal } from "../../services/money-rules.ts"
import { type PromotionChangeRefused, Promotions } from "../bonuses/Promotions.ts"
import { type CurrencyRate, type RateChangeRefused, Rates } from "../wallet/Rates.ts"
import { actorOf } from "./Backoffice.ts"
import { Settings } from "./Settings.ts"

/** A rate as the contract answers it: the exact decimal as text, minor units as digits. */
const rateView = (r: CurrencyRate) => ({
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

const operator = Effect.map(CurrentOperator, actorOf)

const rateRefusal = (e: RateChangeRefused) =>
  e.reason === "UnknownCurrency" ? new NotFound({ message: e.message }) : new BadInput({ message: e.message })

/** The command line's refusal as the contract's: unknown → 404, a clash → 409, a bad value → 400. */
const promotionRefusal = (e: PromotionChangeRefused) => {
  switch (e.reason) {
    case "UnknownPromotion":
      return new NotFound({ message: e.message })
    case "DuplicateId":
    case "DuplicateCode":
    case "NothingToChange":
      return new Conflict({ message: e.message, reason: e.reason })
    default:
      return new BadInput({ message: e.message })
  }
}

export const SettingsHandlers = HttpApiBuilder.group(
  BackofficeApi,
  "settings",
  Effect.fn(function* (handlers) {
    const settings = yield* Settings
    const rates = yield* Rates
    const promotions = yield* Promotions
    const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v))
    return handlers
      .handle("listCountries", () => Effect.map(settings.countries(), (countries) => ({ countries })))
      .handle("addCountry", ({ payload }) =>
        Effect.gen(function* () {
          return { countries: yield* settings.addCountry(yield* operator, payload.code) }
        }),
      )
      .handle("removeCountry", ({ params }) =>
        Effect.gen(function* () {
          return { countries: yield* settings.removeCountry(yield* operator, params.code) }
        }),
      )
      .handle("listRates", () => Effect.map(rates.list(), (list) => ({ rates: list.map(rateView) })))
      .handle("setRate", ({ params, payload }) =>
        Effect.gen(function* () {
          const rate = yield* rates
            .set({
              currency: params.currency,
              eurRate: payload.eurRate,
              minDeposit: big(payload.minDeposit),
              minPromotion: big(payload.minPromotion),
              minWithdraw: big(payload.minWithdraw),
              actor: yield* operator,
            })
            .pipe(Effect.mapError(rateRefusal))
          return rateView(rate)
        }),
      )
      .handle("listGames", () => Effect.map(settings.games(), (games) => ({ games })))
      .handle("updateGame", ({ params, payload }) =>
        Effect.gen(function* () {
          return yield* settings.updateGame(yield* operator, params.id, payload)
        }),
      )
      .handle("listPromotions", () => Effect.map(promotions.list(), (list) => ({ promotions: list })))
      .handle("showPromotion", ({ params }) =>
        promotions.show(params.id).pipe(Effect.mapError((e) => new NotFound({ message: e.message }))),
      )
      .handle("createPromotion", ({ payload }) =>
        Effect.gen(function* () {
          return yield* promotions.create(payload, yield* operator).pipe(Effect.mapError(promotionRefusal))
        }),
      )
      .handle("updatePromotion", ({ params, payload }) =>
        Effect.gen(function* () {
          return yield* promotions
            .update(params.id, payload, yield* operator)
            .pipe(Effect.mapError(promotionRefusal))
        }),
      )
      .handle("setPromotionActive", ({ params, payload }) =>
        Effect.gen(function* () {
          return yield* promotions
            .setActive(params.id, payload.active, yield* operator)
            .pipe(
              Effect.mapError((e) =>
                e.reason === "UnknownPromotion"
                  ? new NotFound({ message: e.message })
                  : new Conflict({ message: e.message, reason: e.reason }),
              ),
            )
        }),
      )
  }),
)
