/**
 * Properties of the money rules both sides apply (services/money-rules.ts): amounts typed
 * and formatted round-trip, conversions at an exact rate stay within one minor unit of the truth and
 * never below a quick amount, the 10 EUR gateway gate at its boundary, the cascade's next gateway
 * and the 'Failed to process' mark, and the payment cookie read back from garbage.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  emptyPaymentConfig,
  formatAmount,
  formatDecimal,
  fromEuros,
  MoneyConstants,
  MoneyMessages,
  markFailed,
  meetsMinimum,
  nextGateway,
  parseAmount,
  parseDecimal,
  parsePaymentConfig,
  passesGatewayGate,
  RATE_SCALE,
  serializePaymentConfig,
  toEurCents,
} from "../../services/money-rules.ts"
import { paymentCookieString, paymentCookieValue } from "../../services/payment-cookie.ts"

/** subunits_to_unit of real currencies: JPY-like 1, cents, mills, satoshi, wei. */
const subunits = fc.constantFrom(1n, 100n, 1_000n, 100_000_000n, 10n ** 18n)
/** A rate as the list carries it: up to 6 whole digits and 18 decimals, never zero. */
const rate = fc
  .tuple(fc.bigInt({ min: 0n, max: 999_999n }), fc.bigInt({ min: 0n, max: RATE_SCALE - 1n }))
  .map(([whole, fraction]) => whole * RATE_SCALE + fraction)
  .filter((r) => r > 0n)

describe("amounts as typed", () => {
  it("formatAmount then parseAmount gives the amount back (when it fits the field)", () => {
    fc.assert(
      fc.property(subunits, fc.bigInt({ min: 0n, max: 10n ** 30n }), (unit, minor) => {
        const text = formatAmount(minor, unit)
        fc.pre(text.length <= MoneyConstants.amountMaxLength)
        expect(parseAmount(text, unit)).toBe(minor)
      }),
    )
  })

  it("a comma is a decimal point; whitespace around is ignored", () => {
    expect(parseAmount(" 30,5 ", 100n)).toBe(3050n)
    expect(parseAmount("30.", 100n)).toBe(3000n)
  })

  it("refuses signs, letters, exponents, too many decimals, empty and over-long input", () => {
    for (const bad of ["", " ", "-1", "+1", "1e3", "abc", "1.234", "1.2.3", "0x10", "1 000", "1234567890123"])
      expect(parseAmount(bad, 100n)).toBeNull()
    fc.assert(
      fc.property(fc.string({ maxLength: 14 }), (typed) => {
        const parsed = parseAmount(typed, 100n)
        if (parsed !== null) {
          expect(parsed).toBeGreaterThanOrEqual(0n)
          expect(/^\s*\d+([.,]\d{0,2})?\s*$/.test(typed)).toBe(true)
        }
      }),
    )
  })

  it("a currency without decimals takes no fraction", () => {
    expect(parseAmount("30.5", 1n)).toBeNull()
    expect(parseAmount("30", 1n)).toBe(30n)
  })
})

describe("exact decimals", () => {
  it("parseDecimal and formatDecimal round-trip", () => {
    fc.assert(
      fc.property(rate, (r) => {
        expect(parseDecimal(formatDecimal(r))).toBe(r)
      }),
    )
  })

  it("refuses what is not a plain decimal", () => {
    for (const bad of ["", "-1", "1e2", ".5", "1.", "0x1", "1,5", "1.0000000000000000001"])
      expect(parseDecimal(bad)).toBeNull()
  })
})

describe("conversions", () => {
  it("toEurCents is the floor of the exact value (never worth more than it is)", () => {
    fc.assert(
      fc.property(subunits, rate, fc.bigInt({ min: 0n, max: 10n ** 24n }), (unit, r, amount) => {
        const cents = toEurCents(amount, r, unit)
        // cents ≤ amount·rate·100 / (unit·SCALE) < cents + 1
        expect(cents * unit * RATE_SCALE <= amount * r * 100n).toBe(true)
        expect((cents + 1n) * unit * RATE_SCALE > amount * r * 100n).toBe(true)
      }),
    )
  })

  it("fromEuros is the smallest amount worth at least the euros (a quick amount never falls short)", () => {
    fc.assert(
      fc.property(subunits, rate, fc.bigInt({ min: 0n, max: 100_000n }), (unit, r, euros) => {
        const minor = fromEuros(euros, r, unit)
        expect(minor).not.toBeNull()
        if (minor === null) return
        expect(minor * r >= euros * RATE_SCALE * unit).toBe(true)
        if (minor > 0n) expect((minor - 1n) * r < euros * RATE_SCALE * unit).toBe(true)
        expect(toEurCents(minor, r, unit) >= euros * 100n).toBe(true)
      }),
    )
  })

  it("fromEuros refuses a zero rate", () => {
    expect(fromEuros(30n, 0n, 100n)).toBeNull()
  })

  it("EUR at rate 1: 30 EUR is 3000 cents both ways", () => {
    expect(fromEuros(30n, RATE_SCALE, 100n)).toBe(3000n)
    expect(toEurCents(3000n, RATE_SCALE, 100n)).toBe(3000n)
  })
})

