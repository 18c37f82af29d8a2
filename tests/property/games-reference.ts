/**
 * Reference evaluators for the game maths properties (games-paytable / games-outcomes): written from
 * the rules as docs/fairness.md and the module headers state them, in a different shape from
 * services/games/ (exact integers from the 32-bit numerators, sets instead of index walks), so the
 * properties compare two independent readings of the same rules.
 */
import { createHmac } from "node:crypto"
import fc from "fast-check"
import type { GameDefinition } from "../../services/games/catalogue.ts"
import { plinkoRisks } from "../../services/games/plinko.ts"
import type { RouletteBetType } from "../../services/games/roulette.ts"

type GameKind = GameDefinition["kind"]

export const TWO_32 = 2 ** 32

/** A fair.ts float is u / 2³² for a 32-bit u: the arbitraries draw u. */
export const uint32 = fc.integer({ min: 0, max: TWO_32 - 1 })
export const toFloat = (u: number): number => u / TWO_32

/** Floats at the edges too: 0, just under and at 0.5, the last one. */
export const edgyUint32 = fc.oneof(
  { weight: 4, arbitrary: uint32 },
  { weight: 1, arbitrary: fc.constantFrom(0, TWO_32 / 2 - 1, TWO_32 / 2, TWO_32 - 1) },
)

/** The first u whose float picks index k among n (⌈k × 2³² / n⌉), moved by `by` within range. */
export const firstUintOf = (k: number, n: number, by = 0): number => {
  const u = Number((BigInt(k) * 2n ** 32n + BigInt(n) - 1n) / BigInt(n)) + by
  return Math.min(TWO_32 - 1, Math.max(0, u))
}

/** ⌊u × n / 2³²⌋ in exact integers: the index a float picks among n. */
export const indexOf = (u: number, n: number): number => Number((BigInt(u) * BigInt(n)) >> 32n)

/**
 * The round's 32-bit numerators from the seeds, with node:crypto (the product uses WebCrypto):
 * HMAC-SHA256(serverSeed, `${clientSeed}:${nonce}:${cursor}`), 4 bytes big-endian at a time.
 */
