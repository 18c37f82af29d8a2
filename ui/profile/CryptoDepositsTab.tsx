/**
 * The crypto deposits tab (`/profile/crypto-deposits`; `cryptoHistory` machine): a date
 * range (the last 30 days first) and every on-chain deposit in it — date, currency, amount (in the
 * currency's own unit, from integer minor units), transaction hash (shortened, the full one in its
 * title, with Copy), confirmations k/N and status. Thin: the range's checks and the copy feedback
 * are the machine's.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { cryptoHistoryMachine } from "../../machines/wallet/cryptoHistory.machine.ts"
import {
  confirmationsText,
  transferAmountText,
  transferStatusLabel,
} from "../../machines/wallet/cryptoSupport.ts"
import { shortenHash } from "../../services/crypto-uri.ts"
import { currencyDisplayName } from "../../services/rules.ts"
import { useShell } from "../app/actors.tsx"
import { Spinner } from "../components/Spinner.tsx"
import { LoadFailed } from "./fields.tsx"
import { formatDateTime } from "./format.ts"
import "./crypto-deposits.css"
import { DateRangeForm } from "./DateRangeForm.tsx"

type Actor = ActorRefFrom<typeof cryptoHistoryMachine>

// Here, not in the machine's module: a value import would put the machine in the area's download.
export const cryptoDepositsLoadFailed = "Your crypto deposits could not be loaded."

const RangeForm = ({ actor }: { actor: Actor }) => {
  const from = useSelector(actor, (s) => s.context.from)
  const to = useSelector(actor, (s) => s.context.to)
  const error = useSelector(actor, (s) => s.context.rangeError)
  const loading = useSelector(actor, (s) => s.matches({ open: { list: "loading" } }))
  return (
    <DateRangeForm
      idPrefix="crypto-deposits"
      label="Crypto deposits between"
      from={from}
      to={to}
      error={error}
      loading={loading}
      send={(event) => actor.send(event)}
    />
  )
}

const Table = ({ actor }: { actor: Actor }) => {
  const transfers = useSelector(actor, (s) => s.context.transfers)
  const shown = useSelector(actor, (s) => s.context.shown)
  const loading = useSelector(actor, (s) => s.matches({ open: { list: "loading" } }))
  const copied = useSelector(actor, (s) =>
    s.matches({ open: { copy: "copied" } }) ? s.context.copiedHash : null,
  )
  const copyFailed = useSelector(actor, (s) => s.matches({ open: { copy: "copyFailed" } }))
  const currencies = useShell((s) => s.context.currencies)

  if (loading && transfers.length === 0) return <Spinner label="Loading your crypto deposits" />
  if (transfers.length === 0) {
    return (
      <p className="notice">
        No crypto deposits from {shown.from} to {shown.to}.
      </p>
    )
  }
  return (
    <div className="crypto-history__scroll">
      <table className="crypto-history" aria-busy={loading}>
        <caption className="visually-hidden">Crypto deposits</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Currency</th>
            <th scope="col" className="crypto-history__num">
              Amount
            </th>
            <th scope="col">Transaction</th>
            <th scope="col">Confirmations</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {transfers.map((t) => (
            <tr key={t.id} data-status={t.status}>
              <td data-label="Date">
                <time dateTime={t.createdAt}>{formatDateTime(t.createdAt)}</time>
              </td>
              <td data-label="Currency">{currencyDisplayName(t.currency)}</td>
              <td data-label="Amount" className="crypto-history__num">
                {transferAmountText(currencies, t.currency, t.amount)}
              </td>
              <td data-label="Transaction">
                <span className="crypto-history__hash">
                  <code title={t.txHash}>{shortenHash(t.txHash)}</code>
                  <button
                    type="button"
                    className="link-button crypto-history__copy"
                    onClick={() => actor.send({ type: "COPY", txHash: t.txHash })}
                  >
                    {copied === t.txHash ? "Copied" : "Copy"}
                    <span className="visually-hidden"> transaction hash {t.txHash}</span>
                  </button>
                </span>
              </td>
              <td data-label="Confirmations" className="crypto-history__num">
                {Math.min(t.confirmations, t.requiredConfirmations)}/{t.requiredConfirmations}
                <span className="visually-hidden"> ({confirmationsText(t)})</span>
              </td>
              <td data-label="Status">
                <span className={`badge crypto-history__status crypto-history__status--${t.status}`}>
                  {transferStatusLabel(t.status)}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="crypto-history__copy-status muted" role="status" aria-live="polite">
        {copied !== null ? "Transaction hash copied" : copyFailed ? "Could not copy the hash" : ""}
      </p>
    </div>
  )
}

export const CryptoDepositsTab = ({ actor }: { actor: Actor }) => {
  const failed = useSelector(actor, (s) => s.matches({ open: { list: "loadFailed" } }))
  return (
    <div className="profile__section">
      <p className="page__lead">
        Your deposits on the blockchain with their confirmations. Days are counted in UTC.
      </p>
      <RangeForm actor={actor} />
      {failed ? (
        <LoadFailed message={cryptoDepositsLoadFailed} onRetry={() => actor.send({ type: "RETRY" })} />
      ) : (
        <Table actor={actor} />
      )}
    </div>
  )
}
