/** The games' lobby settings (marketing): enabled, featured, recommended and the order of each game. */

import { type FormEvent, useState } from "react"
import { settingsClient } from "../../services/backoffice/clients/settings.ts"
import type { GameSetting } from "../../services/backoffice/settings.ts"
import { Failure } from "./ActionFailure.tsx"
import { useAction, useResource } from "./actors.tsx"
import { ResourceState, ScreenHeader } from "./Layout.tsx"
import "./reports.css"

type GameSettingT = typeof GameSetting.Type

const GameRow = ({ game, onChanged }: { readonly game: GameSettingT; readonly onChanged: () => void }) => {
  const action = useAction(onChanged)
  const busy = action.state === "submitting"
  const patch = (payload: { enabled?: boolean; featured?: boolean; recommended?: boolean; order?: number }) =>
    action.submit(() => settingsClient.updateGame({ params: { id: game.id }, payload }))
  const saveOrder = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const order = Number(new FormData(event.currentTarget).get("order"))
    if (Number.isInteger(order) && order !== game.order) patch({ order })
  }
  const toggle = (field: "enabled" | "featured" | "recommended", label: string) => (
    <td>
      <button
        type="button"
        className={game[field] ? "bo-button bo-switch bo-switch--on" : "bo-button bo-switch"}
        aria-pressed={game[field]}
        disabled={busy}
        onClick={() => patch({ [field]: !game[field] })}
      >
        <span aria-hidden="true">{game[field] ? "On" : "Off"}</span>
        <span className="visually-hidden">
          {label} {game.name}
        </span>
      </button>
    </td>
  )
  return (
    <tr>
      <td>
        {game.name}
        <div className="bo-muted bo-mono">{game.id}</div>
      </td>
      <td>{game.provider}</td>
      <td>{game.category}</td>
      {toggle("enabled", "Enabled:")}
      {toggle("featured", "Featured:")}
      {toggle("recommended", "Recommended:")}
      <td>
        <form className="bo-row" onSubmit={saveOrder}>
          <label className="visually-hidden" htmlFor={`order-${game.id}`}>
            Order of {game.name}
          </label>
          <input
            id={`order-${game.id}`}
            name="order"
            type="number"
            min={0}
            max={1_000_000_000}
            step={1}
            defaultValue={game.order}
            key={game.order}
          />
          <button type="submit" className="bo-button" disabled={busy}>
            Save<span className="visually-hidden"> order of {game.name}</span>
          </button>
        </form>
        <Failure action={action} />
      </td>
    </tr>
  )
}

export const GamesScreen = () => {
  const games = useResource(() => settingsClient.listGames())
  const [search, setSearch] = useState("")
  const term = search.trim().toLowerCase()
  const shown = (games.data?.games ?? []).filter(
    (g) =>
      term === "" ||
      g.name.toLowerCase().includes(term) ||
      g.id.includes(term) ||
      g.provider.toLowerCase().includes(term),
  )
  return (
    <>
      <ScreenHeader title="Games" refresh={games.refresh} refreshing={games.refreshing}>
        <label className="bo-inline-label">
          Find a game
          <input type="search" value={search} onChange={(event) => setSearch(event.currentTarget.value)} />
        </label>
      </ScreenHeader>
      <p className="bo-muted">
        A disabled game leaves the lobby and cannot be launched. Lower order comes first in the lobby.
      </p>
      <ResourceState {...games} />
      {games.data && shown.length === 0 && <p className="bo-notice">No game matches “{search}”.</p>}
      {shown.length > 0 && (
        <div className="bo-table-wrap">
          <table className="bo-table">
            <caption className="visually-hidden">Games in the lobby</caption>
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col">Provider</th>
                <th scope="col">Category</th>
                <th scope="col">Enabled</th>
                <th scope="col">Featured</th>
                <th scope="col">Recommended</th>
                <th scope="col">Order</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((g) => (
                <GameRow key={g.id} game={g} onChanged={games.refresh} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  )
}