export const referenceUints = (
  serverSeed: string,
  clientSeed: string,
  nonce: number,
  count: number,
): Array<number> => {
  const out: Array<number> = []
  for (let cursor = 0; out.length < count; cursor++) {
    const block = createHmac("sha256", serverSeed).update(`${clientSeed}:${nonce}:${cursor}`).digest()
    for (let i = 0; i < 32 && out.length < count; i += 4) out.push(block.readUInt32BE(i))
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// Slots

export interface RefSymbol {
  readonly id: string
  readonly kind: "normal" | "wild" | "scatter"
  readonly pays: readonly [number, number, number]
}

export interface RefSlot {
  readonly symbols: ReadonlyArray<RefSymbol>
  readonly reels: ReadonlyArray<string>
  readonly lines: number
}

/** The 25 standard paylines as rows per reel, spelled out as the game rules draw them. */
export const referencePaylines: ReadonlyArray<string> = [
  "11111",
  "00000",
  "22222",
  "01210",
  "21012",
  "00122",
  "22100",
  "10001",
  "12221",
  "01110",
  "21112",
  "10121",
  "12101",
  "01010",
  "21212",
  "11011",
  "11211",
  "00200",
  "22022",
  "02020",
  "20202",
  "10201",
  "12021",
  "02220",
  "20002",
]

const payFor = (s: RefSymbol, count: number): number =>
  count >= 3 ? (s.pays[Math.min(count, 5) - 3] ?? 0) : 0

/**
 * A line's pay in line bets: the best of (a) the run of wilds from reel 1 paid as wilds and (b) for
 * each normal symbol X, the run from reel 1 of letters that are X or wild, when it holds at least
 * one X. A scatter (or any other letter) ends every run.
 */
export const referenceLinePay = (slot: RefSlot, letters: ReadonlyArray<string>): number => {
  const wild = slot.symbols.find((s) => s.kind === "wild")
  const runOf = (accepts: (letter: string) => boolean): ReadonlyArray<string> => {
    const run: Array<string> = []
    for (const letter of letters) {
      if (!accepts(letter)) break
      run.push(letter)
    }
    return run
  }
  let best = 0
  if (wild !== undefined) best = Math.max(best, payFor(wild, runOf((l) => l === wild.id).length))
  for (const s of slot.symbols) {
    if (s.kind !== "normal") continue
    const run = runOf((l) => l === s.id || l === wild?.id)
    if (run.includes(s.id)) best = Math.max(best, payFor(s, run.length))
  }
  return best
}

export interface RefSpin {
  readonly stops: ReadonlyArray<number>
  /** window[reel][row] */
  readonly window: ReadonlyArray<ReadonlyArray<string>>
  /** Pay per played line, in line bets. */
  readonly linePays: ReadonlyArray<number>
  readonly scatters: number
  /** In total bets. */
  readonly scatterPay: number
}

export const referenceSpin = (slot: RefSlot, uints: ReadonlyArray<number>): RefSpin => {
  const stops = slot.reels.map((strip, r) => indexOf(uints[r] ?? 0, strip.length))
  const window = slot.reels.map((strip, r) =>
    [0, 1, 2].map((row) => strip.charAt(((stops[r] ?? 0) + row) % strip.length)),
  )
  const linePays = referencePaylines.slice(0, slot.lines).map((rows) =>
    referenceLinePay(
      slot,
      [...rows].map((row, reel) => window[reel]?.[Number(row)] ?? ""),
    ),
  )
  const scatter = slot.symbols.find((s) => s.kind === "scatter")
  const scatters = scatter === undefined ? 0 : window.flat().filter((l) => l === scatter.id).length
  return {
    stops,
    window,
    linePays,
    scatters,
    scatterPay: scatter === undefined ? 0 : payFor(scatter, scatters),
  }
}

/** The largest pay one line can make: the highest entry of a non-scatter symbol's pays. */
export const maxLinePay = (slot: RefSlot): number =>
  Math.max(0, ...slot.symbols.filter((s) => s.kind !== "scatter").flatMap((s) => [...s.pays]))

export const maxScatterPay = (slot: RefSlot): number =>
  Math.max(0, ...slot.symbols.filter((s) => s.kind === "scatter").flatMap((s) => [...s.pays]))

// ---------------------------------------------------------------------------------------------
// The other kinds, each from its 32-bit numerators.

/** Dice: roll in hundredths 0–9999; the payout (100 − edge) ÷ chance, in 1/10,000, floored. */
export const referenceDice = (
  edgeBp: number,
  target: number,
  direction: "over" | "under",
  u: number,
): { roll: number; win: boolean; multiplier: bigint } => {
  const roll = indexOf(u, 10_000)
  let winning = 0
  for (let r = 0; r < 10_000; r++) if (direction === "under" ? r < target : r > target) winning++
  const win = direction === "under" ? roll < target : roll > target
  const pays = (BigInt(10_000 - edgeBp) * 10_000n) / BigInt(winning)
  return { roll, win, multiplier: win ? pays : 0n }
}

/** Crash point in hundredths: ⌊(100 − edge %) × 2³² / (2³² − u)⌋ / 100 ≥ 1.00. */
export const referenceCrashPoint = (edgeBp: number, u: number): number => {
  const scaled = (BigInt(10_000 - edgeBp) * 2n ** 32n) / (100n * (2n ** 32n - BigInt(u)))
  return scaled < 100n ? 100 : Number(scaled)
}

/** Mines: the first m draws without replacement (index among the free tiles, ascending). */
export const referenceMines = (mines: number, uints: ReadonlyArray<number>): ReadonlySet<number> => {
  const free = new Set(Array.from({ length: 25 }, (_, i) => i))
  const out = new Set<number>()
  for (let i = 0; i < mines; i++) {
    const tile = [...free].sort((a, b) => a - b)[indexOf(uints[i] ?? 0, free.size)]
    if (tile === undefined) throw new Error("no free tile")
    free.delete(tile)
    out.add(tile)
  }
  return out
}

/** (1 − edge) ÷ P(k picks all safe), P = Π (25 − m − i)/(25 − i), in 1/10,000, floored. */
export const referenceMinesPays = (edgeBp: number, mines: number, picks: number): bigint => {
  let num = BigInt(10_000 - edgeBp)
  let den = 1n
  for (let i = 0; i < picks; i++) {
    num *= BigInt(25 - i)
    den *= BigInt(25 - mines - i)
  }
  return num / den
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)
const reds = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36])

export interface RefRouletteBet {
  readonly type: RouletteBetType
  readonly numbers?: ReadonlyArray<number>
  readonly chips: number
}

