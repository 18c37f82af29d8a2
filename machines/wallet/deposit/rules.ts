/**
 * The deposit dialog's own rules, pure (no fetch, no DOM, no clock): which offer a deposit may take
 * and which code it sends, the fields a method still needs, the body and the cookie's copy of a
 * deposit, what a refused call says to the player, and how a restored cookie or a reopened payment
 * sets the order. The machines beside this file name them in guards and actions; the money rules
 * themselves (minimums, the gateway gate, the cascade) are services/money-rules.ts.
 */
import type { EligiblePromotions, Promotion } from "../../../services/bonus-service.ts"
import type { Currencies } from "../../../services/cdn.ts"
import {
  DepositBelowMinimum,
  DepositLimitExceeded,
  PaymentsBlocked,
  ProfileIncomplete,
  Unauthenticated,
} from "../../../services/errors.ts"
import {
  type FiatMethod,
  formatAmount,
  MoneyMessages,
  type PaymentConfig,
  profileRequirementOf,
} from "../../../services/money-rules.ts"
import { profileValuesOf } from "../../../services/profile-form.ts"
import {
  missingFields,
  type ProfileField,
  profileFields,
  requiredProfileFields,
} from "../../../services/profile-rules.ts"
import type { Profile } from "../../../services/profile-service.ts"
import {
  type DepositResponse,
  type GatewaySegment,
  gatewaySegments,
} from "../../../services/wallet-service.ts"
import { declineWords } from "../depositReasons.ts"
import { fiatCurrencies, quoteOf, subunitsOf, type WalletOutput } from "../support.ts"
import { BasicsFailed, type DepositOrder, type JetonTab, type PayBody, type PaymentOutcome } from "./types.ts"

/** The offer a deposit after `completed` deposits may take: its number's deposit bonus. */
export const depositOffer = (offers: EligiblePromotions, completed: number): Promotion | null =>
  offers.promotions.find((p) => p.kind === "deposit_bonus" && p.depositNumber === completed + 1) ?? null

/**
 * The deposit's promotionCoupon (spec): a typed bonus code; else the offer's own code when the
 * player takes it; else none — a bonus is never taken for the player.
 */
export const couponOf = (
  order: Pick<DepositOrder, "couponOpen" | "coupon" | "takeBonus" | "offer">,
): string | null => {
  const typed = order.couponOpen ? order.coupon.trim() : ""
  if (typed !== "") return typed
  return order.takeBonus && order.offer !== null ? order.offer.code : null
}

/** The fields `method` needs that the profile lacks (none without a profile: the server decides). */
export const missingFor = (profile: Profile | null, method: FiatMethod): ReadonlyArray<ProfileField> =>
  profile === null
    ? []
    : missingFields(profileValuesOf(profile), requiredProfileFields(profileRequirementOf(method)))

export const isProfileField = (name: string): name is ProfileField => profileFields.some((f) => f === name)

/** The profile fields a ProfileIncomplete answer names (none for any other error). */
export const askedFields = (error: unknown): ReadonlyArray<ProfileField> =>
  error instanceof ProfileIncomplete ? error.fields.filter(isProfileField) : []

export const isGatewaySegment = (code: string | null): code is GatewaySegment =>
  code !== null && (gatewaySegments as ReadonlyArray<string>).includes(code)

/** A 401 from a call, or from one of the amount step's basics: the session is gone. */
export const endsSession = (error: unknown): boolean =>
  error instanceof Unauthenticated ||
  (error instanceof BasicsFailed && error.cause instanceof Unauthenticated)

/** The amount's own problems (the limit, the minimum): said on the amount step. */
export const isAmountProblem = (error: unknown): boolean =>
  error instanceof DepositLimitExceeded || error instanceof DepositBelowMinimum

