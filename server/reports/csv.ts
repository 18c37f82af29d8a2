/**
 * The GGR report as RFC 4180 CSV: a header line, CRLF after every record, a field quoted only when
 * it holds a comma, a double quote, CR or LF (its quotes doubled). Amounts are exact decimal strings
 * in major units with all of the currency's decimals ("12.50" EUR, "1200" JPY, "0.00012345" BTC),
 * so a spreadsheet neither rounds nor guesses. Pure: the currencies' minor units come in.
 */
import { decimalsOf } from "../../services/money-rules.ts"

/** What a CSV line needs of a GGR row (Reports.ts `GgrRow`). */
export interface GgrCsvRow {
  readonly day: string
  readonly gameId: string | null
  readonly provider: string | null
  readonly integration: string | null
  readonly currency: string
  readonly bets: bigint
  readonly refunds: bigint
  readonly wins: bigint
  readonly ggr: bigint
  readonly bonusCost: bigint
  readonly ngr: bigint
  readonly rounds: number
}

export const GGR_CSV_HEADER = [
  "day",
  "game",
  "provider",
  "integration",
  "currency",
  "bets",
  "refunds",
  "wins",
  "ggr",
  "bonus_cost",
  "ngr",
  "rounds",
] as const

/** One field as RFC 4180 wants it. */
export const csvField = (value: string): string =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value

/** One record, CRLF-terminated. */
export const csvRecord = (fields: ReadonlyArray<string>): string => `${fields.map(csvField).join(",")}\r\n`

/** Minor units in major units with exactly the currency's decimals: 1250n, 100n → "12.50". */
export const majorUnits = (minor: bigint, subunitsToUnit: bigint): string => {
  const decimals = decimalsOf(subunitsToUnit)
  const sign = minor < 0n ? "-" : ""
  const abs = minor < 0n ? -minor : minor
  const whole = (abs / subunitsToUnit).toString()
  if (decimals === 0) return `${sign}${whole}`
  return `${sign}${whole}.${(abs % subunitsToUnit).toString().padStart(decimals, "0")}`
}

/**
 * The rows as CSV. `subunits` maps a currency code to its minor units per unit (the `currencies`
 * table); a row in a currency it lacks is a programming error and throws.
 */
export const ggrCsv = (rows: ReadonlyArray<GgrCsvRow>, subunits: ReadonlyMap<string, bigint>): string => {
  const lines = [csvRecord(GGR_CSV_HEADER)]
  for (const r of rows) {
    const unit = subunits.get(r.currency)
    if (unit === undefined) throw new Error(`ggrCsv: no minor units known for currency ${r.currency}`)
    const money = (minor: bigint) => majorUnits(minor, unit)
    lines.push(
      csvRecord([
        r.day,
        r.gameId ?? "",
        r.provider ?? "",
        r.integration ?? "",
        r.currency,
        money(r.bets),
        money(r.refunds),
        money(r.wins),
        money(r.ggr),
        money(r.bonusCost),
        money(r.ngr),
        String(r.rounds),
      ]),
    )
  }
  return lines.join("")
}
