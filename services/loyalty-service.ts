/**
 * Loyalty levels (docs/loyalty.md): the schema of `GET …/profile/loyalty-level`, served in the
 * bonuses group (`api/bonus-service.ts`). Points are whole numbers as decimal strings (1 point =
 * 1 EUR of real-money bets times the game's weight); percentages are basis points (1 % = 100).
 * The arithmetic behind them is `loyalty-rules.ts`.
 */
import { Schema } from "effect"

/** A count of points, digits only (a bigint on the server). */
export const Points = Schema.String.check(
  Schema.isPattern(/^(0|[1-9]\d{0,18})$/, { message: "a number of points, digits only" }),
)

/** One level as the perks table shows it. */
export const LoyaltyTier = Schema.Struct({
  level: Schema.Int,
  name: Schema.String,
  /** Reached at this many points. */
  minPoints: Points,
  /** Weekly cashback on net real-money losses, in basis points (500 = 5 %). */
  cashbackBps: Schema.Int,
  /** The daily withdrawal limit times this, in basis points (15000 = ×1.5). */
  withdrawLimitBps: Schema.Int,
  /** What the level gives, in the player's words (from the two figures above, then any others). */
  perks: Schema.Array(Schema.String),
})
export type LoyaltyTier = typeof LoyaltyTier.Type

/** The level after the player's, and what reaching it takes. */
export const NextLoyaltyLevel = Schema.Struct({
  level: Schema.Int,
  name: Schema.String,
  minPoints: Points,
})
export type NextLoyaltyLevel = typeof NextLoyaltyLevel.Type

/** GET …/profile/loyalty-level: the player's level, points and progress, and every level's perks. */
export const LoyaltyLevel = Schema.Struct({
  level: Schema.Int,
  name: Schema.String,
  points: Points,
  /** null at the top level. */
  nextLevel: Schema.NullOr(NextLoyaltyLevel),
  /** Points still missing for the next level (null at the top). */
  pointsToNext: Schema.NullOr(Points),
  /** 0 … 100, rounded down: how far from this level's threshold to the next one's (100 at the top). */
  progressPercent: Schema.Int,
  cashbackBps: Schema.Int,
  withdrawLimitBps: Schema.Int,
  perks: Schema.Array(Schema.String),
  /** Every level, lowest first. */
  levels: Schema.Array(LoyaltyTier),
})
export type LoyaltyLevel = typeof LoyaltyLevel.Type
