/**
 * One player's page: who they are, their money, their play, their sessions, responsible gaming,
 * documents, bonuses and loyalty, the staff's notes and the balance adjustments; and what the
 * operator's role may do to the player (lock, force sign-out, adjust the balance, note). Controls a
 * role cannot use are not shown; the server refuses them anyway. The tabs are ./PlayerSections.tsx,
 * the actions ./PlayerActions.tsx.
 */
import { useState } from "react"
import { playersClient } from "../../services/backoffice/clients/players.ts"
import type { Permission } from "../../services/backoffice/permissions.ts"
import { useResource, useSession } from "./actors.tsx"
import { ResourceState } from "./Layout.tsx"
import { AdjustControl, LockControl, SignOutControl } from "./PlayerActions.tsx"
import { KycBadge, LockBadge } from "./PlayerParts.tsx"
import {
  Adjustments,
  Bets,
  Bonuses,
  Deposits,
  Documents,
  Ledger,
  Notes,
  Overview,
  ResponsibleGaming,
  Sessions,
  Withdrawals,
} from "./PlayerSections.tsx"
import { type Tab, TabPanel, Tabs } from "./PlayerTabs.tsx"

type Section =
  | "overview"
  | "ledger"
  | "deposits"
  | "withdrawals"
  | "bets"
  | "sessions"
  | "rg"
  | "documents"
  | "bonuses"
  | "notes"
  | "adjustments"

const sections: ReadonlyArray<Tab<Section>> = [
  { id: "overview", label: "Overview" },
  { id: "ledger", label: "Ledger" },
  { id: "deposits", label: "Deposits" },
  { id: "withdrawals", label: "Withdrawals" },
  { id: "bets", label: "Bets" },
  { id: "sessions", label: "Sessions" },
  { id: "rg", label: "Responsible gaming" },
  { id: "documents", label: "Documents" },
  { id: "bonuses", label: "Bonuses & loyalty" },
  { id: "notes", label: "Notes" },
  { id: "adjustments", label: "Adjustments" },
]

const has = (permissions: ReadonlyArray<Permission>, permission: Permission) =>
  permissions.includes(permission)

export const PlayerPage = ({ id, onBack }: { readonly id: string; readonly onBack: () => void }) => {
  const page = useResource(() => playersClient.getPlayer({ params: { id } }))
  const me = useSession((s) => s.context.me)
  const permissions = me?.permissions ?? []
  const [section, setSection] = useState<Section>("overview")
  const { refresh } = page
  const data = page.data
  const mayLock = has(permissions, "players.lock")
  const mayAdjust = has(permissions, "players.adjust")
  return (
    <article className="bo-player" aria-labelledby="player-title">
      <p>
        <button type="button" className="bo-link" onClick={onBack}>
          ← All players
        </button>
      </p>
      <div className="bo-screen-head">
        <h1 id="player-title">{data ? data.profile.fullName || data.profile.email : "Player"}</h1>
        <div className="bo-row">
          {data && (
            <>
              <LockBadge locked={data.profile.locked !== null} />
              <KycBadge kyc={data.profile.kyc} />
            </>
          )}
          <button type="button" className="bo-button" onClick={refresh} disabled={page.refreshing}>
            {page.refreshing ? "Refreshing…" : "Refresh"}
          </button>
        </div>
      </div>
      <ResourceState {...page} />
      {data && (
        <>
          <p className="bo-muted">
            {data.profile.email} · <span className="bo-mono">{data.profile.id}</span>
          </p>
          <section className="bo-card bo-actions" aria-labelledby="player-actions">
            <h2 id="player-actions">Actions</h2>
            <div className="bo-actions__list">
              {mayLock && <LockControl page={data} onChanged={refresh} />}
              {mayLock && <SignOutControl page={data} onChanged={refresh} />}
              {mayAdjust && <AdjustControl page={data} onChanged={refresh} />}
              {!mayLock && !mayAdjust && (
                <p className="bo-muted">Your role can read this player and leave notes (Notes tab).</p>
              )}
            </div>
          </section>
          <Tabs label="Player" prefix="player" tabs={sections} current={section} onChange={setSection} />
          <TabPanel prefix="player" id={section}>
            <h2>{sections.find((s) => s.id === section)?.label}</h2>
            {section === "overview" && <Overview page={data} />}
            {section === "ledger" && <Ledger page={data} />}
            {section === "deposits" && <Deposits page={data} />}
            {section === "withdrawals" && <Withdrawals page={data} />}
            {section === "bets" && <Bets page={data} />}
            {section === "sessions" && <Sessions page={data} />}
            {section === "rg" && <ResponsibleGaming page={data} />}
            {section === "documents" && <Documents page={data} />}
            {section === "bonuses" && <Bonuses page={data} />}
            {section === "notes" && <Notes page={data} onChanged={refresh} />}
            {section === "adjustments" && (
              <Adjustments page={data} mayDecide={mayAdjust} onChanged={refresh} />
            )}
          </TabPanel>
        </>
      )}
    </article>
  )
}
