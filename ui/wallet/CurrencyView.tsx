/**
 * View of machines/wallet/currency.machine.ts (modal body): the player's wallets with their balances,
 * "Make default" on each other wallet, and a selector to add one. Thin: the machine decides.
 */
import { useSelector } from "@xstate/react"
import { Label } from "radix-ui"
import type { ActorRefFrom } from "xstate"
import { addableCurrencies, type currencyMachine } from "../../machines/wallet/currency.machine.ts"
import { currencyDisplayName } from "../../services/rules.ts"
import { Amount } from "../components/Amount.tsx"
import "./wallet.css"

export const CurrencyView = ({ actor }: { actor: ActorRefFrom<typeof currencyMachine> }) => {
  const fund = useSelector(actor, (s) => s.context.fund)
  const currencies = useSelector(actor, (s) => s.context.currencies)
  const addable = useSelector(actor, (s) => addableCurrencies(s.context))
  const selected = useSelector(actor, (s) => s.context.selected)
  const error = useSelector(actor, (s) => s.context.error)
  const busy = useSelector(actor, (s) => !s.matches("idle"))
  const makingDefault = useSelector(actor, (s) => s.context.makingDefault)

  return (
    <div className="wallet">
      <h3 className="wallet__subtitle">Your wallets</h3>
      <ul className="wallet__list">
        {fund.map((entry) => (
          <li key={entry.currency} className="wallet__item">
            <span className="wallet__currency">{currencyDisplayName(entry.currency)}</span>
            <Amount minor={entry.balance} currency={entry.currency} currencies={currencies} />
            {entry.default ? (
              <span className="badge">Default</span>
            ) : (
              <button
                type="button"
                className="button button--ghost"
                disabled={busy}
                aria-busy={makingDefault === entry.currency}
                onClick={() => actor.send({ type: "MAKE_DEFAULT", currency: entry.currency })}
              >
                Make default
              </button>
            )}
          </li>
        ))}
      </ul>
      <form
        className="wallet__add"
        aria-label="Add a currency"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          actor.send({ type: "ADD" })
        }}
      >
        <div className="field">
          <Label.Root className="field__label" htmlFor="wallet-add-currency">
            Add a currency
          </Label.Root>
          <select
            id="wallet-add-currency"
            value={selected}
            disabled={busy}
            aria-invalid={error !== null}
            aria-describedby={error !== null ? "wallet-add-error" : undefined}
            onChange={(event) => actor.send({ type: "SELECT", currency: event.target.value })}
          >
            <option value="">Choose a currency</option>
            {addable.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name} ({currencyDisplayName(c.code)})
              </option>
            ))}
          </select>
        </div>
        {error !== null ? (
          <p id="wallet-add-error" className="form-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={busy}>
          Add currency
        </button>
      </form>
    </div>
  )
}
