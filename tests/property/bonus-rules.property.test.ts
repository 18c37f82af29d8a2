/**
 * Properties of the bonus tiers (services/bonus-rules.ts, spec section 9): the first deposit's bands
 * at 16 and 50 EUR (bounds included in the lower band), the later tiers by count, none from the fifth
 * completed deposit on, the 8,000 EUR cap on the bonus, and the promotion message.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  bonusEurCents,
  laterTiers,
  PROMOTION_DEPOSIT_COUNT,
  promotionMessage,
  showsPromotions,
  tierFor,
} from "../../services/bonus-rules.ts"

const cents = fc.bigInt({ min: 0n, max: 10n ** 12n })

describe("tiers", () => {
  it("first deposit: 50 % up to 16.00 EUR, 125 % up to 50.00 EUR, 200 % above", () => {
    expect(tierFor(0, 1_600n)?.percent).toBe(50)
    expect(tierFor(0, 1_601n)?.percent).toBe(125)
    expect(tierFor(0, 5_000n)?.percent).toBe(125)
    expect(tierFor(0, 5_001n)?.percent).toBe(200)
    expect(tierFor(0, 0n)?.freeSpins).toBe(100)
    expect(tierFor(0, 3_000n)?.freeSpins).toBe(125)
    expect(tierFor(0, 5_001n)?.freeSpins).toBe(150)
  })

  it("the first deposit's percent never decreases with the amount", () => {
    fc.assert(
      fc.property(cents, cents, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        expect(tierFor(0, lo)?.percent ?? 0).toBeLessThanOrEqual(tierFor(0, hi)?.percent ?? 0)
      }),
    )
  })

  it("second to fifth deposits: 150, 100, 100, 200 % whatever the amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), cents, (count, amount) => {
        expect(tierFor(count, amount)).toEqual(laterTiers[count - 1])
      }),
    )
    expect(laterTiers.map((t) => t.percent)).toEqual([150, 100, 100, 200])
  })

  it("no promotion from 5 completed deposits on, nor for a negative count", () => {
    fc.assert(
      fc.property(fc.integer({ min: PROMOTION_DEPOSIT_COUNT, max: 10_000 }), cents, (count, amount) => {
        expect(tierFor(count, amount)).toBeNull()
        expect(showsPromotions(count)).toBe(false)
        expect(
          promotionMessage({
            depositCount: count,
            amountEurCents: amount,
            reachesMinPromotion: true,
            minPromotionText: "20.00 EUR",
          }),
        ).toBeNull()
      }),
    )
    expect(tierFor(-1, 1_000n)).toBeNull()
  })
})

describe("the bonus", () => {
  it("is the tier's percent of the deposit, capped at 8,000 EUR", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), cents, (count, amount) => {
        const tier = tierFor(count, amount)
        expect(tier).not.toBeNull()
        if (tier === null) return
        const bonus = bonusEurCents(tier, amount)
        expect(bonus).toBeLessThanOrEqual(800_000n)
        expect(bonus).toBe(
          (amount * BigInt(tier.percent)) / 100n > 800_000n
            ? 800_000n
            : (amount * BigInt(tier.percent)) / 100n,
        )
      }),
    )
    const top = tierFor(0, 10_000_000n)
    if (top !== null) expect(bonusEurCents(top, 10_000_000n)).toBe(800_000n)
  })
})

describe("the promotion message", () => {
  it("asks for the minimum below minPromotion, names the offer above", () => {
    expect(
      promotionMessage({
        depositCount: 0,
        amountEurCents: 1_000n,
        reachesMinPromotion: false,
        minPromotionText: "20.00 EUR",
      }),
    ).toBe("Deposit at least 20.00 EUR to get 50% bonus + 100 free spins")
    expect(
      promotionMessage({
        depositCount: 1,
        amountEurCents: 3_000n,
        reachesMinPromotion: true,
        minPromotionText: "20.00 EUR",
      }),
    ).toBe("This deposit gets 150% bonus + 100 free spins (up to 8,000 EUR)")
  })
})
