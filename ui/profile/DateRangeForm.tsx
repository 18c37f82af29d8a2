/**
 * The From / To / Show form of the profile's history tabs (deposits, crypto deposits, bets): a view of
 * the tab machine's range (`from`, `to`, `rangeError`) that sends FROM, TO and SHOW. `children` go
 * after the Show button (the bets tab's provider filter).
 */
import type { ReactNode } from "react"

export type RangeEvent =
  | { readonly type: "FROM"; readonly value: string }
  | { readonly type: "TO"; readonly value: string }
  | { readonly type: "SHOW" }

export interface DateRangeFormProps {
  /** Prefix of the inputs' ids ("deposits" → deposits-from, deposits-to, deposits-range-error). */
  readonly idPrefix: string
  /** The form's accessible name, e.g. "Deposits between". */
  readonly label: string
  readonly from: string
  readonly to: string
  readonly error: string | null
  readonly loading: boolean
  readonly send: (event: RangeEvent) => void
  readonly children?: ReactNode
}

export const DateRangeForm = ({
  idPrefix,
  label,
  from,
  to,
  error,
  loading,
  send,
  children,
}: DateRangeFormProps) => {
  const errorId = `${idPrefix}-range-error`
  const dateInput = (bound: "from" | "to", value: string) => (
    <div className="field">
      <label className="field__label" htmlFor={`${idPrefix}-${bound}`}>
        {bound === "from" ? "From" : "To"}
      </label>
      <input
        id={`${idPrefix}-${bound}`}
        type="date"
        className="input"
        value={value}
        aria-invalid={error !== null}
        aria-describedby={error !== null ? errorId : undefined}
        onChange={(event) =>
          send({ type: bound === "from" ? "FROM" : "TO", value: event.currentTarget.value })
        }
      />
    </div>
  )
  return (
    <form
      className="deposits__range"
      aria-label={label}
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        send({ type: "SHOW" })
      }}
    >
      {dateInput("from", from)}
      {dateInput("to", to)}
      <button type="submit" className="button button--primary" disabled={loading}>
        Show
      </button>
      {children}
      {error !== null ? (
        <p id={errorId} className="field__error deposits__range-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  )
}
