/**
 * Video slots, 5 reels × 3 rows. Each reel is a strip of symbols (one letter per stop); one float
 * per reel picks its stop ⌊f × length⌋, and the window shows stops s, s+1, s+2 (wrapping) as rows
 * 0–2. Paylines (10, 20 or 25) pay left to right from reel 1 in LINE bets (total bet ÷ lines);
 * the wild substitutes for every symbol except the scatter and pays on its own; a line pays its best
 * combination. Scatters pay anywhere in TOTAL bets (3, 4, 5+). multiplier (1/10,000 of the total
 * bet) = Σ line pays × 10,000/lines + scatter pay × 10,000 — exact because 10,000/lines is an integer.
 */
import { isRecord, type OptionsError, type Outcome, pick } from "./outcome.ts"

export interface SlotSymbol {
  /** One letter: how the strips spell it. */
  readonly id: string
  readonly name: string
  readonly kind: "normal" | "wild" | "scatter"
  /** Pays for 3, 4, 5 of a kind (line bets; the scatter: total bets). */
  readonly pays: readonly [number, number, number]
  /** Art: the symbol's colour and a short label drawn on it. */
  readonly color: string
  readonly glyph: string
}

export interface SlotParams {
  readonly symbols: ReadonlyArray<SlotSymbol>
  /** Five strips, one letter per stop. */
  readonly reels: ReadonlyArray<string>
  /** How many of the standard paylines are played (10, 20 or 25). */
  readonly lines: 10 | 20 | 25
}

/** Rows (0 = top) per reel of the standard paylines, in order; a game plays the first `lines`. */
export const paylines: ReadonlyArray<readonly [number, number, number, number, number]> = [
  [1, 1, 1, 1, 1],
  [0, 0, 0, 0, 0],
  [2, 2, 2, 2, 2],
  [0, 1, 2, 1, 0],
  [2, 1, 0, 1, 2],
  [0, 0, 1, 2, 2],
  [2, 2, 1, 0, 0],
  [1, 0, 0, 0, 1],
  [1, 2, 2, 2, 1],
  [0, 1, 1, 1, 0],
  [2, 1, 1, 1, 2],
  [1, 0, 1, 2, 1],
  [1, 2, 1, 0, 1],
  [0, 1, 0, 1, 0],
  [2, 1, 2, 1, 2],
  [1, 1, 0, 1, 1],
  [1, 1, 2, 1, 1],
  [0, 0, 2, 0, 0],
  [2, 2, 0, 2, 2],
  [0, 2, 0, 2, 0],
  [2, 0, 2, 0, 2],
  [1, 0, 2, 0, 1],
  [1, 2, 0, 2, 1],
  [0, 2, 2, 2, 0],
  [2, 0, 0, 0, 2],
]

export const REELS = 5
export const ROWS = 3

export type SlotOptions = Readonly<Record<string, never>>
export const slotDefaultOptions = {} as const

/** Slots take no options: the bet is the total bet over all lines. */
export const decodeSlotOptions = (raw: unknown): SlotOptions | OptionsError =>
  raw === undefined || raw === null || (isRecord(raw) && Object.keys(raw).length === 0)
    ? {}
    : { error: "slots take no options (send {})" }

const symbolOf = (p: SlotParams, letter: string): SlotSymbol | undefined =>
  p.symbols.find((s) => s.id === letter)

/** The pay of one line of five letters, in line bets, and how many symbols of what made it. */
export const linePay = (
  p: SlotParams,
  letters: ReadonlyArray<string>,
): { pay: number; symbol: string; count: number } => {
  const wild = p.symbols.find((s) => s.kind === "wild")
  const isWild = (l: string | undefined) => wild !== undefined && l === wild.id
  let wilds = 0
  while (wilds < letters.length && isWild(letters[wilds])) wilds++
  const wildPay = wild !== undefined && wilds >= 3 ? (wild.pays[wilds - 3] ?? 0) : 0
  let best = { pay: wildPay, symbol: wild?.id ?? "", count: wildPay > 0 ? wilds : 0 }
  const target = letters[wilds]
  if (target !== undefined) {
    const sym = symbolOf(p, target)
    if (sym !== undefined && sym.kind === "normal") {
      let count = wilds + 1
      while (count < letters.length && (letters[count] === target || isWild(letters[count]))) count++
      const pay = count >= 3 ? (sym.pays[count - 3] ?? 0) : 0
      if (pay > best.pay) best = { pay, symbol: target, count }
    }
  }
  return best
}

