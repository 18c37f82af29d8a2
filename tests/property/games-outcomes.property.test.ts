/**
 * Outcome derivation of the non-slot kinds, against reference evaluators written from
 * docs/fairness.md (tests/property/games-reference.ts): dice, crash, mines, plinko and roulette
 * from random 32-bit floats agree exactly with the reference (the derived value, the win and the
 * multiplier) and stay in range; and from seeds, a round is a pure function of
 * (serverSeed, clientSeed, nonce): the verifier's answer equals the reference applied to floats
 * derived with node:crypto (the product uses WebCrypto), jackpot draw included, every time.
 * (games.property.test.ts covers float ranges, option decoding and verifier = direct play.)
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { catalogue, type GameDefinition } from "../../services/games/catalogue.ts"
import { crashPoint, playCrash } from "../../services/games/crash.ts"
import { playDice } from "../../services/games/dice.ts"
import { minePositions, playMines } from "../../services/games/mines.ts"
import { ONE_X } from "../../services/games/outcome.ts"
import { floatsNeeded, isOptionsError, playRound } from "../../services/games/play.ts"
import { plinkoRisks, plinkoTable, plinkoTableSets } from "../../services/games/plinko.ts"
import { playRoulette } from "../../services/games/roulette.ts"
import { verifyRound } from "../../services/games/verify.ts"
import {
  diceOptions,
  edgyUint32,
  firstUintOf,
  indexOf,
  referenceCovered,
  referenceCrashPoint,
  referenceDice,
  referenceMines,
  referenceMinesPays,
  referenceRoulette,
  referenceUints,
  rouletteBet,
  TWO_32,
  toFloat,
  uint32,
  validOptions,
} from "./games-reference.ts"

const ofKind = (kind: GameDefinition["kind"]) => catalogue.filter((g) => g.kind === kind)
const edgeBp = fc.integer({ min: 0, max: 500 })

describe("dice", () => {
  /** Random floats, and floats whose roll is the target or next to it. */
  const diceCase = diceOptions.chain((o) =>
    fc
      .oneof(
        uint32,
        fc.integer({ min: -1, max: 1 }).map((d) => firstUintOf(o.target + d, 10_000)),
        fc.integer({ min: -1, max: 1 }).map((d) => firstUintOf(o.target, 10_000, d)),
      )
      .map((u) => ({ o, u })),
  )

  it("roll = ⌊f × 10,000⌋; under wins below the target, over above it; pays (100 − edge) ÷ chance", () => {
    fc.assert(
      fc.property(edgeBp, diceCase, (edge, { o, u }) => {
        const got = playDice({ edgeBp: edge }, o, [toFloat(u)])
        const ref = referenceDice(edge, o.target, o.direction, u)
        expect(got.multiplier).toBe(ref.multiplier)
        expect(got.detail.win).toBe(ref.win)
        expect(got.detail.roll).toBe(ref.roll / 100)
        expect(ref.roll).toBeGreaterThanOrEqual(0)
        expect(ref.roll).toBeLessThanOrEqual(9999)
        // 1 % to 98 % chance: the payout lies between 1.0102× and 99× at edge 1 %.
        if (edge === 100 && ref.win) {
          expect(got.multiplier).toBeGreaterThanOrEqual(10_102n)
          expect(got.multiplier).toBeLessThanOrEqual(990_000n)
        }
      }),
      { numRuns: 300 },
    )
  })

  it("the catalogue's dice titles play the same through playRound (wire target in percent)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ofKind("dice")), diceOptions, uint32, (def, o, u) => {
        if (def.kind !== "dice") throw new Error(def.kind)
        const played = playRound(def, { target: o.target / 100, direction: o.direction }, [toFloat(u)])
        if (isOptionsError(played)) throw new Error(played.error)
        expect(played.multiplier).toBe(referenceDice(def.params.edgeBp, o.target, o.direction, u).multiplier)
      }),
      { numRuns: 300 },
    )
  })
})

