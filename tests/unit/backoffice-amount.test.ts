import { describe, expect, it } from "vitest"
import { decimalsOfCurrency } from "../../services/currencies.ts"
import { majorOf, minorOf, signedMinor, toMinor } from "../../ui/backoffice/amount.ts"

describe("toMinor: major units typed by an operator → integer minor units, no floats", () => {
  it("converts plain amounts of a two-decimal currency", () => {
    expect(toMinor("12.50", 2)).toBe("1250")
    expect(toMinor("12.5", 2)).toBe("1250")
    expect(toMinor("12", 2)).toBe("1200")
    expect(toMinor("0.29", 2)).toBe("29")
    expect(toMinor("0.01", 2)).toBe("1")
    expect(toMinor(".5", 2)).toBe("50")
    expect(toMinor("7.", 2)).toBe("700")
    expect(toMinor(" 150.00 ", 2)).toBe("15000")
    expect(toMinor("007.10", 2)).toBe("710")
  })

  it("keeps every digit of large amounts and of currencies with many decimals", () => {
    expect(toMinor("1.000000000000000001", 18)).toBe("1000000000000000001")
    expect(toMinor("0.1", 18)).toBe("100000000000000000")
    expect(toMinor("12345678901234567890.12", 2)).toBe("1234567890123456789012")
    expect(toMinor("0.00000001", 8)).toBe("1")
    expect(toMinor("1500", 0)).toBe("1500")
  })

  it("refuses what is not a plain positive amount of the currency", () => {
    expect(toMinor("", 2)).toBeNull()
    expect(toMinor(".", 2)).toBeNull()
    expect(toMinor("0", 2)).toBeNull()
    expect(toMinor("0.00", 2)).toBeNull()
    expect(toMinor("1.234", 2)).toBeNull()
    expect(toMinor("1.5", 0)).toBeNull()
    expect(toMinor("-1", 2)).toBeNull()
    expect(toMinor("+1", 2)).toBeNull()
    expect(toMinor("1,000", 2)).toBeNull()
    expect(toMinor("1e3", 2)).toBeNull()
    expect(toMinor("12 50", 2)).toBeNull()
  })

  it("knows the decimals of the currencies the casino holds", () => {
    expect(decimalsOfCurrency("EUR")).toBe(2)
    expect(decimalsOfCurrency("JPY")).toBe(0)
    expect(decimalsOfCurrency("BTC")).toBe(8)
    expect(decimalsOfCurrency("ETH")).toBe(18)
    expect(decimalsOfCurrency("USDT")).toBe(6)
    // Dogecoin's code is DOG (shown as DOGE to players): 8 decimals, not the 2 of an unknown code.
    expect(decimalsOfCurrency("DOG")).toBe(8)
    expect(decimalsOfCurrency("LTC")).toBe(8)
  })

  it("signs a debit", () => {
    expect(signedMinor("+", "500")).toBe("500")
    expect(signedMinor("-", "500")).toBe("-500")
  })
})

describe("minorOf / majorOf: the settings' minimums, zero allowed", () => {
  it("reads minimums in major units, with thousands separators, zero included", () => {
    expect(minorOf("10", "EUR")).toBe("1000")
    expect(minorOf("1,000.5", "EUR")).toBe("100050")
    expect(minorOf("0", "EUR")).toBe("0")
    expect(minorOf("0.00", "EUR")).toBe("0")
    expect(minorOf("0.0001", "BTC")).toBe("10000")
    expect(minorOf("1.234", "EUR")).toBeNull()
    expect(minorOf("abc", "EUR")).toBeNull()
  })

  it("writes minor units back as the plain decimal a field shows", () => {
    expect(majorOf("1250", "EUR")).toBe("12.50")
    expect(majorOf("5", "EUR")).toBe("0.05")
    expect(majorOf("1500", "JPY")).toBe("1500")
    expect(majorOf("10000", "BTC")).toBe("0.00010000")
    expect(majorOf("100000000", "DOG")).toBe("1.00000000")
    expect(minorOf("1", "DOG")).toBe("100000000")
  })
})
