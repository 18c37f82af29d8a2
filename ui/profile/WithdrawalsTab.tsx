/**
 * The withdrawals tab (`/profile/withdrawals`; `withdrawals` machine): every withdrawal with
 * its status, amount, destination, the transaction hash of a crypto payout, and its timeline
 * (requested → approved → sent → paid, or rejected / failed with the reason). Live: the machine reads
 * the list again on every `withdrawal` push event. Thin: it only shows the machine's context.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { withdrawalsMachine } from "../../machines/wallet/withdrawals.machine.ts"
import type { Withdrawal, WithdrawalMethod, WithdrawalStatus } from "../../services/cashout-service.ts"
import { currencyDisplayName } from "../../services/rules.ts"
import { useAuthActor, useModalsActor, useShell } from "../app/actors.tsx"
import { Amount } from "../components/Amount.tsx"
import { Spinner } from "../components/Spinner.tsx"
import { LoadFailed } from "./fields.tsx"
import { formatDateTime } from "./format.ts"
import "./withdrawals.css"

type Actor = ActorRefFrom<typeof withdrawalsMachine>

// Labels live here, not in the machine's module (its import would pull the cashout client in here).
export const withdrawalsLoadFailed = "Your withdrawals could not be loaded."

export const withdrawalStatusLabels: Readonly<Record<WithdrawalStatus, string>> = {
  requested: "Requested",
  approved: "Approved",
  sent: "Sent",
  paid: "Paid",
  rejected: "Rejected",
  failed: "Failed",
}

export const withdrawalMethodLabels: Readonly<Record<WithdrawalMethod, string>> = {
  crypto: "Crypto",
  skrill: "Skrill",
  bank: "Bank account",
}

/** The happy path the timeline shows ahead of a withdrawal still on its way. */
const happyPath: ReadonlyArray<WithdrawalStatus> = ["requested", "approved", "sent", "paid"]

const shortHash = (hash: string): string =>
  hash.length > 20 ? `${hash.slice(0, 10)}…${hash.slice(-8)}` : hash

const Timeline = ({ withdrawal }: { withdrawal: Withdrawal }) => {
  const reached = new Set(withdrawal.timeline.map((step) => step.status))
  const ended = withdrawal.status === "rejected" || withdrawal.status === "failed"
  // Steps still to come (greyed) unless the withdrawal ended off the happy path.
  const upcoming = ended ? [] : happyPath.filter((status) => !reached.has(status))
  return (
    <ol className="withdrawals__timeline" aria-label="Timeline">
      {withdrawal.timeline.map((step) => (
        <li
          key={`${step.status}-${step.at}`}
          className={`withdrawals__step withdrawals__step--${step.status}`}
          data-status={step.status}
        >
          <span className="withdrawals__step-name">{withdrawalStatusLabels[step.status]}</span>
          <time className="muted" dateTime={step.at}>
            {formatDateTime(step.at)}
          </time>
          {/* The hash is shown above, the reason of a rejection too: no repeat here. */}
          {step.note !== null && step.status !== "sent" && step.note !== withdrawal.reason ? (
            <span className="withdrawals__note">{step.note}</span>
          ) : null}
        </li>
      ))}
      {upcoming.map((status) => (
        <li key={status} className="withdrawals__step withdrawals__step--upcoming" aria-hidden="true">
          <span className="withdrawals__step-name">{withdrawalStatusLabels[status]}</span>
        </li>
      ))}
    </ol>
  )
}

const Item = ({ withdrawal }: { withdrawal: Withdrawal }) => {
  const currencies = useShell((s) => s.context.currencies)
  return (
    <li className="withdrawals__item" data-id={withdrawal.id}>
      <div className="withdrawals__head">
        <span className="deposits__amount">
          <Amount minor={withdrawal.amount} currency={withdrawal.currency} currencies={currencies} />{" "}
          {currencyDisplayName(withdrawal.currency)}
        </span>
        <span
          className={`badge withdrawals__status withdrawals__status--${withdrawal.status}`}
          data-testid="withdrawal-status"
        >
          {withdrawalStatusLabels[withdrawal.status]}
        </span>
      </div>
      <p className="withdrawals__to muted">
        {withdrawalMethodLabels[withdrawal.method]} ·{" "}
        <span className="withdrawals__destination">{withdrawal.destination}</span>
      </p>
      {withdrawal.txHash !== null ? (
        <p className="withdrawals__tx">
          Transaction <code title={withdrawal.txHash}>{shortHash(withdrawal.txHash)}</code>
        </p>
      ) : null}
      {withdrawal.reason !== null ? (
        <p className="withdrawals__reason" role="note">
          Reason: {withdrawal.reason}
        </p>
      ) : null}
      <Timeline withdrawal={withdrawal} />
    </li>
  )
}

/** Opens the cashout modal, like the header's button (which phones do not show: no room). */
const CashOutButton = () => {
  const auth = useAuthActor()
  const modals = useModalsActor()
  return (
    <button
      type="button"
      className="button button--primary withdrawals__cashout"
      onClick={() => {
        const { profile, fund } = auth.getSnapshot().context
        modals.send({ type: "OPEN_CASHOUT", profile, fund })
      }}
    >
      Cash out
    </button>
  )
}

export const WithdrawalsTab = ({ actor }: { actor: Actor }) => {
  const failed = useSelector(actor, (s) => s.matches("loadFailed"))
  const loading = useSelector(actor, (s) => s.matches("loading"))
  const refreshing = useSelector(actor, (s) => s.matches("refreshing"))
  const withdrawals = useSelector(actor, (s) => s.context.withdrawals)
  return (
    <div className="profile__section">
      <div className="withdrawals__intro">
        <p className="page__lead">
          Your cash outs and where each one is. A rejected cash out returns its amount to your balance.
        </p>
        <CashOutButton />
      </div>
      {failed ? (
        <LoadFailed message={withdrawalsLoadFailed} onRetry={() => actor.send({ type: "RETRY" })} />
      ) : loading ? (
        <Spinner label="Loading your withdrawals" />
      ) : withdrawals.length === 0 ? (
        <p className="notice">No withdrawals yet.</p>
      ) : (
        <ul className="withdrawals" aria-label="Withdrawals" aria-busy={refreshing}>
          {withdrawals.map((withdrawal) => (
            <Item key={withdrawal.id} withdrawal={withdrawal} />
          ))}
        </ul>
      )}
    </div>
  )
}
