/**
 * Reference data, idempotent: safe to run on every start.
 *
 * - Currencies: inserted when missing, never overwritten (an operator may rename or disable one).
 *   `subunits_to_unit` is exact (NUMERIC), given here as decimal strings.
 * - Countries: every country libphonenumber-js knows (ISO 3166-1 alpha-2 plus XK Kosovo; the
 *   non-ISO AC/TA territories are left out) with its English name (`Intl.DisplayNames`) and calling
 *   code; refreshed on each start so a library update corrects them.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { getCountries, getCountryCallingCode } from "libphonenumber-js/max"

export interface SeedCurrency {
  readonly code: string
  readonly name: string
  readonly symbol: string
  readonly type: "FIAT" | "CRYPTO"
  readonly subunitsToUnit: string
}

export const seedCurrencies: ReadonlyArray<SeedCurrency> = [
  { code: "EUR", name: "Euro", symbol: "€", type: "FIAT", subunitsToUnit: "100" },
  { code: "USD", name: "US Dollar", symbol: "$", type: "FIAT", subunitsToUnit: "100" },
  { code: "CAD", name: "Canadian Dollar", symbol: "CA$", type: "FIAT", subunitsToUnit: "100" },
  { code: "NOK", name: "Norwegian Krone", symbol: "kr", type: "FIAT", subunitsToUnit: "100" },
  { code: "BRL", name: "Brazilian Real", symbol: "R$", type: "FIAT", subunitsToUnit: "100" },
  { code: "AUD", name: "Australian Dollar", symbol: "A$", type: "FIAT", subunitsToUnit: "100" },
  { code: "NZD", name: "New Zealand Dollar", symbol: "NZ$", type: "FIAT", subunitsToUnit: "100" },
  { code: "PLN", name: "Polish Zloty", symbol: "zł", type: "FIAT", subunitsToUnit: "100" },
  { code: "JPY", name: "Japanese Yen", symbol: "¥", type: "FIAT", subunitsToUnit: "1" },
  { code: "BTC", name: "Bitcoin", symbol: "₿", type: "CRYPTO", subunitsToUnit: "100000000" },
  { code: "ETH", name: "Ethereum", symbol: "Ξ", type: "CRYPTO", subunitsToUnit: "1000000000000000000" },
  { code: "LTC", name: "Litecoin", symbol: "Ł", type: "CRYPTO", subunitsToUnit: "100000000" },
  // The spec's code for Dogecoin is DOG (displayed as DOGE).
  { code: "DOG", name: "Dogecoin", symbol: "Ð", type: "CRYPTO", subunitsToUnit: "100000000" },
  // Tether on Ethereum (ERC-20): 6 decimals.
  { code: "USDT", name: "Tether", symbol: "₮", type: "CRYPTO", subunitsToUnit: "1000000" },
]

export interface SeedCountry {
  readonly code: string
  readonly name: string
  readonly dialingCode: string
}

const notIso = new Set(["AC", "TA"])

export const seedCountries = (): ReadonlyArray<SeedCountry> => {
  const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" })
  return getCountries()
    .filter((code) => !notIso.has(code))
    .map((code) => ({ code, name: names.of(code) ?? code, dialingCode: getCountryCallingCode(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"))
}

export const seed = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.withTransaction(
    Effect.gen(function* () {
      let order = 0
      for (const c of seedCurrencies) {
        order += 10
        yield* sql`
          INSERT INTO currencies (code, name, symbol, type, subunits_to_unit, sort_order)
          VALUES (${c.code}, ${c.name}, ${c.symbol}, ${c.type}, ${c.subunitsToUnit}::numeric, ${order})
          ON CONFLICT (code) DO NOTHING
        `
      }
      const [first, ...rest] = seedCountries().map(
        (c): Record<string, unknown> => ({ code: c.code, name: c.name, dialing_code: c.dialingCode }),
      )
      if (first === undefined) return yield* Effect.die(new Error("libphonenumber-js lists no country"))
      const countries: readonly [Record<string, unknown>, ...Array<Record<string, unknown>>] = [
        first,
        ...rest,
      ]
      yield* sql`
        INSERT INTO countries ${sql.insert(countries)}
        ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, dialing_code = EXCLUDED.dialing_code
        WHERE countries.name IS DISTINCT FROM EXCLUDED.name
           OR countries.dialing_code IS DISTINCT FROM EXCLUDED.dialing_code
      `
    }),
  )
}).pipe(Effect.withSpan("db.seed"))
