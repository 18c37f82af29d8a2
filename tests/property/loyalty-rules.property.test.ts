/**
 * The loyalty rules (services/loyalty-rules.ts) against literal examples written from docs/loyalty.md
 * and properties that hold for any input: 1 point = 1 EUR of real-money bets times the game's weight,
 * the level is the highest threshold reached and never goes down, progress runs 0 … 100 between two
 * thresholds, cashback is the loss times the level's basis points rounded down, ISO weeks start on
 * Monday (UTC) and a week's cashback is due 48 hours after it ends (Wednesday 00:00 UTC). The level table below is written out here, not read from the code or the database.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  cashbackDueAt,
  cashbackOf,
  dueCashbackWeek,
  formatBpsPercent,
  formatFactor,
  formatPoints,
  heldLevel,
  isoWeekStart,
  isWeekStart,
  levelFor,
  perksOf,
  pointsOf,
  previousIsoWeekStart,
  progressOf,
  progressText,
  scaledLimit,
  type TierRule,
  weekBounds,
  weightedWagerUnits,
} from "../../services/loyalty-rules.ts"
import { Messages } from "../../services/rules.ts"

/** EUR per whole unit, × 10^18. */
const ONE_EUR = 10n ** 18n

const tier = (
  level: number,
  name: string,
  minPoints: bigint,
  cashbackBps: number,
  withdrawLimitBps: number,
) => ({ level, name, minPoints, cashbackBps, withdrawLimitBps, extraPerks: [] }) satisfies TierRule

// Deliberately out of order: the rules sort by threshold.
const TIERS: ReadonlyArray<TierRule> = [
  tier(3, "Gold", 5_000n, 500, 15_000),
  tier(1, "Bronze", 0n, 0, 10_000),
  tier(5, "Diamond", 100_000n, 1_000, 30_000),
  tier(2, "Silver", 1_000n, 200, 12_500),
  tier(4, "Platinum", 25_000n, 800, 20_000),
]

describe("points", () => {
  it("count EUR at the rate, times the game's weight, in ten-thousandths of a EUR", () => {
    // 20.00 EUR on a slot (100 %): 20 points.
    expect(weightedWagerUnits(2_000n, ONE_EUR, 100n, 100)).toBe(200_000n)
    expect(pointsOf(200_000n)).toBe(20n)
    // 50.00 EUR on dice (10 %): 5 points.
    expect(pointsOf(weightedWagerUnits(5_000n, ONE_EUR, 100n, 10))).toBe(5n)
    // 1 cent at 10 %: a tenth of a cent still counts (10 units).
    expect(weightedWagerUnits(1n, ONE_EUR, 100n, 10)).toBe(10n)
    // 0.001 BTC (10^5 satoshi) at 60,000 EUR per BTC on plinko (50 %): 60.00 EUR × 50 % = 30 points.
    expect(pointsOf(weightedWagerUnits(100_000n, 60_000n * ONE_EUR, 100_000_000n, 50))).toBe(30n)
    // No rate, no weight or nothing bet: nothing.
    expect(weightedWagerUnits(5_000n, 0n, 100n, 100)).toBe(0n)
    expect(weightedWagerUnits(5_000n, ONE_EUR, 100n, 0)).toBe(0n)
    expect(weightedWagerUnits(0n, ONE_EUR, 100n, 100)).toBe(0n)
    expect(pointsOf(9_999n)).toBe(0n)
    expect(pointsOf(-5n)).toBe(0n)
  })

  it("grow with the stake and never exceed its EUR worth", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 100 }),
        (a, b, weight) => {
          const lo = a < b ? a : b
          const hi = a < b ? b : a
          expect(weightedWagerUnits(lo, ONE_EUR, 100n, weight)).toBeLessThanOrEqual(
            weightedWagerUnits(hi, ONE_EUR, 100n, weight),
          )
          // EUR cents × 100 units per cent at 100 %: the weighted worth is at most that.
          expect(weightedWagerUnits(hi, ONE_EUR, 100n, weight)).toBeLessThanOrEqual(hi * 100n)
        },
      ),
    )
  })
})

