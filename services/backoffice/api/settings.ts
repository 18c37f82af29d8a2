/**
 * The casino's settings: restricted countries (`countries.manage`), rates and minimums
 * (`rates.manage`), the games' lobby settings (`games.manage`), promotions and coupons
 * (`promotions.manage`). Every change writes one audit row with the object before and after.
 */
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Audits, needs, Requires } from "../access.ts"
import { BadInput, Conflict, NotFound } from "../errors.ts"
import { BackofficeGuard } from "../middleware.ts"
import {
  CountryParams,
  CountryPayload,
  CreatePromotionPayload,
  GameParams,
  GamePatch,
  GameSetting,
  GameSettingList,
  Promotion,
  PromotionChanges,
  PromotionCreated,
  PromotionList,
  PromotionParams,
  Rate,
  RateList,
  RateParams,
  RatePayload,
  RestrictedCountryList,
  SetActivePayload,
} from "../settings.ts"

export class SettingsApi extends HttpApiGroup.make("settings")
  .add(
    HttpApiEndpoint.get("listCountries", "/settings/countries", { success: RestrictedCountryList }).annotate(
      Requires,
      needs("countries.manage"),
    ),
    HttpApiEndpoint.post("addCountry", "/settings/countries", {
      payload: CountryPayload,
      success: RestrictedCountryList,
      error: [NotFound, Conflict],
    })
      .annotate(Requires, needs("countries.manage"))
      .annotate(Audits, ["countries.add"]),
    HttpApiEndpoint.delete("removeCountry", "/settings/countries/:code", {
      params: CountryParams,
      success: RestrictedCountryList,
      error: NotFound,
    })
      .annotate(Requires, needs("countries.manage"))
      .annotate(Audits, ["countries.remove"]),
    HttpApiEndpoint.get("listRates", "/settings/rates", { success: RateList }).annotate(
      Requires,
      needs("rates.manage"),
    ),
    HttpApiEndpoint.put("setRate", "/settings/rates/:currency", {
      params: RateParams,
      payload: RatePayload,
      success: Rate,
      error: [BadInput, NotFound],
    })
      .annotate(Requires, needs("rates.manage"))
      .annotate(Audits, ["rates.set"]),
    HttpApiEndpoint.get("listGames", "/settings/games", { success: GameSettingList }).annotate(
      Requires,
      needs("games.manage"),
    ),
    HttpApiEndpoint.patch("updateGame", "/settings/games/:id", {
      params: GameParams,
      payload: GamePatch,
      success: GameSetting,
      error: [BadInput, NotFound],
    })
      .annotate(Requires, needs("games.manage"))
      .annotate(Audits, ["games.update"]),
    HttpApiEndpoint.get("listPromotions", "/settings/promotions", { success: PromotionList }).annotate(
      Requires,
      needs("promotions.manage"),
    ),
    HttpApiEndpoint.get("showPromotion", "/settings/promotions/:id", {
      params: PromotionParams,
      success: Promotion,
      error: NotFound,
    }).annotate(Requires, needs("promotions.manage")),
    HttpApiEndpoint.post("createPromotion", "/settings/promotions", {
      payload: CreatePromotionPayload,
      success: PromotionCreated,
      error: [BadInput, NotFound, Conflict],
    })
      .annotate(Requires, needs("promotions.manage"))
      .annotate(Audits, ["promotions.create"]),
    HttpApiEndpoint.patch("updatePromotion", "/settings/promotions/:id", {
      params: PromotionParams,
      payload: PromotionChanges,
      success: Promotion,
      error: [BadInput, NotFound, Conflict],
    })
      .annotate(Requires, needs("promotions.manage"))
      .annotate(Audits, ["promotions.update"]),
    HttpApiEndpoint.post("setPromotionActive", "/settings/promotions/:id/active", {
      params: PromotionParams,
      payload: SetActivePayload,
      success: Promotion,
      error: [NotFound, Conflict],
    })
      .annotate(Requires, needs("promotions.manage"))
      .annotate(Audits, ["promotions.activate", "promotions.deactivate"]),
  )
  .middleware(BackofficeGuard)
  .prefix("/api/backoffice/v1") {}
