/**
 * Exact theoretical return to player, as a rational: slots by enumeration of their strips
 * (slot.ts: per line, the reels are independent), the other kinds by closed form over the exact
 * distribution of their multiplier. Games whose return depends on the options (dice chance, crash
 * target, mines picks, plinko rows/risk, roulette bets) take them; without them, the page's
 * default options. The jackpot (fed by 1 % of qualifying bets) is paid on top and not included.
 */
import type { GameDefinition } from "./catalogue.ts"
import { crashDistribution, decodeCrashOptions } from "./crash.ts"
import { decodeDiceOptions, diceDistribution } from "./dice.ts"
import { decodeMinesOptions, minesDistribution } from "./mines.ts"
import { type Distribution, isOptionsError } from "./outcome.ts"
import { defaultOptions } from "./play.ts"
import { decodePlinkoOptions, plinkoDistribution } from "./plinko.ts"
import { decodeRouletteOptions, rouletteDistribution } from "./roulette.ts"
import { slotRtp } from "./slot.ts"

export interface Rational {
  readonly numerator: bigint
  readonly denominator: bigint
}

const gcd = (a: bigint, b: bigint): bigint => {
  let x = a < 0n ? -a : a
  let y = b < 0n ? -b : b
  while (y !== 0n) [x, y] = [y, x % y]
  return x
}

const reduce = (r: Rational): Rational => {
  const g = gcd(r.numerator, r.denominator)
  return g === 0n ? r : { numerator: r.numerator / g, denominator: r.denominator / g }
}

/** The exact distribution of the multiplier (not for slots: their line pays are not independent). */
export const distribution = (def: GameDefinition, options?: unknown): Distribution | undefined => {
  const raw = options ?? defaultOptions(def)
  const fail = (e: { error: string }): never => {
    throw new RangeError(e.error)
  }
  switch (def.kind) {
    case "dice": {
      const o = decodeDiceOptions(raw)
      return isOptionsError(o) ? fail(o) : diceDistribution(def.params, o)
    }
    case "crash": {
      const o = decodeCrashOptions(def.params, raw)
      return isOptionsError(o) ? fail(o) : crashDistribution(def.params, o)
    }
    case "mines": {
      const o = decodeMinesOptions(raw)
      return isOptionsError(o) ? fail(o) : minesDistribution(def.params, o)
    }
    case "plinko": {
      const o = decodePlinkoOptions(raw)
      return isOptionsError(o) ? fail(o) : plinkoDistribution(def.params, o)
    }
    case "roulette": {
      const o = decodeRouletteOptions(def.params, raw)
      return isOptionsError(o) ? fail(o) : rouletteDistribution(o)
    }
    case "slot":
      return undefined
  }
}

const fromDistribution = (d: Distribution): Rational =>
  reduce({
    numerator: d.outcomes.reduce((s, o) => s + o.weight * o.multiplier, 0n),
    denominator: d.total * 10_000n,
  })

const cache = new WeakMap<GameDefinition, Rational>()

/** RTP as an exact fraction of the stake (0.9612… = 96.12 %). Throws RangeError for invalid options. */
export const exactRtp = (def: GameDefinition, options?: unknown): Rational => {
  if (options === undefined) {
    const hit = cache.get(def)
    if (hit !== undefined) return hit
  }
  const d = def.kind === "slot" ? undefined : distribution(def, options)
  const r =
    def.kind === "slot"
      ? reduce(slotRtp(def.params))
      : d === undefined
        ? { numerator: 0n, denominator: 1n }
        : fromDistribution(d)
  if (options === undefined) cache.set(def, r)
  return r
}

/** A rational as a percentage with 2 decimals, rounded down: "96.12". */
export const formatPercent = (r: Rational): string => {
  const hundredths = (r.numerator * 10_000n) / r.denominator
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, "0")}`
}

export const rtpPercent = (def: GameDefinition, options?: unknown): string =>
  formatPercent(exactRtp(def, options))

/** Variance of the multiplier (in units of the stake²), exact, for the kinds with a distribution. */
export const exactVariance = (def: GameDefinition, options?: unknown): Rational | undefined => {
  const d = distribution(def, options)
  if (d === undefined) return undefined
  const scale = 10_000n
  const m1 = d.outcomes.reduce((s, o) => s + o.weight * o.multiplier, 0n)
  const m2 = d.outcomes.reduce((s, o) => s + o.weight * o.multiplier * o.multiplier, 0n)
  // Var = E[m²] − E[m]² with m in 1/10,000: (m2/T − (m1/T)²) / 10⁸ = (m2·T − m1²) / (T² · 10⁸)
  return reduce({ numerator: m2 * d.total - m1 * m1, denominator: d.total * d.total * scale * scale })
}
