/** The actions on a player's page, each shown only to the roles that hold its permission. */

import type { Effect } from "effect"
import { type FormEvent, useCallback, useId, useState } from "react"
import { playersClient } from "../../services/backoffice/clients/players.ts"
import type { Adjustment, PlayerPage as Page } from "../../services/backoffice/players.ts"
import { decimalsOfCurrency } from "../../services/currencies.ts"
import { Failure } from "./ActionFailure.tsx"
import { type Action, useAction } from "./actors.tsx"
import { signedMinor, toMinor } from "./amount.ts"
import { signedMoney } from "./PlayerParts.tsx"

/** A reason and a confirm button: lock and unlock (the API requires the reason). */
const ReasonForm = ({
  action,
  label,
  submitLabel,
  danger,
  run,
}: {
  readonly action: Action
  readonly label: string
  readonly submitLabel: string
  readonly danger: boolean
  readonly run: (reason: string) => Effect.Effect<unknown, unknown>
}) => {
  const [reason, setReason] = useState("")
  const id = useId()
  return (
    <form
      className="bo-form-row bo-inline-form"
      onSubmit={(event) => {
        event.preventDefault()
        action.submit(() => run(reason.trim()), reason)
      }}
    >
      <label htmlFor={id} className="bo-grow">
        {label}
        <input
          id={id}
          value={reason}
          maxLength={500}
          required
          onChange={(event) => setReason(event.currentTarget.value)}
        />
      </label>
      <button
        type="submit"
        className={danger ? "bo-button bo-button--danger" : "bo-button bo-button--primary"}
        disabled={action.state === "submitting"}
      >
        {submitLabel}
      </button>
      <button type="button" className="bo-button" onClick={action.cancel}>
        Cancel
      </button>
    </form>
  )
}

const formOpen = (action: Action) =>
  action.state === "editing" || action.state === "submitting" || action.state === "failed"

export const LockControl = ({ page, onChanged }: { readonly page: Page; readonly onChanged: () => void }) => {
  const action = useAction(onChanged)
  const id = page.profile.id
  const locked = page.profile.locked !== null
  const result =
    action.state === "done" ? (action.result as { locked: boolean; sessionsEnded: number }) : null
  return (
    <div className="bo-action">
      {!formOpen(action) && (
        <button
          type="button"
          className={locked ? "bo-button" : "bo-button bo-button--danger"}
          onClick={action.open}
        >
          {locked ? "Unlock player" : "Lock player"}
        </button>
      )}
      {formOpen(action) && (
        <ReasonForm
          action={action}
          label={locked ? "Reason for unlocking" : "Reason for locking"}
          submitLabel={locked ? "Unlock" : "Lock"}
          danger={!locked}
          run={(reason) =>
            locked
              ? playersClient.unlockPlayer({ params: { id }, payload: { reason } })
              : playersClient.lockPlayer({ params: { id }, payload: { reason } })
          }
        />
      )}
      {result && (
        <p className="bo-success" role="status">
          {result.locked
            ? `Locked. ${result.sessionsEnded === 1 ? "1 session" : `${result.sessionsEnded} sessions`} ended.`
            : "Unlocked: the player can sign in again."}
        </p>
      )}
      <Failure action={action} />
    </div>
  )
}

export const SignOutControl = ({
  page,
  onChanged,
}: {
  readonly page: Page
  readonly onChanged: () => void
}) => {
  const action = useAction(onChanged)
  const result = action.state === "done" ? (action.result as { sessionsEnded: number }) : null
  const active = page.sessions.filter((s) => s.active).length
  return (
    <div className="bo-action">
      {!formOpen(action) && (
        <button type="button" className="bo-button" onClick={action.open}>
          Force sign-out
        </button>
      )}
      {formOpen(action) && (
        <fieldset className="bo-confirm">
          <legend className="visually-hidden">Confirm the sign-out</legend>
          <p>
            End every session of {page.profile.email}?{" "}
            {active === 1 ? "1 session is" : `${active} sessions are`} active.
          </p>
          <div className="bo-row">
            <button
              type="button"
              className="bo-button bo-button--danger"
              disabled={action.state === "submitting"}
              onClick={() =>
                action.submit(() => playersClient.signOutPlayer({ params: { id: page.profile.id } }))
              }
            >
              Sign out everywhere
            </button>
            <button type="button" className="bo-button" onClick={action.cancel}>
              Cancel
            </button>
          </div>
        </fieldset>
      )}
      {result && (
        <p className="bo-success" role="status">
          Signed out: {result.sessionsEnded === 1 ? "1 session" : `${result.sessionsEnded} sessions`} ended.
        </p>
      )}
      <Failure action={action} />
    </div>
  )
}

