/**
 * The loyalty tab: the player's level and points, the progress bar to the next level, and every
 * level's perks with the player's marked. A projection of the `loyalty` machine; the figures'
 * words come from services/loyalty-rules.ts.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import { LoyaltyMessages, type loyaltyMachine } from "../../machines/profile/loyalty.machine.ts"
import { formatBpsPercent, formatFactor, formatPoints, progressText } from "../../services/loyalty-rules.ts"
import { Spinner } from "../components/Spinner.tsx"
import { LoadFailed } from "./fields.tsx"
import "./loyalty.css"

type Actor = ActorRefFrom<typeof loyaltyMachine>

export const LoyaltyTab = ({ actor }: { actor: Actor }) => {
  const status = useSelector(actor, (s) => s.context.status)
  const view = useSelector(actor, (s) =>
    s.matches("loadFailed") ? "loadFailed" : s.matches("refreshing") ? "refreshing" : "other",
  )
  if (view === "loadFailed")
    return <LoadFailed message={LoyaltyMessages.loadFailed} onRetry={() => actor.send({ type: "RETRY" })} />
  if (status === null) return <Spinner label="Loading your loyalty level" />

  const refreshing = view === "refreshing"
  return (
    <div className="profile__section loyalty" aria-busy={refreshing}>
      <section className="loyalty-card" aria-labelledby="loyalty-level-title">
        <header className="loyalty-card__head">
          <h2 id="loyalty-level-title">
            <span className="muted">Your level</span> {status.name}
          </h2>
          <p className="loyalty-card__points">
            <strong>{formatPoints(status.points)}</strong> points
          </p>
        </header>
        <div className="loyalty-card__progress">
          <div className="loyalty-card__progress-label">
            <span>
              {status.nextLevel === null ? status.name : `${status.name} → ${status.nextLevel.name}`}
            </span>
            <span>{progressText(status.nextLevel, status.pointsToNext)}</span>
          </div>
          <div
            className="progress"
            role="progressbar"
            aria-label="Progress to the next level"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={status.progressPercent}
          >
            <div className="progress__bar" style={{ width: `${status.progressPercent}%` }} />
          </div>
        </div>
        <p className="muted">
          Every real-money bet earns points: 1 point per 1 EUR on slots, less on other games (the same weights
          as bonus wagering). Bonus money earns none. Points are counted every minute; a level, once reached,
          is yours.
        </p>
        <button
          type="button"
          className="button button--ghost"
          disabled={refreshing}
          onClick={() => actor.send({ type: "REFRESH" })}
        >
          {refreshing ? "Refreshing…" : "Refresh"}
        </button>
      </section>

      <h2 id="loyalty-levels-title">Levels and perks</h2>
      <table className="loyalty-levels" aria-labelledby="loyalty-levels-title">
        <thead>
          <tr>
            <th scope="col">Level</th>
            <th scope="col">Points</th>
            <th scope="col">Weekly cashback</th>
            <th scope="col">Daily withdrawal limit</th>
            <th scope="col">Perks</th>
          </tr>
        </thead>
        <tbody>
          {status.levels.map((l) => {
            const current = l.level === status.level
            return (
              <tr key={l.level} className={current ? "loyalty-levels__current" : undefined}>
                <th scope="row" aria-current={current ? "true" : undefined}>
                  {l.name}
                  {current ? <span className="badge">Your level</span> : null}
                </th>
                <td data-label="Points">{formatPoints(l.minPoints)}</td>
                <td data-label="Weekly cashback">
                  {l.cashbackBps === 0 ? "—" : formatBpsPercent(l.cashbackBps)}
                </td>
                <td data-label="Daily withdrawal limit">{formatFactor(l.withdrawLimitBps)}</td>
                <td data-label="Perks">
                  {l.perks.length === 0 ? (
                    <span className="muted">Points on every real-money bet</span>
                  ) : (
                    <ul className="loyalty-levels__perks">
                      {l.perks.map((p) => (
                        <li key={p}>{p}</li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <p className="muted">
        Cashback is paid every Wednesday for the week before (UTC): your net real-money losses in the rounds
        you started that week times the percentage of the level you held at its end, as cash you can withdraw.
      </p>
    </div>
  )
}
