/**
 * Handlers of the `reports` group (services/backoffice/api/reports.ts): the dashboard and the GGR
 * report from `Reports` (server/reports/, docs/reports.md). bigint figures go out as strings of
 * minor units. A report's `from` and `to` are UTC days, both reported: the service's half-open
 * window is [from, to + 1 day).
 */
import { Effect } from "effect"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { BackofficeApi } from "../../services/backoffice/api.ts"
import { ReportRangeRefused } from "../../services/backoffice/errors.ts"
import { type DashboardPeriod, type GgrRow, Reports } from "../reports/Reports.ts"

const DAY_MS = 86_400_000

/** A real calendar day (2026-02-30 is not one), as the instant it starts (UTC). */
const dayStart = (text: string): Date | undefined => {
  const at = new Date(`${text}T00:00:00.000Z`)
  return Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== text ? undefined : at
}

const windowOf = (query: {
  readonly from: string
  readonly to: string
  readonly currency?: string | undefined
}) =>
  Effect.gen(function* () {
    const from = dayStart(query.from)
    const last = dayStart(query.to)
    if (from === undefined || last === undefined)
      return yield* new ReportRangeRefused({ message: "from and to are calendar days, YYYY-MM-DD." })
    if (last < from) return yield* new ReportRangeRefused({ message: "to is before from." })
    return { from, to: new Date(last.getTime() + DAY_MS), currency: query.currency }
  })

const rowView = (r: GgrRow) => ({
  ...r,
  bets: r.bets.toString(),
  refunds: r.refunds.toString(),
  wins: r.wins.toString(),
  ggr: r.ggr.toString(),
  bonusCost: r.bonusCost.toString(),
  ngr: r.ngr.toString(),
})

const periodView = (p: DashboardPeriod) => ({
  from: p.from.toISOString(),
  to: p.to.toISOString(),
  deposits: p.deposits.map((t) => ({ ...t, amount: t.amount.toString() })),
  withdrawals: p.withdrawals.map((t) => ({ ...t, amount: t.amount.toString() })),
  games: p.games.map((g) => ({
    currency: g.currency,
    bets: g.bets.toString(),
    wins: g.wins.toString(),
    ggr: g.ggr.toString(),
    bonusCost: g.bonusCost.toString(),
    ngr: g.ngr.toString(),
  })),
  newPlayers: p.newPlayers,
  firstDeposits: p.firstDeposits,
})

export const ReportsHandlers = HttpApiBuilder.group(
  BackofficeApi,
  "reports",
  Effect.fn(function* (handlers) {
    const reports = yield* Reports
    const rowsOf = (query: {
      readonly from: string
      readonly to: string
      readonly currency?: string | undefined
    }) =>
      Effect.gen(function* () {
        return yield* reports.ggr(yield* windowOf(query)).pipe(Effect.catchTag("SqlError", Effect.die))
      })
    return handlers
      .handle("dashboard", () =>
        Effect.gen(function* () {
          const d = yield* reports.dashboard(new Date()).pipe(Effect.orDie)
          return {
            asOf: d.asOf.toISOString(),
            today: periodView(d.today),
            last7Days: periodView(d.last7Days),
            last30Days: periodView(d.last30Days),
            daily: d.daily.map((p) => ({ ...p, ggr: p.ggr.toString(), deposits: p.deposits.toString() })),
          }
        }),
      )
      .handle("ggr", ({ query }) =>
        Effect.gen(function* () {
          const rows = yield* rowsOf(query)
          return { from: query.from, to: query.to, currency: query.currency ?? null, rows: rows.map(rowView) }
        }),
      )
      .handle("ggrCsv", ({ query }) =>
        Effect.gen(function* () {
          const rows = yield* rowsOf(query)
          const body = yield* reports.ggrCsv(rows).pipe(Effect.orDie)
          return HttpApiSchema.withHeaders({
            body,
            headers: { "content-disposition": `attachment; filename="ggr-${query.from}-${query.to}.csv"` },
          })
        }),
      )
  }),
)
