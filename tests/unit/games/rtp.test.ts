/**
 * Exact RTP: the closed forms against independent computations (brute force over every outcome),
 * the slot enumeration against a full stop-by-stop enumeration, and the catalogue's table.
 */
import { describe, expect, it } from "vitest"
import { catalogue, type GameDefinition, gameById } from "../../../services/games/catalogue.ts"
import { MINES_TILES } from "../../../services/games/mines.ts"
import { playRound } from "../../../services/games/play.ts"
import { plinkoRisks } from "../../../services/games/plinko.ts"
import { exactRtp, rtpPercent } from "../../../services/games/rtp.ts"
import {
  linePay,
  paylines,
  playSlot,
  type SlotParams,
  slotRtp,
  slotWindow,
} from "../../../services/games/slot.ts"

const game = (id: string): GameDefinition => {
  const g = gameById(id)
  if (g === undefined) throw new Error(id)
  return g
}

const multiplierOf = (def: GameDefinition, options: unknown, floats: ReadonlyArray<number>): bigint => {
  const o = playRound(def, options, floats)
  if ("error" in o) throw new Error(o.error)
  return o.multiplier
}

describe("closed forms", () => {
  it("dice at 50 % under pays 1.98× for exactly 99 %", () => {
    expect(exactRtp(game("dice-classic"))).toEqual({ numerator: 99n, denominator: 100n })
    expect(rtpPercent(game("dice-classic"))).toBe("99.00")
  })

  it("dice: brute force over all 10,000 rolls equals the closed form, for several targets", () => {
    const def = game("dice-classic")
    for (const options of [
      { target: 50, direction: "under" },
      { target: 12.34, direction: "over" },
      { target: 1, direction: "under" },
      { target: 97.77, direction: "under" },
    ]) {
      let sum = 0n
      for (let roll = 0; roll < 10_000; roll++) sum += multiplierOf(def, options, [(roll + 0.5) / 10_000])
      const exact = exactRtp(def, options)
      expect(sum * exact.denominator).toBe(exact.numerator * 10_000n * 10_000n)
    }
  })

  it("crash: P(crash ≥ t) counted at the float boundaries matches the closed form", () => {
    const def = game("comet-crash")
    // The last winning n (f = n/2³²) wins and the next one loses: the count is exact.
    for (const target of [1.01, 2, 3.33, 100, 1000]) {
      const exact = exactRtp(def, { target })
      const t = BigInt(Math.round(target * 100))
      const winning = (exact.numerator * 2n ** 32n * 10_000n) / (exact.denominator * t * 100n)
      // m = 2³² − n ≤ winning wins: n = 2³² − winning wins, n = 2³² − winning − 1 loses.
      const at = (n: bigint) => multiplierOf(def, { target }, [Number(n) / 2 ** 32])
      expect(at(2n ** 32n - winning)).toBe(t * 100n)
      expect(at(2n ** 32n - winning - 1n)).toBe(0n)
      expect(ratio(exact)).toBeLessThanOrEqual(0.99)
      expect(ratio(exact)).toBeGreaterThan(0.9899)
    }
  })

  it("roulette: every bet type returns 36/37, mixed boards no more", () => {
    const def = game("european-roulette")
    const boards = [
      [{ type: "straight", numbers: [17], chips: 1 }],
      [{ type: "split", numbers: [0, 2], chips: 1 }],
      [{ type: "street", numbers: [4, 5, 6], chips: 1 }],
      [{ type: "corner", numbers: [1, 2, 4, 5], chips: 1 }],
      [{ type: "line", numbers: [31, 32, 33, 34, 35, 36], chips: 1 }],
      [{ type: "dozen", numbers: [2], chips: 1 }],
      [{ type: "column", numbers: [3], chips: 1 }],
      [{ type: "black", chips: 1 }],
    ]
    for (const bets of boards) expect(exactRtp(def, { bets })).toEqual({ numerator: 36n, denominator: 37n })
    // Brute force over the 37 pockets for a mixed board (flooring may only lower it).
    const mixed = {
      bets: [
        { type: "red", chips: 3 },
        { type: "straight", numbers: [0], chips: 1 },
        { type: "odd", chips: 2 },
      ],
    }
    let sum = 0n
    for (let p = 0; p < 37; p++) sum += multiplierOf(def, mixed, [(p + 0.5) / 37])
    const exact = exactRtp(def, mixed)
    expect(sum * exact.denominator).toBe(exact.numerator * 37n * 10_000n)
    expect(ratio(exact)).toBeLessThanOrEqual(36 / 37)
  })

  it("mines: brute force over every mine layout equals the closed form", () => {
    const def = game("mines")
    // 2 mines, picks 0 and 7: all C(25,2) = 300 layouts. Floats that pick tiles i, then j of the rest.
    let sum = 0n
    let layouts = 0n
    for (let i = 0; i < MINES_TILES; i++) {
      for (let j = 0; j < MINES_TILES - 1; j++) {
        sum += multiplierOf(def, { mines: 2, picks: [0, 7] }, [(i + 0.5) / 25, (j + 0.5) / 24])
        layouts++
      }
    }
    const exact = exactRtp(def, { mines: 2, picks: [0, 7] })
    expect(sum * exact.denominator).toBe(exact.numerator * layouts * 10_000n)
    expect(rtpPercent(def, { mines: 24, picks: [3] })).toBe("99.00")
  })

  it("plinko: brute force over every path equals the binomial closed form (8–12 rows)", () => {
    for (const id of ["plinko", "plinko-storm"]) {
      const def = game(id)
      for (const risk of plinkoRisks) {
        for (let rows = 8; rows <= 12; rows++) {
          let sum = 0n
          for (let path = 0; path < 2 ** rows; path++) {
            const floats = Array.from({ length: rows }, (_, i) => ((path >> i) & 1 ? 0.75 : 0.25))
            sum += multiplierOf(def, { rows, risk }, floats)
          }
          const exact = exactRtp(def, { rows, risk })
          expect(sum * exact.denominator).toBe(exact.numerator * 2n ** BigInt(rows) * 10_000n)
        }
      }
    }
  })

  it("plinko: every table (8–16 rows, 3 risks, 2 sets) returns 94–98 % and is symmetric", () => {
    for (const id of ["plinko", "plinko-storm"]) {
      for (const risk of plinkoRisks) {
        for (let rows = 8; rows <= 16; rows++) {
          const r = ratio(exactRtp(game(id), { rows, risk }))
          expect(r).toBeGreaterThanOrEqual(0.94)
          expect(r).toBeLessThanOrEqual(0.98)
        }
      }
    }
  })
})