/** The message of a refused deposit call, where it is not routed elsewhere. */
export const depositFailureMessage = (currencies: Currencies, error: unknown): string => {
  if (error instanceof DepositLimitExceeded) {
    return /^0*$/.test(error.remaining)
      ? MoneyMessages.limitReached
      : MoneyMessages.limitExceeded(formatAmount(BigInt(error.remaining), 100n))
  }
  if (error instanceof DepositBelowMinimum) {
    const subunits = subunitsOf(currencies, error.currency)
    return subunits === null || !/^\d+$/.test(error.minimum)
      ? error.message
      : MoneyMessages.belowMinimum(formatAmount(BigInt(error.minimum), subunits), error.currency)
  }
  if (error instanceof PaymentsBlocked) return MoneyMessages.blocked
  if (error instanceof ProfileIncomplete) return error.message
  return MoneyMessages.depositFailed
}

/** The body of a deposit call: the amount in minor units, the currency, the coupon, the language. */
export const bodyOf = (order: DepositOrder & { readonly language: string }): PayBody => ({
  amount: (quoteOf(order)?.amount ?? 0n).toString(),
  currency: order.currency,
  promotionCoupon: couponOf(order),
  language: order.language,
})

/** The cookie's copy of the order as typed (its failed gateways kept). */
export const configOf = (
  order: Pick<DepositOrder, "config" | "amountText" | "currency" | "coupon">,
): PaymentConfig => ({
  ...order.config,
  depositAmount: order.amountText,
  currency: order.currency,
  promotionCoupon: order.coupon,
})

/** The provider's page a deposit call answered, for the frame (the modal host opens it). */
export const frameOf = (
  response: DepositResponse,
  currency: string,
): Extract<WalletOutput, { readonly type: "frame" }> => ({
  type: "frame",
  url: response.redirectUrl ?? "",
  depositId: response.depositId,
  currency,
})

/**
 * The order a saved cookie resumes: its amount, currency and coupon, when its currency is still a
 * fiat one of the list; else the order as it is, with the cookie's copy in its currency.
 */
export const restoredOrder = (
  order: DepositOrder,
  saved: PaymentConfig | null,
): Pick<DepositOrder, "config"> &
  Partial<Pick<DepositOrder, "currency" | "amountText" | "coupon" | "couponOpen">> => {
  if (saved === null || !fiatCurrencies(order.currencies).some((c) => c.code === saved.currency)) {
    return { config: { ...order.config, currency: order.currency } }
  }
  return {
    config: saved,
    currency: saved.currency,
    amountText: saved.depositAmount,
    coupon: saved.promotionCoupon,
    couponOpen: saved.promotionCoupon !== "",
  }
}

/** What a reopened dialog takes over from the payment it looked up (nothing when it was not found). */
export interface RetryOrder {
  readonly currency: string
  readonly amountText: string
  readonly minimums: PaymentOutcome["minimums"]
  readonly profile: Profile | null
  readonly method: FiatMethod
  readonly jetonTab: JetonTab
  readonly declineReason: string | null
  readonly config: PaymentConfig
}

/** The payment's currency, amount and method (Jeton Cash as Jeton on its Cash tab), its decline in words. */
export const retryOrderOf = (
  order: DepositOrder & { readonly profile: Profile | null; readonly jetonTab: JetonTab },
  outcome: PaymentOutcome,
): RetryOrder | null => {
  const deposit = outcome.deposit
  if (deposit === null) return null
  const subunits = subunitsOf(order.currencies, deposit.currency)
  const amountText = subunits === null ? order.amountText : formatAmount(BigInt(deposit.amount), subunits)
  return {
    currency: deposit.currency,
    amountText,
    minimums: outcome.minimums,
    profile: outcome.profile ?? order.profile,
    method: deposit.method === "jeton-cash" ? "jeton" : deposit.method,
    jetonTab: deposit.method === "jeton-cash" ? "Cash" : order.jetonTab,
    declineReason: deposit.status === "failed" ? declineWords(deposit.reason) : null,
    config: configOf({ ...order, currency: deposit.currency, amountText }),
  }
}
