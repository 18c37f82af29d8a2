/**
 * Properties of the Buy crypto fee tiers (services/onramp-rules.ts): fee + net = gross, the fee never
 * above the exact fee nor a cent below it, the crypto bought within one minor unit below the exact
 * value and never above it (the player's disfavour is under one minor unit), the verification
 * thresholds exactly at the spec's 200 / 100 EUR, and the amount bounds.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { RATE_SCALE } from "../../services/money-rules.ts"
import {
  ageOn,
  checkOnrampAmount,
  checkVerification,
  cryptoForEurCents,
  needsVerification,
  onrampBounds,
  onrampFee,
  onrampQuote,
  onrampTiers,
  onrampWidgets,
} from "../../services/onramp-rules.ts"

const tiers = fc.constantFrom(onrampTiers.standard, onrampTiers.saver)
const cents = fc.bigInt({ min: 1n, max: 10n ** 12n })
const subunits = fc.constantFrom(100n, 1_000_000n, 100_000_000n, 10n ** 18n)
/** EUR per whole unit, scaled: from 0.0001 EUR to 1,000,000 EUR. */
const rates = fc.bigInt({ min: RATE_SCALE / 10_000n, max: RATE_SCALE * 1_000_000n })

describe("onramp fee arithmetic", () => {
  it("fee + net = gross; the fee is the exact fee rounded down (never more, less by under a cent)", () => {
    fc.assert(
      fc.property(cents, tiers, (gross, tier) => {
        const f = onrampFee(gross, tier.feeBps)
        expect(f.feeEurCents + f.netEurCents).toBe(gross)
        // exact fee = gross × bps / 10000; compare scaled by 10000 to stay in integers.
        const exactScaled = gross * BigInt(tier.feeBps)
        expect(f.feeEurCents * 10_000n <= exactScaled).toBe(true)
        expect(exactScaled - f.feeEurCents * 10_000n < 10_000n).toBe(true)
        expect(f.feeEurCents >= 0n && f.netEurCents > 0n).toBe(true)
      }),
    )
  })

  it("the crypto bought is the exact value rounded down: never above it, short by under one minor unit", () => {
    fc.assert(
      fc.property(cents, rates, subunits, (net, rate, units) => {
        const amount = cryptoForEurCents(net, rate, units)
        if (amount === null) throw new Error("a positive rate always converts")
        // exact = net / 100 / (rate / RATE_SCALE) × units; scaled by the denominator 100 × rate.
        const numerator = net * RATE_SCALE * units
        const denominator = 100n * rate
        expect(amount * denominator <= numerator).toBe(true)
        expect(numerator - amount * denominator < denominator).toBe(true)
      }),
    )
  })

  it("a quote applies the tier's fee first, then converts only the net", () => {
    fc.assert(
      fc.property(cents, tiers, rates, subunits, (gross, tier, rate, units) => {
        const q = onrampQuote(gross, tier, rate, units)
        expect(q).not.toBeNull()
        expect(q?.cryptoAmount).toBe(
          cryptoForEurCents(onrampFee(gross, tier.feeBps).netEurCents, rate, units),
        )
      }),
    )
    expect(onrampQuote(100n, onrampTiers.standard, 0n, 100n)).toBeNull()
  })

  it("more EUR never buys less crypto", () => {
    fc.assert(
      fc.property(cents, cents, tiers, rates, subunits, (a, b, tier, rate, units) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a]
        const qlo = onrampQuote(lo, tier, rate, units)?.cryptoAmount ?? -1n
        const qhi = onrampQuote(hi, tier, rate, units)?.cryptoAmount ?? -1n
        expect(qlo <= qhi).toBe(true)
      }),
    )
  })

  it("the spec's examples: 5 % of 100.00 EUR is 5.00, 4.5 % of 150.00 is 6.75, 4.5 % of 0.21 EUR is 0.00 (rounded down)", () => {
    expect(onrampFee(10_000n, 500)).toEqual({
      grossEurCents: 10_000n,
      feeEurCents: 500n,
      netEurCents: 9_500n,
    })
    expect(onrampFee(15_000n, 450).feeEurCents).toBe(675n)
    expect(onrampFee(21n, 450).feeEurCents).toBe(0n)
    // 47.50 EUR of BTC at 60000 EUR: 79166.67 sat → 79166.
    expect(cryptoForEurCents(4_750n, 60_000n * RATE_SCALE, 100_000_000n)).toBe(79_166n)
  })
})

describe("tiers and thresholds (spec section 9)", () => {
  it("two widgets per tier: 5 %, 15 min, above 200 EUR and 4.5 %, 20 min, above 100 EUR", () => {
    const byTier = (fee: number) => onrampWidgets.filter((w) => w.tier.feeBps === fee)
    expect(byTier(500).map((w) => [w.tier.etaMinutes, w.tier.verificationAboveEur])).toEqual([
      [15, 200],
      [15, 200],
    ])
    expect(byTier(450).map((w) => [w.tier.etaMinutes, w.tier.verificationAboveEur])).toEqual([
      [20, 100],
      [20, 100],
    ])
    expect(onrampWidgets[0]?.id).toBe("banxa")
  })

  it("verification is needed strictly above the threshold", () => {
    fc.assert(
      fc.property(cents, tiers, (gross, tier) => {
        expect(needsVerification(gross, tier)).toBe(gross > BigInt(tier.verificationAboveEur) * 100n)
      }),
    )
    expect(needsVerification(20_000n, onrampTiers.standard)).toBe(false)
    expect(needsVerification(20_001n, onrampTiers.standard)).toBe(true)
    expect(needsVerification(10_000n, onrampTiers.saver)).toBe(false)
    expect(needsVerification(10_001n, onrampTiers.saver)).toBe(true)
  })

  it("amounts inside the bounds are accepted exactly, outside refused with the bound's message", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1_000_000_00n }), (c) => {
        const typed = `${c / 100n}.${(c % 100n).toString().padStart(2, "0")}`
        const checked = checkOnrampAmount(typed)
        const inside = c >= onrampBounds.minEurCents && c <= onrampBounds.maxEurCents
        expect(checked.ok).toBe(inside)
        if (checked.ok) expect(checked.eurCents).toBe(c)
        else expect(checked.message).toMatch(c < onrampBounds.minEurCents ? /minimum/ : /maximum/)
      }),
    )
    for (const bad of ["", "-5", "1e3", "20.001", "abc", "50 EUR"])
      expect(checkOnrampAmount(bad)).toMatchObject({ ok: false })
  })

  it("verification: 18 on the birthday, not the day before; impossible dates refused", () => {
    const today = new Date(Date.UTC(2026, 10, 23))
    expect(ageOn("2008-11-23", today)).toBe(18)
    expect(ageOn("2008-11-24", today)).toBe(17)
    expect(ageOn("2001-02-29", today)).toBeNull()
    expect(ageOn("2030-01-01", today)).toBeNull()
    const ok = { fullName: "Ada Lovelace", birthDate: "1990-12-10", documentNumber: "x1234567" }
    expect(checkVerification(ok, today)).toEqual({})
    expect(
      Object.keys(checkVerification({ fullName: "Ada", birthDate: "x", documentNumber: "1" }, today)).sort(),
    ).toEqual(["birthDate", "documentNumber", "fullName"])
  })
})