describe("slots", () => {
  // A small slot whose every stop combination (7·6·8·5·7 = 11,760) can be played one by one.
  const small: SlotParams = {
    lines: 20,
    symbols: [
      { id: "W", name: "Wild", kind: "wild", pays: [20, 50, 200], color: "#fff", glyph: "W" },
      { id: "S", name: "Scatter", kind: "scatter", pays: [2, 10, 50], color: "#fff", glyph: "S" },
      { id: "A", name: "A", kind: "normal", pays: [10, 25, 100], color: "#fff", glyph: "A" },
      { id: "B", name: "B", kind: "normal", pays: [5, 10, 40], color: "#fff", glyph: "B" },
      { id: "C", name: "C", kind: "normal", pays: [2, 5, 20], color: "#fff", glyph: "C" },
    ],
    reels: ["WABCCBA", "SABCCA", "ABWCSBCC", "ABCSC", "WCBACBA"],
  }

  it("the per-line enumeration equals playing every stop combination", () => {
    let sum = 0n
    let combos = 0n
    const lengths = small.reels.map((r) => r.length)
    const stops = [0, 0, 0, 0, 0]
    const walk = (reel: number) => {
      if (reel === 5) {
        sum += playSlot(
          small,
          stops.map((s, r) => (s + 0.5) / (lengths[r] ?? 1)),
        ).multiplier
        combos++
        return
      }
      for (let s = 0; s < (lengths[reel] ?? 0); s++) {
        stops[reel] = s
        walk(reel + 1)
      }
    }
    walk(0)
    const exact = slotRtp(small)
    expect(combos).toBe(11_760n)
    expect(sum * exact.denominator).toBe(exact.numerator * combos * 10_000n)
  })

  it("lines pay left to right; the wild substitutes and pays alone; a scatter breaks a line", () => {
    const pay = (letters: string) => linePay(small, [...letters]).pay
    expect(pay("AAABC")).toBe(10)
    expect(pay("WAAAC")).toBe(25)
    expect(pay("WWWBB")).toBe(40) // B five (40) beats W three (20)
    expect(pay("WWWCA")).toBe(20) // W three (20) beats C four (5)
    expect(pay("WWWWW")).toBe(200)
    expect(pay("SAAAA")).toBe(0)
    expect(pay("ASAAA")).toBe(0)
    expect(pay("AABAA")).toBe(0)
  })

  it("the window wraps the strips and scatters pay anywhere, in total bets", () => {
    const floats = (s: ReadonlyArray<number>) =>
      s.map((stop, r) => (stop + 0.5) / (small.reels[r]?.length ?? 1))
    const params: SlotParams = { ...small, lines: 10 }
    const outcome = playSlot(params, floats([0, 0, 3, 3, 2]))
    const window = [
      ["W", "A", "B"],
      ["S", "A", "B"],
      ["C", "S", "B"],
      ["S", "C", "A"],
      ["B", "A", "C"],
    ]
    expect(outcome.detail.window).toEqual(window)
    expect(outcome.detail.scatters).toBe(3)
    expect(outcome.detail.scatterPay).toBe(2)
    const lines = paylines.slice(0, 10).reduce(
      (sum, rows) =>
        sum +
        linePay(
          params,
          rows.map((row, reel) => window[reel]?.[row] ?? ""),
        ).pay,
      0,
    )
    expect(outcome.multiplier).toBe(BigInt(lines) * 1_000n + 20_000n)
    // Wrapping: reel 4 "ABCSC" at its last stop shows C, A, B.
    expect(slotWindow(params, [0, 0, 0, 4, 0])[3]).toEqual(["C", "A", "B"])
  })
})