export const slotStops = (p: SlotParams, floats: ReadonlyArray<number>): ReadonlyArray<number> =>
  p.reels.map((strip, r) => pick(floats[r] ?? 0, strip.length))

/** The window: window[reel][row]. */
export const slotWindow = (
  p: SlotParams,
  stops: ReadonlyArray<number>,
): ReadonlyArray<ReadonlyArray<string>> =>
  p.reels.map((strip, r) =>
    Array.from({ length: ROWS }, (_, row) => strip[((stops[r] ?? 0) + row) % strip.length] ?? ""),
  )

const scatterPay = (p: SlotParams, count: number): number => {
  const scatter = p.symbols.find((s) => s.kind === "scatter")
  if (scatter === undefined || count < 3) return 0
  return scatter.pays[Math.min(count, 5) - 3] ?? 0
}

export const playSlot = (p: SlotParams, floats: ReadonlyArray<number>): Outcome => {
  const stops = slotStops(p, floats)
  const window = slotWindow(p, stops)
  const unit = BigInt(10_000 / p.lines)
  let multiplier = 0n
  const wins: Array<{ line: number; symbol: string; count: number; pay: number }> = []
  for (let l = 0; l < p.lines; l++) {
    const rows = paylines[l] ?? [1, 1, 1, 1, 1]
    const result = linePay(
      p,
      rows.map((row, reel) => window[reel]?.[row] ?? ""),
    )
    if (result.pay > 0) {
      multiplier += BigInt(result.pay) * unit
      wins.push({ line: l, ...result })
    }
  }
  const scatter = p.symbols.find((s) => s.kind === "scatter")
  const scatters = scatter === undefined ? 0 : window.flat().filter((l) => l === scatter.id).length
  const sPay = scatterPay(p, scatters)
  multiplier += BigInt(sPay) * 10_000n
  return {
    multiplier,
    detail: { stops: [...stops], window: window.map((col) => [...col]), wins, scatters, scatterPay: sPay },
  }
}

/**
 * Exact return. One payline sees, on each reel, one stop of the strip uniformly at random and the
 * five reels are independent, so E[line pay] = Σ over letter tuples Π count/length × pay; every line
 * has the same expectation. Scatters: per reel the distribution of scatters in the window (over all
 * stops), convolved across reels. RTP = E[line pay] + E[scatter pay] (total bets).
 * Returned as a distribution-free rational: numerator / denominator.
 */
export const slotRtp = (p: SlotParams): { numerator: bigint; denominator: bigint } => {
  const letters = p.symbols.map((s) => s.id)
  const counts = p.reels.map((strip) => letters.map((l) => [...strip].filter((c) => c === l).length))
  const denominator = p.reels.reduce((d, strip) => d * BigInt(strip.length), 1n)
  let lineNumerator = 0n
  const tuple: Array<string> = []
  const walk = (reel: number, weight: bigint) => {
    if (reel === REELS) {
      const pay = linePay(p, tuple).pay
      if (pay > 0) lineNumerator += weight * BigInt(pay)
      return
    }
    letters.forEach((l, i) => {
      const c = counts[reel]?.[i] ?? 0
      if (c === 0) return
      tuple[reel] = l
      walk(reel + 1, weight * BigInt(c))
    })
  }
  walk(0, 1n)
  // Scatter counts: dist[k] = weighted number of stop combinations showing k scatters.
  const scatter = p.symbols.find((s) => s.kind === "scatter")
  let scatterNumerator = 0n
  if (scatter !== undefined) {
    let dist: Array<bigint> = [1n]
    for (const strip of p.reels) {
      const perReel: Array<bigint> = [0n, 0n, 0n, 0n]
      for (let s = 0; s < strip.length; s++) {
        let k = 0
        for (let row = 0; row < ROWS; row++) if (strip[(s + row) % strip.length] === scatter.id) k++
        perReel[k] = (perReel[k] ?? 0n) + 1n
      }
      const next: Array<bigint> = Array.from({ length: dist.length + 3 }, () => 0n)
      dist.forEach((w, a) => {
        perReel.forEach((v, b) => {
          next[a + b] = (next[a + b] ?? 0n) + w * v
        })
      })
      dist = next
    }
    dist.forEach((w, k) => {
      scatterNumerator += w * BigInt(scatterPay(p, k))
    })
  }
  return { numerator: lineNumerator + scatterNumerator, denominator }
}
