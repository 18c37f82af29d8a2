/**
 * Slot pay-table evaluation ("fast-check for outcome derivation, pay-table evaluation and
 * settlement invariants"). The product's spin (services/games/slot.ts) against a reference evaluator
 * written from the rules (tests/property/games-reference.ts), for every catalogue title and for
 * random slots (random strips dense in wilds and scatters, random pay tables, 10/20/25 lines):
 * the stops, the window, each line's pay, the scatter pay and the multiplier agree exactly; the
 * multiplier is never negative and never above the pay table's maximum; the win scales with the bet
 * as the product rounds (floored, exact when the line bet is whole).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { catalogue, type GameDefinition } from "../../services/games/catalogue.ts"
import { ONE_X, winAmount } from "../../services/games/outcome.ts"
import { playRound } from "../../services/games/play.ts"
import { linePay, paylines, playSlot, type SlotParams, type SlotSymbol } from "../../services/games/slot.ts"
import {
  maxLinePay,
  maxScatterPay,
  referenceLinePay,
  referencePaylines,
  referenceSpin,
  toFloat,
  uint32,
} from "./games-reference.ts"

const slotTitles = catalogue.flatMap((def) => (def.kind === "slot" ? [{ def, params: def.params }] : []))

const symbol = (
  id: string,
  kind: SlotSymbol["kind"],
  pays: readonly [number, number, number],
): SlotSymbol => ({
  id,
  name: id,
  kind,
  pays,
  color: "#fff",
  glyph: id,
})

const pays = fc.tuple(fc.nat({ max: 500 }), fc.nat({ max: 2_000 }), fc.nat({ max: 10_000 }))

/** A random slot: a wild and a scatter (each maybe absent), 2–5 normal symbols, short strips. */
const randomSlot: fc.Arbitrary<SlotParams> = fc
  .record({
    wild: fc.option(pays, { nil: undefined }),
    scatter: fc.option(pays, { nil: undefined }),
    normals: fc.array(pays, { minLength: 2, maxLength: 5 }),
    lines: fc.constantFrom(10 as const, 20 as const, 25 as const),
  })
  .chain(({ wild, scatter, normals, lines }) => {
    const symbols: Array<SlotSymbol> = [
      ...(wild === undefined ? [] : [symbol("W", "wild", wild)]),
      ...(scatter === undefined ? [] : [symbol("S", "scatter", scatter)]),
      ...normals.map((p, i) => symbol("ABCDE".charAt(i), "normal", p)),
    ]
    const letters = symbols.map((s) => s.id)
    const strip = fc
      .array(fc.constantFrom(...letters), { minLength: 3, maxLength: 12 })
      .map((chars) => chars.join(""))
    return fc.array(strip, { minLength: 5, maxLength: 5 }).map((reels) => ({ symbols, reels, lines }))
  })

const fiveUints = fc.array(uint32, { minLength: 5, maxLength: 5 })

const multiplierOf = (def: GameDefinition, floats: ReadonlyArray<number>): bigint => {
  const o = playRound(def, {}, floats)
  if ("error" in o) throw new Error(o.error)
  return o.multiplier
}

/** Product spin vs reference spin, field by field. */
const agree = (params: SlotParams, uints: ReadonlyArray<number>, product: ReturnType<typeof playSlot>) => {
  const ref = referenceSpin(params, uints)
  expect(product.detail.stops).toEqual(ref.stops)
  expect(product.detail.window).toEqual(ref.window)
  expect(product.detail.scatters).toBe(ref.scatters)
  expect(product.detail.scatterPay).toBe(ref.scatterPay)
  // The product lists the paying lines; the reference pays every line (0 for a loser).
  const paid = ref.linePays.flatMap((pay, line) => (pay > 0 ? [{ line, pay }] : []))
  expect(product.detail.wins).toEqual(paid.map((w) => expect.objectContaining(w)))
  // multiplier (1/10,000 of the total bet) × lines = 10,000 × (Σ line pays + scatter pay × lines).
  const lineSum = ref.linePays.reduce((a, b) => a + b, 0)
  expect(product.multiplier * BigInt(params.lines)).toBe(
    ONE_X * (BigInt(lineSum) + BigInt(ref.scatterPay) * BigInt(params.lines)),
  )
  return ref
}

describe("slot evaluation against a reference evaluator", () => {
  it("the standard paylines are the ones the rules draw", () => {
    expect(paylines.map((rows) => rows.join(""))).toEqual(referencePaylines)
  })

  it("every catalogue title: random stops pay exactly what the reference computes", () => {
    fc.assert(
      fc.property(fc.constantFrom(...slotTitles), fiveUints, ({ def, params }, uints) => {
        const floats = uints.map(toFloat)
        const direct = playSlot(params, floats)
        agree(params, uints, direct)
        // playRound (what the studio and the verifier run) is the same spin.
        expect(multiplierOf(def, floats)).toBe(direct.multiplier)
      }),
      { numRuns: 1_000 },
    )
  })

  it("random slots (dense wilds and scatters, random pays): the same agreement", () => {
    fc.assert(
      fc.property(randomSlot, fiveUints, (params, uints) => {
        agree(params, uints, playSlot(params, uints.map(toFloat)))
      }),
      { numRuns: 1_500 },
    )
  })

  it("one line: the product's pay equals the reference's for any five letters", () => {
    fc.assert(
      fc.property(
        randomSlot.chain((params) =>
          fc
            .array(fc.constantFrom(...params.symbols.map((s) => s.id), "Z"), { minLength: 5, maxLength: 5 })
            .map((letters) => ({ params, letters })),
        ),
        ({ params, letters }) => {
          const got = linePay(params, letters)
          expect(got.pay).toBe(referenceLinePay(params, letters))
          if (got.pay > 0) {
            // What it names made the pay: that symbol's entry for that count.
            const s = params.symbols.find((x) => x.id === got.symbol)
            expect(s?.pays[got.count - 3]).toBe(got.pay)
            expect(got.count).toBeGreaterThanOrEqual(3)
          }
        },
      ),
      { numRuns: 1_500 },
    )
  })
})

