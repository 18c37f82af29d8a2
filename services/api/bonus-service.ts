/**
 * Bonuses (spec section 7), paths verbatim: the offers a player may take, the bonuses they hold,
 * accepting, declining and forfeiting, bonus codes, the loyalty level (docs/loyalty.md). The coupon
 * check sits under user-service (a visitor registering may check a code), the rest under the
 * player's profile. The server implements these groups (server/bonuses/http.ts, the loyalty call in
 * server/loyalty/http.ts); the browser's clients are generated from them.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  ChoosePromotionPayload,
  CouponCheck,
  CouponCheckPayload,
  EligiblePromotions,
  ForfeitPayload,
  MyPromotions,
  PlayerBonus,
  PromotionChoice,
  RedeemCouponPayload,
} from "../bonus-service.ts"
import {
  CouponRejected,
  PromotionNotFound,
  PromotionUnavailable,
  RateLimited,
  Unauthenticated,
} from "../errors.ts"
import { LoyaltyLevel } from "../loyalty-service.ts"

export class BonusServiceApi extends HttpApiGroup.make("bonuses")
  .add(
    HttpApiEndpoint.get("eligible", "/profile/promotion-eligible", {
      success: EligiblePromotions,
      error: [Unauthenticated],
    }),
    // Opts out of offers: none is offered (nor granted by rule) until the player accepts one again.
    HttpApiEndpoint.delete("optOut", "/profile/promotion-eligible", {
      success: EligiblePromotions,
      error: [Unauthenticated],
    }),
    HttpApiEndpoint.get("mine", "/profile/promotion", { success: MyPromotions, error: [Unauthenticated] }),
    HttpApiEndpoint.post("choose", "/profile/promotion", {
      payload: ChoosePromotionPayload,
      success: PromotionChoice,
      error: [Unauthenticated, PromotionNotFound, PromotionUnavailable],
    }),
    HttpApiEndpoint.delete("forfeit", "/profile/promotion", {
      payload: ForfeitPayload,
      success: PlayerBonus,
      error: [Unauthenticated, PromotionNotFound],
    }),
    HttpApiEndpoint.put("redeemCoupon", "/profile/redeem-promotion-coupon", {
      payload: RedeemCouponPayload,
      success: CouponCheck,
      error: [Unauthenticated, CouponRejected, RateLimited],
    }),
    // The player's loyalty level, points, progress to the next level and every level's perks.
    HttpApiEndpoint.get("loyaltyLevel", "/profile/loyalty-level", {
      success: LoyaltyLevel,
      error: [Unauthenticated],
    }),
  )
  .prefix("/profile-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "profile-service: bonuses",
      description:
        "Offers, the player's bonuses with their wagering progress, forfeits, bonus codes and the loyalty level.",
    }),
  ) {}

export class CouponServiceApi extends HttpApiGroup.make("coupons")
  .add(
    HttpApiEndpoint.post("checkCoupon", "/promotion/coupon", {
      payload: CouponCheckPayload,
      success: CouponCheck,
      error: [CouponRejected, RateLimited],
    }),
  )
  .prefix("/user-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "user-service: bonus codes",
      description: "What a bonus code grants, or why it grants nothing (a visitor may ask).",
    }),
  ) {}