/** The pockets a bet covers, from the table's usual definitions. */
export const referenceCovered = (bet: RefRouletteBet): ReadonlySet<number> => {
  const n = bet.numbers?.[0] ?? 0
  switch (bet.type) {
    case "red":
      return reds
    case "black":
      return new Set(range(1, 36).filter((x) => !reds.has(x)))
    case "odd":
      return new Set(range(1, 36).filter((x) => x % 2 === 1))
    case "even":
      return new Set(range(1, 36).filter((x) => x % 2 === 0))
    case "low":
      return new Set(range(1, 18))
    case "high":
      return new Set(range(19, 36))
    case "dozen":
      return new Set(range(12 * n - 11, 12 * n))
    case "column":
      // Column 1 is 1, 4, 7 …; column 3 is 3, 6, 9 …
      return new Set(range(1, 36).filter((x) => x % 3 === n % 3))
    default:
      return new Set(bet.numbers ?? [])
  }
}

/** Σ over winning bets chips × 36 / covered, × 10,000 / Σ chips, floored. */
export const referenceRoulette = (bets: ReadonlyArray<RefRouletteBet>, pocket: number): bigint => {
  let returned = 0n
  let chips = 0n
  for (const bet of bets) {
    chips += BigInt(bet.chips)
    const covered = referenceCovered(bet)
    if (covered.has(pocket)) returned += (BigInt(bet.chips) * 36n * 10_000n) / BigInt(covered.size)
  }
  return returned / chips
}

/** Legal roulette bets on the 3-column table (inside bets built from their corner number). */
export const rouletteBet: fc.Arbitrary<RefRouletteBet> = fc
  .oneof(
    fc.record({ type: fc.constant("straight"), numbers: fc.integer({ min: 0, max: 36 }).map((n) => [n]) }),
    fc.record({
      type: fc.constant("split"),
      numbers: fc.oneof(
        fc.integer({ min: 1, max: 3 }).map((n) => [0, n]),
        fc
          .integer({ min: 1, max: 35 })
          .filter((a) => a % 3 !== 0)
          .map((a) => [a, a + 1]),
        fc.integer({ min: 1, max: 33 }).map((a) => [a + 3, a]),
      ),
    }),
    fc.record({
      type: fc.constant("street"),
      numbers: fc.integer({ min: 0, max: 11 }).map((k) => [3 * k + 3, 3 * k + 1, 3 * k + 2]),
    }),
    fc.record({
      type: fc.constant("corner"),
      numbers: fc
        .integer({ min: 1, max: 32 })
        .filter((a) => a % 3 !== 0)
        .map((a) => [a, a + 1, a + 3, a + 4]),
    }),
    fc.record({
      type: fc.constant("line"),
      numbers: fc.integer({ min: 0, max: 10 }).map((k) => range(3 * k + 1, 3 * k + 6)),
    }),
    fc.record({ type: fc.constantFrom("red", "black", "odd", "even", "low", "high") }),
    fc.record({
      type: fc.constantFrom("dozen", "column"),
      numbers: fc.integer({ min: 1, max: 3 }).map((n) => [n]),
    }),
  )
  .chain((b) => fc.integer({ min: 1, max: 7 }).map((chips) => ({ ...b, chips })))

/** Dice targets in basis points of the roll (1.00–98.00 under, 1.99–98.99 over). */
export const diceOptions = fc.oneof(
  fc.integer({ min: 100, max: 9800 }).map((target) => ({ target, direction: "under" as const })),
  fc.integer({ min: 199, max: 9899 }).map((target) => ({ target, direction: "over" as const })),
)

/** Valid bet options of a game kind, from their documented ranges (a slot takes none). */
export const validOptions = (kind: GameKind): fc.Arbitrary<unknown> => {
  switch (kind) {
    case "dice":
      return diceOptions.map((o) => ({ target: o.target / 100, direction: o.direction }))
    case "crash":
      return fc.integer({ min: 101, max: 50_000 }).map((t) => ({ target: t / 100 }))
    case "mines":
      return fc
        .integer({ min: 1, max: 24 })
        .chain((mines) =>
          fc
            .uniqueArray(fc.integer({ min: 0, max: 24 }), { minLength: 1, maxLength: 25 - mines })
            .map((picks) => ({ mines, picks })),
        )
    case "plinko":
      return fc.record({ rows: fc.integer({ min: 8, max: 16 }), risk: fc.constantFrom(...plinkoRisks) })
    case "roulette":
      return fc.array(rouletteBet, { minLength: 1, maxLength: 8 }).map((bets) => ({ bets }))
    case "slot":
      return fc.constant({})
  }
}
