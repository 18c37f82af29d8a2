/**
 * European roulette (single zero): one float → pocket ⌊f × 37⌋ (0–36). The player places chips on
 * bets of the board; the round's stake is split over them in proportion to the chips, so the
 * multiplier = Σ chips × (payout + 1 if won) / Σ chips, floored to 1/10,000.
 * Every bet returns 36/37 = 97.29 %.
 */
import type { Distribution } from "./outcome.ts"
import { isInt, isRecord, type OptionsError, type Outcome, pick } from "./outcome.ts"

export const rouletteBetTypes = [
  "straight",
  "split",
  "street",
  "corner",
  "line",
  "red",
  "black",
  "odd",
  "even",
  "low",
  "high",
  "dozen",
  "column",
] as const
export type RouletteBetType = (typeof rouletteBetTypes)[number]

export const redNumbers: ReadonlySet<number> = new Set([
  1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36,
])

export interface RouletteBet {
  readonly type: RouletteBetType
  /** straight: the number; split/street/corner/line: the numbers covered; dozen/column: 1–3. */
  readonly numbers: ReadonlyArray<number>
  readonly chips: number
}

export interface RouletteParams {
  /** The most chips on the board per round. */
  readonly maxChips: number
}

export interface RouletteOptions {
  readonly bets: ReadonlyArray<RouletteBet>
}

export const rouletteDefaultOptions = { bets: [{ type: "red", numbers: [], chips: 1 }] } as const

/** The numbers a bet covers. */
export const covered = (bet: RouletteBet): ReadonlyArray<number> => {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)
  switch (bet.type) {
    case "straight":
    case "split":
    case "street":
    case "corner":
    case "line":
      return bet.numbers
    case "red":
      return [...redNumbers]
    case "black":
      return range(1, 36).filter((n) => !redNumbers.has(n))
    case "odd":
      return range(1, 36).filter((n) => n % 2 === 1)
    case "even":
      return range(1, 36).filter((n) => n % 2 === 0)
    case "low":
      return range(1, 18)
    case "high":
      return range(19, 36)
    case "dozen":
      return range(((bet.numbers[0] ?? 1) - 1) * 12 + 1, (bet.numbers[0] ?? 1) * 12)
    case "column":
      return range(1, 36).filter((n) => (n - 1) % 3 === (bet.numbers[0] ?? 1) - 1)
  }
}

/** Payout "to one": 35 for a single number … 1 for even-money bets. */
export const roulettePays = (bet: RouletteBet): number => 36 / covered(bet).length - 1

const col = (n: number) => (n - 1) % 3
const row = (n: number) => Math.floor((n - 1) / 3)

/** Whether the numbers form a legal inside bet of that type on the 3-column table layout. */
const validInside = (type: RouletteBetType, ns: ReadonlyArray<number>): boolean => {
  const sorted = [...ns].sort((a, b) => a - b)
  const [a = -1, b = -1, , d = -1] = sorted
  switch (type) {
    case "straight":
      return ns.length === 1 && a >= 0 && a <= 36
    case "split":
      if (ns.length !== 2) return false
      if (a === 0) return b >= 1 && b <= 3
      return a >= 1 && b <= 36 && ((b === a + 1 && row(a) === row(b)) || b === a + 3)
    case "street":
      return ns.length === 3 && a >= 1 && col(a) === 0 && sorted[1] === a + 1 && sorted[2] === a + 2
    case "corner":
      return (
        ns.length === 4 && a >= 1 && col(a) < 2 && sorted[1] === a + 1 && sorted[2] === a + 3 && d === a + 4
      )
    case "line":
      return ns.length === 6 && a >= 1 && a <= 31 && col(a) === 0 && sorted.every((n, i) => n === a + i)
    default:
      return false
  }
}

export const decodeRouletteOptions = (p: RouletteParams, raw: unknown): RouletteOptions | OptionsError => {
  if (!isRecord(raw) || !Array.isArray(raw.bets)) return { error: "roulette options must be { bets: [...] }" }
  if (raw.bets.length < 1 || raw.bets.length > 50) return { error: "place 1–50 bets" }
  const bets: Array<RouletteBet> = []
  let chips = 0
  for (const b of raw.bets) {
    if (!isRecord(b)) return { error: "each bet is { type, numbers?, chips }" }
    const type = rouletteBetTypes.find((t) => t === b.type)
    if (type === undefined) return { error: `bet type must be one of ${rouletteBetTypes.join(", ")}` }
    const c = b.chips ?? 1
    if (!isInt(c) || c < 1) return { error: "chips must be a positive integer" }
    const rawNumbers = b.numbers ?? (b.number === undefined ? [] : [b.number])
    if (!Array.isArray(rawNumbers) || !rawNumbers.every((n) => isInt(n))) {
      return { error: "numbers must be a list of integers" }
    }
    const numbers: Array<number> = rawNumbers.filter((n): n is number => isInt(n))
    if (type === "dozen" || type === "column") {
      const n = numbers[0]
      if (numbers.length !== 1 || n === undefined || n < 1 || n > 3)
        return { error: `${type} takes one number, 1–3` }
    } else if (["straight", "split", "street", "corner", "line"].includes(type)) {
      if (new Set(numbers).size !== numbers.length || !validInside(type, numbers)) {
        return { error: `${numbers.join("/")} is not a ${type} on the table` }
      }
    } else if (numbers.length > 0) {
      return { error: `${type} takes no numbers` }
    }
    chips += c
    bets.push({ type, numbers, chips: c })
  }
  if (chips > p.maxChips) return { error: `at most ${p.maxChips} chips per round` }
  return { bets }
}

export const rouletteMultiplierFor = (o: RouletteOptions, pocket: number): bigint => {
  let returned = 0n
  let chips = 0n
  for (const bet of o.bets) {
    chips += BigInt(bet.chips)
    if (covered(bet).includes(pocket)) returned += BigInt(bet.chips) * BigInt(roulettePays(bet) + 1)
  }
  return (returned * 10_000n) / chips
}

export const playRoulette = (o: RouletteOptions, floats: ReadonlyArray<number>): Outcome => {
  const pocket = pick(floats[0] ?? 0, 37)
  const multiplier = rouletteMultiplierFor(o, pocket)
  return {
    multiplier,
    detail: {
      pocket,
      color: pocket === 0 ? "green" : redNumbers.has(pocket) ? "red" : "black",
      winningBets: o.bets.flatMap((b, i) => (covered(b).includes(pocket) ? [i] : [])),
    },
  }
}

export const rouletteDistribution = (o: RouletteOptions): Distribution => ({
  total: 37n,
  outcomes: Array.from({ length: 37 }, (_, pocket) => ({
    weight: 1n,
    multiplier: rouletteMultiplierFor(o, pocket),
  })),
})
