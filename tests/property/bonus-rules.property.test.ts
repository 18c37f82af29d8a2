/**
 * Properties of the deposit-bonus rules (services/bonus-rules.ts: the band a deposit falls in, the
 * bonus with its cap, the deposit step's message), stated from the spec alone: the tier table below
 * is the spec's text as literal rows, given to the rules as a promotion's bands (the tiers are data
 * in the database; tests/server/bonuses.tiers.test.ts holds the seeded rows to the same table).
 * Nothing is read back from the implementation, and no formula of it is re-run for an expectation.
 *
 * Spec: "Bonus tiers by deposit count (promotions shown only when the user has fewer than 5 deposits):
 * First deposit: 50% bonus plus 100 free spins up to 16 EUR; 125% plus 125 spins up to 50 EUR; 200% plus
 * 150 spins above that. Each has a max of 8,000 EUR. Second deposit: 150% plus 100 spins. Third
 * deposit: 100%. Fourth: 100%. Fifth: 200%. (Each plus 100 spins, max 8,000 EUR, limit 20.)"
 *
 * Decisions taken: "up to 16 EUR" includes 16.00 (16.01 is the 125 % band), likewise 50.00; the cap
 * bounds the BONUS; `depositCount` is the number of COMPLETED deposits before this one (0: the first
 * deposit's tiers, 4: the fifth deposit's, 5 or more: no promotion). A negative count has no tier in
 * the table (there is no deposit number 0 or below), so it gets no promotion either.
 * Rounding (the spec is silent): the bonus is rounded DOWN to the cent.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type Band, bandFor, depositBonusOf, promotionMessage } from "../../services/bonus-rules.ts"

/** 8,000 EUR in EUR cents. */
const CAP = 800_000n

interface SpecTier {
  readonly deposit: number
  readonly percent: number
  readonly freeSpins: number
  readonly maxBonusEurCents: bigint
  readonly limit: number | null
}

/** The first deposit's bands, as inclusive EUR-cent ranges (`to: null`: no upper bound). */
const FIRST_DEPOSIT: ReadonlyArray<{
  readonly from: bigint
  readonly to: bigint | null
  readonly tier: SpecTier
}> = [
  {
    from: 0n,
    to: 1_600n,
    tier: { deposit: 1, percent: 50, freeSpins: 100, maxBonusEurCents: 800_000n, limit: null },
  },
  {
    from: 1_601n,
    to: 5_000n,
    tier: { deposit: 1, percent: 125, freeSpins: 125, maxBonusEurCents: 800_000n, limit: null },
  },
  {
    from: 5_001n,
    to: null,
    tier: { deposit: 1, percent: 200, freeSpins: 150, maxBonusEurCents: 800_000n, limit: null },
  },
]

/** Second to fifth deposits, by the number of completed deposits before them. */
const LATER: ReadonlyArray<{ readonly depositCount: number; readonly tier: SpecTier }> = [
  {
    depositCount: 1,
    tier: { deposit: 2, percent: 150, freeSpins: 100, maxBonusEurCents: 800_000n, limit: 20 },
  },
  {
    depositCount: 2,
    tier: { deposit: 3, percent: 100, freeSpins: 100, maxBonusEurCents: 800_000n, limit: 20 },
  },
  {
    depositCount: 3,
    tier: { deposit: 4, percent: 100, freeSpins: 100, maxBonusEurCents: 800_000n, limit: 20 },
  },
  {
    depositCount: 4,
    tier: { deposit: 5, percent: 200, freeSpins: 100, maxBonusEurCents: 800_000n, limit: 20 },
  },
]

const MAX_AMOUNT = 10n ** 12n

/** Any deposit, with the first deposit's band edges and the cap's neighbourhood drawn often. */
const amounts = fc.oneof(
  fc.bigInt({ min: 0n, max: MAX_AMOUNT }),
  fc.bigInt({ min: 0n, max: 10_000n }),
  fc.bigInt({ min: 1_590n, max: 1_610n }),
  fc.bigInt({ min: 4_990n, max: 5_010n }),
  fc.bigInt({ min: 399_990n, max: 400_010n }),
  fc.bigInt({ min: 533_320n, max: 533_350n }),
  fc.bigInt({ min: 799_990n, max: 800_010n }),
)

/** Counts that show a promotion (the first to the fifth deposit). */
const promoCounts = fc.integer({ min: 0, max: 4 })
/** Counts from the fifth completed deposit on. */
const laterCounts = fc.integer({ min: 5, max: 1_000 })
const negativeCounts = fc.integer({ min: -1_000, max: -1 })

/** A deposit (count and amount) with the spec's row for it: a first-deposit band, or a later tier. */
const specRows = fc.oneof(
  fc
    .constantFrom(...FIRST_DEPOSIT)
    .chain((band) =>
      fc.tuple(
        fc.constant({ depositCount: 0, tier: band.tier }),
        fc.bigInt({ min: band.from, max: band.to ?? MAX_AMOUNT }),
      ),
    ),
  fc.tuple(fc.constantFrom(...LATER), amounts),
)

