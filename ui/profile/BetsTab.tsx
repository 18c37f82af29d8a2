/**
 * The bets tab (`/profile/bets`; `betHistory` machine): a date range (the last 30 days first), a
 * provider filter, and the real-money rounds in it, 20 a page: game with the player's round number in
 * it, brand, bet, the result in money words (services/games/words.ts: only a win above the bet is
 * green), status, time, and a Verify link opening the verifier with the round filled in.
 * Thin: the checks and messages come from the machine (type-only import: its module and the game
 * calls' client are downloaded when the tab opens).
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { betHistoryMachine } from "../../machines/games/betHistory.machine.ts"
import type { BetRecord } from "../../services/game-service.ts"
import { resultWords } from "../../services/games/words.ts"
import { useShell } from "../app/actors.tsx"
import { Amount } from "../components/Amount.tsx"
import { Spinner } from "../components/Spinner.tsx"
import { DateRangeForm } from "./DateRangeForm.tsx"
import { LoadFailed } from "./fields.tsx"
import { formatDateTime } from "./format.ts"

type Actor = ActorRefFrom<typeof betHistoryMachine>

export const betsLoadFailed = "Your bets could not be loaded."

export const betStatusLabels: Readonly<Record<BetRecord["status"], string>> = {
  open: "Open",
  settled: "Settled",
  "rolled-back": "Refunded",
}

const Filters = ({ actor }: { actor: Actor }) => {
  const from = useSelector(actor, (s) => s.context.from)
  const to = useSelector(actor, (s) => s.context.to)
  const error = useSelector(actor, (s) => s.context.rangeError)
  const loading = useSelector(actor, (s) => s.matches("loading"))
  const providers = useSelector(actor, (s) => s.context.providers)
  const provider = useSelector(actor, (s) => s.context.shown.provider)
  return (
    <DateRangeForm
      idPrefix="bets"
      label="Bets between"
      from={from}
      to={to}
      error={error}
      loading={loading}
      send={(event) => actor.send(event)}
    >
      <div className="field">
        <label className="field__label" htmlFor="bets-provider">
          Provider
        </label>
        <select
          id="bets-provider"
          className="input"
          value={provider}
          onChange={(event) => actor.send({ type: "PROVIDER", provider: event.currentTarget.value })}
        >
          <option value="">All providers</option>
          {providers.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
    </DateRangeForm>
  )
}

const Pager = ({ actor }: { actor: Actor }) => {
  const page = useSelector(actor, (s) => s.context.shown.page)
  const total = useSelector(actor, (s) => s.context.history?.totalPages ?? 0)
  const loading = useSelector(actor, (s) => s.matches("loading"))
  if (total <= 1) return null
  return (
    <nav className="bets__pager" aria-label="Pages of bets">
      <button
        type="button"
        className="button button--ghost"
        disabled={page === 0 || loading}
        onClick={() => actor.send({ type: "PAGE", page: page - 1 })}
      >
        Previous
      </button>
      <span aria-live="polite">
        Page {page + 1} of {total}
      </span>
      <button
        type="button"
        className="button button--ghost"
        disabled={page + 1 >= total || loading}
        onClick={() => actor.send({ type: "PAGE", page: page + 1 })}
      >
        Next
      </button>
    </nav>
  )
}

/** What the round did in money; a rolled-back round was refunded and says nothing more. */
const Result = ({ bet }: { bet: BetRecord }) => {
  if (bet.status !== "settled") return <td className="muted">—</td>
  const words = resultWords(BigInt(bet.bet), BigInt(bet.win), bet.currency)
  return <td className={words.tone === "win" ? "bets__win" : undefined}>{words.text}</td>
}

const List = ({ actor }: { actor: Actor }) => {
  const history = useSelector(actor, (s) => s.context.history)
  const shown = useSelector(actor, (s) => s.context.shown)
  const loading = useSelector(actor, (s) => s.matches("loading"))
  const currencies = useShell((s) => s.context.currencies)
  if (history === null) return <Spinner label="Loading your bets" />
  if (history.content.length === 0)
    return (
      <p className="notice">
        No bets from {shown.from} to {shown.to}
        {shown.provider === "" ? "" : ` with ${shown.provider}`}.
      </p>
    )
  return (
    <>
      <div className="bets__scroll">
        <table className="bets" aria-busy={loading}>
          <caption className="visually-hidden">Your bets, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Game</th>
              <th scope="col">Provider</th>
              <th scope="col" className="bets__num">
                Bet
              </th>
              <th scope="col">Result</th>
              <th scope="col">Status</th>
              <th scope="col">Time</th>
              <th scope="col">
                <span className="visually-hidden">Fairness</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {history.content.map((bet) => (
              <tr key={bet.roundId}>
                <td>
                  {bet.gameName} <span className="muted">#{bet.roundNumber}</span>
                </td>
                <td>{bet.provider}</td>
                <td className="bets__num">
                  <Amount minor={bet.bet} currency={bet.currency} currencies={currencies} /> {bet.currency}
                </td>
                <Result bet={bet} />
                <td>
                  <span className={`badge bets__status bets__status--${bet.status}`}>
                    {betStatusLabels[bet.status]}
                  </span>
                </td>
                <td className="muted">
                  <time dateTime={bet.at}>{formatDateTime(bet.at)}</time>
                </td>
                <td>
                  {/* A full load: the verifier reads its round from the address. */}
                  <a
                    href={`/fairness?round=${encodeURIComponent(bet.roundId)}`}
                    aria-label={`Verify ${bet.gameName} round ${bet.roundNumber}`}
                  >
                    Verify
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager actor={actor} />
    </>
  )
}

export const BetsTab = ({ actor }: { actor: Actor }) => {
  const failed = useSelector(actor, (s) => s.matches("loadFailed"))
  return (
    <div className="profile__section">
      <p className="page__lead">Your real-money rounds, newest first. Days are counted in UTC.</p>
      <Filters actor={actor} />
      {failed ? (
        <LoadFailed message={betsLoadFailed} onRetry={() => actor.send({ type: "RETRY" })} />
      ) : (
        <List actor={actor} />
      )}
    </div>
  )
}