describe("crash", () => {
  it("the crash point is ⌊(100 − edge) × 2³² / (2³² − n)⌋ / 100, at least 1.00, and grows with n", () => {
    fc.assert(
      fc.property(edgeBp, uint32, uint32, (edge, u, v) => {
        const p = { edgeBp: edge, maxTarget: 1_000_000 }
        expect(crashPoint(p, toFloat(u))).toBe(referenceCrashPoint(edge, u))
        expect(crashPoint(p, toFloat(u))).toBeGreaterThanOrEqual(100)
        const [lo, hi] = u <= v ? [u, v] : [v, u]
        expect(crashPoint(p, toFloat(lo))).toBeLessThanOrEqual(crashPoint(p, toFloat(hi)))
      }),
      { numRuns: 1_000 },
    )
    // The ends of the float range: n = 0 → 0.99 → 1.00 (floored to the minimum); the last n is huge.
    const p = { edgeBp: 100, maxTarget: 1_000_000 }
    expect(crashPoint(p, 0)).toBe(100)
    expect(crashPoint(p, toFloat(TWO_32 - 1))).toBe(99 * TWO_32)
  })

  it("a target wins iff the crash point reaches it, paying target × bet; a lower target also wins", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ofKind("crash")),
        fc.integer({ min: 101, max: 50_000 }),
        fc.oneof(uint32, fc.integer({ min: -2, max: 2 })),
        (def, target, pick) => {
          if (def.kind !== "crash") throw new Error(def.kind)
          // Small picks: the floats around the first one that reaches the target (crash = target there).
          const edge = BigInt(10_000 - def.params.edgeBp)
          const first = TWO_32 - Number((edge * 2n ** 32n) / (100n * BigInt(target)))
          const u = pick <= 2 ? Math.min(TWO_32 - 1, Math.max(0, first + pick)) : pick
          if (pick <= 2 && first >= 1) {
            // The boundary itself: the first float wins the target, the one before does not.
            expect(playCrash(def.params, { target }, [toFloat(first)]).multiplier).toBe(BigInt(target) * 100n)
            expect(playCrash(def.params, { target }, [toFloat(first - 1)]).multiplier).toBe(0n)
          }
          const point = referenceCrashPoint(def.params.edgeBp, u)
          const got = playCrash(def.params, { target }, [toFloat(u)])
          expect(got.detail.crashPoint).toBe(point / 100)
          expect(got.multiplier).toBe(point >= target ? BigInt(target) * 100n : 0n)
          if (got.multiplier > 0n && target > 101) {
            expect(playCrash(def.params, { target: target - 1 }, [toFloat(u)]).multiplier).toBe(
              BigInt(target - 1) * 100n,
            )
          }
          expect(got.multiplier).toBeLessThanOrEqual(BigInt(def.params.maxTarget) * 100n)
        },
      ),
      { numRuns: 1_000 },
    )
  })
})

describe("mines", () => {
  const layout = fc.integer({ min: 1, max: 24 }).chain((mines) =>
    fc.record({
      mines: fc.constant(mines),
      picks: fc.uniqueArray(fc.integer({ min: 0, max: 24 }), { minLength: 1, maxLength: 25 - mines }),
      uints: fc.array(edgyUint32, { minLength: mines, maxLength: mines }),
    }),
  )

  it("mines are the first m draws without replacement: m distinct tiles 0–24, as the reference draws them", () => {
    fc.assert(
      fc.property(layout, ({ mines, uints }) => {
        const got = minePositions(mines, uints.map(toFloat))
        const ref = referenceMines(mines, uints)
        expect(got).toEqual([...ref].sort((a, b) => a - b))
        expect(new Set(got).size).toBe(mines)
        for (const t of got) expect(t >= 0 && t <= 24).toBe(true)
      }),
      { numRuns: 1_000 },
    )
  })

  it("the picks open in order until a mine; all safe pays (1 − edge) ÷ P(all safe), else 0", () => {
    fc.assert(
      fc.property(edgeBp, layout, (edge, { mines, picks, uints }) => {
        const got = playMines({ edgeBp: edge }, { mines, picks }, uints.map(toFloat))
        const set = referenceMines(mines, uints)
        const firstHit = picks.findIndex((t) => set.has(t))
        const opened = firstHit === -1 ? picks.length : firstHit
        expect(got.detail.opened).toBe(opened)
        expect(got.detail.hit).toBe(firstHit === -1 ? null : picks[firstHit])
        const pays = referenceMinesPays(edge, mines, picks.length)
        expect(got.multiplier).toBe(firstHit === -1 ? pays : 0n)
        // Paying at least the stake less the edge: P(all safe) ≤ 1.
        expect(pays).toBeGreaterThanOrEqual(BigInt(10_000 - edge))
      }),
      { numRuns: 1_000 },
    )
  })
})

