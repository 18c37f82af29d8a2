/**
 * View of machines/wallet/cashout.machine.ts (modal body): the amount step (currency, crypto address,
 * the fixed text, the amount), the fiat step (payment-wallet and Bank Account tabs), a spinner while
 * the request runs. Thin: every message and every decision comes from the machine and the rules.
 * The button is never `disabled` (spec: it LOOKS disabled below the minimum, the click still arrives).
 */
import { useSelector } from "@xstate/react"
import { Label } from "radix-ui"
import type { ActorRefFrom } from "xstate"
import {
  type cashoutMachine,
  type FiatTab,
  forfeitQuestion,
  looksDisabled,
} from "../../machines/wallet/cashout.machine.ts"
import {
  CashoutConstants,
  CashoutMessages,
  formatMinor,
  isCryptoCurrency,
} from "../../services/cashout-rules.ts"
import { currencyDisplayName } from "../../services/rules.ts"
import { Spinner } from "../components/Spinner.tsx"
import "./wallet.css"
import "./cashout.css"

type CashoutActor = ActorRefFrom<typeof cashoutMachine>

const Alert = ({ message }: { message: string | null }) =>
  message === null ? null : (
    <p className="form-error" role="alert">
      {message}
    </p>
  )

/** Check 4: '*' plus 'required' under the empty field (spec section 5). */
const Required = ({ id, show }: { id: string; show: boolean }) =>
  show ? (
    <p id={id} className="field__error cashout__required" role="alert">
      <span aria-hidden="true">* </span>
      {CashoutMessages.required}
    </p>
  ) : null

/** Checks 2 and 3, and the server's refusals, above the button. */
const CheckMessage = ({ actor }: { actor: CashoutActor }) => {
  const failed = useSelector(actor, (s) => s.context.failed)
  const message = useSelector(actor, (s) => s.context.message)
  if (failed === "notVerified") {
    return (
      <div role="alert">
        <button type="button" className="cashout__verify" onClick={() => actor.send({ type: "VERIFY" })}>
          {CashoutMessages.notVerified}
          <span className="cashout__verify-cta">Verify now →</span>
        </button>
      </div>
    )
  }
  if (failed === "notEnoughMoney") return <Alert message={CashoutMessages.notEnoughMoney} />
  return <Alert message={message} />
}

const Withdrawable = ({ actor }: { actor: CashoutActor }) => {
  const text = useSelector(actor, (s) =>
    s.context.withdrawable === null
      ? null
      : `${formatMinor(s.context.withdrawable, s.context.currencies, s.context.currency)} ${currencyDisplayName(s.context.currency)}`,
  )
  return text === null ? null : (
    <p className="cashout__withdrawable">
      <span>Withdrawable</span> <strong>{text}</strong>
    </p>
  )
}

