/**
 * The withdrawals queue (`withdrawals.review`): requests waiting for a decision, oldest first,
 * refreshed every 15 s; the chosen one beside the list with the player's risk context (money in
 * against money out, bonus wagering, where the sessions came from, account age, KYC), Approve
 * after a confirmation, Reject with a reason, and the manual crypto payout's sent/paid steps.
 */
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from "react"
import { withdrawalsClient } from "../../services/backoffice/clients/withdrawals.ts"
import type { QueuedWithdrawal, RiskContext } from "../../services/backoffice/queues.ts"
import type { WithdrawalStatus } from "../../services/cashout-service.ts"
import { type Action, useAction, useResource } from "./actors.tsx"
import { money, when } from "./format.ts"
import { ResourceState, ScreenHeader } from "./Layout.tsx"
import "./queues.css"

const POLL_MS = 15_000

type Risk = typeof RiskContext.Type

const methodLabel: Readonly<Record<QueuedWithdrawal["method"], string>> = {
  crypto: "Crypto",
  skrill: "Skrill",
  bank: "Bank account",
}

const statusLabel: Readonly<Record<WithdrawalStatus, string>> = {
  requested: "Requested",
  approved: "Approved",
  sent: "Sent",
  paid: "Paid",
  rejected: "Rejected",
  failed: "Failed",
}

const StatusBadge = ({ status }: { readonly status: WithdrawalStatus }) => (
  <span
    className={`bo-badge${status === "paid" || status === "approved" || status === "sent" ? " bo-badge--ok" : status === "rejected" || status === "failed" ? " bo-badge--danger" : ""}`}
  >
    {statusLabel[status]}
  </span>
)

const kycLabel: Readonly<Record<string, string>> = {
  NONE: "Not uploaded",
  PENDING: "Waiting for review",
  APPROVED: "Approved",
  REJECTED: "Rejected",
}

const KycBadge = ({ status }: { readonly status: string }) => (
  <span
    className={`bo-badge${status === "APPROVED" ? " bo-badge--ok" : status === "REJECTED" ? " bo-badge--danger" : ""}`}
  >
    {kycLabel[status] ?? status}
  </span>
)