/** The spec's tiers as the bands of each deposit number's promotion (the rules' input). */
const bandsOf = (depositCount: number): ReadonlyArray<Band> =>
  depositCount === 0
    ? FIRST_DEPOSIT.map((b) => ({ upToEurCents: b.to, percent: b.tier.percent, freeSpins: b.tier.freeSpins }))
    : LATER.filter((r) => r.depositCount === depositCount).map((r) => ({
        upToEurCents: null,
        percent: r.tier.percent,
        freeSpins: r.tier.freeSpins,
      }))

/** The band the rules choose for this deposit, as the spec's (percent, spins) pair. */
const chosen = (depositCount: number, amount: bigint) => {
  const band = bandFor(bandsOf(depositCount), amount)
  return band === undefined ? null : { percent: band.percent, freeSpins: band.freeSpins }
}

/** The bonus a deposit earns under its band, capped at 8,000 EUR: none (0) without a band. */
const bonusOf = (depositCount: number, amount: bigint): bigint => {
  const band = bandFor(bandsOf(depositCount), amount)
  return band === undefined ? 0n : depositBonusOf(amount, band.percent, CAP)
}

const message = (
  depositCount: number,
  amountEurCents: bigint,
  reachesMinPromotion = true,
  min = "20.00 EUR",
) =>
  promotionMessage({
    band: bandFor(bandsOf(depositCount), amountEurCents),
    maxBonusEurCents: CAP,
    reachesMinPromotion,
    minPromotionText: min,
  })

describe("tiers", () => {
  it("the first deposit's band edges: 16.00 EUR is 50 %, 16.01 is 125 %, 50.00 is 125 %, 50.01 is 200 %", () => {
    const edges: ReadonlyArray<readonly [bigint, number, number]> = [
      [0n, 50, 100],
      [1n, 50, 100],
      [1_599n, 50, 100],
      [1_600n, 50, 100],
      [1_601n, 125, 125],
      [3_000n, 125, 125],
      [5_000n, 125, 125],
      [5_001n, 200, 150],
      [1_000_000n, 200, 150],
      [MAX_AMOUNT, 200, 150],
    ]
    for (const [amount, percent, freeSpins] of edges) {
      expect(chosen(0, amount), `first deposit of ${amount} cents`).toEqual({ percent, freeSpins })
    }
  })

  it("first deposit: any amount within a band gets that band's tier", () => {
    const banded = fc
      .constantFrom(...FIRST_DEPOSIT)
      .chain((band) => fc.tuple(fc.constant(band), fc.bigInt({ min: band.from, max: band.to ?? MAX_AMOUNT })))
    fc.assert(
      fc.property(banded, ([band, amount]) => {
        expect(chosen(0, amount)).toEqual({ percent: band.tier.percent, freeSpins: band.tier.freeSpins })
      }),
    )
  })

  it("second to fifth deposits: 150, 100, 100, 200 % with 100 spins, whatever the amount", () => {
    fc.assert(
      fc.property(fc.constantFrom(...LATER), amounts, (row, amount) => {
        expect(chosen(row.depositCount, amount)).toEqual({
          percent: row.tier.percent,
          freeSpins: row.tier.freeSpins,
        })
      }),
    )
  })

  it("a promotion without bands (none seeded for the deposit number) chooses nothing, pays nothing, says nothing", () => {
    fc.assert(
      fc.property(fc.oneof(laterCounts, negativeCounts), amounts, fc.boolean(), (count, amount, reaches) => {
        expect(chosen(count, amount)).toBeNull()
        expect(bonusOf(count, amount)).toBe(0n)
        expect(message(count, amount, reaches)).toBeNull()
      }),
    )
  })
})

