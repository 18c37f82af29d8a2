/**
 * The profile area (`/profile` and its tabs): a projection of the shell's `profileArea` actor —
 * waiting for the session, asking a visitor to log in, or the open tab with its machine. Loaded on
 * first need (App.tsx imports it lazily); the deposit flow will reuse ProfileFormView on its own
 * profileForm actor.
 */
import { useSelector } from "@xstate/react"
import { useEffect, useRef } from "react"
import type { ActorRefFrom } from "xstate"
import type { betHistoryMachine } from "../../machines/games/betHistory.machine.ts"
import type { bonusesMachine } from "../../machines/profile/bonuses.machine.ts"
import type { changePasswordMachine } from "../../machines/profile/changePassword.machine.ts"
import type { loyaltyMachine } from "../../machines/profile/loyalty.machine.ts"
import type { profileAreaMachine } from "../../machines/profile/profileArea.machine.ts"
import type { profileFormMachine } from "../../machines/profile/profileForm.machine.ts"
import type { promoEmailMachine } from "../../machines/profile/promoEmail.machine.ts"
import type { responsibleGamingMachine } from "../../machines/profile/responsibleGaming.machine.ts"
import type { sessionsMachine } from "../../machines/profile/sessions.machine.ts"
import type { verificationDocumentMachine } from "../../machines/profile/verificationDocument.machine.ts"
import type { cryptoHistoryMachine } from "../../machines/wallet/cryptoHistory.machine.ts"
import type { depositHistoryMachine } from "../../machines/wallet/depositHistory.machine.ts"
import type { withdrawalsMachine } from "../../machines/wallet/withdrawals.machine.ts"
import { ProfileTabInfo, profileTabs } from "../../services/profile-tabs.ts"
import { useShell } from "../app/actors.tsx"
import { Link } from "../components/Link.tsx"
import { Spinner } from "../components/Spinner.tsx"
import "../account/flows.css"
import { BetsTab, betsLoadFailed } from "./BetsTab.tsx"
import { BonusesTab } from "./BonusesTab.tsx"
import { CryptoDepositsTab, cryptoDepositsLoadFailed } from "./CryptoDepositsTab.tsx"
import { DepositsTab, depositsLoadFailed } from "./DepositsTab.tsx"
import { LoadFailed } from "./fields.tsx"
import { formatDateTime } from "./format.ts"
import { LoyaltyTab } from "./LoyaltyTab.tsx"
import { ProfileFormView } from "./ProfileFormView.tsx"
import { PromoTab } from "./PromoTab.tsx"
import { ResponsibleGamingTab } from "./ResponsibleGamingTab.tsx"
import { SecurityTab } from "./SecurityTab.tsx"
import { SessionsTab } from "./SessionsTab.tsx"
import { VerificationTab } from "./VerificationTab.tsx"
import { WithdrawalsTab, withdrawalsLoadFailed } from "./WithdrawalsTab.tsx"
import "./profile.css"

type AreaActor = ActorRefFrom<typeof profileAreaMachine>

const LastLogin = ({ actor }: { actor: ActorRefFrom<typeof profileFormMachine> }) => {
  const lastLogin = useSelector(actor, (s) => s.context.profile?.lastLogin)
  const countries = useSelector(actor, (s) => s.context.countries)
  if (lastLogin === undefined) return null
  // The server names the IP's country by its ISO code; the form has the country list's names.
  const country =
    lastLogin === null ? "" : (countries.find((c) => c.code === lastLogin.country)?.name ?? lastLogin.country)
  return (
    <p className="profile__last-login">
      {lastLogin === null
        ? "This is your first sign-in."
        : `Last sign-in before this one: ${formatDateTime(lastLogin.at)} from ${country} (${lastLogin.ip}). Not you? Change your password in Security.`}
    </p>
  )
}

