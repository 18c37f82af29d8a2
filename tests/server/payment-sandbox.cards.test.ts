/** The sandbox's pure rules: Luhn (property-tested), expiry, CVC, the test cards, gateway rules and the EUR bounds. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  checkCard,
  expiryNotPast,
  luhnCheckDigit,
  luhnValid,
  parseExpiry,
  testCards,
} from "../../providers/payment-sandbox/cards.ts"
import { formatAmount } from "../../providers/payment-sandbox/pages.ts"
import {
  compareWithEurCents,
  formatRules,
  parseGatewayRules,
  parseRules,
  refusal,
} from "../../providers/payment-sandbox/rules.ts"

const now = new Date("2026-11-23T12:00:00Z")
const digits = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(""))

describe("Luhn", () => {
  it("accepts the test cards and well-known valid numbers", () => {
    for (const c of testCards) expect(luhnValid(c.number)).toBe(true)
    expect(luhnValid("79927398713")).toBe(false) // 11 digits: too short for a card
    expect(luhnValid("5555555555554444")).toBe(true)
    expect(luhnValid("4242424242424241")).toBe(false)
    expect(luhnValid("4242 4242 4242 4242")).toBe(false) // normalise first
  })

  it("property: exactly one check digit completes any prefix", () => {
    fc.assert(
      fc.property(digits(11, 18), (prefix) => {
        const valid = Array.from({ length: 10 }, (_, d) => luhnValid(`${prefix}${d}`)).filter(Boolean)
        expect(valid).toHaveLength(1)
        expect(luhnValid(`${prefix}${luhnCheckDigit(prefix)}`)).toBe(true)
      }),
    )
  })

  it("property: changing any single digit of a valid number breaks it", () => {
    fc.assert(
      fc.property(digits(11, 18), fc.nat(), fc.integer({ min: 1, max: 9 }), (prefix, at, delta) => {
        const number = `${prefix}${luhnCheckDigit(prefix)}`
        const i = at % number.length
        const changed = `${number.slice(0, i)}${(Number(number[i]) + delta) % 10}${number.slice(i + 1)}`
        expect(luhnValid(changed)).toBe(false)
      }),
    )
  })

  it("property: swapping two adjacent different digits (not 0/9) breaks it", () => {
    fc.assert(
      fc.property(digits(11, 18), fc.nat(), (prefix, at) => {
        const number = `${prefix}${luhnCheckDigit(prefix)}`
        const i = at % (number.length - 1)
        const a = number[i] as string
        const b = number[i + 1] as string
        fc.pre(a !== b && !((a === "0" && b === "9") || (a === "9" && b === "0")))
        expect(luhnValid(`${number.slice(0, i)}${b}${a}${number.slice(i + 2)}`)).toBe(false)
      }),
    )
  })
})

describe("card checks", () => {
  const card = (number: string, expiry = "12/30", cvc = "123", holder = "Ada") =>
    checkCard({ number, expiry, cvc, holder }, now)

  it("maps every test card to its outcome", () => {
    expect(card("4242 4242 4242 4242")).toEqual({ ok: true, last4: "4242", outcome: { _tag: "Approve" } })
    expect(card("4000-0000-0000-0002")).toMatchObject({
      outcome: { _tag: "Decline", reason: "Card declined" },
    })
    expect(card("4000000000009995")).toMatchObject({
      outcome: { _tag: "Decline", reason: "Insufficient funds" },
    })
    expect(card("4000000000003220")).toMatchObject({ outcome: { _tag: "Challenge" } })
    expect(card("4000000000000119")).toMatchObject({ outcome: { _tag: "Fail", reason: "Processing error" } })
  })

  it("refuses a bad number, an unknown valid card, a past or malformed expiry, a bad CVC, no holder", () => {
    expect(card("4242424242424241")).toEqual({
      ok: false,
      errors: { number: "This card number is not valid." },
    })
    expect(card("5555555555554444")).toMatchObject({
      ok: false,
      errors: { number: expect.stringContaining("test cards") },
    })
    expect(card("4242424242424242", "10/26")).toEqual({
      ok: false,
      errors: { expiry: "This card has expired." },
    })
    expect(card("4242424242424242", "11/26")).toMatchObject({ ok: true })
    expect(card("4242424242424242", "13/30")).toMatchObject({
      ok: false,
      errors: { expiry: expect.any(String) },
    })
    expect(card("4242424242424242", "12/30", "12")).toMatchObject({
      ok: false,
      errors: { cvc: expect.any(String) },
    })
    expect(card("4242424242424242", "12/30", "12345")).toMatchObject({ ok: false })
    expect(card("4242424242424242", "12/30", "1234")).toMatchObject({ ok: true })
    expect(card("4242424242424242", "12/30", "123", " ")).toMatchObject({
      ok: false,
      errors: { holder: expect.any(String) },
    })
  })

  it("reads MM/YY, MMYY and MM/YYYY; a card is valid through its month", () => {
    expect(parseExpiry("07/29")).toEqual({ month: 7, year: 2029 })
    expect(parseExpiry("0729")).toEqual({ month: 7, year: 2029 })
    expect(parseExpiry("07 / 2029")).toEqual({ month: 7, year: 2029 })
    expect(parseExpiry("7/29")).toBeUndefined()
    expect(parseExpiry("00/29")).toBeUndefined()
    expect(expiryNotPast({ month: 11, year: 2026 }, now)).toBe(true)
    expect(expiryNotPast({ month: 10, year: 2026 }, now)).toBe(false)
  })
})

describe("gateway rules", () => {
  it("parses the environment's form, several rules per gateway", () => {
    const parsed = parseGatewayRules("brpay:down; paypound:country=us,GB ;ems:max-eur=500;ems:min-eur=12.5")
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    expect(formatRules(parsed.value.get("brpay") ?? [])).toBe("down")
    expect(formatRules(parsed.value.get("paypound") ?? [])).toBe("country=US,GB")
    expect(formatRules(parsed.value.get("ems") ?? [])).toBe("max-eur=500;min-eur=12.50")
    expect(formatRules(parsed.value.get("other") ?? [])).toBe("up")
  })

  it("refuses malformed rules with a reason", () => {
    for (const bad of [
      "brpay",
      ":down",
      "brpay:sideways",
      "x:country=USA",
      "x:max-eur=-1",
      "x:max-eur=1.234",
    ]) {
      const parsed = parseGatewayRules(bad)
      expect(parsed.ok, bad).toBe(false)
    }
    expect(parseRules("up;down").ok).toBe(false)
    expect(parseRules("up")).toEqual({ ok: true, value: [] })
  })

  it("compares amounts with EUR bounds exactly, in each currency's minor unit", () => {
    expect(compareWithEurCents(50_000n, "EUR", 50_000n)).toBe(0)
    expect(compareWithEurCents(50_001n, "EUR", 50_000n)).toBe(1)
    // 10 000 JPY (no minor unit) at 0.0061 EUR = 61.00 EUR.
    expect(compareWithEurCents(10_000n, "JPY", 6_100n)).toBe(0)
    expect(compareWithEurCents(100n, "USD", 92n)).toBe(0)
  })

  it("down wins over everything; unknown currency and country rules refuse with 422", () => {
    const rules = parseRules("country=US;max-eur=100")
    if (!rules.ok) throw new Error("unparsed")
    const pay = (amount: bigint, currency: string, country: string | null) =>
      refusal("ems", rules.value, { amount, currency, country })
    expect(pay(1_000n, "EUR", "MT")).toBeUndefined()
    expect(pay(1_000n, "EUR", null)).toBeUndefined()
    expect(pay(1_000n, "EUR", "us")?.status).toBe(422)
    expect(pay(10_001n, "EUR", "MT")?.status).toBe(422)
    expect(pay(1_000n, "XAU", "MT")?.status).toBe(422)
    expect(refusal("ems", [{ _tag: "Down" }], { amount: 1n, currency: "XAU", country: "US" })?.status).toBe(
      503,
    )
  })

  it("formats amounts for the pages", () => {
    expect(formatAmount("3000", "EUR")).toBe("30.00 EUR")
    expect(formatAmount("5", "EUR")).toBe("0.05 EUR")
    expect(formatAmount("3000", "JPY")).toBe("3000 JPY")
  })
})

describe("sandbox configuration", () => {
  const base = {
    PAYMENT_SANDBOX_DATA_DIR: "/nonexistent-sandbox-config-test",
    PAYMENT_SANDBOX_SECRET: "s".repeat(32),
  }
  it("validates its own variables (PAYMENT_SANDBOX_*), naming the one that is wrong", async () => {
    const { loadPaymentSandboxConfig } = await import("../../providers/payment-sandbox/config.ts")
    expect(() => loadPaymentSandboxConfig({ ...base, PAYMENT_SANDBOX_SECRET: "short" })).toThrow(
      /PAYMENT_SANDBOX_SECRET/,
    )
    expect(() =>
      loadPaymentSandboxConfig({ ...base, PAYMENT_SANDBOX_GATEWAY_RULES: "brpay:sideways" }),
    ).toThrow(/PAYMENT_SANDBOX_GATEWAY_RULES/)
    expect(() => loadPaymentSandboxConfig({ ...base, PAYMENT_SANDBOX_PORT: "70000" })).toThrow(
      /PAYMENT_SANDBOX_PORT/,
    )
    expect(() => loadPaymentSandboxConfig({ ...base, PAYMENT_SANDBOX_FRAME_ANCESTORS: "nope" })).toThrow(
      /PAYMENT_SANDBOX_FRAME_ANCESTORS/,
    )
    expect(() => loadPaymentSandboxConfig({ ...base, PAYMENT_SANDBOX_DATABASE_URL: "mysql://x" })).toThrow(
      /PAYMENT_SANDBOX_DATABASE_URL/,
    )
    expect(() => loadPaymentSandboxConfig({ ...base, PAYMENT_SANDBOX_LOG_LEVEL: "loud" })).toThrow(
      /PAYMENT_SANDBOX_LOG_LEVEL/,
    )
    const config = loadPaymentSandboxConfig({
      ...base,
      PAYMENT_SANDBOX_GATEWAY_RULES: "brpay:down",
      PAYMENT_SANDBOX_FRAME_ANCESTORS: "http://casino.example:8080/any, https://other.example",
    })
    expect(formatRules(config.gatewayRules.get("brpay") ?? [])).toBe("down")
    expect(config.frameAncestors).toEqual(["http://casino.example:8080", "https://other.example"])
    expect(config.schema).toBe("payment_sandbox")
    expect(config.port).toBe(8081)
  })

  it("runs beside the casino by default outside production, never in production (SANDBOX_PAYMENTS)", async () => {
    const { sandboxOn } = await import("../../compose/local.ts")
    const { payments } = await import("../../compose/parties/payments.ts")
    expect(() => sandboxOn({ SANDBOX_PAYMENTS: "maybe" }, payments)).toThrow(/SANDBOX_PAYMENTS/)
    expect(sandboxOn({}, payments)).toBe(true)
    expect(sandboxOn({ NODE_ENV: "production" }, payments)).toBe(false)
    expect(() => sandboxOn({ NODE_ENV: "production", SANDBOX_PAYMENTS: "on" }, payments)).toThrow(
      /SANDBOX_PAYMENTS=on/,
    )
    expect(payments.defaultPort(8080)).toBe(8081)
  })
})
