/** Test helpers for the game maths: a seeded source of Stake-like floats (multiples of 2⁻³²). */

/** mulberry32: small, fast, seeded; its 32-bit outputs become floats exactly as fair.ts makes them. */
export const seededFloats = (seed: number): (() => number) => {
  let s = seed | 0
  return () => {
    s = (s + 0x6d2b79f5) | 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export const take = (next: () => number, n: number): Array<number> => Array.from({ length: n }, next)

/** z for a two-sided 99.9 % interval. */
export const Z_999 = 3.2905

export const ratio = (r: { numerator: bigint; denominator: bigint }): number =>
  Number((r.numerator * 10n ** 12n) / r.denominator) / 1e12
