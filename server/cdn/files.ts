/**
 * The CDN folder (`CDN_DIR`, served under `CDN_BASE_PATH`): written on start.
 *
 * - Defaults for every missing file; an existing file is the operator's and is never overwritten:
 *   country-codes.json (countries table), restricted-countries.json (US, GB), currencies.json
 *   (enabled currencies), recommended-games.json (a curated pick of the catalogue; an operator edits the file), the currency
 *   icons images/{fiat|crypto}/{CODE}.svg and the tutorial page tutorial/index.html.
 * - site-config.json is ALWAYS regenerated from the configuration.
 * Every JSON file is encoded with the schemas of services/cdn.ts and written atomically.
 */
import { mkdir, rename, stat, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import {
  CdnFiles,
  CountryCodes,
  Currencies,
  type Currency,
  currencyIconPath,
  RecommendedGames,
  RestrictedCountries,
  SiteConfig,
} from "../../services/cdn.ts"
import { catalogue } from "../../services/games/catalogue.ts"
import type { AppConfigShape } from "../config.ts"
import { currencyIconSvg } from "./icons.ts"
import { tutorialPage } from "./tutorial.ts"

/**
 * The lobby's "recommended" section (spec: a list on the CDN): the first title of each kind and
 * every jackpot title, in catalogue order. Written once; the operator curates the file from then on.
 */
const recommendedGames = (): RecommendedGames => {
  const kinds = new Set<string>()
  return catalogue
    .filter((g) => {
      const firstOfKind = !kinds.has(g.kind)
      kinds.add(g.kind)
      return firstOfKind || g.jackpot !== null
    })
    .map((g) => ({ id: g.id, name: g.name, provider: g.brand, category: g.category }))
}
export const defaultRestrictedCountries: RestrictedCountries = [{ code: "US" }, { code: "GB" }]

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  )

export const writeAtomic = async (path: string, content: string): Promise<void> => {
  await mkdir(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`
  await writeFile(tmp, content, "utf8")
  await rename(tmp, path)
}

export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`

interface CurrencyRow {
  readonly code: string
  readonly name: string
  readonly symbol: string
  readonly type: "FIAT" | "CRYPTO"
  readonly subunits_to_unit: string
}

interface CountryRow {
  readonly code: string
  readonly name: string
  readonly dialing_code: string
}

export const siteConfigOf = (config: AppConfigShape): SiteConfig => ({
  productName: config.productName,
  supportEmail: config.supportEmail,
  blockedEmailDomains: [...config.blockedEmailDomains],
  tutorialVideoUrl: config.tutorialVideoUrl,
  defaultCurrency: "EUR",
  languages: ["en"],
})

/** Writes the CDN folder (see the module comment). Returns the files written. */
export const writeCdnFiles = (config: AppConfigShape) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const dir = config.cdnDir
    const written: Array<string> = []
    const writeIfMissing = (name: string, content: () => string) =>
      Effect.promise(async () => {
        const path = join(dir, name)
        if (await exists(path)) return
        await writeAtomic(path, content())
        written.push(name)
      })

    const currencyRows = yield* sql<CurrencyRow>`
      SELECT code, name, symbol, type, subunits_to_unit::text AS subunits_to_unit
      FROM currencies WHERE enabled ORDER BY sort_order, code
    `
    const currencies: Currencies = currencyRows.map(
      (r): Currency => ({
        code: r.code,
        name: r.name,
        symbol: r.symbol,
        type: r.type,
        fiat: r.type === "FIAT",
        subunits_to_unit: r.subunits_to_unit,
      }),
    )
    const countryRows = yield* sql<CountryRow>`SELECT code, name, dialing_code FROM countries ORDER BY name`
    const countries: CountryCodes = countryRows.map((r) => ({
      name: r.name,
      code: r.code.trim(),
      dialingCode: r.dialing_code,
    }))

    yield* writeIfMissing(CdnFiles.countryCodes, () => json(Schema.encodeSync(CountryCodes)(countries)))
    yield* writeIfMissing(CdnFiles.restrictedCountries, () =>
      json(Schema.encodeSync(RestrictedCountries)(defaultRestrictedCountries)),
    )
    yield* writeIfMissing(CdnFiles.currencies, () => json(Schema.encodeSync(Currencies)(currencies)))
    yield* writeIfMissing(CdnFiles.recommendedGames, () =>
      json(Schema.encodeSync(RecommendedGames)(recommendedGames())),
    )
    for (const c of currencies) {
      yield* writeIfMissing(currencyIconPath(c.type, c.code), () => currencyIconSvg(c))
    }
    yield* writeIfMissing("tutorial/index.html", () => tutorialPage(config))
    yield* Effect.promise(() =>
      writeAtomic(join(dir, CdnFiles.siteConfig), json(Schema.encodeSync(SiteConfig)(siteConfigOf(config)))),
    )
    written.push(CdnFiles.siteConfig)
    yield* Effect.logInfo(`CDN files in ${dir}: wrote ${written.join(", ")}`)
    return written
  })
