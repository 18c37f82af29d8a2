/**
 * The dashboard's 30-day chart of GGR and deposits for one currency, drawn by uPlot on a canvas.
 * The canvas says nothing to a screen reader, so the same figures follow as a visually hidden table
 * (exact amounts; the chart's values are major units as numbers, for drawing only).
 */
import { useEffect, useRef } from "react"
import uPlot from "uplot"
import "uplot/dist/uPlot.min.css"
import { decimalsOfCurrency } from "../../services/currencies.ts"
import { money } from "./format.ts"

export interface DailyFigures {
  readonly day: string
  readonly ggr: string
  readonly deposits: string
}

/** Minor units → a number of whole units, for the chart's scale only (never for money shown). */
const plotted = (minor: string, currency: string): number =>
  Number(minor) / 10 ** decimalsOfCurrency(currency)

const cssVar = (name: string, fallback: string): string =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback

export const DailyChart = ({
  currency,
  days,
}: {
  readonly currency: string
  readonly days: ReadonlyArray<DailyFigures>
}) => {
  const box = useRef<HTMLDivElement>(null)
  // The canvas is a rendering detail owned by this component: created for the figures shown,
  // resized with its box, destroyed when they change or the screen leaves.
  useEffect(() => {
    const element = box.current
    if (element === null) return
    const muted = cssVar("--text-muted", "#9aa4b2")
    const grid = cssVar("--border", "#2a3140")
    const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } }
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 280),
        height: 260,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true } },
        axes: [axis, { ...axis, size: 70 }],
        series: [
          {},
          { label: `GGR (${currency})`, stroke: cssVar("--accent", "#f5b942"), width: 2 },
          { label: `Deposits (${currency})`, stroke: cssVar("--focus", "#7aa2ff"), width: 2, dash: [6, 4] },
        ],
      },
      [
        days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000),
        days.map((d) => plotted(d.ggr, currency)),
        days.map((d) => plotted(d.deposits, currency)),
      ],
      element,
    )
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(element.clientWidth, 280), height: 260 }),
    )
    resize.observe(element)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [currency, days])
  const first = days[0]?.day ?? ""
  const last = days[days.length - 1]?.day ?? ""
  return (
    <figure className="bo-chart">
      <div ref={box} className="bo-chart__canvas" aria-hidden="true" />
      <figcaption className="bo-muted">
        GGR and deposits per UTC day in {currency}, {first} to {last}.
      </figcaption>
      <table className="visually-hidden">
        <caption>
          GGR and deposits per day in {currency}, {first} to {last}
        </caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">GGR</th>
            <th scope="col">Deposits</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              <td>{money(d.ggr, currency)}</td>
              <td>{money(d.deposits, currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
