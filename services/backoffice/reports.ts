/**
 * Schemas of the back office's figures (server/reports/, docs/reports.md): the dashboard and the
 * GGR report. Amounts are strings of integer minor units per currency (never converted), days UTC
 * dates `YYYY-MM-DD`, instants ISO strings. Browser-safe.
 */
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

/** Integer minor units as a decimal string (may be negative: a day the house lost). */
const Minor = Schema.String

export const CurrencyTotal = Schema.Struct({ currency: Schema.String, amount: Minor, count: Schema.Number })

export const GameTotals = Schema.Struct({
  currency: Schema.String,
  bets: Minor,
  wins: Minor,
  ggr: Minor,
  bonusCost: Minor,
  ngr: Minor,
})

export const DashboardPeriod = Schema.Struct({
  /** Start of the first UTC day (ISO). */
  from: Schema.String,
  /** Start of the UTC day after the last (ISO): the window is [from, to). */
  to: Schema.String,
  deposits: Schema.Array(CurrencyTotal),
  withdrawals: Schema.Array(CurrencyTotal),
  games: Schema.Array(GameTotals),
  newPlayers: Schema.Number,
  firstDeposits: Schema.Number,
})

export const DailyPoint = Schema.Struct({
  day: Schema.String,
  currency: Schema.String,
  ggr: Minor,
  deposits: Minor,
})

export const Dashboard = Schema.Struct({
  asOf: Schema.String,
  today: DashboardPeriod,
  last7Days: DashboardPeriod,
  last30Days: DashboardPeriod,
  daily: Schema.Array(DailyPoint),
})
export type Dashboard = typeof Dashboard.Type

const Day = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/))

/** `from` and `to` are both reported (UTC days, `to` inclusive); at most 366 days. */
export const GgrQuery = Schema.Struct({
  from: Day,
  to: Day,
  /** Only this currency; every currency when absent. */
  currency: Schema.optional(Schema.String.check(Schema.isPattern(/^[A-Z0-9]{2,10}$/))),
})

export const GgrRow = Schema.Struct({
  day: Schema.String,
  gameId: Schema.NullOr(Schema.String),
  provider: Schema.NullOr(Schema.String),
  integration: Schema.NullOr(Schema.String),
  currency: Schema.String,
  bets: Minor,
  refunds: Minor,
  wins: Minor,
  ggr: Minor,
  bonusCost: Minor,
  ngr: Minor,
  rounds: Schema.Number,
})

export const GgrReport = Schema.Struct({
  from: Schema.String,
  to: Schema.String,
  currency: Schema.NullOr(Schema.String),
  rows: Schema.Array(GgrRow),
})

/**
 * The same rows as RFC 4180 CSV (amounts in major units), downloaded as a file: the body is text
 * (`text/csv`) and `Content-Disposition` names it `ggr-<from>-<to>.csv`. A browser fetches it
 * by a link (the derived JSON client does not read it).
 */
export const GgrCsvBody = Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/csv; charset=utf-8" }))
export const GgrCsv = HttpApiSchema.WithHeaders(GgrCsvBody, { "content-disposition": Schema.String })