const AmountStep = ({ actor }: { actor: CashoutActor }) => {
  const wallets = useSelector(actor, (s) => s.context.wallets)
  const currency = useSelector(actor, (s) => s.context.currency)
  const crypto = useSelector(actor, (s) => isCryptoCurrency(s.context.currencies, s.context.currency))
  const amountText = useSelector(actor, (s) => s.context.amountText)
  const address = useSelector(actor, (s) => s.context.address)
  const addressMissing = useSelector(actor, (s) => s.context.failed === "destinationMissing")
  const loading = useSelector(actor, (s) => s.matches({ form: "loading" }))
  const loadError = useSelector(actor, (s) => (s.matches({ form: "failed" }) ? s.context.loadError : null))
  const dimmed = useSelector(actor, (s) => looksDisabled(s.context, "amount"))
  // Why the button looks disabled: the real minimum (minWithdraw), once loaded.
  const minimum = useSelector(actor, (s) =>
    s.context.minWithdraw !== null && looksDisabled(s.context, "amount")
      ? CashoutMessages.belowMinimum(
          formatMinor(s.context.minWithdraw, s.context.currencies, s.context.currency),
          currencyDisplayName(s.context.currency),
        )
      : null,
  )

  return (
    <form
      className="deposit cashout"
      aria-label="Cash out amount"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        actor.send({ type: "CASHOUT" })
      }}
    >
      <div className="deposit__row">
        <div className="field deposit__amount">
          <Label.Root className="field__label" htmlFor="cashout-amount">
            Amount
          </Label.Root>
          <input
            id="cashout-amount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            maxLength={CashoutConstants.amountMaxLength}
            value={amountText}
            aria-describedby="cashout-limits"
            onChange={(event) => actor.send({ type: "AMOUNT", value: event.target.value })}
          />
        </div>
        <div className="field deposit__currency">
          <Label.Root className="field__label" htmlFor="cashout-currency">
            Currency
          </Label.Root>
          <select
            id="cashout-currency"
            className="input"
            value={currency}
            onChange={(event) => actor.send({ type: "CURRENCY", currency: event.target.value })}
          >
            {wallets.map((code) => (
              <option key={code} value={code}>
                {currencyDisplayName(code)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p id="cashout-limits" className="deposit__note">
        {CashoutConstants.fixedText}
        {minimum !== null ? (
          <>
            <br />
            <span className="cashout__minimum">{minimum}</span>
          </>
        ) : null}
      </p>
      {crypto ? (
        <div className="field">
          <Label.Root className="field__label" htmlFor="cashout-address">
            {currencyDisplayName(currency)} address{" "}
            <span aria-hidden="true" className="cashout__star">
              *
            </span>
          </Label.Root>
          <input
            id="cashout-address"
            type="text"
            autoComplete="off"
            spellCheck={false}
            maxLength={CashoutConstants.addressMaxLength}
            value={address}
            aria-invalid={addressMissing}
            aria-describedby={addressMissing ? "cashout-address-required" : undefined}
            onChange={(event) => actor.send({ type: "ADDRESS", value: event.target.value })}
          />
          <Required id="cashout-address-required" show={addressMissing} />
        </div>
      ) : null}
      <Withdrawable actor={actor} />
      <Alert message={loadError} />
      {loadError !== null ? (
        <button type="button" className="link-button" onClick={() => actor.send({ type: "RETRY" })}>
          Try again
        </button>
      ) : null}
      <CheckMessage actor={actor} />
      <button
        type="submit"
        className={`button button--primary button--block${dimmed ? " button--dimmed" : ""}`}
        aria-disabled={dimmed}
      >
        {loading ? "Loading…" : crypto ? "Cash out" : "Continue"}
      </button>
    </form>
  )
}

const tabs: ReadonlyArray<{ readonly tab: FiatTab; readonly label: string }> = [
  { tab: "wallet", label: "Skrill" },
  { tab: "bank", label: "Bank Account" },
]

const FiatStep = ({ actor }: { actor: CashoutActor }) => {
  const tab = useSelector(actor, (s) => s.context.tab)
  const email = useSelector(actor, (s) => s.context.email)
  const emailMissing = useSelector(actor, (s) => s.context.failed === "destinationMissing")
  const summary = useSelector(
    actor,
    (s) => `${s.context.amountText} ${currencyDisplayName(s.context.currency)}`,
  )
  return (
    <form
      className="deposit cashout"
      aria-label="Cash out to"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        actor.send({ type: "CASHOUT" })
      }}
    >
      <p className="cashout__summary">
        Cash out <strong>{summary}</strong>
      </p>
      <div className="cashout__tabs" role="tablist" aria-label="Pay out to">
        {tabs.map((t) => (
          <button
            key={t.tab}
            type="button"
            role="tab"
            id={`cashout-tab-${t.tab}`}
            aria-selected={tab === t.tab}
            aria-controls="cashout-tabpanel"
            className="cashout__tab"
            onClick={() => actor.send({ type: "TAB", tab: t.tab })}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div
        id="cashout-tabpanel"
        role="tabpanel"
        aria-labelledby={`cashout-tab-${tab}`}
        className="cashout__panel"
      >
        {tab === "bank" ? (
          <div className="field">
            <Label.Root className="field__label" htmlFor="cashout-email">
              E-mail{" "}
              <span aria-hidden="true" className="cashout__star">
                *
              </span>
            </Label.Root>
            <input
              id="cashout-email"
              type="email"
              autoComplete="email"
              maxLength={CashoutConstants.emailMaxLength}
              value={email}
              aria-invalid={emailMissing}
              aria-describedby={emailMissing ? "cashout-email-required" : undefined}
              onChange={(event) => actor.send({ type: "EMAIL", value: event.target.value })}
            />
            <Required id="cashout-email-required" show={emailMissing} />
          </div>
        ) : (
          <p className="deposit__note">Paid to the Skrill account of your account's e-mail address.</p>
        )}
      </div>
      <CheckMessage actor={actor} />
      <button type="submit" className="button button--primary button--block">
        Cash out
      </button>
      <button type="button" className="link-button" onClick={() => actor.send({ type: "BACK" })}>
        Change the amount
      </button>
    </form>
  )
}

/** With an active bonus: what the cashout forfeits, and the choice (keep it, or forfeit and go on). */
const ForfeitStep = ({ actor }: { actor: CashoutActor }) => {
  const question = useSelector(actor, (s) => forfeitQuestion(s.context))
  return (
    <div
      className="deposit cashout"
      role="alertdialog"
      aria-labelledby="cashout-forfeit-title"
      aria-describedby="cashout-forfeit-text"
    >
      <h3 id="cashout-forfeit-title" className="cashout__forfeit-title">
        Forfeit your bonus?
      </h3>
      <p id="cashout-forfeit-text" className="cashout__forfeit">
        {question}
      </p>
      <button
        type="button"
        className="button button--danger button--block"
        onClick={() => actor.send({ type: "CONFIRM" })}
      >
        Forfeit the bonus and cash out
      </button>
      <button
        type="button"
        className="button button--ghost button--block"
        onClick={() => actor.send({ type: "BACK" })}
      >
        Keep my bonus
      </button>
    </div>
  )
}

/** Which step shows; `hidden` while closing (the modal is gone, the form resets 500 ms later). */
export const cashoutStep = (snapshot: ReturnType<CashoutActor["getSnapshot"]>) =>
  snapshot.matches("form")
    ? ("amount" as const)
    : snapshot.matches("fiat")
      ? ("fiat" as const)
      : snapshot.matches("forfeit")
        ? ("forfeit" as const)
        : snapshot.matches("sending") || snapshot.matches("refused")
          ? ("busy" as const)
          : ("hidden" as const)

export const CashoutView = ({ actor }: { actor: CashoutActor }) => {
  const step = useSelector(actor, cashoutStep)
  switch (step) {
    case "amount":
      return <AmountStep actor={actor} />
    case "fiat":
      return <FiatStep actor={actor} />
    case "forfeit":
      return <ForfeitStep actor={actor} />
    case "busy":
      return <Spinner label="Sending your cash out request" />
    case "hidden":
      return null
  }
}
