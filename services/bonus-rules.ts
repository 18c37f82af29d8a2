/**
 * The arithmetic of deposit bonuses (spec section 9) and the deposit flow's promotion message. The
 * tiers themselves are data — the seeded promotions `welcome-1` … `welcome-5` with their bands
 * (server/db/migrations/0070_bonuses.sql), managed by operators — so what the player is told comes
 * from the offer the server sent, and what the server pays from the same rows, through the same
 * rules below. Pure and exact (bigint).
 *
 * Decisions where the spec is terse (docs/bonuses.md, "Decisions where the spec is terse"):
 * - "up to 16 EUR" / "up to 50 EUR" include the bound: 16.00 EUR is the 50 % band, 16.01 the 125 %.
 * - The cap of 8,000 EUR bounds the BONUS (not the deposit), for every tier.
 * - A deposit below the currency's minPromotion earns no promotion (it still deposits).
 * - Amounts round down: the player is never promised a cent the rule does not give.
 */
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

/** A promotion's bands as the contract carries them (EUR cents as decimal strings). */
export const bandsOf = (
  bands: ReadonlyArray<{
    readonly upToEurCents: string | null
    readonly percent: number
    readonly freeSpins: number
  }>,
): ReadonlyArray<Band> =>
  bands.map((b) => ({
    upToEurCents: b.upToEurCents === null ? null : BigInt(b.upToEurCents),
    percent: b.percent,
    freeSpins: b.freeSpins,
  }))

/** A cap in EUR cents as the promotion message says it: "8,000 EUR", "12.50 EUR". */
export const eurCapText = (eurCents: bigint): string => {
  const whole = (eurCents / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  const cents = eurCents % 100n
  return cents === 0n ? `${whole} EUR` : `${whole}.${cents.toString().padStart(2, "0")} EUR`
}

export interface PromotionInput {
  /** The band of the offer this deposit would take (undefined: no offer, nothing to say). */
  readonly band: Band | undefined
  /** The offer's cap in EUR cents. */
  readonly maxBonusEurCents: bigint
  /** Whether the amount reaches the currency's minPromotion. */
  readonly reachesMinPromotion: boolean
  /** minPromotion as the player reads it ("20.00 EUR"). */
  readonly minPromotionText: string
}

/** The deposit modal's promotion message (spec sections 2 and 9), or null when none is shown. */
export const promotionMessage = (input: PromotionInput): string | null => {
  if (input.band === undefined) return null
  const offer = `${input.band.percent}% bonus + ${input.band.freeSpins} free spins`
  if (!input.reachesMinPromotion) return `Deposit at least ${input.minPromotionText} to get ${offer}`
  return `This deposit gets ${offer} (up to ${eurCapText(input.maxBonusEurCents)})`
}

// ── what the Bonuses tab shows (pure: the view only reads these) ──────────────────────────────────

export const bonusStatusLabels = {
  active: "Active",
  completed: "Converted to cash",
  forfeited: "Forfeited",
  expired: "Expired",
} as const

/** EUR cents as the terms read them ("5.00 EUR"). */
const eurText = (cents: string) => {
  const v = BigInt(cents)
  return `${v / 100n}.${(v % 100n).toString().padStart(2, "0")} EUR`
}

/** Whole days left until `expiresAt` at `now` (ms), a started day counted as a day; never negative. */
export const bonusDaysLeft = (expiresAt: string, now: number): number =>
  Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 86_400_000))

/** Wagering progress in whole percent, rounded down, at most 100 (nothing to wager: 100). */
export const wageringPercent = (wagered: string, required: string): number => {
  const whole = BigInt(required)
  if (whole === 0n) return 100
  const p = (BigInt(wagered) * 100n) / whole
  return Number(p > 100n ? 100n : p)
}

/** A band's free spins after its percent (" (+125 free spins)"), nothing when it has none. */
const spinsText = (spins: number): string => (spins > 0 ? ` (+${spins} free spins)` : "")

/** A promotion's bands as its terms read them: "50 % up to 16.00 EUR (+100 free spins) · …". */
export const offerBandsText = (offer: {
  readonly bands: ReadonlyArray<{
    readonly upToEurCents: string | null
    readonly percent: number
    readonly freeSpins: number
  }>
}): string =>
  offer.bands
    .map((b) =>
      b.upToEurCents === null
        ? `${b.percent} %${offer.bands.length > 1 ? " above that" : ""}${spinsText(b.freeSpins)}`
        : `${b.percent} % up to ${eurText(b.upToEurCents)}${spinsText(b.freeSpins)}`,
    )
    .join(" · ")

/** An offer's key terms in one sentence, as the Bonuses tab lists them. */
export const offerTermsText = (offer: {
  readonly bands: ReadonlyArray<{
    readonly upToEurCents: string | null
    readonly percent: number
    readonly freeSpins: number
  }>
  readonly maxBonusEurCents: string
  readonly wageringMultiple: number
  readonly validDays: number
  readonly maxBetEurCents: string
  readonly code: string | null
}): string =>
  `${offerBandsText(offer)}. Bonus at most ${eurCapText(BigInt(offer.maxBonusEurCents))}; wager it ${offer.wageringMultiple}× ` +
  `within ${offer.validDays} days; bets up to ${eurText(offer.maxBetEurCents)} while it is active.` +
  (offer.code === null ? "" : ` Code: ${offer.code}.`)

/** The free spins of a bonus as its card says them ("Free spins: 87 of 125 left"); null: none to show. */
export const freeSpinsText = (
  freeRounds:
    | { readonly rounds: number; readonly played: number; readonly status: string }
    | null
    | undefined,
): string | null => {
  if (freeRounds === null || freeRounds === undefined) return null
  if (freeRounds.status === "pending" || freeRounds.status === "active")
    return `Free spins: ${freeRounds.rounds - freeRounds.played} of ${freeRounds.rounds} left`
  if (freeRounds.status === "finished") return `Free spins: all ${freeRounds.rounds} played`
  return null
}
