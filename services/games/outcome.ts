/** What every game kind answers for a round, and small helpers shared by the kinds. */

/** JSON-safe detail for the page and the verifier (no bigint, no undefined). */
export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

export interface Outcome {
  /** The payout in 1/10,000 of the bet (10000n = the stake back); win = bet × multiplier ÷ 10,000, floored. */
  readonly multiplier: bigint
  readonly detail: { readonly [key: string]: Json }
}

export interface OptionsError {
  readonly error: string
}

export const isOptionsError = (value: unknown): value is OptionsError =>
  typeof value === "object" && value !== null && "error" in value && typeof value.error === "string"

/** 1.00× in basis points of the bet. */
export const ONE_X = 10_000n

export const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

export const isInt = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value)

/** A basis-point multiplier as a decimal text, "1.9800". */
export const formatMultiplier = (bp: bigint): string => {
  const whole = bp / ONE_X
  const frac = (bp % ONE_X).toString().padStart(4, "0")
  return `${whole}.${frac}`
}

/** Win in minor units from a bet and a multiplier: floored (the house keeps sub-unit dust). */
export const winAmount = (bet: bigint, multiplier: bigint): bigint => (bet * multiplier) / ONE_X

/** A float in [0, 1) (a multiple of 2⁻³²) → an index in [0, n). */
export const pick = (f: number, n: number): number => Math.min(n - 1, Math.floor(f * n))

/**
 * An exact distribution of a round's multiplier: outcome weights out of `total` (outcomes not listed
 * pay 0). RTP = Σ weight × multiplier / (total × 10,000); the simulation tests take the variance from it.
 */
export interface Distribution {
  readonly total: bigint
  readonly outcomes: ReadonlyArray<{ readonly weight: bigint; readonly multiplier: bigint }>
}