export const AdjustControl = ({
  page,
  onChanged,
}: {
  readonly page: Page
  readonly onChanged: () => void
}) => {
  const [amount, setAmount] = useState("")
  const [reason, setReason] = useState("")
  // One key per distinct request: a retry of the same one posts nothing twice (the server's rule).
  const [key, setKey] = useState<{ readonly content: string; readonly key: string } | null>(null)
  // Once made, the next adjustment starts from an empty form (and a new key).
  const action = useAction(
    useCallback(() => {
      setAmount("")
      setReason("")
      setKey(null)
      onChanged()
    }, [onChanged]),
  )
  const currencies = page.wallets.map((w) => w.currency)
  const [currency, setCurrency] = useState(
    page.wallets.find((w) => w.isDefault)?.currency ?? currencies[0] ?? page.profile.currency,
  )
  const [sign, setSign] = useState<"+" | "-">("+")
  const [invalid, setInvalid] = useState<string | null>(null)
  const ids = { currency: useId(), amount: useId(), reason: useId(), hint: useId() }
  const decimals = decimalsOfCurrency(currency)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const minor = toMinor(amount, decimals)
    if (minor === null) {
      setInvalid(
        decimals === 0
          ? `Enter a whole number of ${currency} greater than 0.`
          : `Enter an amount in ${currency} greater than 0, with at most ${decimals} decimals.`,
      )
      return
    }
    setInvalid(null)
    const signed = signedMinor(sign, minor)
    const content = `${currency}|${signed}|${reason.trim()}`
    const idempotencyKey = key?.content === content ? key.key : `bo-adjust-${crypto.randomUUID()}`
    setKey({ content, key: idempotencyKey })
    action.submit(
      () =>
        playersClient.adjustBalance({
          params: { id: page.profile.id },
          payload: { currency, amount: signed, reason: reason.trim(), idempotencyKey },
        }),
      reason,
    )
  }
  const result = action.state === "done" ? (action.result as Adjustment) : null
  return (
    <div className="bo-action">
      {!formOpen(action) && (
        <button type="button" className="bo-button" onClick={action.open} disabled={currencies.length === 0}>
          Adjust balance
        </button>
      )}
      {formOpen(action) && (
        <form className="bo-adjust" aria-label="Balance adjustment" onSubmit={submit} noValidate>
          <fieldset className="bo-sign">
            <legend>Direction</legend>
            <label>
              <input type="radio" name="sign" checked={sign === "+"} onChange={() => setSign("+")} /> Credit
              (+)
            </label>
            <label>
              <input type="radio" name="sign" checked={sign === "-"} onChange={() => setSign("-")} /> Debit
              (−)
            </label>
          </fieldset>
          <div className="bo-form-row">
            <label htmlFor={ids.currency}>
              Currency
              <select id={ids.currency} value={currency} onChange={(e) => setCurrency(e.currentTarget.value)}>
                {currencies.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </label>
            <label htmlFor={ids.amount}>
              Amount
              <input
                id={ids.amount}
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                aria-describedby={ids.hint}
                aria-invalid={invalid !== null}
                onChange={(e) => setAmount(e.currentTarget.value)}
              />
            </label>
            <label htmlFor={ids.reason} className="bo-grow">
              Reason
              <input
                id={ids.reason}
                value={reason}
                maxLength={500}
                onChange={(e) => setReason(e.currentTarget.value)}
              />
            </label>
          </div>
          <p id={ids.hint} className="bo-muted">
            In {currency}, e.g. 12.50. Cash balance only; once what you adjust for this player in 24 hours
            passes the approval threshold, a second operator decides.
          </p>
          {invalid && (
            <p className="bo-error" role="alert">
              {invalid}
            </p>
          )}
          <div className="bo-row">
            <button
              type="submit"
              className="bo-button bo-button--primary"
              disabled={action.state === "submitting"}
            >
              {sign === "+" ? "Credit" : "Debit"}
            </button>
            <button type="button" className="bo-button" onClick={action.cancel}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {result && (
        <p className="bo-success" role="status">
          {result.status === "posted"
            ? `Posted: ${signedMoney(result.amount, result.currency)} to the cash balance.`
            : `Requested ${signedMoney(result.amount, result.currency)}: waiting for a second approval.`}
        </p>
      )}
      <Failure action={action} />
    </div>
  )
}

export const NoteForm = ({ id, onChanged }: { readonly id: string; readonly onChanged: () => void }) => {
  const [body, setBody] = useState("")
  // Emptied once saved, not on submit: a refused note keeps its text.
  const action = useAction(
    useCallback(() => {
      setBody("")
      onChanged()
    }, [onChanged]),
  )
  const fieldId = useId()
  return (
    <form
      className="bo-note-form"
      onSubmit={(event) => {
        event.preventDefault()
        action.submit(() => playersClient.addNote({ params: { id }, payload: { body: body.trim() } }), body)
      }}
    >
      <label htmlFor={fieldId}>New note</label>
      <textarea
        id={fieldId}
        rows={3}
        maxLength={2000}
        required
        value={body}
        onChange={(e) => setBody(e.currentTarget.value)}
      />
      <div className="bo-row">
        <button
          type="submit"
          className="bo-button bo-button--primary"
          disabled={action.state === "submitting"}
        >
          Add note
        </button>
        {action.state === "done" && (
          <span className="bo-success bo-inline" role="status">
            Note added.
          </span>
        )}
      </div>
      <Failure action={action} />
    </form>
  )
}
