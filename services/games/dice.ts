/**
 * Dice: one float → a roll 0.00–99.99 (10,000 equally likely values, roll = ⌊f × 10,000⌋ / 100).
 * The player bets the roll lands UNDER or OVER a target; chance = winning rolls / 100 (%), and the
 * payout multiplier = (100 − edge) / chance, floored to 1/10,000 (edge 1 % → 99 / chance).
 */
import type { Distribution } from "./outcome.ts"
import { isInt, isRecord, type OptionsError, type Outcome, pick } from "./outcome.ts"

export interface DiceParams {
  /** House edge in basis points of 100 % (100 = 1 %). */
  readonly edgeBp: number
}

export interface DiceOptions {
  /** Target in hundredths (5050 = 50.50). */
  readonly target: number
  readonly direction: "over" | "under"
}

/** What the page sends first (wire form: target in percent). */
export const diceDefaultOptions = { target: 50, direction: "under" } as const

/** Chances the game offers: 1.00 % to 98.00 % (the multiplier from 1.0102× to 99×). */
export const DICE_MIN_WINNING = 100
export const DICE_MAX_WINNING = 9800

export const diceWinningRolls = (o: DiceOptions): number =>
  o.direction === "under" ? o.target : 9999 - o.target

export const diceMultiplier = (p: DiceParams, o: DiceOptions): bigint =>
  // (100 % − edge) / (winning/10,000) in 1/10,000: (10,000 − edgeBp) × 10,000 / winning.
  (BigInt(10_000 - p.edgeBp) * 10_000n) / BigInt(diceWinningRolls(o))

/** Options arrive as { target: 49.5 (percent, 2 decimals) | "49.50", direction: "over" | "under" }. */
export const decodeDiceOptions = (raw: unknown): DiceOptions | OptionsError => {
  if (!isRecord(raw)) return { error: "dice options must be an object { target, direction }" }
  const direction = raw.direction
  if (direction !== "over" && direction !== "under") return { error: 'direction must be "over" or "under"' }
  const t = typeof raw.target === "string" ? Number(raw.target) : raw.target
  if (typeof t !== "number" || !Number.isFinite(t)) return { error: "target must be a number 0.00–99.99" }
  const hundredths = Math.round(t * 100)
  if (Math.abs(hundredths - t * 100) > 1e-6) return { error: "target has at most 2 decimals" }
  if (!isInt(hundredths) || hundredths < 0 || hundredths > 9999) return { error: "target must be 0.00–99.99" }
  const options: DiceOptions = { target: hundredths, direction }
  const winning = diceWinningRolls(options)
  if (winning < DICE_MIN_WINNING || winning > DICE_MAX_WINNING) {
    return { error: "the chance to win must be between 1.00 % and 98.00 %" }
  }
  return options
}

export const playDice = (p: DiceParams, o: DiceOptions, floats: ReadonlyArray<number>): Outcome => {
  const roll = pick(floats[0] ?? 0, 10_000)
  const win = o.direction === "under" ? roll < o.target : roll > o.target
  const multiplier = diceMultiplier(p, o)
  return {
    multiplier: win ? multiplier : 0n,
    detail: {
      roll: roll / 100,
      target: o.target / 100,
      direction: o.direction,
      chance: diceWinningRolls(o) / 100,
      win,
      payout: multiplier.toString(),
    },
  }
}

/** The exact distribution of the multiplier: weights over 10,000 equally likely rolls. */
export const diceDistribution = (p: DiceParams, o: DiceOptions): Distribution => {
  const winning = BigInt(diceWinningRolls(o))
  return { total: 10_000n, outcomes: [{ weight: winning, multiplier: diceMultiplier(p, o) }] }
}
