import { useSelector } from "@xstate/react"
import { currencyDisplayName } from "../../services/rules.ts"
import { useAuthActor, useModalsActor, useShell } from "../app/actors.tsx"
import { Amount } from "../components/Amount.tsx"
import { Link } from "../components/Link.tsx"
import { prefetchModalLayer } from "./ModalHost.tsx"

/** The default wallet's balance ("real + bonus" while bonus money is held); opens the wallets modal. */
const Balance = () => {
  const auth = useAuthActor()
  const modals = useModalsActor()
  const fund = useSelector(auth, (s) => s.context.fund)
  const currencies = useShell((s) => s.context.currencies)
  // Spec: the default currency is EUR when no entry is marked default.
  const entry = fund?.find((f) => f.default) ?? fund?.find((f) => f.currency === "EUR") ?? fund?.[0]
  if (!entry) return null
  // Cash and bonus money apart: only cash can be withdrawn.
  const hasBonus = entry.bonusBalance !== undefined && entry.bonusBalance !== "0"
  return (
    <button
      type="button"
      className="header__balance"
      onPointerEnter={prefetchModalLayer}
      onFocus={prefetchModalLayer}
      onClick={() => modals.send({ type: "OPEN_CURRENCY", fund })}
    >
      <span className="visually-hidden">Balance: </span>
      <Amount minor={entry.balance} currency={entry.currency} currencies={currencies} />{" "}
      {currencyDisplayName(entry.currency)}
      {hasBonus ? (
        <span className="header__bonus">
          {" + "}
          <Amount minor={entry.bonusBalance ?? "0"} currency={entry.currency} currencies={currencies} /> bonus
        </span>
      ) : null}
    </button>
  )
}

/**
 * The player's loyalty level (docs/loyalty.md), linking to the Loyalty tab; nothing until it is
 * known. The tab's path is written out: services/profile-tabs.ts is no part of the first download.
 */
const Level = () => {
  const auth = useAuthActor()
  const loyalty = useSelector(auth, (s) => s.context.loyalty)
  if (loyalty === null) return null
  return (
    <Link to="/profile/loyalty" className="header__level">
      <span className="visually-hidden">Loyalty level: </span>
      {loyalty.name}
    </Link>
  )
}

export const Header = () => {
  const auth = useAuthActor()
  const modals = useModalsActor()
  const productName = useShell((s) => s.context.siteConfig?.productName ?? "Casino")
  const status = useSelector(auth, (s) =>
    s.matches("authenticated") ? "authenticated" : s.matches("anonymous") ? "anonymous" : "busy",
  )
  const name = useSelector(auth, (s) => s.context.user?.fullName ?? "")

  return (
    <header className="header">
      <Link to="/" className="header__brand" reloadIfSame>
        <span className="header__logo" aria-hidden="true">
          ♠
        </span>
        <span className="header__brand-name">{productName}</span>
      </Link>
      <nav className="header__actions" aria-label="Account">
        {status === "anonymous" ? (
          <>
            <button
              type="button"
              className="button button--ghost"
              onPointerEnter={prefetchModalLayer}
              onFocus={prefetchModalLayer}
              onClick={() => modals.send({ type: "OPEN_LOGIN" })}
            >
              Log in
            </button>
            <button
              type="button"
              className="button button--primary"
              onPointerEnter={prefetchModalLayer}
              onFocus={prefetchModalLayer}
              onClick={() => modals.send({ type: "OPEN_REGISTER" })}
            >
              Sign up
            </button>
          </>
        ) : status === "authenticated" ? (
          <>
            <Balance />
            <button
              type="button"
              className="button button--primary"
              onPointerEnter={prefetchModalLayer}
              onFocus={prefetchModalLayer}
              onClick={() => {
                const { profile, fund } = auth.getSnapshot().context
                modals.send({ type: "OPEN_DEPOSIT", profile, fund })
              }}
            >
              Deposit
            </button>
            <button
              type="button"
              className="button button--ghost header__cashout"
              aria-label="Cash out"
              onPointerEnter={prefetchModalLayer}
              onFocus={prefetchModalLayer}
              onClick={() => {
                const { profile, fund } = auth.getSnapshot().context
                modals.send({ type: "OPEN_CASHOUT", profile, fund })
              }}
            >
              {/* Small screens show the arrow alone, phones the Withdrawals tab's button (styles.css). */}
              <span className="header__cashout-icon" aria-hidden="true">
                ⇧
              </span>
              <span className="header__cashout-text">Cash out</span>
            </button>
            <Level />
            <Link to="/profile" className="header__account">
              <span className="header__avatar" aria-hidden="true">
                {name.slice(0, 1)}
              </span>
              <span className="visually-hidden">Your account: </span>
              <span className="header__user">{name}</span>
            </Link>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => auth.send({ type: "SIGN_OUT" })}
            >
              Sign out
            </button>
          </>
        ) : null}
      </nav>
    </header>
  )
}
