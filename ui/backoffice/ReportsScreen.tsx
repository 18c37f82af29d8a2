/**
 * The GGR report: per UTC day × game × provider × currency for a window (the last 30 days unless
 * chosen), totals per currency, and the same rows as a CSV file. The CSV is a plain link: the
 * session cookie goes with it and the browser saves the file (the typed client reads JSON only).
 */
import { type FormEvent, useState } from "react"
import { reportsClient } from "../../services/backoffice/clients/reports.ts"
import type { GgrReport } from "../../services/backoffice/reports.ts"
import { useResource } from "./actors.tsx"
import { money } from "./format.ts"
import { ResourceState, ScreenHeader } from "./Layout.tsx"
import "./reports.css"

interface Window {
  readonly from: string
  readonly to: string
  /** "" for every currency. */
  readonly currency: string
}

const dayOf = (t: number): string => new Date(t).toISOString().slice(0, 10)

const lastThirtyDays = (): Window => {
  const today = Date.now()
  return { from: dayOf(today - 29 * 86_400_000), to: dayOf(today), currency: "" }
}

const queryOf = (w: Window): { from: string; to: string; currency?: string } =>
  w.currency === "" ? { from: w.from, to: w.to } : { from: w.from, to: w.to, currency: w.currency }

const csvHref = (w: Window): string =>
  `/api/backoffice/v1/reports/ggr.csv?${new URLSearchParams(queryOf(w)).toString()}`

type Row = (typeof GgrReport.Type)["rows"][number]
const amounts = ["bets", "refunds", "wins", "ggr", "bonusCost", "ngr"] as const

const totalsOf = (rows: ReadonlyArray<Row>) => {
  const byCurrency = new Map<string, { rounds: number } & Record<(typeof amounts)[number], bigint>>()
  for (const row of rows) {
    const total = byCurrency.get(row.currency) ?? {
      rounds: 0,
      bets: 0n,
      refunds: 0n,
      wins: 0n,
      ggr: 0n,
      bonusCost: 0n,
      ngr: 0n,
    }
    total.rounds += row.rounds
    for (const a of amounts) total[a] += BigInt(row[a])
    byCurrency.set(row.currency, total)
  }
  return [...byCurrency.entries()].sort(([a], [b]) => a.localeCompare(b))
}

export const ReportsScreen = () => {
  const [applied, setApplied] = useState<Window>(lastThirtyDays)
  const [currencies, setCurrencies] = useState<ReadonlyArray<string>>([])
  const report = useResource(() => reportsClient.ggr({ query: queryOf(applied) }))
  const rows = report.data?.rows ?? []
  // The currencies offered are those the report has shown so far (the window's, then any chosen).
  const offered = [...new Set([...currencies, ...rows.map((r) => r.currency), "EUR"])].sort()
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const next: Window = {
      from: String(data.get("from") ?? ""),
      to: String(data.get("to") ?? ""),
      currency: String(data.get("currency") ?? ""),
    }
    setCurrencies(offered)
    setApplied(next)
    report.reload(() => reportsClient.ggr({ query: queryOf(next) }))
  }
  return (
    <>
      <ScreenHeader title="Reports" refresh={report.refresh} refreshing={report.refreshing} />
      <section className="bo-card" aria-labelledby="ggr-window">
        <h2 id="ggr-window">GGR by day, game and provider</h2>
        <form className="bo-form-row" onSubmit={apply} aria-label="Report window">
          <label>
            From
            <input name="from" type="date" required defaultValue={applied.from} />
          </label>
          <label>
            To
            <input name="to" type="date" required defaultValue={applied.to} />
          </label>
          <label>
            Currency
            <select name="currency" defaultValue={applied.currency}>
              <option value="">All currencies</option>
              {offered.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="bo-button bo-button--primary" disabled={report.loading}>
            Show
          </button>
          <a className="bo-button" href={csvHref(applied)} download>
            Download CSV
          </a>
        </form>
        <p className="bo-muted">
          UTC days {applied.from} to {applied.to}, both included
          {applied.currency === "" ? ", every currency" : `, ${applied.currency} only`}. GGR is bets minus
          refunds minus wins; NGR is GGR minus bonus cost.
        </p>
      </section>
      <ResourceState {...report} />
      {report.data && rows.length === 0 && (
        <p className="bo-notice">No play and no bonus cost in this window.</p>
      )}
      {report.data && rows.length > 0 && (
        // Focusable so a keyboard can scroll the wide table on a phone.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
        <section className="bo-table-wrap" tabIndex={0} aria-label="GGR rows">
          <table className="bo-table">
            <caption className="visually-hidden">
              GGR from {report.data.from} to {report.data.to}
            </caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Game</th>
                <th scope="col">Provider</th>
                <th scope="col">Currency</th>
                <th scope="col" className="bo-num">
                  Rounds
                </th>
                <th scope="col" className="bo-num">
                  Bets
                </th>
                <th scope="col" className="bo-num">
                  Refunds
                </th>
                <th scope="col" className="bo-num">
                  Wins
                </th>
                <th scope="col" className="bo-num">
                  GGR
                </th>
                <th scope="col" className="bo-num">
                  Bonus cost
                </th>
                <th scope="col" className="bo-num">
                  NGR
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.day}|${r.gameId ?? ""}|${r.integration ?? ""}|${r.currency}`}>
                  <td>{r.day}</td>
                  <td>{r.gameId ?? <span className="bo-muted">Bonuses (no game)</span>}</td>
                  <td>{r.provider ?? "—"}</td>
                  <td>{r.currency}</td>
                  <td className="bo-num">{r.rounds}</td>
                  {amounts.map((a) => (
                    <td key={a} className="bo-num">
                      {money(r[a], r.currency)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
            <tfoot>
              {totalsOf(rows).map(([currency, total]) => (
                <tr key={currency}>
                  <th scope="row" colSpan={3}>
                    Total
                  </th>
                  <td>{currency}</td>
                  <td className="bo-num">{total.rounds}</td>
                  {amounts.map((a) => (
                    <td key={a} className="bo-num">
                      {money(String(total[a]), currency)}
                    </td>
                  ))}
                </tr>
              ))}
            </tfoot>
          </table>
        </section>
      )}
    </>
  )
}