describe("plinko", () => {
  it("bucket = number of floats ≥ 0.5 among the rows; the multiplier is that bucket's table entry", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ofKind("plinko")),
        fc.integer({ min: 8, max: 16 }),
        fc.constantFrom(...plinkoRisks),
        fc.array(edgyUint32, { minLength: 16, maxLength: 16 }),
        (def, rows, risk, uints) => {
          if (def.kind !== "plinko") throw new Error(def.kind)
          const played = playRound(def, { rows, risk }, uints.map(toFloat))
          if (isOptionsError(played)) throw new Error(played.error)
          const rights = uints.slice(0, rows).filter((u) => u >= TWO_32 / 2).length
          const table = plinkoTableSets[def.params.tableSet][risk][rows - 8] ?? []
          expect(table).toHaveLength(rows + 1)
          expect(played.detail.bucket).toBe(rights)
          expect(played.detail.path).toEqual(uints.slice(0, rows).map((u) => (u >= TWO_32 / 2 ? 1 : 0)))
          expect(played.multiplier).toBe(BigInt(table[rights] ?? -1))
          expect(played.multiplier).toBeLessThanOrEqual(BigInt(Math.max(...table)))
          expect(played.multiplier).toBeGreaterThan(0n)
        },
      ),
      { numRuns: 1_000 },
    )
  })

  it("every table is symmetric with its largest pay at the edges", () => {
    for (const tableSet of ["classic", "storm"] as const)
      for (const risk of plinkoRisks)
        for (let rows = 8; rows <= 16; rows++) {
          const t = plinkoTable({ tableSet }, { rows, risk })
          expect(t, `${tableSet} ${risk} ${rows}`).toEqual([...t].reverse())
          expect(t[0]).toBe(Math.max(...t))
        }
  })
})

describe("roulette", () => {
  const board = fc.array(rouletteBet, { minLength: 1, maxLength: 12 })
  /** Random floats, and the first and last float of a pocket. */
  const pocketEdges = fc.oneof(
    uint32,
    fc.integer({ min: 0, max: 36 }).map((k) => firstUintOf(k, 37)),
    fc.integer({ min: 1, max: 37 }).map((k) => firstUintOf(k, 37, -1)),
  )

  it("pocket = ⌊f × 37⌋; the multiplier is Σ winning chips × 36 ÷ covered over Σ chips, floored", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ofKind("roulette")), board, pocketEdges, (def, bets, u) => {
        const played = playRound(def, { bets }, [toFloat(u)])
        if (isOptionsError(played)) throw new Error(`${played.error} ${JSON.stringify(bets)}`)
        const pocket = indexOf(u, 37)
        expect(played.detail.pocket).toBe(pocket)
        expect(played.multiplier).toBe(referenceRoulette(bets, pocket))
        expect(played.detail.winningBets).toEqual(
          bets.flatMap((b, i) => (referenceCovered(b).has(pocket) ? [i] : [])),
        )
        expect(played.detail.color).toBe(
          pocket === 0 ? "green" : referenceCovered({ type: "red", chips: 1 }).has(pocket) ? "red" : "black",
        )
        // Never more than a straight-up win (36×), nothing when no bet covers the pocket.
        expect(played.multiplier).toBeLessThanOrEqual(36n * ONE_X)
        if (!bets.some((b) => referenceCovered(b).has(pocket))) expect(played.multiplier).toBe(0n)
      }),
      { numRuns: 1_000 },
    )
  })

  it("every legal board decodes (the generator's bets are the table's) and plays from one float", () => {
    fc.assert(
      fc.property(board, uint32, (bets, u) => {
        const played = playRoulette({ bets: bets.map((b) => ({ ...b, numbers: b.numbers ?? [] })) }, [
          toFloat(u),
        ])
        expect(played.multiplier).toBe(referenceRoulette(bets, indexOf(u, 37)))
      }),
      { numRuns: 300 },
    )
  })
})

