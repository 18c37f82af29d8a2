/**
 * Bonuses: the schemas of the promotion, coupon and loyalty calls (spec section 7). The groups are
 * `api/bonus-service.ts`; the tiers of section 9 are `bonus-rules.ts`. Amounts are integer minor
 * units as decimal strings; EUR figures of the terms are EUR cents.
 */
import { Schema } from "effect"
import { Amount, CurrencyCode } from "./wallet-service.ts"

/** A promotion's id, as operators name it ("welcome-1"). */
export const PromotionId = Schema.String.check(
  Schema.isPattern(/^[a-z0-9][a-z0-9-]{0,63}$/, { message: "a promotion id, e.g. welcome-1" }),
)

/** A bonus code as a player types it: letters, digits, - and _, 3 to 32 (case does not matter). */
export const CouponCode = Schema.String.check(
  Schema.isPattern(/^\s*[A-Za-z0-9_-]{3,32}\s*$/, { message: "a bonus code: 3 to 32 letters or digits" }),
)

export const promotionKinds = ["deposit_bonus", "free_spins"] as const

/** One band of a deposit bonus: deposits up to `upToEurCents` (inclusive; null: any above). */
export const PromotionBand = Schema.Struct({
  upToEurCents: Schema.NullOr(Amount),
  percent: Schema.Int,
  freeSpins: Schema.Int,
})
export type PromotionBand = typeof PromotionBand.Type

/** An offer with the terms the player reads before taking it. */
export const Promotion = Schema.Struct({
  id: PromotionId,
  kind: Schema.Literals(promotionKinds),
  name: Schema.String,
  description: Schema.String,
  /** The code that names it at a deposit (the deposit's promotionCoupon); null: by rule only. */
  code: Schema.NullOr(Schema.String),
  /** Which deposit it rewards (1 = the first); null: any. */
  depositNumber: Schema.NullOr(Schema.Int),
  bands: Schema.Array(PromotionBand),
  maxBonusEurCents: Amount,
  wageringMultiple: Schema.Int,
  maxBetEurCents: Amount,
  validDays: Schema.Int,
  freeSpinGame: Schema.NullOr(Schema.String),
  /**
   * A free-spins promotion: the smallest deposit (EUR cents) that unlocks what the spins won, and
   * the extra bonus (percent of that deposit) it earns. Absent for deposit bonuses.
   */
  unlockDepositEurCents: Schema.optional(Schema.NullOr(Amount)),
  extraBonusPercent: Schema.optional(Schema.Int),
  /** null: every currency. */
  currencies: Schema.NullOr(Schema.Array(CurrencyCode)),
  endsAt: Schema.NullOr(Schema.String),
  /** This player's answer to the offer (POST …/profile/promotion); null: not answered. */
  accepted: Schema.NullOr(Schema.Boolean),
})
export type Promotion = typeof Promotion.Type

/** GET …/profile/promotion-eligible: what this player may take now. */
export const EligiblePromotions = Schema.Struct({
  /** The player opted out of offers (DELETE …/promotion-eligible): none is offered. */
  optedOut: Schema.Boolean,
  promotions: Schema.Array(Promotion),
})
export type EligiblePromotions = typeof EligiblePromotions.Type

export const bonusStatuses = ["active", "completed", "forfeited", "expired"] as const
export type BonusStatus = (typeof bonusStatuses)[number]

export const freeRoundStatuses = [
  "pending",
  "active",
  "finished",
  "cancelling",
  "cancelled",
  "expired",
] as const

/**
 * The free spins that came with a bonus: rounds of one game at one bet, played on the game's page
 * ("Free spins: 87 of 125 left"); their winnings are bonus money under the bonus's wagering.
 */
export const FreeRounds = Schema.Struct({
  gameId: Schema.String,
  gameName: Schema.String,
  rounds: Schema.Int,
  played: Schema.Int,
  /** The bet of every spin and what they won so far, minor units of the bonus's currency. */
  bet: Amount,
  won: Amount,
  /** pending: on its way to the game's provider; active: playable; the rest: no more to play. */
  status: Schema.Literals(freeRoundStatuses),
})
export type FreeRounds = typeof FreeRounds.Type

