/**
 * The free-spin wallet's unlock (services/bonus-rules.ts `unlockOf`) and the unlock bound converted
 * to a currency (`eurCentsToMinorUp`), stated from the terms the player reads (docs/bonuses.md, "The
 * free-spin wallet"): the winnings first, up to the cap; then the extra bonus, a percent of the
 * deposit rounded down, in what the cap leaves; the rest of the winnings back to the house. Examples
 * are literal rows; the properties are invariants (nothing created or lost, the cap never passed),
 * never the formula again.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { eurCentsToMinorUp, unlockOf } from "../../services/bonus-rules.ts"

describe("unlockOf: literal rows", () => {
  // winnings, deposit, extra %, cap → winnings moved, extra, returned (minor units)
  const rows: ReadonlyArray<readonly [bigint, bigint, number, bigint, bigint, bigint, bigint]> = [
    [340n, 3_000n, 25, 10_000n, 340n, 750n, 0n], // 3.40 won, 30 EUR deposit: + 7.50 extra
    [12_000n, 2_000n, 25, 10_000n, 10_000n, 0n, 2_000n], // 120 won: 100 kept, no room for extra
    [9_800n, 2_000n, 25, 10_000n, 9_800n, 200n, 0n], // the extra stops at the cap
    [1n, 3n, 33, 10_000n, 1n, 0n, 0n], // 33 % of 3 cents rounds down to 0
    [500n, 10_001n, 0, 10_000n, 500n, 0n, 0n], // no extra promised
    [0n, 3_000n, 25, 0n, 0n, 0n, 0n], // a cap of 0 moves nothing
  ]
  it.each(rows)("won %s, deposit %s at %s %%, cap %s", (winnings, deposit, extraPercent, cap, w, e, r) => {
    expect(unlockOf({ winnings, deposit, extraPercent, cap })).toEqual({ winnings: w, extra: e, returned: r })
  })
})

describe("unlockOf: invariants", () => {
  const input = fc.record({
    winnings: fc.bigInt({ min: 0n, max: 10n ** 12n }),
    deposit: fc.bigInt({ min: 1n, max: 10n ** 12n }),
    extraPercent: fc.integer({ min: 0, max: 1_000 }),
    cap: fc.bigInt({ min: 0n, max: 10n ** 12n }),
  })

  it("moves or returns every cent won, never more", () => {
    fc.assert(
      fc.property(input, (i) => {
        const u = unlockOf(i)
        expect(u.winnings + u.returned).toBe(i.winnings)
        expect(u.winnings >= 0n && u.returned >= 0n && u.extra >= 0n).toBe(true)
      }),
    )
  })

  it("never passes the cap, and keeps the winnings first", () => {
    fc.assert(
      fc.property(input, (i) => {
        const u = unlockOf(i)
        expect(u.winnings + u.extra <= i.cap).toBe(true)
        // Something returned means the cap was full of winnings: no extra then.
        if (u.returned > 0n) expect(u.extra).toBe(0n)
      }),
    )
  })

  it("the extra is at most the percent of the deposit, and all of it when the cap has room", () => {
    fc.assert(
      fc.property(input, (i) => {
        const u = unlockOf(i)
        expect(u.extra * 100n <= i.deposit * BigInt(i.extraPercent)).toBe(true)
        // With a cap far above everything, the extra misses less than one cent of the percent.
        const roomy = unlockOf({ ...i, cap: 10n ** 15n })
        expect(roomy.extra * 100n + 100n > i.deposit * BigInt(i.extraPercent)).toBe(true)
      }),
    )
  })
})

describe("eurCentsToMinorUp: the unlock bound in a currency", () => {
  const scale = 10n ** 18n
  it("literal rates", () => {
    // EUR itself (rate 1, 100 cents): 20.00 EUR is 2000 cents.
    expect(eurCentsToMinorUp(2_000n, scale, 100n)).toBe(2_000n)
    // USD at 0.92 EUR a dollar: 20 EUR = 21.739… USD → 21.74 (rounded up, never short).
    expect(eurCentsToMinorUp(2_000n, (92n * scale) / 100n, 100n)).toBe(2_174n)
    // BTC at 60,000 EUR, 10^8 satoshi: 20 EUR = 33,333.33… → 33,334 satoshi.
    expect(eurCentsToMinorUp(2_000n, 60_000n * scale, 100_000_000n)).toBe(33_334n)
    // No rate: nothing can be asked.
    expect(eurCentsToMinorUp(2_000n, 0n, 100n)).toBe(0n)
  })
})