const ratio = (r: { numerator: bigint; denominator: bigint }): number =>
  Number((r.numerator * 10n ** 12n) / r.denominator) / 1e12

describe("the catalogue's RTP table", () => {
  it("every slot, roulette and plinko title is in 94–98 %; dice, crash and mines carry the 1 % edge", () => {
    for (const def of catalogue) {
      const r = ratio(exactRtp(def))
      if (def.kind === "dice" || def.kind === "crash" || def.kind === "mines") {
        expect(r, def.id).toBeGreaterThan(0.989)
        expect(r, def.id).toBeLessThanOrEqual(0.99)
      } else {
        expect(r, def.id).toBeGreaterThanOrEqual(0.94)
        expect(r, def.id).toBeLessThanOrEqual(0.98)
      }
    }
  })

  it("is exactly this (a change to a strip or a table shows here)", () => {
    expect(Object.fromEntries(catalogue.map((g) => [g.id, rtpPercent(g)]))).toMatchInlineSnapshot(`
      {
        "aurora-ascent": "98.99",
        "aurora-millions": "95.45",
        "aurora-vault": "96.19",
        "cactus-cowboys": "95.67",
        "candy-lanterns": "94.84",
        "cherry-comet": "95.62",
        "clockwork-cats": "96.38",
        "comet-crash": "98.99",
        "comet-jackpot": "94.89",
        "dice-classic": "99.00",
        "european-roulette": "97.29",
        "fjord-fortunes": "96.46",
        "frost-giants": "95.71",
        "gem-mines": "99.00",
        "glowworm-grotto": "95.82",
        "golden-owl-jackpot": "94.93",
        "haunted-teacup": "95.92",
        "hot-chili-reels": "96.41",
        "ice-mines": "99.00",
        "lantern-festival": "96.30",
        "lucky-sevens": "96.68",
        "lumen-treasure": "95.35",
        "lunar-dice": "99.00",
        "meteor-gold": "95.77",
        "midnight-sun": "96.99",
        "mines": "99.00",
        "mushroom-circus": "95.69",
        "neon-koi": "96.40",
        "neon-roulette": "97.29",
        "owl-dice": "99.00",
        "owl-drop": "97.57",
        "owls-library": "96.77",
        "pirate-parrots": "95.88",
        "plinko": "97.57",
        "plinko-storm": "96.50",
        "prism-garden": "96.02",
        "rocket-fruit": "95.32",
        "rocket-owl": "98.99",
        "royal-roulette": "97.29",
        "rune-forge": "95.86",
        "solar-flare": "95.39",
        "starlight-bloom": "96.93",
        "viking-voyage": "95.72",
      }
    `)
  })
})
