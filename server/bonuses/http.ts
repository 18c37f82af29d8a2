/**
 * The bonus groups (services/api/bonus-service.ts): every profile call starts from the request's
 * session (401 without one) and acts on that player only. The coupon check needs no session (a
 * visitor registering may check a code); with one, it also says whether that player may use it.
 * Both coupon calls are rate-limited per client IP: a code must not be found by trying them all.
 */
import { Effect, Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CasinoApi } from "../../services/api.ts"
import { AppConfig } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import { loyaltyLevelHandler } from "../loyalty/http.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { requireSession } from "../users/auth.ts"
import { readCookie, SESSION_COOKIE } from "../users/cookies.ts"
import { Sessions } from "../users/Sessions.ts"
import { Bonuses } from "./Bonuses.ts"

/** Counts one coupon call of the request's client IP (both coupon calls share the budget). */
const couponLimit = Effect.gen(function* () {
  const limiter = yield* RateLimiter
  const geo = yield* Geo
  const config = yield* AppConfig
  return (request: HttpServerRequest.HttpServerRequest) =>
    limiter.consume(`coupon:ip:${geo.clientIp(request)}`, config.rateLimits.couponPerIp)
})

export const BonusHandlers = HttpApiBuilder.group(
  CasinoApi,
  "bonuses",
  Effect.fn(function* (handlers) {
    const sessions = yield* Sessions
    const bonuses = yield* Bonuses
    const limitCoupons = yield* couponLimit
    const loyaltyLevel = yield* loyaltyLevelHandler
    return handlers
      .handle("eligible", ({ request }) =>
        Effect.flatMap(requireSession(sessions, request), (s) => bonuses.eligible(s.user.id)),
      )
      .handle("optOut", ({ request }) =>
        Effect.flatMap(requireSession(sessions, request), (s) => bonuses.optOut(s.user.id)),
      )
      .handle("mine", ({ request }) =>
        Effect.flatMap(requireSession(sessions, request), (s) => bonuses.mine(s.user.id)),
      )
      .handle("choose", ({ request, payload }) =>
        Effect.flatMap(requireSession(sessions, request), (s) => bonuses.choose(s.user.id, payload)),
      )
      .handle("forfeit", ({ request, payload }) =>
        Effect.flatMap(requireSession(sessions, request), (s) => bonuses.forfeit(s.user.id, payload.id)),
      )
      .handle("redeemCoupon", ({ request, payload }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          yield* limitCoupons(request)
          return yield* bonuses.redeemCoupon(session.user.id, payload.promotionCoupon)
        }),
      )
      .handle("loyaltyLevel", loyaltyLevel)
  }),
)

/** The session's player, if the request carries one (the coupon check works without). */
const optionalPlayer = (sessions: Sessions["Service"], request: HttpServerRequest.HttpServerRequest) =>
  sessions
    .resolve(readCookie(request, SESSION_COOKIE))
    .pipe(Effect.map(Option.match({ onNone: () => null, onSome: (s) => s.user.id })))

export const CouponHandlers = HttpApiBuilder.group(
  CasinoApi,
  "coupons",
  Effect.fn(function* (handlers) {
    const sessions = yield* Sessions
    const bonuses = yield* Bonuses
    const limitCoupons = yield* couponLimit
    return handlers.handle("checkCoupon", ({ request, payload }) =>
      Effect.gen(function* () {
        yield* limitCoupons(request)
        return yield* bonuses.checkCoupon(payload.couponName, yield* optionalPlayer(sessions, request))
      }),
    )
  }),
)