describe("levels", () => {
  it("are the highest threshold reached", () => {
    const name = (points: bigint) => levelFor(TIERS, points)?.name
    expect(name(0n)).toBe("Bronze")
    expect(name(999n)).toBe("Bronze")
    expect(name(1_000n)).toBe("Silver")
    expect(name(4_999n)).toBe("Silver")
    expect(name(5_000n)).toBe("Gold")
    expect(name(25_000n)).toBe("Platinum")
    expect(name(100_000n)).toBe("Diamond")
    expect(name(10n ** 15n)).toBe("Diamond")
    expect(levelFor([], 10n)).toBeUndefined()
  })

  it("never go down: a level reached before is kept when points fall", () => {
    expect(heldLevel(TIERS, 900n, 2)?.name).toBe("Silver")
    expect(heldLevel(TIERS, 6_000n, 2)?.name).toBe("Gold")
    expect(heldLevel(TIERS, 10n, undefined)?.name).toBe("Bronze")
    // A level no longer in the table: the points decide.
    expect(heldLevel(TIERS, 1_200n, 9)?.name).toBe("Silver")
  })

  it("rise with points", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 7n }), fc.bigInt({ min: 0n, max: 10n ** 7n }), (a, b) => {
        const lo = a < b ? a : b
        const hi = a < b ? b : a
        expect(levelFor(TIERS, lo)?.level ?? 0).toBeLessThanOrEqual(levelFor(TIERS, hi)?.level ?? 0)
      }),
    )
  })
})

describe("progress", () => {
  const silver = tier(2, "Silver", 1_000n, 200, 12_500)
  it("runs from this level's threshold to the next one's, rounded down", () => {
    expect(progressOf(TIERS, silver, 2_000n)).toMatchObject({ pointsToNext: 3_000n, percent: 25 })
    expect(progressOf(TIERS, silver, 1_000n)).toMatchObject({ pointsToNext: 4_000n, percent: 0 })
    expect(progressOf(TIERS, silver, 4_999n)).toMatchObject({ pointsToNext: 1n, percent: 99 })
    expect(progressOf(TIERS, silver, 2_000n).next?.name).toBe("Gold")
    // A held level above the points (points taken back by a rollback): 0 %, the full way to go.
    expect(progressOf(TIERS, silver, 900n)).toMatchObject({ pointsToNext: 4_100n, percent: 0 })
  })

  it("is complete at the top", () => {
    const diamond = tier(5, "Diamond", 100_000n, 1_000, 30_000)
    expect(progressOf(TIERS, diamond, 150_000n)).toEqual({
      next: undefined,
      pointsToNext: undefined,
      percent: 100,
    })
  })

  it("stays within 0 … 100 for any points", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 7n }), (points) => {
        const held = levelFor(TIERS, points)
        if (held === undefined) throw new Error("no level")
        const { percent } = progressOf(TIERS, held, points)
        expect(percent).toBeGreaterThanOrEqual(0)
        expect(percent).toBeLessThanOrEqual(100)
      }),
    )
  })

  it("says what is left in words", () => {
    expect(progressText({ name: "Gold" }, "3000")).toBe("3,000 points to Gold")
    expect(progressText({ name: "Gold" }, "1")).toBe("1 point to Gold")
    expect(progressText(null, null)).toBe("You hold the highest level.")
  })
})

describe("cashback", () => {
  it("is the net loss times the level's share, rounded down; nothing without a loss", () => {
    // 1,000.00 EUR lost at 2 %: 20.00 EUR.
    expect(cashbackOf(100_000n, 200)).toBe(2_000n)
    // 0.99 EUR at 5 %: 4.95 cents → 4 cents.
    expect(cashbackOf(99n, 500)).toBe(4n)
    expect(cashbackOf(0n, 1_000)).toBe(0n)
    expect(cashbackOf(-5_000n, 1_000)).toBe(0n)
    expect(cashbackOf(100_000n, 0)).toBe(0n)
  })

  it("never exceeds the loss", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.integer({ min: 0, max: 10_000 }),
        (loss, bps) => {
          const paid = cashbackOf(loss, bps)
          expect(paid).toBeGreaterThanOrEqual(0n)
          expect(paid).toBeLessThanOrEqual(loss)
        },
      ),
    )
  })
})

describe("the withdrawal-limit perk", () => {
  it("multiplies a limit, rounded down", () => {
    expect(scaledLimit(500_000n, 10_000)).toBe(500_000n)
    expect(scaledLimit(500_000n, 12_500)).toBe(625_000n)
    expect(scaledLimit(333n, 15_000)).toBe(499n)
  })
})

