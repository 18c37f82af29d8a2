/**
 * The CDN files (spec section 7): static JSON under a configurable base (default `/cdn`).
 * The server writes them by encoding with these schemas; the browser decodes them with the same.
 */
import { Schema } from "effect"

export const CountryCode = Schema.Struct({
  name: Schema.String,
  /** ISO 3166-1 alpha-2. */
  code: Schema.String,
  /** Country calling code without '+', e.g. "356". */
  dialingCode: Schema.String,
})
export const CountryCodes = Schema.Array(CountryCode)
export type CountryCodes = typeof CountryCodes.Type

export const RestrictedCountries = Schema.Array(Schema.Struct({ code: Schema.String }))
export type RestrictedCountries = typeof RestrictedCountries.Type

export const Currency = Schema.Struct({
  code: Schema.String,
  name: Schema.String,
  symbol: Schema.String,
  type: Schema.Literals(["FIAT", "CRYPTO"]),
  fiat: Schema.Boolean,
  subunits_to_unit: Schema.String,
})
export type Currency = typeof Currency.Type
export const Currencies = Schema.Array(Currency)
export type Currencies = typeof Currencies.Type

export const SiteConfig = Schema.Struct({
  productName: Schema.String,
  supportEmail: Schema.String,
  /** Spec section 5: e-mails of these domains cannot register or sign in. */
  blockedEmailDomains: Schema.Array(Schema.String),
  tutorialVideoUrl: Schema.String,
  defaultCurrency: Schema.String,
  languages: Schema.Array(Schema.String),
})
export type SiteConfig = typeof SiteConfig.Type

export const RecommendedGames = Schema.Array(
  Schema.Struct({ id: Schema.String, name: Schema.String, provider: Schema.String, category: Schema.String }),
)
export type RecommendedGames = typeof RecommendedGames.Type

/** File names under the CDN base. */
export const CdnFiles = {
  countryCodes: "country-codes.json",
  siteConfig: "site-config.json",
  restrictedCountries: "restricted-countries.json",
  currencies: "currencies.json",
  recommendedGames: "recommended-games.json",
} as const

/** Icon path of a currency: images/{type}/{currency}.svg, type lower-case (fiat | crypto). */
export const currencyIconPath = (type: Currency["type"], code: string): string =>
  `images/${type.toLowerCase()}/${code}.svg`
