import { useSelector } from "@xstate/react"
import { lazy, Suspense } from "react"
import type { Currencies } from "../../services/cdn.ts"
import { currencyDisplayName } from "../../services/rules.ts"
import { useAuthActor, useModalsActor, useShell } from "../app/actors.tsx"
import { Amount } from "../components/Amount.tsx"
import { CurrencyIcon } from "../components/CurrencyIcon.tsx"
import { prefetchModalLayer } from "../shell/ModalHost.tsx"

/** Only unconfirmed players see it: its machine and button load with the notice. */
const ResendConfirmation = lazy(() =>
  import("../components/ResendConfirmation.tsx").then((m) => ({ default: m.ResendConfirmation })),
)

const Wallets = ({ currencies }: { currencies: Currencies }) => {
  const auth = useAuthActor()
  const fund = useSelector(auth, (s) => s.context.fund)
  const loading = useSelector(auth, (s) => s.matches({ authenticated: { account: "loadingAccount" } }))
  if (loading && !fund) return <p className="muted">Loading your wallets…</p>
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

export const HomePage = () => {
  const modals = useModalsActor()
  const auth = useAuthActor()
  const signedIn = useSelector(auth, (s) => s.matches("authenticated"))
  const name = useSelector(auth, (s) => s.context.user?.fullName ?? null)
  const confirmed = useSelector(auth, (s) => s.context.user?.confirmed ?? true)
  const currencies = useShell((s) => s.context.currencies)
  const productName = useShell((s) => s.context.siteConfig?.productName ?? "Casino")

  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <p className="hero__eyebrow">{productName}</p>
        {signedIn ? (
          <>
            <h1 id="hero-title">Welcome, {name}</h1>
            <p className="hero__lead">Fund your account in fiat or crypto and claim your welcome bonus.</p>
          </>
        ) : (
          <>
            <h1 id="hero-title">125 free spins on your first deposit</h1>
            <p className="hero__lead">
              Play in euros or in crypto. Register in a minute, claim up to 200% on your first deposits.
            </p>
            <button
              type="button"
              className="button button--primary button--large"
              onPointerEnter={prefetchModalLayer}
              onFocus={prefetchModalLayer}
              onClick={() => modals.send({ type: "OPEN_REGISTER" })}
            >
              Sign up
            </button>
          </>
        )}
      </section>
      {signedIn && !confirmed ? (
        <p className="notice" role="status">
          Please confirm your e-mail address: we sent you a link when you registered.{" "}
          <Suspense fallback={null}>
            <ResendConfirmation />
          </Suspense>
        </p>
      ) : null}
      {signedIn ? <Wallets currencies={currencies} /> : null}
    </div>
  )
}