/** A bonus the player holds or held, with its progress. */
export const PlayerBonus = Schema.Struct({
  id: Schema.String,
  promotionId: PromotionId,
  name: Schema.String,
  status: Schema.Literals(bonusStatuses),
  currency: CurrencyCode,
  /** The bonus granted, in the currency's minor units. */
  amount: Amount,
  percent: Schema.Int,
  freeSpins: Schema.Int,
  /** Bets (× their game's weight) still to place before it converts, and placed so far. */
  wageringRequired: Amount,
  wagered: Amount,
  /** The largest bet while it is active, in the currency's minor units. */
  maxBet: Amount,
  /** The wallet's bonus balance now (0 once ended): what a forfeit gives up. */
  balance: Amount,
  expiresAt: Schema.String,
  createdAt: Schema.String,
  endedAt: Schema.NullOr(Schema.String),
  /** What the end moved: converted to cash, or returned to the house. */
  endedAmount: Schema.NullOr(Amount),
  /** Its free spins, when it came with some the player can play. */
  freeRounds: Schema.optional(Schema.NullOr(FreeRounds)),
})
export type PlayerBonus = typeof PlayerBonus.Type

/**
 * What deposit unlocks a free-spin wallet's winnings (spec section 3, the fund entry's
 * `freeSpinWallet.winUnlockConfig`): at least `depositAmount` (minor units of `depositCurrency`,
 * the EUR bound converted at today's rate, rounded up) — `depositAmountInEur` in EUR cents — taking
 * a bonus; that deposit also earns `extraBonusPercent` % of itself as bonus money.
 */
export const WinUnlockConfig = Schema.Struct({
  depositAmount: Schema.String,
  depositAmountInEur: Schema.String,
  depositCurrency: Schema.String,
  extraBonusPercent: Schema.Int,
})
export type WinUnlockConfig = typeof WinUnlockConfig.Type

export const freeSpinWalletStatuses = ["locked", "unlocked", "expired"] as const

/**
 * Free spins granted without a deposit and what they won, held apart (neither playable nor
 * withdrawable) until a deposit meeting `winUnlockConfig` moves them into its bonus.
 */
export const FreeSpinWallet = Schema.Struct({
  id: Schema.String,
  promotionId: PromotionId,
  name: Schema.String,
  currency: CurrencyCode,
  /** locked: waiting for a deposit; unlocked: moved into a bonus; expired: time ran out first. */
  status: Schema.Literals(freeSpinWalletStatuses),
  /** The winnings held now (0 once unlocked or expired), minor units. */
  balance: Amount,
  winUnlockConfig: WinUnlockConfig,
  /** The most that is unlocked (winnings and extra together), minor units at today's rate. */
  maxUnlock: Amount,
  /** What the unlock moved into the bonus: the winnings (capped) and the extra bonus. */
  unlockedWinnings: Schema.NullOr(Amount),
  extraBonus: Schema.NullOr(Amount),
  /** The bonus they joined. */
  bonusId: Schema.NullOr(Schema.String),
  freeRounds: Schema.NullOr(FreeRounds),
  expiresAt: Schema.String,
  createdAt: Schema.String,
})
export type FreeSpinWallet = typeof FreeSpinWallet.Type

/** GET …/profile/promotion: mine, newest first. */
export const MyPromotions = Schema.Struct({
  bonuses: Schema.Array(PlayerBonus),
  /** Free spins granted without a deposit, newest first. */
  freeSpinWallets: Schema.optional(Schema.Array(FreeSpinWallet)),
})
export type MyPromotions = typeof MyPromotions.Type

/** POST …/profile/promotion: accept or decline an offer. */
export const ChoosePromotionPayload = Schema.Struct({ id: PromotionId, accepted: Schema.Boolean })
export type ChoosePromotionPayload = typeof ChoosePromotionPayload.Type
export const PromotionChoice = Schema.Struct({ id: PromotionId, accepted: Schema.Boolean })
export type PromotionChoice = typeof PromotionChoice.Type

/** DELETE …/profile/promotion: forfeit an active bonus (its id). */
export const ForfeitPayload = Schema.Struct({ id: Schema.String })
export type ForfeitPayload = typeof ForfeitPayload.Type

/** POST /user-service/api/v1/promotion/coupon: check a code. */
export const CouponCheckPayload = Schema.Struct({ couponName: CouponCode })
export type CouponCheckPayload = typeof CouponCheckPayload.Type

/** What a valid code grants: the promotion it names. */
export const CouponCheck = Schema.Struct({ couponName: Schema.String, promotion: Promotion })
export type CouponCheck = typeof CouponCheck.Type

/** PUT …/profile/redeem-promotion-coupon. */
export const RedeemCouponPayload = Schema.Struct({ promotionCoupon: CouponCode })
export type RedeemCouponPayload = typeof RedeemCouponPayload.Type
