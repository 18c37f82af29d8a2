/**
 * The currencies the casino holds, in one table for the server and every view: the server's seed
 * writes them into `currencies` (server/db/seed.ts), the back office writes and reads amounts with
 * their decimals (ui/backoffice/format.ts, amount.ts), the player app's round results too
 * (services/games/words.ts). Pure and browser-safe. tests/server/currency-formats.test.ts holds the
 * views to the decimals the server's database has.
 *
 * An amount travels as an integer of minor units, 10^decimals of them to the whole unit.
 */

export interface KnownCurrency {
  /** The list's code (the spec's: Dogecoin is DOG, displayed as DOGE to players). */
  readonly code: string
  readonly name: string
  readonly symbol: string
  readonly type: "FIAT" | "CRYPTO"
  /** Places of the minor unit: 2 for EUR (cents), 0 for JPY, 8 for BTC (satoshis), 18 for ETH (wei). */
  readonly decimals: number
}

/** In the order the currency lists show them. */
export const knownCurrencies: ReadonlyArray<KnownCurrency> = [
  { code: "EUR", name: "Euro", symbol: "€", type: "FIAT", decimals: 2 },
  { code: "USD", name: "US Dollar", symbol: "$", type: "FIAT", decimals: 2 },
  { code: "CAD", name: "Canadian Dollar", symbol: "CA$", type: "FIAT", decimals: 2 },
  { code: "NOK", name: "Norwegian Krone", symbol: "kr", type: "FIAT", decimals: 2 },
  { code: "BRL", name: "Brazilian Real", symbol: "R$", type: "FIAT", decimals: 2 },
  { code: "AUD", name: "Australian Dollar", symbol: "A$", type: "FIAT", decimals: 2 },
  { code: "NZD", name: "New Zealand Dollar", symbol: "NZ$", type: "FIAT", decimals: 2 },
  { code: "PLN", name: "Polish Zloty", symbol: "zł", type: "FIAT", decimals: 2 },
  { code: "JPY", name: "Japanese Yen", symbol: "¥", type: "FIAT", decimals: 0 },
  { code: "BTC", name: "Bitcoin", symbol: "₿", type: "CRYPTO", decimals: 8 },
  { code: "ETH", name: "Ethereum", symbol: "Ξ", type: "CRYPTO", decimals: 18 },
  { code: "LTC", name: "Litecoin", symbol: "Ł", type: "CRYPTO", decimals: 8 },
  { code: "DOG", name: "Dogecoin", symbol: "Ð", type: "CRYPTO", decimals: 8 },
  // Tether on Ethereum (ERC-20).
  { code: "USDT", name: "Tether", symbol: "₮", type: "CRYPTO", decimals: 6 },
]

const byCode = new Map(knownCurrencies.map((c) => [c.code, c] as const))

/** The currency's minor-unit places; 2 (ISO 4217's usual) for a code the casino does not hold. */
export const decimalsOfCurrency = (code: string): number => byCode.get(code)?.decimals ?? 2

/** Minor units in one whole unit as the database keeps it (`subunits_to_unit`): 2 decimals → "100". */
export const subunitsToUnitOf = (decimals: number): string => `1${"0".repeat(decimals)}`
