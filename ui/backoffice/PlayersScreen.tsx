/**
 * Players: find a player (e-mail, name, id, phone), open the player's page, and — for holders of
 * `players.adjust` — the balance adjustments waiting for a second operator.
 *
 * The open player lives in React state, not in the address bar: the session machine owns the path
 * (its NAVIGATE pushes `/backoffice/players` and `popstate` sends NAVIGATE back), so a per-player
 * path would need a second writer of the history. "All players" returns to the same results.
 */
import { Effect } from "effect"
import { type FormEvent, useCallback, useId, useState } from "react"
import { playersClient } from "../../services/backoffice/clients/players.ts"
import type { PlayerSummary } from "../../services/backoffice/players.ts"
import { useResource, useSession } from "./actors.tsx"
import { when } from "./format.ts"
import { ResourceState, ScreenHeader } from "./Layout.tsx"
import { PlayerPage } from "./PlayerPage.tsx"
import { AdjustmentDecision, KycBadge, LockBadge, signedMoney } from "./PlayerParts.tsx"
import { TabPanel, Tabs } from "./PlayerTabs.tsx"
import "./players.css"

const Search = ({ onOpen }: { readonly onOpen: (id: string) => void }) => {
  const [searched, setSearched] = useState<string | null>(null)
  // Nothing is asked before the first search: the list starts as "no search yet".
  const results = useResource<{ readonly players: ReadonlyArray<PlayerSummary> } | null>(() =>
    Effect.succeed(null),
  )
  const hintId = useId()
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const q = String(new FormData(event.currentTarget).get("q") ?? "").trim()
    if (q === "") return
    setSearched(q)
    results.reload(() => playersClient.searchPlayers({ query: { q } }))
  }
  const players = results.data?.players
  return (
    <>
      <search aria-label="Players">
        <form className="bo-card bo-form-row" onSubmit={submit}>
          <label className="bo-grow">
            Search players
            <input
              name="q"
              type="search"
              required
              maxLength={100}
              aria-describedby={hintId}
              defaultValue={searched ?? ""}
              autoComplete="off"
            />
          </label>
          <button type="submit" className="bo-button bo-button--primary" disabled={results.loading}>
            Search
          </button>
          <p id={hintId} className="bo-muted bo-full">
            The start of an e-mail, part of a name or phone number, or a player id.
          </p>
        </form>
      </search>
      <ResourceState {...results} />
      {players !== undefined &&
        (players.length === 0 ? (
          <p className="bo-notice" role="status">
            No player matches “{searched}”.
          </p>
        ) : (
          <>
            <p className="bo-muted" role="status">
              {players.length === 1 ? "1 player" : `${players.length} players`} for “{searched}”
              {players.length === 50 ? " (the first 50: narrow the search)" : ""}.
            </p>
            <div className="bo-table-wrap">
              <table className="bo-table bo-results">
                <caption className="visually-hidden">Players found</caption>
                <thead>
                  <tr>
                    <th scope="col">E-mail</th>
                    <th scope="col">Name</th>
                    <th scope="col">Country</th>
                    <th scope="col">Status</th>
                    <th scope="col">KYC</th>
                    <th scope="col">Registered</th>
                  </tr>
                </thead>
                <tbody>
                  {players.map((p) => (
                    <tr key={p.id}>
                      <td>
                        <button type="button" className="bo-link" onClick={() => onOpen(p.id)}>
                          {p.email}
                        </button>
                      </td>
                      <td>{p.name || "—"}</td>
                      <td>{p.country ?? "—"}</td>
                      <td>
                        <LockBadge locked={p.locked} />
                      </td>
                      <td>
                        <KycBadge kyc={p.kyc} />
                      </td>
                      <td>{when(p.registeredAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        ))}
      {players === undefined && !results.loading && !results.failed && (
        <p className="bo-muted">Search to see players.</p>
      )}
    </>
  )
}

const PendingAdjustments = ({ onOpen }: { readonly onOpen: (id: string) => void }) => {
  const pending = useResource(() => playersClient.listAdjustments({ query: { status: "pending" } }))
  const [decided, setDecided] = useState<string | null>(null)
  const { refresh } = pending
  const onDecided = useCallback(
    (text: string) => {
      setDecided(text)
      refresh()
    },
    [refresh],
  )
  const rows = pending.data?.adjustments ?? []
  return (
    <>
      <div className="bo-screen-head">
        <h2>Pending adjustments</h2>
        <button type="button" className="bo-button" onClick={refresh} disabled={pending.refreshing}>
          {pending.refreshing ? "Refreshing…" : "Refresh"}
        </button>
      </div>
      <p className="bo-muted">
        Adjustments that take their operator's 24 hours with a player past the approval threshold wait here
        until a second operator decides. Nobody decides their own request, nor one made before they held their
        role.
      </p>
      {decided && (
        <p className="bo-success" role="status">
          {decided}
        </p>
      )}
      <ResourceState {...pending} />
      {pending.data &&
        (rows.length === 0 ? (
          <p className="bo-notice">No adjustment is waiting.</p>
        ) : (
          <div className="bo-table-wrap">
            <table className="bo-table">
              <caption className="visually-hidden">Pending adjustments</caption>
              <thead>
                <tr>
                  <th scope="col">Player</th>
                  <th scope="col" className="bo-num">
                    Amount
                  </th>
                  <th scope="col">Reason</th>
                  <th scope="col">Requested</th>
                  <th scope="col">Decision</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <button type="button" className="bo-link" onClick={() => onOpen(a.playerId)}>
                        {a.playerEmail}
                      </button>
                    </td>
                    <td className="bo-num">{signedMoney(a.amount, a.currency)}</td>
                    <td className="bo-wrap">{a.reason}</td>
                    <td>
                      {a.requestedBy}
                      <div className="bo-muted">{when(a.requestedAt)}</div>
                    </td>
                    <td>
                      <AdjustmentDecision adjustment={a} onDecided={onDecided} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </>
  )
}

type View = "search" | "pending"

export const PlayersScreen = () => {
  const me = useSession((s) => s.context.me)
  const mayAdjust = me?.permissions.includes("players.adjust") ?? false
  const [open, setOpen] = useState<string | null>(null)
  const [view, setView] = useState<View>("search")
  return (
    <div className="bo-players">
      {/* The search stays mounted under an open player, so "All players" shows the same results. */}
      <div hidden={open !== null}>
        <ScreenHeader title="Players" />
        {mayAdjust ? (
          <>
            <Tabs
              label="Players"
              prefix="players"
              current={view}
              onChange={setView}
              tabs={[
                { id: "search", label: "Find a player" },
                { id: "pending", label: "Pending adjustments" },
              ]}
            />
            <TabPanel prefix="players" id="search" hidden={view !== "search"}>
              <Search onOpen={setOpen} />
            </TabPanel>
            <TabPanel prefix="players" id="pending" hidden={view !== "pending"}>
              {/* Mounted only while shown: each visit loads the queue afresh. */}
              {view === "pending" && open === null && <PendingAdjustments onOpen={setOpen} />}
            </TabPanel>
          </>
        ) : (
          <Search onOpen={setOpen} />
        )}
      </div>
      {open !== null && <PlayerPage key={open} id={open} onBack={() => setOpen(null)} />}
    </div>
  )
}
