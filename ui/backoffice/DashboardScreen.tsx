/**
 * The dashboard, the screen every operator lands on: the queues waiting for a decision, and for
 * roles that read reports the casino's figures (today, 7 or 30 UTC days, per currency) with the
 * 30-day chart of GGR and deposits.
 */
import { useState } from "react"
import { queuesClient } from "../../services/backoffice/clients/queues.ts"
import { reportsClient } from "../../services/backoffice/clients/reports.ts"
import type { Dashboard } from "../../services/backoffice/reports.ts"
import { type BackofficeScreen, pathOfScreen, screenAllowed } from "../../services/backoffice/screens.ts"
import { useResource, useSession, useSessionActor } from "./actors.tsx"
import { DailyChart, type DailyFigures } from "./DailyChart.tsx"
import { money, when } from "./format.ts"
import { ResourceState, ScreenHeader } from "./Layout.tsx"
import "./reports.css"

type Period = "today" | "last7Days" | "last30Days"
const periods: ReadonlyArray<{ readonly id: Period; readonly label: string }> = [
  { id: "today", label: "Today" },
  { id: "last7Days", label: "7 days" },
  { id: "last30Days", label: "30 days" },
]

type DashboardPeriod = Dashboard["today"]

const currenciesOf = (dashboard: Dashboard): ReadonlyArray<string> => {
  const seen = new Set<string>()
  for (const p of [dashboard.today, dashboard.last7Days, dashboard.last30Days]) {
    for (const d of p.deposits) seen.add(d.currency)
    for (const w of p.withdrawals) seen.add(w.currency)
    for (const g of p.games) seen.add(g.currency)
  }
  for (const d of dashboard.daily) seen.add(d.currency)
  return [...seen].sort((a, b) => (a === "EUR" ? -1 : b === "EUR" ? 1 : a.localeCompare(b)))
}

/** Every UTC day of the 30-day window, a day without activity as zero. */
const dailyOf = (dashboard: Dashboard, currency: string): ReadonlyArray<DailyFigures> => {
  const byDay = new Map(dashboard.daily.filter((d) => d.currency === currency).map((d) => [d.day, d]))
  const days: Array<DailyFigures> = []
  const end = Date.parse(dashboard.last30Days.to)
  for (let t = Date.parse(dashboard.last30Days.from); t < end; t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10)
    const point = byDay.get(day)
    days.push({ day, ggr: point?.ggr ?? "0", deposits: point?.deposits ?? "0" })
  }
  return days
}

/** One figure of a `<dl className="bo-tiles">`: its name, the value, a short note. */
const Tile = ({
  label,
  value,
  note,
}: {
  readonly label: string
  readonly value: string
  readonly note?: string
}) => (
  <div className="bo-tile">
    <dt className="bo-tile__label">{label}</dt>
    <dd className="bo-tile__value">{value}</dd>
    {note !== undefined && <dd className="bo-muted bo-tile__note">{note}</dd>}
  </div>
)

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

const PeriodTiles = ({
  period,
  currency,
}: {
  readonly period: DashboardPeriod
  readonly currency: string
}) => {
  const deposits = period.deposits.find((d) => d.currency === currency)
  const withdrawals = period.withdrawals.find((w) => w.currency === currency)
  const games = period.games.find((g) => g.currency === currency)
  const zero = money("0", currency)
  return (
    <dl className="bo-tiles">
      <Tile
        label="Deposits"
        value={deposits ? money(deposits.amount, currency) : zero}
        note={plural(deposits?.count ?? 0, "deposit", "deposits")}
      />
      <Tile
        label="Withdrawals"
        value={withdrawals ? money(withdrawals.amount, currency) : zero}
        note={plural(withdrawals?.count ?? 0, "withdrawal", "withdrawals")}
      />
      <Tile label="Bets" value={games ? money(games.bets, currency) : zero} />
      <Tile label="Wins" value={games ? money(games.wins, currency) : zero} />
      <Tile label="GGR" value={games ? money(games.ggr, currency) : zero} note="Bets minus wins" />
      <Tile
        label="NGR"
        value={games ? money(games.ngr, currency) : zero}
        note={`GGR minus bonus cost ${games ? money(games.bonusCost, currency) : zero}`}
      />
      <Tile label="New players" value={String(period.newPlayers)} note="All currencies" />
      <Tile label="First deposits" value={String(period.firstDeposits)} note="All currencies" />
    </dl>
  )
}

