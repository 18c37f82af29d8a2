/**
 * "Your wallets" on the home page (signed in): every wallet with its balance. Part of the games
 * area's download, not the first one.
 */
import { useSelector } from "@xstate/react"
import { currencyDisplayName } from "../../services/rules.ts"
import { useAuthActor, useShell } from "../app/actors.tsx"
import { Amount } from "../components/Amount.tsx"
import { CurrencyIcon } from "../components/CurrencyIcon.tsx"

export const Wallets = () => {
  const auth = useAuthActor()
  const fund = useSelector(auth, (s) => s.context.fund)
  const currencies = useShell((s) => s.context.currencies)
  if (!fund) return null
  return (
    <section className="panel" aria-labelledby="wallets-title">
      <h2 id="wallets-title">Your wallets</h2>
      <ul className="wallets">
        {fund.map((entry) => {
          const currency = currencies.find((c) => c.code === entry.currency)
          return (
            <li key={entry.currency} className="wallets__item">
              {currency ? <CurrencyIcon currency={currency} size={28} /> : null}
              <span className="wallets__code">{currencyDisplayName(entry.currency)}</span>
              {entry.default ? <span className="badge">Default</span> : null}
              <span className="wallets__balance">
                <Amount minor={entry.balance} currency={entry.currency} currencies={currencies} />
              </span>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