describe("pay-table invariants", () => {
  it("the multiplier is never negative and never above 10,000 × (max line pay + max scatter pay)", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...slotTitles.map((t) => t.params)), randomSlot),
        fiveUints,
        (params, uints) => {
          const m = playSlot(params, uints.map(toFloat)).multiplier
          expect(m).toBeGreaterThanOrEqual(0n)
          expect(m).toBeLessThanOrEqual(ONE_X * BigInt(maxLinePay(params) + maxScatterPay(params)))
        },
      ),
      { numRuns: 1_000 },
    )
  })

  it("per title: a line never pays above the table's top pay, and that top pay is reached by five of a kind", () => {
    for (const { def, params } of slotTitles) {
      const top = maxLinePay(params)
      const best = params.symbols.filter((s) => s.kind !== "scatter").find((s) => s.pays[2] === top)
      expect(best, def.id).toBeDefined()
      expect(linePay(params, [...(best?.id ?? "").repeat(5)]).pay, def.id).toBe(top)
      // Pays grow with the count (5 of a kind pays at least 4, at least 3) on every catalogue table.
      for (const s of params.symbols)
        expect(s.pays[0] <= s.pays[1] && s.pays[1] <= s.pays[2], `${def.id} ${s.id}`).toBe(true)
    }
    fc.assert(
      fc.property(
        fc
          .constantFrom(...slotTitles.map((t) => t.params))
          .chain((params) =>
            fc
              .array(fc.constantFrom(...params.symbols.map((s) => s.id)), { minLength: 5, maxLength: 5 })
              .map((letters) => ({ params, letters })),
          ),
        ({ params, letters }) => {
          const pay = linePay(params, letters).pay
          expect(pay).toBeGreaterThanOrEqual(0)
          expect(pay).toBeLessThanOrEqual(maxLinePay(params))
        },
      ),
      { numRuns: 1_000 },
    )
  })

  it("a scatter anywhere on a line breaks it: the line pays as if cut before the scatter", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(
          ...slotTitles.map((t) => t.params).filter((p) => p.symbols.some((s) => s.kind === "scatter")),
        ),
        fc.integer({ min: 0, max: 4 }),
        fc.array(fc.constantFrom("W", "A", "B", "C"), { minLength: 5, maxLength: 5 }),
        (params, at, letters) => {
          const scatter = params.symbols.find((s) => s.kind === "scatter")?.id ?? "S"
          const cut = letters.map((l, i) => (i === at ? scatter : l))
          // The line's pay comes from the letters before the scatter only: under 3 of them, nothing.
          const before = cut.slice(0, at)
          expect(linePay(params, cut).pay).toBe(
            before.length < 3 ? 0 : referenceLinePay(params, [...before, ...Array(5 - at).fill("#")]),
          )
        },
      ),
      { numRuns: 1_000 },
    )
  })
})

describe("the win from a bet (floored in minor units, as the studio settles)", () => {
  const bet = fc.bigInt({ min: 1n, max: 10n ** 12n })

  it("is never negative, never above bet × multiplier, and loses less than one minor unit", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...slotTitles.map((t) => t.params)), randomSlot),
        fiveUints,
        bet,
        (params, uints, b) => {
          const m = playSlot(params, uints.map(toFloat)).multiplier
          const w = winAmount(b, m)
          expect(w).toBeGreaterThanOrEqual(0n)
          expect(w * ONE_X).toBeLessThanOrEqual(b * m)
          expect(b * m - w * ONE_X).toBeLessThan(ONE_X)
        },
      ),
      { numRuns: 1_000 },
    )
  })

  it("scales with the bet: k bets of b win at most as much as one bet of k × b, and less than k units less", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...slotTitles.map((t) => t.params)),
        fiveUints,
        bet,
        fc.bigInt({ min: 1n, max: 1_000n }),
        (params, uints, b, k) => {
          const m = playSlot(params, uints.map(toFloat)).multiplier
          const once = winAmount(k * b, m)
          expect(once).toBeGreaterThanOrEqual(k * winAmount(b, m))
          expect(once - k * winAmount(b, m)).toBeLessThan(k)
          // Monotone: a bigger bet never wins less.
          expect(winAmount(b + 1n, m)).toBeGreaterThanOrEqual(winAmount(b, m))
        },
      ),
      { numRuns: 1_000 },
    )
  })

  it("a whole line bet (total bet a multiple of the lines) wins exactly line bet × Σ line pays + bet × scatter pay", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...slotTitles.map((t) => t.params)), randomSlot),
        fiveUints,
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        (params, uints, lineBet) => {
          const total = lineBet * BigInt(params.lines)
          const ref = referenceSpin(params, uints)
          const lineSum = BigInt(ref.linePays.reduce((a, b) => a + b, 0))
          const m = playSlot(params, uints.map(toFloat)).multiplier
          expect(winAmount(total, m)).toBe(lineBet * lineSum + total * BigInt(ref.scatterPay))
        },
      ),
      { numRuns: 1_000 },
    )
  })
})
