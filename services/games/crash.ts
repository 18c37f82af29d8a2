/**
 * Crash (single player): one float → the crash point, with the house edge in it:
 * crash = ⌊(100 − edge%) × 2³² / (2³² − n)⌋ / 100 where f = n / 2³², at least 1.00. So
 * P(crash ≥ x) = (1 − edge) / x for every target x (up to the 2⁻³² grid). The player sets an
 * auto-cashout target ≥ 1.01× before the round and wins target × bet if crash ≥ target.
 */

import { floatToUint32, TWO_POW_32 } from "./fair.ts"
import type { Distribution } from "./outcome.ts"
import { isRecord, type OptionsError, type Outcome } from "./outcome.ts"

export interface CrashParams {
  readonly edgeBp: number
  /** The largest auto-cashout target, in hundredths (100000 = 1,000.00×). */
  readonly maxTarget: number
}

export interface CrashOptions {
  /** Auto-cashout target in hundredths (250 = 2.50×). */
  readonly target: number
}

/** What the page sends first (wire form: target as a multiplier). */
export const crashDefaultOptions = { target: 2 } as const

export const CRASH_MIN_TARGET = 101

/** The crash point in hundredths from the float. */
export const crashPoint = (p: CrashParams, f: number): number => {
  const n = BigInt(floatToUint32(f))
  const hundredths = (BigInt(10_000 - p.edgeBp) * TWO_POW_32) / (100n * (TWO_POW_32 - n))
  return Math.max(100, Number(hundredths))
}

export const decodeCrashOptions = (p: CrashParams, raw: unknown): CrashOptions | OptionsError => {
  if (!isRecord(raw)) return { error: "crash options must be an object { target }" }
  const t = typeof raw.target === "string" ? Number(raw.target) : raw.target
  if (typeof t !== "number" || !Number.isFinite(t)) return { error: "target must be a number, e.g. 2.5" }
  const hundredths = Math.round(t * 100)
  if (Math.abs(hundredths - t * 100) > 1e-6) return { error: "target has at most 2 decimals" }
  if (hundredths < CRASH_MIN_TARGET || hundredths > p.maxTarget) {
    return { error: `target must be between 1.01 and ${(p.maxTarget / 100).toFixed(2)}` }
  }
  return { target: hundredths }
}

export const playCrash = (p: CrashParams, o: CrashOptions, floats: ReadonlyArray<number>): Outcome => {
  const point = crashPoint(p, floats[0] ?? 0)
  const win = point >= o.target
  return {
    multiplier: win ? BigInt(o.target) * 100n : 0n,
    detail: { crashPoint: point / 100, target: o.target / 100, win },
  }
}

/**
 * crash ≥ t ⟺ (1−e)·2³²/(2³²−n) ≥ t/100 ⟺ 2³² − n ≤ (1−e)·2³²·100/t: the count of n is that bound floored
 * (m = 2³² − n runs over 1…2³²).
 */
export const crashDistribution = (p: CrashParams, o: CrashOptions): Distribution => {
  const winning = (BigInt(10_000 - p.edgeBp) * TWO_POW_32) / (100n * BigInt(o.target))
  return {
    total: TWO_POW_32,
    outcomes: [{ weight: winning > TWO_POW_32 ? TWO_POW_32 : winning, multiplier: BigInt(o.target) * 100n }],
  }
}
