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

/** Whether a promotion runs at `now` (ms) and has grants left in all. */
export const isRunning = (
  p: {
    readonly active: boolean
    readonly startsAt: Date | null
    readonly endsAt: Date | null
    readonly maxUses: number | null
    readonly uses: number
  },
  now: number,
): boolean =>
  p.active &&
  (p.startsAt === null || p.startsAt.getTime() <= now) &&
  (p.endsAt === null || now < p.endsAt.getTime()) &&
  (p.maxUses === null || p.uses < p.maxUses)

/** The band a deposit worth `amountEurCents` falls in: the first whose bound it does not exceed. */
export const bandFor = (bands: ReadonlyArray<Band>, amountEurCents: bigint): Band | undefined =>
  bands.find((b) => b.upToEurCents === null || amountEurCents <= b.upToEurCents)

/**
 * EUR cents in a currency's minor units at `eurRate` (EUR per whole unit, scaled by 10^18), rounded
 * down: a cap converted never grants more than the cap.
 */
export const eurCentsToMinor = (eurCents: bigint, eurRate: bigint, subunitsToUnit: bigint): bigint =>
  eurRate <= 0n ? 0n : (eurCents * subunitsToUnit * 10n ** 18n) / (100n * eurRate)

/**
 * EUR cents in a currency's minor units, rounded UP: a minimum converted (the deposit that unlocks
 * free-spin winnings) is never a cent short of the EUR bound.
 */
export const eurCentsToMinorUp = (eurCents: bigint, eurRate: bigint, subunitsToUnit: bigint): bigint => {
  if (eurRate <= 0n) return 0n
  const numerator = eurCents * subunitsToUnit * 10n ** 18n
  const denominator = 100n * eurRate
  return (numerator + denominator - 1n) / denominator
}

/**
 * What a deposit of `deposit` minor units unlocks of a free-spin wallet holding `winnings`: the
 * winnings up to `cap`, then an extra bonus of `extraPercent` % of the deposit (rounded down) in
 * what the cap leaves; the winnings above the cap go back to the house. Winnings first: they are
 * what the player already won.
 */
export const unlockOf = (input: {
  readonly winnings: bigint
  readonly deposit: bigint
  readonly extraPercent: number
  readonly cap: bigint
}): { readonly winnings: bigint; readonly extra: bigint; readonly returned: bigint } => {
  const winnings = input.winnings < input.cap ? input.winnings : input.cap
  const room = input.cap - winnings
  const rawExtra = (input.deposit * BigInt(input.extraPercent)) / 100n
  const extra = rawExtra < room ? rawExtra : room
  return { winnings, extra, returned: input.winnings - winnings }
}

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

/** A free-spin wallet's state as its card says it. */
export const freeSpinWalletLabels = {
  locked: "Waiting for a deposit",
  unlocked: "Unlocked",
  expired: "Expired",
} as const

/**
 * What unlocks a waiting free-spin wallet, in the card's words. `deposit` and `max` are amounts
 * already written with their currency ("20.00 EUR").
 */
export const winUnlockText = (terms: {
  readonly deposit: string
  readonly extraBonusPercent: number
  readonly max: string
}): string =>
  `Deposit ${terms.deposit} or more and take a bonus to unlock what they win` +
  (terms.extraBonusPercent > 0
    ? `, with an extra ${terms.extraBonusPercent} % of that deposit as bonus money`
    : "") +
  ` (up to ${terms.max} in all); it then joins that bonus and its wagering.`

/** What an unlock moved into the bonus: the winnings and the extra bonus (minor units). */
export const unlockedTotal = (w: {
  readonly unlockedWinnings: string | null
  readonly extraBonus: string | null
}): string => (BigInt(w.unlockedWinnings ?? "0") + BigInt(w.extraBonus ?? "0")).toString()

/**
 * The deposit step's line under "Take the bonus" when free-spin winnings wait in this currency;
 * null when nothing waits. `text` writes minor units with the currency ("3.40 EUR"); `amount` is the
 * typed deposit (null: none yet).
 */
export const unlockHint = (
  wallet: {
    readonly balance?: string | undefined
    readonly winUnlockConfig: {
      readonly depositAmount: string
      readonly extraBonusPercent: number
    } | null
  } | null,
  amount: bigint | null,
  text: (minor: string) => string,
): string | null => {
  const held = BigInt(wallet?.balance ?? "0")
  const config = wallet?.winUnlockConfig ?? null
  if (config === null || held <= 0n) return null
  const extra =
    config.extraBonusPercent > 0 ? `, with an extra ${config.extraBonusPercent} % of this deposit` : ""
  return amount !== null && amount >= BigInt(config.depositAmount)
    ? `Taking the bonus also unlocks the ${text(held.toString())} your free spins won${extra}.`
    : `A deposit of ${text(config.depositAmount)} or more taking the bonus also unlocks the ${text(held.toString())} your free spins won${extra}.`
}
