/**
 * Every currency the server knows (its `currencies` table, on PostgreSQL) is written and read by
 * the views with the server's own decimals: the shared table's `decimalsOfCurrency`, the back
 * office's amounts (`money`, `majorOf`) and its parsing of typed amounts (`minorOf`), and the player
 * app's round results (`resultWords`, the Bets tab and the verifier; the player app's other amounts
 * are written with the `subunits_to_unit` of the server's currency list itself). The expectations are spelled from the server's `subunits_to_unit` alone
 * (10^d: one whole unit is "1" and d zeros of minor units), never from the apps' own tables.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { decimalsOfCurrency } from "../../services/currencies.ts"
import { resultWords } from "../../services/games/words.ts"
import { majorOf, minorOf } from "../../ui/backoffice/amount.ts"
import { money } from "../../ui/backoffice/format.ts"
import { describeOn, type TestServer } from "./harness.ts"

describeOn("postgres", "currency decimals: the views use the server's", ({ start }) => {
  let server: TestServer
  let known: ReadonlyArray<{ readonly code: string; readonly subunits: string }>
  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
    known = await server.query<{ code: string; subunits: string }>(
      "SELECT code, subunits_to_unit::text AS subunits FROM currencies ORDER BY code",
    )
  })
  afterAll(async () => {
    await server?.close()
  })

  it("the server knows the seeded currencies, each a power of ten of minor units", () => {
    expect(known.map((c) => c.code)).toEqual([
      "AUD",
      "BRL",
      "BTC",
      "CAD",
      "DOG",
      "ETH",
      "EUR",
      "JPY",
      "LTC",
      "NOK",
      "NZD",
      "PLN",
      "USD",
      "USDT",
    ])
    for (const c of known) expect(c.subunits, c.code).toMatch(/^10*$/)
  })

  it("the back office writes and reads each currency's amounts with the server's decimals", () => {
    for (const { code, subunits } of known) {
      const d = subunits.length - 1
      expect(decimalsOfCurrency(code), code).toBe(d)
      // One whole unit, as the API sends it (subunits_to_unit minor units).
      expect(money(subunits, code), code).toBe(d === 0 ? `1 ${code}` : `1.00 ${code}`)
      expect(majorOf(subunits, code), code).toBe(d === 0 ? "1" : `1.${"0".repeat(d)}`)
      expect(minorOf("1", code), code).toBe(subunits)
      if (d === 0) continue
      // The smallest amount: one minor unit, d places after the point; one place more is refused.
      const smallest = `0.${"0".repeat(d - 1)}1`
      expect(money("1", code), code).toBe(`${smallest} ${code}`)
      expect(minorOf(smallest, code), code).toBe("1")
      expect(minorOf(`0.${"0".repeat(d)}1`, code), code).toBeNull()
    }
  })

  it("the player app's round results name each currency's amounts with the server's decimals", () => {
    for (const { code, subunits } of known) {
      const d = subunits.length - 1
      expect(resultWords(BigInt(subunits), 0n, code).text, code).toBe(
        d === 0 ? `Lost 1 ${code}` : `Lost 1.00 ${code}`,
      )
      // The player app shows at most 8 places: one minor unit of a currency that has them.
      if (d >= 1 && d <= 8)
        expect(resultWords(1n, 0n, code).text, code).toBe(`Lost 0.${"0".repeat(d - 1)}1 ${code}`)
    }
  })
})
