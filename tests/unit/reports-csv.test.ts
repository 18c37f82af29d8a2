/**
 * The GGR CSV's pure parts (server/reports/csv.ts): RFC 4180 quoting, CRLF records, and amounts in
 * major units with exactly the currency's decimals.
 */
import { describe, expect, it } from "vitest"
import { csvField, csvRecord, type GgrCsvRow, ggrCsv, majorUnits } from "../../server/reports/csv.ts"

describe("reports CSV", () => {
  it("quotes a field only when it holds a comma, a quote, CR or LF, doubling its quotes", () => {
    expect(csvField("plain")).toBe("plain")
    expect(csvField("")).toBe("")
    expect(csvField("a,b")).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('"')).toBe('""""')
    expect(csvField("two\nlines")).toBe('"two\nlines"')
    expect(csvField("cr\rhere")).toBe('"cr\rhere"')
    expect(csvField("-12.50")).toBe("-12.50")
    expect(csvRecord(["a", "b,c", 'd"e'])).toBe('a,"b,c","d""e"\r\n')
  })

  it("writes amounts in major units with every decimal of the currency", () => {
    expect(majorUnits(1250n, 100n)).toBe("12.50")
    expect(majorUnits(5n, 100n)).toBe("0.05")
    expect(majorUnits(-1250n, 100n)).toBe("-12.50")
    expect(majorUnits(-5n, 100n)).toBe("-0.05")
    expect(majorUnits(0n, 100n)).toBe("0.00")
    expect(majorUnits(1200n, 1n)).toBe("1200")
    expect(majorUnits(-7n, 1n)).toBe("-7")
    expect(majorUnits(12_345n, 100_000_000n)).toBe("0.00012345")
    expect(majorUnits(1_000_000_000_000_000_001n, 10n ** 18n)).toBe("1.000000000000000001")
  })

  it("writes the header and one CRLF record per row; an unknown currency is refused", () => {
    const row: GgrCsvRow = {
      day: "2026-11-20",
      gameId: "slot-one",
      provider: 'Studio "X", Ltd',
      integration: "studio",
      currency: "JPY",
      bets: 1500n,
      refunds: 0n,
      wins: 2000n,
      ggr: -500n,
      bonusCost: 0n,
      ngr: -500n,
      rounds: 3,
    }
    expect(ggrCsv([row], new Map([["JPY", 1n]]))).toBe(
      "day,game,provider,integration,currency,bets,refunds,wins,ggr,bonus_cost,ngr,rounds\r\n" +
        '2026-11-20,slot-one,"Studio ""X"", Ltd",studio,JPY,1500,0,2000,-500,0,-500,3\r\n',
    )
    expect(ggrCsv([], new Map())).toBe(
      "day,game,provider,integration,currency,bets,refunds,wins,ggr,bonus_cost,ngr,rounds\r\n",
    )
    expect(() => ggrCsv([row], new Map([["EUR", 100n]]))).toThrow(/JPY/)
  })
})