const OpenTab = ({ area }: { area: AreaActor }) => {
  const state = useSelector(area, (s) => {
    for (const tab of profileTabs) if (s.matches({ open: tab })) return tab
    return s.matches({ open: "notFound" }) ? "notFound" : "ended"
  })
  const children = useSelector(area, (s) => s.children)
  const depositsCodeFailed = useSelector(area, (s) => s.matches({ open: { deposits: "loadFailed" } }))
  const betsCodeFailed = useSelector(area, (s) => s.matches({ open: { bets: "loadFailed" } }))
  const withdrawalsCodeFailed = useSelector(area, (s) => s.matches({ open: { withdrawals: "loadFailed" } }))
  const cryptoCodeFailed = useSelector(area, (s) => s.matches({ open: { cryptoDeposits: "loadFailed" } }))
  switch (state) {
    case "general": {
      const form = children.general as ActorRefFrom<typeof profileFormMachine> | undefined
      return form ? (
        <div className="profile__section">
          <LastLogin actor={form} />
          <ProfileFormView actor={form} />
        </div>
      ) : null
    }
    case "deposits": {
      const actor = children.deposits as ActorRefFrom<typeof depositHistoryMachine> | undefined
      if (actor) return <DepositsTab actor={actor} />
      return depositsCodeFailed ? (
        <LoadFailed message={depositsLoadFailed} onRetry={() => area.send({ type: "RETRY" })} />
      ) : (
        <Spinner label="Loading your deposits" />
      )
    }
    case "withdrawals": {
      const actor = children.withdrawals as ActorRefFrom<typeof withdrawalsMachine> | undefined
      if (actor) return <WithdrawalsTab actor={actor} />
      return withdrawalsCodeFailed ? (
        <LoadFailed message={withdrawalsLoadFailed} onRetry={() => area.send({ type: "RETRY" })} />
      ) : (
        <Spinner label="Loading your withdrawals" />
      )
    }
    case "cryptoDeposits": {
      const actor = children.cryptoDeposits as ActorRefFrom<typeof cryptoHistoryMachine> | undefined
      if (actor) return <CryptoDepositsTab actor={actor} />
      return cryptoCodeFailed ? (
        <LoadFailed message={cryptoDepositsLoadFailed} onRetry={() => area.send({ type: "RETRY" })} />
      ) : (
        <Spinner label="Loading your crypto deposits" />
      )
    }
    case "bets": {
      const actor = children.bets as ActorRefFrom<typeof betHistoryMachine> | undefined
      if (actor) return <BetsTab actor={actor} />
      return betsCodeFailed ? (
        <LoadFailed message={betsLoadFailed} onRetry={() => area.send({ type: "RETRY" })} />
      ) : (
        <Spinner label="Loading your bets" />
      )
    }
    case "verification": {
      const id = children.idDocument as ActorRefFrom<typeof verificationDocumentMachine> | undefined
      const bill = children.billDocument as ActorRefFrom<typeof verificationDocumentMachine> | undefined
      return id && bill ? <VerificationTab id={id} bill={bill} /> : null
    }
    case "bonuses": {
      const actor = children.bonuses as ActorRefFrom<typeof bonusesMachine> | undefined
      return actor ? <BonusesTab actor={actor} /> : null
    }
    case "loyalty": {
      const actor = children.loyalty as ActorRefFrom<typeof loyaltyMachine> | undefined
      return actor ? <LoyaltyTab actor={actor} /> : null
    }
    case "sessions": {
      const actor = children.sessions as ActorRefFrom<typeof sessionsMachine> | undefined
      return actor ? <SessionsTab actor={actor} /> : null
    }
    case "security": {
      const actor = children.security as ActorRefFrom<typeof changePasswordMachine> | undefined
      return actor ? <SecurityTab actor={actor} /> : null
    }
    case "responsibleGaming": {
      const actor = children.responsibleGaming as ActorRefFrom<typeof responsibleGamingMachine> | undefined
      return actor ? <ResponsibleGamingTab actor={actor} /> : null
    }
    case "promo": {
      const actor = children.promo as ActorRefFrom<typeof promoEmailMachine> | undefined
      return actor ? <PromoTab actor={actor} /> : null
    }
    case "notFound":
      return (
        <p className="notice">
          There is nothing at this address. <Link to={ProfileTabInfo.general.path}>Back to your profile</Link>
        </p>
      )
    case "ended":
      return <Spinner label="Checking your session" />
  }
}

const Area = ({ area }: { area: AreaActor }) => {
  const view = useSelector(area, (s) =>
    s.matches("waiting") ? "waiting" : s.matches("signedOut") ? "signedOut" : "open",
  )
  const tab = useSelector(area, (s) => s.context.tab)
  const tabs = useRef<HTMLElement>(null)
  // The row of sections scrolls sideways on narrow screens: keep the open one in sight.
  useEffect(() => {
    if (tab === null) return
    tabs.current
      ?.querySelector(`a[href="${ProfileTabInfo[tab].path}"]`)
      ?.scrollIntoView({ block: "nearest", inline: "nearest" })
  }, [tab])
  return (
    <section className="page page--wide profile" aria-labelledby="profile-title">
      <h1 id="profile-title">Your account</h1>
      {view === "open" ? (
        <>
          <nav ref={tabs} className="profile__tabs" aria-label="Account sections">
            <ul>
              {profileTabs.map((t) => (
                <li key={t}>
                  <Link to={ProfileTabInfo[t].path} className="profile__tab" current={t === tab}>
                    {ProfileTabInfo[t].label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <OpenTab area={area} />
        </>
      ) : view === "signedOut" ? (
        <p className="notice">
          Log in to see your account.{" "}
          <button
            type="button"
            className="button button--primary"
            onClick={() => area.send({ type: "LOG_IN" })}
          >
            Log in
          </button>
        </p>
      ) : (
        <Spinner label="Checking your session" />
      )}
    </section>
  )
}

export const ProfilePage = () => {
  const area = useShell((s) => s.children.profileArea) as AreaActor | undefined
  return area ? <Area area={area} /> : <Spinner label="Loading your account" />
}