describe("from the seeds", () => {
  const seed = fc.string({ minLength: 1, maxLength: 40 })
  /** The reference multiplier of a round from its 32-bit numerators. */
  const referenceMultiplier = (
    def: GameDefinition,
    options: unknown,
    uints: ReadonlyArray<number>,
  ): bigint => {
    const first = uints[0] ?? 0
    const o = options as Record<string, unknown>
    switch (def.kind) {
      case "dice": {
        const target = Math.round(Number(o.target) * 100)
        return referenceDice(def.params.edgeBp, target, o.direction === "over" ? "over" : "under", first)
          .multiplier
      }
      case "crash": {
        const target = Math.round(Number(o.target) * 100)
        return referenceCrashPoint(def.params.edgeBp, first) >= target ? BigInt(target) * 100n : 0n
      }
      case "mines": {
        const mines = Number(o.mines)
        const picks = o.picks as ReadonlyArray<number>
        const set = referenceMines(mines, uints)
        return picks.some((t) => set.has(t)) ? 0n : referenceMinesPays(def.params.edgeBp, mines, picks.length)
      }
      case "plinko": {
        const rows = Number(o.rows)
        const risk = plinkoRisks.find((r) => r === o.risk) ?? "low"
        const rights = uints.slice(0, rows).filter((u) => u >= TWO_32 / 2).length
        return BigInt(plinkoTableSets[def.params.tableSet][risk][rows - 8]?.[rights] ?? -1)
      }
      case "roulette":
        return referenceRoulette(o.bets as Parameters<typeof referenceRoulette>[0], indexOf(first, 37))
      case "slot":
        return -1n // slots: games-paytable.property.test.ts
    }
  }

  it("a round is a pure function of (serverSeed, clientSeed, nonce): the verifier = the reference from node:crypto floats", async () => {
    const kinds = catalogue.filter((g) => g.kind !== "slot")
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...kinds).chain((def) => validOptions(def.kind).map((options) => ({ def, options }))),
        seed,
        seed,
        fc.nat({ max: 1_000_000 }),
        async ({ def, options }, serverSeed, clientSeed, nonce) => {
          const need = floatsNeeded(def, options)
          const uints = referenceUints(serverSeed, clientSeed, nonce, need + 1)
          const input = { gameId: def.id, options, serverSeed, clientSeed, nonce }
          const first = await verifyRound(input)
          expect(first.multiplier).toBe(referenceMultiplier(def, options, uints))
          const draw = uints[need] ?? 0
          expect(first.jackpotHit).toBe(def.jackpot !== null && draw * def.jackpot.odds < TWO_32)
          // Again: the same answer, detail included.
          expect(await verifyRound(input)).toEqual(first)
        },
      ),
      { numRuns: 150 },
    )
  })

  it("jackpot slots: the jackpot draw is the float after the reels, hit iff ⌊f × 2³²⌋ × odds < 2³²", async () => {
    const jackpotSlots = catalogue.filter((g) => g.jackpot !== null)
    expect(jackpotSlots.length).toBeGreaterThan(0)
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...jackpotSlots),
        seed,
        seed,
        fc.nat({ max: 1_000_000 }),
        async (def, serverSeed, clientSeed, nonce) => {
          const need = floatsNeeded(def, {})
          const uints = referenceUints(serverSeed, clientSeed, nonce, need + 1)
          const verified = await verifyRound({ gameId: def.id, options: {}, serverSeed, clientSeed, nonce })
          const direct = playRound(def, {}, uints.slice(0, need).map(toFloat))
          if (isOptionsError(direct)) throw new Error(direct.error)
          expect(verified.multiplier).toBe(direct.multiplier)
          expect(verified.jackpotHit).toBe((uints[need] ?? 0) * (def.jackpot?.odds ?? 0) < TWO_32)
        },
      ),
      { numRuns: 60 },
    )
  })
})
