/** Pieces the players list, the pending adjustments and a player's page share. */
import type { ReactNode } from "react"
import { useCallback, useId, useState } from "react"
import { playersClient } from "../../services/backoffice/clients/players.ts"
import type { Adjustment, PlayerSummary } from "../../services/backoffice/players.ts"
import { useAction } from "./actors.tsx"
import { money } from "./format.ts"

export const KycBadge = ({ kyc }: { readonly kyc: PlayerSummary["kyc"] }) => (
  <span
    className={
      kyc === "verified"
        ? "bo-badge bo-badge--ok"
        : kyc === "rejected"
          ? "bo-badge bo-badge--danger"
          : "bo-badge"
    }
  >
    {kyc === "none" ? "KYC none" : `KYC ${kyc}`}
  </span>
)

export const LockBadge = ({ locked }: { readonly locked: boolean }) =>
  locked ? (
    <span className="bo-badge bo-badge--danger">Locked</span>
  ) : (
    <span className="bo-badge bo-badge--ok">Active</span>
  )

/** "+5.00 EUR" / "−5.00 EUR": the sign of an adjustment always shown. */
export const signedMoney = (amount: string, currency: string): string =>
  amount.startsWith("-") ? money(amount, currency) : `+${money(amount, currency)}`

/** Approve, or reject with a reason, one adjustment another operator requested. */
export const AdjustmentDecision = ({
  adjustment,
  onDecided,
}: {
  readonly adjustment: Adjustment
  readonly onDecided: (text: string) => void
}) => {
  const amount = signedMoney(adjustment.amount, adjustment.currency)
  const approved = useCallback(
    () => onDecided(`Approved ${amount} for ${adjustment.playerEmail}.`),
    [onDecided, amount, adjustment.playerEmail],
  )
  const rejected = useCallback(
    () => onDecided(`Rejected ${amount} for ${adjustment.playerEmail}.`),
    [onDecided, amount, adjustment.playerEmail],
  )
  const approve = useAction(approved)
  const reject = useAction(rejected)
  const [reason, setReason] = useState("")
  const reasonId = useId()
  const busy = approve.state === "submitting" || reject.state === "submitting"
  const rejecting = reject.state === "editing" || reject.state === "failed" || reject.state === "submitting"
  return (
    <div className="bo-decision">
      <div className="bo-row">
        <button
          type="button"
          className="bo-button bo-button--primary"
          disabled={busy}
          aria-label={`Approve ${amount} for ${adjustment.playerEmail}`}
          onClick={() =>
            approve.submit(() => playersClient.approveAdjustment({ params: { adjustmentId: adjustment.id } }))
          }
        >
          Approve
        </button>
        {!rejecting && (
          <button
            type="button"
            className="bo-button bo-button--danger"
            disabled={busy}
            aria-label={`Reject ${amount} for ${adjustment.playerEmail}`}
            onClick={reject.open}
          >
            Reject
          </button>
        )}
      </div>
      {rejecting && (
        <form
          className="bo-form-row bo-inline-form"
          onSubmit={(event) => {
            event.preventDefault()
            reject.submit(
              () =>
                playersClient.rejectAdjustment({
                  params: { adjustmentId: adjustment.id },
                  payload: { reason: reason.trim() },
                }),
              reason,
            )
          }}
        >
          <label htmlFor={reasonId}>
            Reason for rejecting
            <input
              id={reasonId}
              value={reason}
              maxLength={500}
              required
              onChange={(event) => setReason(event.currentTarget.value)}
            />
          </label>
          <button type="submit" className="bo-button bo-button--danger" disabled={busy}>
            Reject
          </button>
          <button type="button" className="bo-button" onClick={reject.cancel}>
            Cancel
          </button>
        </form>
      )}
      {(approve.error ?? reject.error) && (
        <p className="bo-error" role="alert">
          {approve.error ?? reject.error}
        </p>
      )}
    </div>
  )
}

export const dash = (value: string | null | undefined): string =>
  value === null || value === undefined || value === "" ? "—" : value

/** An empty list said in words rather than an empty table. */
export const Empty = ({ children }: { readonly children: string }) => (
  <p className="bo-muted bo-empty">{children}</p>
)

export const Table = ({
  caption,
  head,
  children,
}: {
  readonly caption: string
  readonly head: ReadonlyArray<string | { readonly label: string; readonly num: true }>
  readonly children: ReactNode
}) => (
  <div className="bo-table-wrap">
    <table className="bo-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {head.map((h) =>
            typeof h === "string" ? (
              <th key={h} scope="col">
                {h}
              </th>
            ) : (
              <th key={h.label} scope="col" className="bo-num">
                {h.label}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  </div>
)

export const Facts = ({ facts }: { readonly facts: ReadonlyArray<readonly [string, ReactNode]> }) => (
  <dl className="bo-facts">
    {facts.map(([term, value]) => (
      <div key={term}>
        <dt>{term}</dt>
        <dd>{value}</dd>
      </div>
    ))}
  </dl>
)
