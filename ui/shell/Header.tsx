import { useActorRef, useSelector } from "@xstate/react"
import { useEffect, useRef } from "react"
import { shellMenuMachine } from "../../machines/shellMenu.machine.ts"
import { currencyDisplayName } from "../../services/rules.ts"
import { useAuthActor, useModalsActor, useShell, useShellActor } from "../app/actors.tsx"
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

/**
 * Phones: the header keeps the brand, the balance and Deposit; everything else (Cash out, the
 * account, the level, Sign out) is in this menu, a disclosure whose open state is the shellMenu
 * machine's. Escape, a tap outside, choosing an item or a new page close it.
 */
const Menu = ({
  name,
  onDeposit,
  onCashout,
}: {
  name: string
  onDeposit: () => void
  onCashout: () => void
}) => {
  const auth = useAuthActor()
  const shell = useShellActor()
  const menu = useActorRef(shellMenuMachine)
  const open = useSelector(menu, (s) => s.matches("open"))
  const path = useShell((s) => s.context.path)
  const button = useRef<HTMLButtonElement>(null)
  const panel = useRef<HTMLDivElement>(null)
  useEffect(() => {
    menu.send({ type: "PAGE_CHANGED", path })
  }, [menu, path])
  useEffect(() => {
    if (!open) return
    panel.current?.querySelector<HTMLElement>("button, a")?.focus()
    const outside = (event: PointerEvent) => {
      const target = event.target as Node
      if (!panel.current?.contains(target) && !button.current?.contains(target)) menu.send({ type: "CLOSE" })
    }
    const onEscape = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return
      menu.send({ type: "CLOSE" })
      button.current?.focus()
    }
    document.addEventListener("pointerdown", outside)
    document.addEventListener("keydown", onEscape)
    return () => {
      document.removeEventListener("pointerdown", outside)
      document.removeEventListener("keydown", onEscape)
    }
  }, [menu, open])
  // The focus goes back to the menu button first, so a dialog the item opens gives it back there.
  const choose = (then: () => void) => () => {
    button.current?.focus()
    menu.send({ type: "CLOSE" })
    then()
  }
  return (
    <div className="header__menu">
      <button
        ref={button}
        type="button"
        className="header__menu-button"
        aria-expanded={open}
        aria-controls={open ? "account-menu" : undefined}
        onPointerEnter={prefetchModalLayer}
        onClick={() => menu.send({ type: "TOGGLE" })}
      >
        <span className="header__avatar" aria-hidden="true">
          {name.slice(0, 1)}
        </span>
        <span className="visually-hidden">Menu</span>
      </button>
      {/* Rendered only while open: a closed menu leaves no second copy of the name or the actions. */}
      {open ? (
        <div ref={panel} id="account-menu" className="header__menu-panel">
          <p className="header__menu-name">{name}</p>
          <Level />
          <button type="button" className="header__menu-item" onClick={choose(onDeposit)}>
            Deposit
          </button>
          <button type="button" className="header__menu-item" onClick={choose(onCashout)}>
            Cash out
          </button>
          <button
            type="button"
            className="header__menu-item"
            onClick={choose(() => shell.send({ type: "NAVIGATE", path: "/profile" }))}
          >
            Profile
          </button>
          <button
            type="button"
            className="header__menu-item header__menu-item--quiet"
            onClick={choose(() => auth.send({ type: "SIGN_OUT" }))}
          >
            Sign out
          </button>
        </div>
      ) : null}
    </div>
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
  const deposit = () => {
    const { profile, fund } = auth.getSnapshot().context
    modals.send({ type: "OPEN_DEPOSIT", profile, fund })
  }
  const cashout = () => {
    const { profile, fund } = auth.getSnapshot().context
    modals.send({ type: "OPEN_CASHOUT", profile, fund })
  }

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
              onClick={deposit}
            >
              Deposit
            </button>
            {/* Wide screens: every action a button; phones: the menu (styles.css shows one or the other). */}
            <span className="header__wide">
              <button
                type="button"
                className="button button--ghost"
                onPointerEnter={prefetchModalLayer}
                onFocus={prefetchModalLayer}
                onClick={cashout}
              >
                Cash out
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
                className="header__signout"
                onClick={() => auth.send({ type: "SIGN_OUT" })}
              >
                Sign out
              </button>
            </span>
            <Menu name={name} onDeposit={deposit} onCashout={cashout} />
          </>
        ) : null}
      </nav>
    </header>
  )
}
