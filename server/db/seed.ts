/**
 * Reference data, idempotent: safe to run on every start.
 *
 * - Currencies: the table every view shares (services/currencies.ts), inserted when missing, never
 *   overwritten (an operator may rename or disable one). `subunits_to_unit` is exact (NUMERIC).
 * - Countries: every country libphonenumber-js knows (ISO 3166-1 alpha-2 plus XK Kosovo; the
 *   non-ISO AC/TA territories are left out) with its English name (`Intl.DisplayNames`) and calling
 *   code; refreshed on each start so a library update corrects them.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { getCountries, getCountryCallingCode } from "libphonenumber-js/max"
import { knownCurrencies, subunitsToUnitOf } from "../../services/currencies.ts"
import { fromEuros, parseDecimal } from "../../services/money-rules.ts"

export interface SeedCurrency {
  readonly code: string
  readonly name: string
  readonly symbol: string
  readonly type: "FIAT" | "CRYPTO"
  readonly subunitsToUnit: string
}

/** The one table of currencies (services/currencies.ts), shared with every view. */
export const seedCurrencies: ReadonlyArray<SeedCurrency> = knownCurrencies.map((c) => ({
  code: c.code,
  name: c.name,
  symbol: c.symbol,
  type: c.type,
  subunitsToUnit: subunitsToUnitOf(c.decimals),
}))

/**
 * First rates of each currency (EUR per whole unit), fixed plausible values — not market data: an
 * operator keeps them current (`npm run operator -- rates set EUR …`, docs/ledger.md). Seeded only
 * when a currency has no rate yet, never overwritten. Minimums are derived from EUR equivalents:
 * deposit 10 EUR, promotion 20 EUR, withdrawal 10 EUR, converted at the seed rate and rounded UP
 * to the currency's minor unit (never below the euro figure).
 */
export const seedEurRates: Readonly<Record<string, string>> = {
  EUR: "1",
  USD: "0.92",
  CAD: "0.68",
  NOK: "0.086",
  BRL: "0.18",
  AUD: "0.6",
  NZD: "0.55",
  PLN: "0.23",
  JPY: "0.0062",
  BTC: "60000",
  ETH: "3000",
  LTC: "70",
  DOG: "0.12",
  USDT: "0.92",
}

export const seedMinimumsEur = { deposit: 10n, promotion: 20n, withdraw: 10n } as const

export interface SeedRate {
  readonly currency: string
  readonly eurRate: string
  readonly minDeposit: bigint
  readonly minPromotion: bigint
  readonly minWithdraw: bigint
}

export const seedRates = (): ReadonlyArray<SeedRate> =>
  seedCurrencies.flatMap((c) => {
    const text = seedEurRates[c.code]
    const rate = text === undefined ? null : parseDecimal(text)
    if (text === undefined || rate === null) return []
    const units = BigInt(c.subunitsToUnit)
    const min = (euros: bigint) => fromEuros(euros, rate, units) ?? 0n
    return [
      {
        currency: c.code,
        eurRate: text,
        minDeposit: min(seedMinimumsEur.deposit),
        minPromotion: min(seedMinimumsEur.promotion),
        minWithdraw: min(seedMinimumsEur.withdraw),
      },
    ]
  })

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
      for (const r of seedRates()) {
        yield* sql`
          INSERT INTO currency_rates (currency, eur_rate, min_deposit, min_promotion, min_withdraw)
          VALUES (${r.currency}, ${r.eurRate}::numeric, ${r.minDeposit.toString()}::numeric,
                  ${r.minPromotion.toString()}::numeric, ${r.minWithdraw.toString()}::numeric)
          ON CONFLICT (currency) DO NOTHING
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