describe("deposit rules", () => {
  it("the gateway gate opens exactly at 10.00 EUR", () => {
    const quote = (amount: bigint) => ({ amount, subunitsToUnit: 100n, minDeposit: 1n, eurRate: RATE_SCALE })
    expect(passesGatewayGate(quote(999n))).toBe(false)
    expect(passesGatewayGate(quote(1000n))).toBe(true)
    fc.assert(
      fc.property(subunits, rate, fc.bigInt({ min: 0n, max: 10n ** 24n }), (unit, r, amount) => {
        const q = { amount, subunitsToUnit: unit, minDeposit: 0n, eurRate: r }
        expect(passesGatewayGate(q)).toBe(toEurCents(amount, r, unit) >= MoneyConstants.gatewayGateEurCents)
      }),
    )
  })

  it("the minimum: at least minDeposit, and never zero", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        (a, m) => {
          const ok = meetsMinimum({ amount: a, subunitsToUnit: 100n, minDeposit: m, eurRate: RATE_SCALE })
          expect(ok).toBe(a > 0n && a >= m)
        },
      ),
    )
  })
})

describe("the cascade and the payment cookie", () => {
  const gateways = fc.uniqueArray(fc.constantFrom("brpay", "paypound", "paystudio", "payweb", "ems"), {
    minLength: 0,
    maxLength: 5,
  })

  it("nextGateway is the first gateway not marked failed, in the server's order", () => {
    fc.assert(
      fc.property(
        gateways,
        fc.array(fc.constantFrom("brpay", "paypound", "paystudio", "payweb", "ems")),
        (gs, failed) => {
          const config = failed.reduce(markFailed, emptyPaymentConfig("EUR"))
          const next = nextGateway(gs, config)
          const expected = gs.find((g) => !failed.includes(g)) ?? null
          expect(next).toBe(expected)
        },
      ),
    )
  })

  it("marking every gateway failed, one by one as the cascade does, ends with none", () => {
    fc.assert(
      fc.property(gateways, (gs) => {
        let config = emptyPaymentConfig("EUR")
        const tried: Array<string> = []
        for (let next = nextGateway(gs, config); next !== null; next = nextGateway(gs, config)) {
          tried.push(next)
          config = markFailed(config, next)
        }
        expect(tried).toEqual(gs)
        for (const g of gs) expect(config.tabs[g]).toBe(MoneyMessages.providerFailed)
      }),
    )
  })

  it("a config survives the cookie round trip", () => {
    const config = fc.record({
      tabs: fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 20 })),
      depositAmount: fc.string({ maxLength: MoneyConstants.amountMaxLength }),
      currency: fc.string({ maxLength: 5 }),
      promotionCoupon: fc.string({ maxLength: 20 }),
    })
    fc.assert(
      fc.property(config, (c) => {
        expect(parsePaymentConfig(serializePaymentConfig(c))).toEqual(c)
        const cookie = paymentCookieString(c, false).split("; ")[0] ?? ""
        expect(parsePaymentConfig(paymentCookieValue(`other=1; ${cookie}; last=2`))).toEqual(c)
      }),
    )
  })

  it("garbage in the cookie is no memory at all, never a throw", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json().map(encodeURIComponent)), (raw) => {
        const parsed = parsePaymentConfig(raw)
        if (parsed !== null) {
          expect(typeof parsed.currency).toBe("string")
          expect(parsed.depositAmount.length).toBeLessThanOrEqual(MoneyConstants.amountMaxLength)
          for (const v of Object.values(parsed.tabs)) expect(typeof v).toBe("string")
        }
      }),
    )
    for (const bad of [undefined, "", "%E0%A4%A", "null", "[]", encodeURIComponent('{"tabs":[1]}')])
      expect(parsePaymentConfig(bad)).toBeNull()
  })

  it("the cookie lives 20 minutes on the whole site", () => {
    const cookie = paymentCookieString(emptyPaymentConfig("EUR"), true)
    expect(cookie).toContain("Max-Age=1200")
    expect(cookie).toContain("Path=/")
    expect(cookie).toContain("Secure")
  })
})