/** Paid out minus paid in, as a share of the deposits: the first figure an officer weighs. */
const RiskContextView = ({ risk }: { readonly risk: Risk }) => (
  <div className="bo-risk">
    <h3>Risk context</h3>
    <dl className="bo-facts">
      <div>
        <dt>Account age</dt>
        <dd>
          {risk.accountAgeDays} {risk.accountAgeDays === 1 ? "day" : "days"}
          <div className="bo-muted">since {when(risk.registeredAt)}</div>
        </dd>
      </div>
      <div>
        <dt>KYC</dt>
        <dd>
          {risk.kyc.verified ? (
            <span className="bo-badge bo-badge--ok">Verified</span>
          ) : (
            <span className="bo-badge bo-badge--danger">Not verified</span>
          )}
          <div className="bo-muted">
            Identity <KycBadge status={risk.kyc.id} /> · Address <KycBadge status={risk.kyc.bill} />
          </div>
        </dd>
      </div>
    </dl>

    <h4>Deposits and withdrawals</h4>
    {risk.totals.length === 0 ? (
      <p className="bo-muted">No deposits or withdrawals yet.</p>
    ) : (
      // Three short columns: they fit a phone, so no scrolling box (which the keyboard would need to reach).
      <div className="bo-risk-table">
        <table className="bo-table">
          <caption className="visually-hidden">Deposits against paid withdrawals per currency</caption>
          <thead>
            <tr>
              <th scope="col">Currency</th>
              <th scope="col" className="bo-num">
                Deposited
              </th>
              <th scope="col" className="bo-num">
                Withdrawn
              </th>
            </tr>
          </thead>
          <tbody>
            {risk.totals.map((t) => (
              <tr key={t.currency}>
                <th scope="row">{t.currency}</th>
                <td className="bo-num">
                  {money(t.deposited, t.currency)}
                  <div className="bo-muted">
                    {t.deposits} {t.deposits === 1 ? "deposit" : "deposits"}
                  </div>
                </td>
                <td className="bo-num">
                  {money(t.withdrawn, t.currency)}
                  <div className="bo-muted">
                    {t.withdrawals} {t.withdrawals === 1 ? "withdrawal" : "withdrawals"}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}

    <h4>Bonus</h4>
    {risk.bonus.bonuses.length === 0 ? (
      <p className="bo-muted">No active bonus.</p>
    ) : (
      <>
        {risk.bonus.wageringOpen && (
          <p className="bo-notice">Wagering is still open: cashing out forfeits the bonus.</p>
        )}
        <ul className="bo-list">
          {risk.bonus.bonuses.map((b) => (
            <li key={b.id}>
              <strong>{b.name}</strong> · {money(b.amount, b.currency)} (balance{" "}
              {money(b.balance, b.currency)})
              <div className="bo-muted">
                Wagered {money(b.wagered, b.currency)} of {money(b.wageringRequired, b.currency)} · expires{" "}
                {when(b.expiresAt)}
              </div>
            </li>
          ))}
        </ul>
      </>
    )}

    <h4>Sessions' countries (30 days)</h4>
    {risk.countries.length === 0 ? (
      <p className="bo-muted">No sessions in the last 30 days.</p>
    ) : (
      <ul className="bo-list">
        {risk.countries.map((c) => (
          <li key={c.country ?? "unknown"}>
            <strong>{c.country ?? "Unknown"}</strong> · {c.sessions}{" "}
            {c.sessions === 1 ? "session" : "sessions"}
            <span className="bo-muted"> · last {when(c.lastSeenAt)}</span>
          </li>
        ))}
      </ul>
    )}
  </div>
)

/** A reason or a hash asked for before the call; the machine refuses a blank one too. */
const AskForm = ({
  action,
  label,
  name,
  maxLength,
  submitLabel,
  danger,
  multiline,
  onSubmit,
}: {
  readonly action: Action
  readonly label: string
  readonly name: string
  readonly maxLength: number
  readonly submitLabel: string
  readonly danger?: boolean
  readonly multiline?: boolean
  readonly onSubmit: (value: string) => void
}) => {
  const id = useId()
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    onSubmit(String(new FormData(event.currentTarget).get(name) ?? ""))
  }
  const busy = action.state === "submitting"
  return (
    <form className="bo-reason" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea id={id} name={name} required maxLength={maxLength} rows={3} />
      ) : (
        <input id={id} name={name} required maxLength={maxLength} autoComplete="off" spellCheck={false} />
      )}
      <div className="bo-row">
        <button
          type="submit"
          className={`bo-button ${danger ? "bo-button--danger" : "bo-button--primary"}`}
          disabled={busy}
        >
          {submitLabel}
        </button>
        <button type="button" className="bo-button" onClick={action.cancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  )
}

const open = (action: Action): boolean => action.state !== "idle" && action.state !== "done"

/** The actions a withdrawal allows in its status (the server refuses any other with its message). */
const Decisions = ({
  withdrawal: w,
  onChanged,
}: {
  readonly withdrawal: QueuedWithdrawal
  readonly onChanged: () => void
}) => {
  const approve = useAction(onChanged)
  const reject = useAction(onChanged)
  const markSent = useAction(onChanged)
  const markPaid = useAction(onChanged)
  const params = { params: { id: w.id } }
  const error = approve.error ?? reject.error ?? markSent.error ?? markPaid.error
  const sum = money(w.amount, w.currency)
  const body = (() => {
    if (w.status === "requested") {
      // Decided: the new status arrives with the refresh.
      if (approve.state === "done" || reject.state === "done") return null
      if (open(approve))
        return (
          <fieldset className="bo-confirm">
            <legend className="visually-hidden">Confirm approval</legend>
            <p>
              Approve {sum} by {methodLabel[w.method]} to <span className="bo-mono">{w.destination}</span>?
              The payout starts at once where the provider can pay it.
            </p>
            <div className="bo-row">
              <button
                type="button"
                className="bo-button bo-button--primary"
                disabled={approve.state === "submitting"}
                onClick={() => approve.submit(() => withdrawalsClient.withdrawalApprove(params))}
              >
                {approve.state === "submitting" ? "Approving…" : `Confirm: approve ${sum}`}
              </button>
              <button
                type="button"
                className="bo-button"
                disabled={approve.state === "submitting"}
                onClick={approve.cancel}
              >
                Cancel
              </button>
            </div>
          </fieldset>
        )
      if (open(reject))
        return (
          <AskForm
            action={reject}
            label="Reason (kept on the withdrawal, shown to the player)"
            name="reason"
            maxLength={500}
            submitLabel="Reject withdrawal"
            danger
            multiline
            onSubmit={(reason) =>
              reject.submit(
                () => withdrawalsClient.withdrawalReject({ ...params, payload: { reason } }),
                reason,
              )
            }
          />
        )
      return (
        <div className="bo-row">
          <button type="button" className="bo-button bo-button--primary" onClick={approve.open}>
            Approve…
          </button>
          <button type="button" className="bo-button bo-button--danger" onClick={reject.open}>
            Reject…
          </button>
        </div>
      )
    }
    if (w.method === "crypto" && w.status === "approved") {
      if (open(markSent))
        return (
          <AskForm
            action={markSent}
            label="Transaction hash of the payout"
            name="txHash"
            maxLength={200}
            submitLabel="Mark sent"
            onSubmit={(txHash) =>
              markSent.submit(
                () => withdrawalsClient.withdrawalMarkSent({ ...params, payload: { txHash } }),
                txHash,
              )
            }
          />
        )
      return (
        <div className="bo-row">
          <p className="bo-muted">Approved for a manual payout: send it from the wallet, then record it.</p>
          <button type="button" className="bo-button bo-button--primary" onClick={markSent.open}>
            Mark sent…
          </button>
        </div>
      )
    }
    if (w.method === "crypto" && w.status === "sent") {
      if (open(markPaid))
        return (
          <fieldset className="bo-confirm">
            <legend className="visually-hidden">Confirm payment</legend>
            <p>Mark {sum} as paid (the transaction is confirmed on the chain)?</p>
            <div className="bo-row">
              <button
                type="button"
                className="bo-button bo-button--primary"
                disabled={markPaid.state === "submitting"}
                onClick={() => markPaid.submit(() => withdrawalsClient.withdrawalMarkPaid(params))}
              >
                Confirm: mark paid
              </button>
              <button
                type="button"
                className="bo-button"
                disabled={markPaid.state === "submitting"}
                onClick={markPaid.cancel}
              >
                Cancel
              </button>
            </div>
          </fieldset>
        )
      return (
        <button type="button" className="bo-button bo-button--primary" onClick={markPaid.open}>
          Mark paid…
        </button>
      )
    }
    return null
  })()
  const doneMessage =
    approve.state === "done"
      ? "Approved."
      : reject.state === "done"
        ? "Rejected: the amount is back on the player's wallet."
        : markSent.state === "done"
          ? "Marked sent."
          : markPaid.state === "done"
            ? "Marked paid."
            : null
  return (
    <div className="bo-decisions">
      {doneMessage && (
        <p className="bo-success" role="status">
          {doneMessage}
        </p>
      )}
      {error && (
        <p className="bo-error" role="alert">
          {error}
        </p>
      )}
      {body}
    </div>
  )
}

const Detail = ({ id, onChanged }: { readonly id: string; readonly onChanged: () => void }) => {
  const headingId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  const detail = useResource(() => withdrawalsClient.withdrawal({ params: { id } }))
  const { refresh } = detail
  const changed = useCallback(() => {
    refresh()
    onChanged()
  }, [refresh, onChanged])
  // The panel opens below the list on a phone: the focus (and the screen reader) goes to it.
  useEffect(() => heading.current?.focus(), [])
  const w = detail.data?.withdrawal
  return (
    <section className="bo-card bo-queue-detail" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {w ? `Withdrawal of ${money(w.amount, w.currency)}` : "Withdrawal"}
      </h2>
      <ResourceState {...detail} />
      {w && (
        <>
          <dl className="bo-facts">
            <div>
              <dt>Status</dt>
              <dd>
                <StatusBadge status={w.status} />
              </dd>
            </div>
            <div>
              <dt>Player</dt>
              <dd>{w.email}</dd>
            </div>
            <div>
              <dt>Method</dt>
              <dd>
                {methodLabel[w.method]} <span className="bo-muted">via {w.provider}</span>
              </dd>
            </div>
            <div>
              <dt>Destination</dt>
              <dd className="bo-mono">{w.destination}</dd>
            </div>
            <div>
              <dt>Requested</dt>
              <dd>{when(w.createdAt)}</dd>
            </div>
            {w.txHash && (
              <div>
                <dt>Transaction</dt>
                <dd className="bo-mono">{w.txHash}</dd>
              </div>
            )}
            {w.reason && (
              <div>
                <dt>Reason</dt>
                <dd>{w.reason}</dd>
              </div>
            )}
          </dl>
          <Decisions withdrawal={w} onChanged={changed} />
          {detail.data?.risk ? (
            <RiskContextView risk={detail.data.risk} />
          ) : (
            <p className="bo-notice">The player no longer exists: no risk context.</p>
          )}
          <h3>Timeline</h3>
          <ol className="bo-list" aria-label="Timeline">
            {w.timeline.map((step) => (
              <li key={`${step.status}-${step.at}`}>
                <StatusBadge status={step.status} /> {when(step.at)}
                {step.note && <span className="bo-muted"> · {step.note}</span>}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  )
}

export const WithdrawalsScreen = () => {
  const queue = useResource(() => withdrawalsClient.withdrawalQueue({ query: {} }), POLL_MS)
  const [selected, setSelected] = useState<string | null>(null)
  const withdrawals = queue.data?.withdrawals ?? []
  return (
    <>
      <ScreenHeader title="Withdrawals" refresh={queue.refresh} refreshing={queue.refreshing}>
        {queue.data && (
          <span className="bo-badge" aria-live="polite">
            {queue.data.count} waiting
          </span>
        )}
      </ScreenHeader>
      <ResourceState {...queue} />
      {queue.data && (
        <div className="bo-queue">
          <div className="bo-queue-list">
            {withdrawals.length === 0 ? (
              <p className="bo-card bo-empty">No withdrawals are waiting.</p>
            ) : (
              <div className="bo-table-wrap">
                <table className="bo-table">
                  <caption className="visually-hidden">
                    Withdrawals waiting for a decision, oldest first
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col" className="bo-num">
                        Amount
                      </th>
                      <th scope="col">Method</th>
                      <th scope="col">Player</th>
                      <th scope="col">Requested</th>
                      <th scope="col">
                        <span className="visually-hidden">Review</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {withdrawals.map((w) => (
                      <tr key={w.id} aria-current={w.id === selected ? "true" : undefined}>
                        <td className="bo-num">{money(w.amount, w.currency)}</td>
                        <td>
                          {methodLabel[w.method]}
                          <div className="bo-muted bo-mono bo-clip" title={w.destination}>
                            {w.destination}
                          </div>
                        </td>
                        <td>{w.email}</td>
                        <td>{when(w.createdAt)}</td>
                        <td>
                          <button
                            type="button"
                            className="bo-button"
                            aria-pressed={w.id === selected}
                            onClick={() => setSelected(w.id)}
                          >
                            Review
                            <span className="visually-hidden">
                              : {money(w.amount, w.currency)} of {w.email}
                            </span>
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
          {selected && <Detail key={selected} id={selected} onChanged={queue.refresh} />}
        </div>
      )}
    </>
  )
}