describe("the bonus", () => {
  it("known examples", () => {
    // [completed deposits, deposit in EUR cents, bonus in EUR cents, free spins]
    const examples: ReadonlyArray<readonly [number, bigint, bigint, number]> = [
      [0, 0n, 0n, 100],
      [0, 1n, 0n, 100], // 50 % of 1 cent, rounded down
      [0, 3n, 1n, 100], // 1.5 → 1
      [0, 1_600n, 800n, 100], // 16.00 EUR at 50 %
      [0, 1_601n, 2_001n, 125], // 16.01 EUR at 125 %: 2001.25 → 2001
      [0, 3_000n, 3_750n, 125], // 30.00 EUR at 125 %
      [0, 5_000n, 6_250n, 125],
      [0, 5_001n, 10_002n, 150], // 50.01 EUR at 200 %
      [0, 399_999n, 799_998n, 150],
      [0, 400_000n, 800_000n, 150], // exactly the cap
      [0, 400_001n, 800_000n, 150], // capped
      [0, 1_000_000n, 800_000n, 150], // 10,000 EUR: 200 % would be 20,000 EUR, capped at 8,000
      [1, 1n, 1n, 100], // 150 % of 1 cent: 1.5 → 1
      [1, 333n, 499n, 100], // 499.5 → 499
      [1, 10_000n, 15_000n, 100], // second deposit, 100 EUR
      [1, 533_333n, 799_999n, 100], // 799999.5 → 799999
      [1, 533_334n, 800_000n, 100], // 800001 → capped
      [2, 5_000n, 5_000n, 100],
      [3, 777n, 777n, 100],
      [3, 900_000n, 800_000n, 100],
      [4, 5_000n, 10_000n, 100], // fifth deposit, 50 EUR at 200 %
      [4, 4_999n, 9_998n, 100],
      [4, MAX_AMOUNT, 800_000n, 100],
    ]
    for (const [count, amount, bonus, freeSpins] of examples) {
      expect(bonusOf(count, amount), `bonus for count ${count}, ${amount} cents`).toBe(bonus)
      expect(chosen(count, amount)?.freeSpins, `spins for count ${count}, ${amount} cents`).toBe(freeSpins)
    }
  })

  it("is the tier's percent of the deposit rounded down to the cent, unless that passes the cap", () => {
    fc.assert(
      fc.property(specRows, ([row, amount]) => {
        const bonus = bonusOf(row.depositCount, amount)
        const hundredTimesExact = amount * BigInt(row.tier.percent)
        if (hundredTimesExact >= CAP * 100n) {
          expect(bonus).toBe(CAP)
        } else {
          // bonus ≤ exact < bonus + 1 cent
          expect(bonus * 100n).toBeLessThanOrEqual(hundredTimesExact)
          expect(hundredTimesExact).toBeLessThan((bonus + 1n) * 100n)
        }
      }),
    )
  })

  it("is never above 8,000 EUR, never negative, never above twice the deposit", () => {
    fc.assert(
      fc.property(promoCounts, amounts, (count, amount) => {
        const bonus = bonusOf(count, amount)
        expect(bonus).toBeLessThanOrEqual(CAP)
        expect(bonus).toBeGreaterThanOrEqual(0n)
        expect(bonus).toBeLessThanOrEqual(amount * 2n)
      }),
    )
  })

  it("never decreases as the deposit grows, for a given deposit number (also across the bands)", () => {
    fc.assert(
      fc.property(promoCounts, amounts, amounts, (count, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        expect(bonusOf(count, lo)).toBeLessThanOrEqual(bonusOf(count, hi))
      }),
    )
    fc.assert(
      fc.property(promoCounts, amounts, (count, amount) => {
        expect(bonusOf(count, amount)).toBeLessThanOrEqual(bonusOf(count, amount + 1n))
      }),
    )
  })
})

describe("the promotion message", () => {
  it("known messages", () => {
    const examples: ReadonlyArray<readonly [number, bigint, boolean, string, string | null]> = [
      [0, 3_000n, true, "20.00 EUR", "This deposit gets 125% bonus + 125 free spins (up to 8,000 EUR)"],
      [0, 3_000n, false, "20.00 EUR", "Deposit at least 20.00 EUR to get 125% bonus + 125 free spins"],
      [0, 0n, false, "20.00 EUR", "Deposit at least 20.00 EUR to get 50% bonus + 100 free spins"],
      [0, 1_600n, true, "20.00 EUR", "This deposit gets 50% bonus + 100 free spins (up to 8,000 EUR)"],
      [0, 1_601n, true, "20.00 EUR", "This deposit gets 125% bonus + 125 free spins (up to 8,000 EUR)"],
      [0, 5_001n, true, "20.00 EUR", "This deposit gets 200% bonus + 150 free spins (up to 8,000 EUR)"],
      [1, 10_000n, true, "20.00 EUR", "This deposit gets 150% bonus + 100 free spins (up to 8,000 EUR)"],
      [2, 10_000n, true, "20.00 EUR", "This deposit gets 100% bonus + 100 free spins (up to 8,000 EUR)"],
      [3, 10_000n, true, "20.00 EUR", "This deposit gets 100% bonus + 100 free spins (up to 8,000 EUR)"],
      [4, 10_000n, true, "20.00 EUR", "This deposit gets 200% bonus + 100 free spins (up to 8,000 EUR)"],
      [4, 100n, false, "0.0005 BTC", "Deposit at least 0.0005 BTC to get 200% bonus + 100 free spins"],
      [5, 3_000n, true, "20.00 EUR", null],
      [5, 3_000n, false, "20.00 EUR", null],
    ]
    for (const [count, amount, reaches, min, expected] of examples) {
      expect(
        message(count, amount, reaches, min),
        `count ${count}, ${amount} cents, reaches ${reaches}`,
      ).toBe(expected)
    }
  })

  it("for 0 to 4 completed deposits, names the tier's offer whether or not the minimum is reached", () => {
    fc.assert(
      fc.property(specRows, ([row, amount]) => {
        const offer = `${row.tier.percent}% bonus + ${row.tier.freeSpins} free spins`
        expect(message(row.depositCount, amount, true)).toBe(`This deposit gets ${offer} (up to 8,000 EUR)`)
        expect(message(row.depositCount, amount, false, "12.34 USD")).toBe(
          `Deposit at least 12.34 USD to get ${offer}`,
        )
      }),
    )
  })
})