describe("ISO weeks (UTC, Monday start)", () => {
  it("start on the Monday of the instant's week", () => {
    // Friday 27 November 2026 → Monday 23 November.
    expect(isoWeekStart(Date.parse("2026-11-27T20:00:00Z"))).toBe("2026-11-23")
    // Monday just after midnight, and Sunday just before: one week apart.
    expect(isoWeekStart(Date.parse("2026-11-23T00:00:00Z"))).toBe("2026-11-23")
    expect(isoWeekStart(Date.parse("2026-11-22T23:59:59.999Z"))).toBe("2026-11-16")
    // Across a year's end: Thursday 1 January 2026 is in the week of Monday 29 December 2025.
    expect(isoWeekStart(Date.parse("2026-01-01T12:00:00Z"))).toBe("2025-12-29")
    expect(previousIsoWeekStart(Date.parse("2026-11-27T20:00:00Z"))).toBe("2026-11-16")
    expect(weekBounds("2026-11-16")).toEqual({
      start: new Date("2026-11-16T00:00:00Z"),
      end: new Date("2026-11-23T00:00:00Z"),
    })
  })

  it("pay a week's cashback 48 hours after it ends: from Wednesday 00:00 UTC", () => {
    expect(cashbackDueAt("2026-11-16")).toBe(Date.parse("2026-11-25T00:00:00Z"))
    // Tuesday 24 November, a second before: still the week before; from Wednesday, the week of the 16th.
    expect(dueCashbackWeek(Date.parse("2026-11-24T23:59:59Z"))).toBe("2026-11-09")
    expect(dueCashbackWeek(Date.parse("2026-11-25T00:00:00Z"))).toBe("2026-11-16")
    expect(dueCashbackWeek(Date.parse("2026-11-29T12:00:00Z"))).toBe("2026-11-16")
    expect(dueCashbackWeek(Date.parse("2026-11-30T08:00:00Z"))).toBe("2026-11-16")
  })

  it("pay the latest week that is due, for any instant", () => {
    const HOUR = 3_600_000
    fc.assert(
      fc.property(fc.integer({ min: 30 * 86_400_000, max: 4_102_444_800_000 }), (ms) => {
        const week = dueCashbackWeek(ms)
        expect(isWeekStart(week)).toBe(true)
        const end = weekBounds(week).end.getTime()
        // Due: its end is at least 48 hours ago; the next week's is not.
        expect(end + 48 * HOUR).toBeLessThanOrEqual(ms)
        expect(end + 7 * 86_400_000 + 48 * HOUR).toBeGreaterThan(ms)
      }),
    )
  })

  it("names only Mondays", () => {
    expect(isWeekStart("2026-11-23")).toBe(true)
    expect(isWeekStart("2026-11-25")).toBe(false)
    expect(isWeekStart("2026-02-30")).toBe(false)
    expect(isWeekStart("23/11/2026")).toBe(false)
  })

  it("hold the instant, for any instant", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        const start = isoWeekStart(ms)
        expect(isWeekStart(start)).toBe(true)
        const { start: from, end } = weekBounds(start)
        expect(from.getTime()).toBeLessThanOrEqual(ms)
        expect(ms).toBeLessThan(end.getTime())
      }),
    )
  })
})

describe("the words", () => {
  it("of percentages, factors and points", () => {
    expect(formatBpsPercent(500)).toBe("5 %")
    expect(formatBpsPercent(250)).toBe("2.5 %")
    expect(formatBpsPercent(25)).toBe("0.25 %")
    expect(formatBpsPercent(1_000)).toBe("10 %")
    expect(formatFactor(10_000)).toBe("×1")
    expect(formatFactor(12_500)).toBe("×1.25")
    expect(formatFactor(15_000)).toBe("×1.5")
    expect(formatFactor(30_000)).toBe("×3")
    expect(formatPoints("100000")).toBe("100,000")
    expect(formatPoints(999n)).toBe("999")
  })

  it("of the level-up toast", () => {
    expect(Messages.levelUp("Gold")).toBe("Level up! You are now Gold.")
  })

  it("of a level's perks: the cashback, the withdrawal limit, then the operator's", () => {
    expect(perksOf(tier(1, "Bronze", 0n, 0, 10_000))).toEqual([])
    expect(perksOf({ ...tier(3, "Gold", 5_000n, 500, 15_000), extraPerks: ["A birthday gift"] })).toEqual([
      "5 % weekly cashback on net losses, paid as cash",
      "Daily withdrawal limit ×1.5",
      "A birthday gift",
    ])
  })
})
