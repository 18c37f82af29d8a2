/**
 * The deposits tab (`/profile/deposits`; `depositHistory` machine): a date range (the last 30 days
 * first) and every deposit in it with its status, amount in its currency, method and time. Thin:
 * the range's checks, labels and messages come from the machine.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { depositHistoryMachine } from "../../machines/wallet/depositHistory.machine.ts"
import { declineWords } from "../../machines/wallet/depositReasons.ts"
import type { DepositMethod, DepositStatus, FiatPayment } from "../../services/wallet-service.ts"
import { useShell } from "../app/actors.tsx"
import { Amount } from "../components/Amount.tsx"
import { Spinner } from "../components/Spinner.tsx"
import { DateRangeForm } from "./DateRangeForm.tsx"
import { LoadFailed } from "./fields.tsx"
import { formatDateTime } from "./format.ts"

type Actor = ActorRefFrom<typeof depositHistoryMachine>

// Labels live here, not in the machine's module: importing values from it would put the machine (and
// the wallet client) in the profile area's own download instead of the money flows' (profileArea).
export const depositsLoadFailed = "Your deposits could not be loaded."

/** What each status means to a player. */
export const depositStatusLabels: Readonly<Record<DepositStatus, string>> = {
  initiated: "Started",
  pending: "Pending",
  completed: "Completed",
  failed: "Failed",
  expired: "Expired",
}

export const depositMethodLabels: Readonly<Record<DepositMethod, string>> = {
  card: "Card",
  skrill: "Skrill",
  jeton: "Jeton",
  "jeton-cash": "Jeton Cash",
  mifinity: "MiFinity",
}

/** "Card · payweb": a card names its gateway; an e-wallet is its own provider ("Skrill"). */
export const methodText = (payment: FiatPayment): string =>
  payment.method === "card" && payment.provider !== ""
    ? `${depositMethodLabels.card} · ${payment.provider}`
    : depositMethodLabels[payment.method]

const RangeForm = ({ actor }: { actor: Actor }) => {
  const from = useSelector(actor, (s) => s.context.from)
  const to = useSelector(actor, (s) => s.context.to)
  const error = useSelector(actor, (s) => s.context.rangeError)
  const loading = useSelector(actor, (s) => s.matches("loading"))
  return (
    <DateRangeForm
      idPrefix="deposits"
      label="Deposits between"
      from={from}
      to={to}
      error={error}
      loading={loading}
      send={(event) => actor.send(event)}
    />
  )
}

const List = ({ actor }: { actor: Actor }) => {
  const deposits = useSelector(actor, (s) => s.context.deposits)
  const shown = useSelector(actor, (s) => s.context.shown)
  const loading = useSelector(actor, (s) => s.matches("loading"))
  const currencies = useShell((s) => s.context.currencies)

  if (loading && deposits.length === 0) return <Spinner label="Loading your deposits" />
  if (deposits.length === 0) {
    return (
      <p className="notice">
        No deposits from {shown.from} to {shown.to}.
      </p>
    )
  }
  return (
    <ul className="deposits" aria-label="Deposits" aria-busy={loading}>
      {deposits.map((deposit) => (
        <li key={deposit.id} className="deposits__item">
          <span className="deposits__amount">
            <Amount minor={deposit.amount} currency={deposit.currency} currencies={currencies} />{" "}
            {deposit.currency}
          </span>
          <span className={`badge deposits__status deposits__status--${deposit.status}`}>
            {depositStatusLabels[deposit.status]}
          </span>
          <span className="deposits__method">{methodText(deposit)}</span>
          <time className="deposits__time muted" dateTime={deposit.createdAt}>
            {formatDateTime(deposit.createdAt)}
          </time>
          {deposit.status === "failed" ? (
            <span className="deposits__reason muted">{declineWords(deposit.reason)}</span>
          ) : deposit.reason !== null && deposit.status !== "completed" ? (
            <span className="deposits__reason muted">{deposit.reason}</span>
          ) : null}
        </li>
      ))}
    </ul>
  )
}

export const DepositsTab = ({ actor }: { actor: Actor }) => {
  const failed = useSelector(actor, (s) => s.matches("loadFailed"))
  return (
    <div className="profile__section">
      <p className="page__lead">Your deposits with their status. Days are counted in UTC.</p>
      <RangeForm actor={actor} />
      {failed ? (
        <LoadFailed message={depositsLoadFailed} onRetry={() => actor.send({ type: "RETRY" })} />
      ) : (
        <List actor={actor} />
      )}
    </div>
  )
}