const Figures = () => {
  const dashboard = useResource(() => reportsClient.dashboard())
  const [period, setPeriod] = useState<Period>("today")
  const [chosen, setChosen] = useState<string | null>(null)
  const data = dashboard.data
  const currencies = data ? currenciesOf(data) : []
  const currency = chosen !== null && currencies.includes(chosen) ? chosen : (currencies[0] ?? "EUR")
  const selected = data?.[period]
  return (
    <section aria-labelledby="bo-figures">
      <div className="bo-screen-head">
        <h2 id="bo-figures">Figures</h2>
        <div className="bo-row">
          {currencies.length > 1 && (
            <label className="bo-inline-label">
              Currency
              <select value={currency} onChange={(event) => setChosen(event.currentTarget.value)}>
                {currencies.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
          )}
          <fieldset className="bo-segmented">
            <legend className="visually-hidden">Period</legend>
            {periods.map((p) => (
              <button
                key={p.id}
                type="button"
                className="bo-button"
                aria-pressed={p.id === period}
                onClick={() => setPeriod(p.id)}
              >
                {p.label}
              </button>
            ))}
          </fieldset>
          <button
            type="button"
            className="bo-button"
            onClick={dashboard.refresh}
            disabled={dashboard.refreshing || dashboard.loading}
          >
            {dashboard.refreshing ? "Refreshing…" : "Refresh"}
          </button>
        </div>
      </div>
      <ResourceState {...dashboard} />
      {data && selected && (
        <>
          <p className="bo-muted">
            {periods.find((p) => p.id === period)?.label} in {currency}: {when(selected.from)} to{" "}
            {when(selected.to)} (as of {when(data.asOf)})
          </p>
          <PeriodTiles period={selected} currency={currency} />
          <div className="bo-card">
            <h2>Last 30 days</h2>
            <DailyChart currency={currency} days={dailyOf(data, currency)} />
          </div>
        </>
      )}
    </section>
  )
}

const QueueLink = ({
  screen,
  label,
  count,
  unit,
}: {
  readonly screen: BackofficeScreen
  readonly label: string
  readonly count: number
  readonly unit: readonly [string, string]
}) => {
  const session = useSessionActor()
  const permissions = useSession((s) => s.context.me?.permissions ?? [])
  const text = `${plural(count, unit[0], unit[1])} waiting`
  return (
    <div className="bo-tile">
      <dt className="bo-tile__label">{label}</dt>
      <dd className="bo-tile__value">{count}</dd>
      <dd className="bo-tile__note">
        {screenAllowed(screen, permissions) ? (
          <a
            href={pathOfScreen(screen)}
            onClick={(event) => {
              event.preventDefault()
              session.send({ type: "NAVIGATE", screen })
            }}
          >
            Review {text}
          </a>
        ) : (
          <span className="bo-muted">{text}</span>
        )}
      </dd>
    </div>
  )
}

const Queues = () => {
  // The queues move while the screen is open: a light poll keeps the counts honest.
  const queues = useResource(() => queuesClient.queueCounts(), 30_000)
  return (
    <section aria-labelledby="bo-queues">
      <h2 id="bo-queues">Waiting for a decision</h2>
      <ResourceState {...queues} />
      {queues.data && (
        <dl className="bo-tiles">
          <QueueLink
            screen="kyc"
            label="KYC queue"
            count={queues.data.kyc}
            unit={["document", "documents"]}
          />
          <QueueLink
            screen="withdrawals"
            label="Withdrawals"
            count={queues.data.withdrawals}
            unit={["withdrawal", "withdrawals"]}
          />
        </dl>
      )}
    </section>
  )
}

export const DashboardScreen = () => {
  const me = useSession((s) => s.context.me)
  const readsReports = me?.permissions.includes("reports.read") ?? false
  return (
    <>
      <ScreenHeader title="Dashboard" />
      {readsReports ? (
        <p className="bo-muted">Welcome, {me?.operator.name}.</p>
      ) : (
        <>
          <h2>Welcome, {me?.operator.name}</h2>
          <p className="bo-muted">Choose a screen from the menu.</p>
        </>
      )}
      <Queues />
      {readsReports && <Figures />}
    </>
  )
}
