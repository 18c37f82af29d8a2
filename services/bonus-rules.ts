/**
 * The bonus tiers of spec section 9, by deposit count: which promotion a deposit would earn, and the
 * deposit flow's promotion message, and the arithmetic of paying a deposit bonus (band, cap in the
 * deposit's currency). Pure and exact (bigint). What the player is told and what the server pays
 * (server/bonuses/Bonuses.ts) come from the same rules.
 *
 * Decisions where the spec is terse (docs/bonuses.md, "Decisions where the spec is terse"):
 * - "up to 16 EUR" / "up to 50 EUR" include the bound: 16.00 EUR is the 50 % tier, 16.01 the 125 %.
 * - The cap of 8,000 EUR bounds the BONUS (not the deposit), for every tier.
 * - A deposit below the currency's minPromotion earns no promotion (it still deposits).
 * - "limit 20" of the later tiers is kept as the tier's `limit` (the most free spins one bet may
 *   trigger… the spec does not say): carried as data, not interpreted here.
 */
export interface BonusTier {
  /** 1-based deposit number this tier applies to. */
  readonly deposit: number
  readonly percent: number
  readonly freeSpins: number
  /** The most the bonus can be, in EUR cents. */
  readonly maxBonusEurCents: bigint
  readonly limit: number | null
}

const MAX_BONUS = 800_000n

/** The deposit count from which no promotion is shown (spec: "fewer than 5 deposits"). */
export const PROMOTION_DEPOSIT_COUNT = 5

/** First-deposit tiers by amount: up to 16 EUR, up to 50 EUR, above. */
export const firstDepositBands: ReadonlyArray<{
  readonly upToEurCents: bigint | null
  readonly tier: BonusTier
}> = [
  {
    upToEurCents: 1_600n,
    tier: { deposit: 1, percent: 50, freeSpins: 100, maxBonusEurCents: MAX_BONUS, limit: null },
  },
  {
    upToEurCents: 5_000n,
    tier: { deposit: 1, percent: 125, freeSpins: 125, maxBonusEurCents: MAX_BONUS, limit: null },
  },
  {
    upToEurCents: null,
    tier: { deposit: 1, percent: 200, freeSpins: 150, maxBonusEurCents: MAX_BONUS, limit: null },
  },
]

/** Second to fifth deposits. */
export const laterTiers: ReadonlyArray<BonusTier> = [
  { deposit: 2, percent: 150, freeSpins: 100, maxBonusEurCents: MAX_BONUS, limit: 20 },
  { deposit: 3, percent: 100, freeSpins: 100, maxBonusEurCents: MAX_BONUS, limit: 20 },
  { deposit: 4, percent: 100, freeSpins: 100, maxBonusEurCents: MAX_BONUS, limit: 20 },
  { deposit: 5, percent: 200, freeSpins: 100, maxBonusEurCents: MAX_BONUS, limit: 20 },
]

/** Whether promotions are shown at all for a player with `depositCount` completed deposits. */
export const showsPromotions = (depositCount: number): boolean =>
  depositCount >= 0 && depositCount < PROMOTION_DEPOSIT_COUNT

/**
 * The tier the NEXT deposit would earn: `depositCount` completed deposits so far, the new deposit
 * worth `amountEurCents`. null: no promotion (5 or more deposits).
 */
export const tierFor = (depositCount: number, amountEurCents: bigint): BonusTier | null => {
  if (!showsPromotions(depositCount)) return null
  if (depositCount === 0) {
    const band = firstDepositBands.find((b) => b.upToEurCents === null || amountEurCents <= b.upToEurCents)
    return band?.tier ?? null
  }
  return laterTiers[depositCount - 1] ?? null
}

/** The bonus a deposit worth `amountEurCents` earns under `tier`, in EUR cents, capped. */
export const bonusEurCents = (tier: BonusTier, amountEurCents: bigint): bigint => {
  const raw = (amountEurCents * BigInt(tier.percent)) / 100n
  return raw > tier.maxBonusEurCents ? tier.maxBonusEurCents : raw
}

export interface PromotionInput {
  readonly depositCount: number
  /** The deposit in EUR cents (0 when nothing valid is typed yet). */
  readonly amountEurCents: bigint
  /** Whether the amount reaches the currency's minPromotion. */
  readonly reachesMinPromotion: boolean
  /** minPromotion as the player reads it ("20.00 EUR"). */
  readonly minPromotionText: string
}

/** The deposit modal's promotion message (spec section 2), or null when none is shown. */
export const promotionMessage = (input: PromotionInput): string | null => {
  const tier = tierFor(input.depositCount, input.amountEurCents)
  if (tier === null) return null
  const offer = `${tier.percent}% bonus + ${tier.freeSpins} free spins`
  if (!input.reachesMinPromotion) return `Deposit at least ${input.minPromotionText} to get ${offer}`
  return `This deposit gets ${offer} (up to 8,000 EUR)`
}

// ── paying a deposit bonus (server/bonuses/Bonuses.ts) ─────────────────────────────────────────────

/** A deposit bonus band as operators set it: deposits up to `upToEurCents` (inclusive; null: above). */
export interface Band {
  readonly upToEurCents: bigint | null
  readonly percent: number
  readonly freeSpins: number
}

/** The band a deposit worth `amountEurCents` falls in: the first whose bound it does not exceed. */
export const bandFor = (bands: ReadonlyArray<Band>, amountEurCents: bigint): Band | undefined =>
  bands.find((b) => b.upToEurCents === null || amountEurCents <= b.upToEurCents)

/**
 * EUR cents in a currency's minor units at `eurRate` (EUR per whole unit, scaled by 10^18), rounded
 * down: a cap converted never grants more than the cap.
 */
export const eurCentsToMinor = (eurCents: bigint, eurRate: bigint, subunitsToUnit: bigint): bigint =>
  eurRate <= 0n ? 0n : (eurCents * subunitsToUnit * 10n ** 18n) / (100n * eurRate)

/** The bonus of a deposit of `amount` minor units at `percent`, rounded down, at most `cap`. */
export const depositBonusOf = (amount: bigint, percent: number, cap: bigint): bigint => {
  const raw = (amount * BigInt(percent)) / 100n
  return raw > cap ? cap : raw
}
