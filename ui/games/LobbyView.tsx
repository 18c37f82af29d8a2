/**
 * The lobby (the home page below the hero): a projection of the `lobby` actor. Search and segments
 * on top; then, with no search or segment, the skin's sections (new, top, featured, jackpot,
 * recommended, favorites when signed in); always "All games" (12, then 12 more per "More"). A
 * section whose call failed says so in place. The pools of the jackpots are live (read every 30 s).
 */
import { useSelector } from "@xstate/react"
import { type ReactNode, useEffect } from "react"
import type { ActorRefFrom } from "xstate"
import type { LobbySection, lobbyMachine } from "../../machines/games/lobby.machine.ts"
import type { Games, SkinConfiguration } from "../../services/game-service.ts"
import {
  favoritesSection,
  filterGames,
  hasMore,
  isFavorite,
  jackpotSection,
  LobbyMessages,
  PAGE_SIZE,
  poolsIn,
  recommendedSection,
  visibleGames,
} from "../../services/lobby-rules.ts"
import { useShell } from "../app/actors.tsx"
import { markFirstScreen } from "../app/firstScreen.ts"
import { Amount } from "../components/Amount.tsx"
import { Spinner } from "../components/Spinner.tsx"
import { GameTile } from "./GameTile.tsx"

type LobbyActor = ActorRefFrom<typeof lobbyMachine>
type SectionKey = SkinConfiguration["sections"][number]

const defaultSections: ReadonlyArray<SectionKey> = [
  "new",
  "top",
  "featured",
  "jackpot",
  "recommended",
  "favorites",
  "all",
]

const titles: Readonly<Record<SectionKey, string>> = {
  new: "New games",
  top: "Top games",
  featured: "Featured",
  jackpot: "Jackpot games",
  recommended: "Recommended for you",
  favorites: "Your favorites",
  all: "All games",
}

// Labels live here, not in the machine: importing its values would be fine (same chunk), but the
// section → failure mapping is the view's concern.
const failureOf: Partial<Record<SectionKey, LobbySection>> = {
  new: "newGames",
  top: "top",
  featured: "featured",
  jackpot: "jackpots",
  recommended: "recommended",
  favorites: "favorites",
  all: "catalogue",
}

const messages: Readonly<Record<LobbySection, string>> = {
  catalogue: LobbyMessages.catalogue,
  top: LobbyMessages.topGames,
  featured: LobbyMessages.featuredGames,
  newGames: LobbyMessages.newGames,
  jackpots: LobbyMessages.jackpots,
  winners: LobbyMessages.winners,
  skin: LobbyMessages.skin,
  recommended: LobbyMessages.recommended,
  favorites: LobbyMessages.favorites,
}

const Tiles = ({ actor, games }: { actor: LobbyActor; games: Games }) => {
  const favorites = useSelector(actor, (s) => s.context.favorites)
  const requested = useSelector(actor, (s) => s.context.favoriteRequested)
  return (
    <ul className="tiles">
      {games.map((game) => (
        <GameTile
          key={game.id}
          game={game}
          favorite={isFavorite(favorites, game.id)}
          saving={requested === game.id}
          onToggleFavorite={() => actor.send({ type: "TOGGLE_FAVORITE", gameId: game.id })}
        />
      ))}
    </ul>
  )
}

const Section = ({
  actor,
  id,
  games,
  extra,
}: {
  actor: LobbyActor
  id: SectionKey
  games: Games
  extra?: ReactNode
}) => {
  const failure = failureOf[id]
  const failed = useSelector(actor, (s) =>
    failure === undefined ? false : s.context.failed.includes(failure),
  )
  if (!failed && games.length === 0) return null
  return (
    <section className="lobby__section" aria-labelledby={`lobby-${id}`}>
      <h2 id={`lobby-${id}`} className="lobby__title">
        {titles[id]}
      </h2>
      {extra}
      {failed && failure !== undefined ? (
        <p className="muted">{messages[failure]}</p>
      ) : (
        <div className="lobby__row">
          <Tiles actor={actor} games={games} />
        </div>
      )}
    </section>
  )
}

const Jackpots = ({ actor }: { actor: LobbyActor }) => {
  const jackpots = useSelector(actor, (s) => poolsIn(s.context.jackpots, s.context.currency))
  const currencies = useShell((s) => s.context.currencies)
  if (jackpots.length === 0) return null
  return (
    <ul className="jackpots" aria-label="Jackpot pools">
      {jackpots.map((j) => (
        <li key={j.id} className="jackpots__pool">
          <span className="jackpots__name">{j.name}</span>
          <span className="jackpots__amount">
            <Amount minor={j.amount} currency={j.currency} currencies={currencies} /> {j.currency}
          </span>
        </li>
      ))}
    </ul>
  )
}

const Winners = ({ actor }: { actor: LobbyActor }) => {
  const winners = useSelector(actor, (s) => s.context.winners)
  const currencies = useShell((s) => s.context.currencies)
  if (winners.length === 0) return null
  return (
    <section className="lobby__section" aria-labelledby="lobby-winners">
      <h2 id="lobby-winners" className="lobby__title">
        Latest winners
      </h2>
      <ul className="winners">
        {winners.slice(0, 8).map((w) => (
          <li key={`${w.at}-${w.player}-${w.gameId}`} className="winners__item">
            <span className="winners__player">{w.player}</span> won{" "}
            <strong>
              <Amount minor={w.amount} currency={w.currency} currencies={currencies} /> {w.currency}
            </strong>{" "}
            on {w.gameName}
          </li>
        ))}
      </ul>
    </section>
  )
}

const Controls = ({ actor }: { actor: LobbyActor }) => {
  const input = useSelector(actor, (s) => s.context.searchInput)
  const categories = useSelector(actor, (s) => s.context.categories)
  const segment = useSelector(actor, (s) => s.context.segment)
  return (
    <div className="lobby__controls">
      <search className="lobby__search">
        <label className="visually-hidden" htmlFor="lobby-search">
          Search games
        </label>
        <input
          id="lobby-search"
          type="search"
          className="input"
          placeholder="Search games, brands, themes"
          value={input}
          autoComplete="off"
          onChange={(event) => actor.send({ type: "SEARCH", term: event.currentTarget.value })}
        />
      </search>
      {categories.length > 0 ? (
        <fieldset className="segments">
          <legend className="visually-hidden">Categories</legend>
          <button
            type="button"
            className="segments__chip"
            aria-pressed={segment === null}
            onClick={() => actor.send({ type: "SEGMENT", segment: null })}
          >
            All
          </button>
          {categories.map((c) => (
            <button
              key={c.slug}
              type="button"
              className="segments__chip"
              aria-pressed={segment === c.slug}
              onClick={() => actor.send({ type: "SEGMENT", segment: c.slug })}
            >
              {c.name}
            </button>
          ))}
        </fieldset>
      ) : null}
    </div>
  )
}

const AllGames = ({ actor }: { actor: LobbyActor }) => {
  const loading = useSelector(actor, (s) => s.matches({ catalogue: "loading" }))
  const failed = useSelector(actor, (s) => s.matches({ catalogue: "failed" }))
  const games = useSelector(actor, (s) => s.context.games)
  const term = useSelector(actor, (s) => s.context.searchTerm)
  const segment = useSelector(actor, (s) => s.context.segment)
  const count = useSelector(actor, (s) => s.context.numberOfGames)
  const list = filterGames(games, { term, segment })
  const title = term.trim() !== "" ? `Results for “${term.trim()}”` : titles.all
  // The games are on screen (or the failure says why): the first screen is up.
  useEffect(() => {
    if (!loading) markFirstScreen()
  }, [loading])
  return (
    <section className="lobby__section" aria-labelledby="lobby-all">
      <h2 id="lobby-all" className="lobby__title">
        {title} {loading ? null : <span className="lobby__count">({list.length})</span>}
      </h2>
      {loading ? (
        <Spinner label="Loading the games" />
      ) : failed ? (
        <div className="notice" role="alert">
          {LobbyMessages.catalogue}{" "}
          <button type="button" className="link-button" onClick={() => actor.send({ type: "RETRY" })}>
            Try again
          </button>
        </div>
      ) : list.length === 0 ? (
        <p className="muted">No game matches your search.</p>
      ) : (
        <>
          <Tiles actor={actor} games={visibleGames(list, count)} />
          <p className="lobby__shown" aria-live="polite">
            Showing {Math.min(count, list.length)} of {list.length}
          </p>
          {hasMore(list.length, count) ? (
            <button
              type="button"
              className="button button--ghost lobby__more"
              onClick={() => actor.send({ type: "MORE" })}
            >
              Show {Math.min(PAGE_SIZE, list.length - count)} more
            </button>
          ) : null}
        </>
      )}
    </section>
  )
}

export const LobbyView = ({ actor }: { actor: LobbyActor }) => {
  const filtering = useSelector(
    actor,
    (s) => s.context.searchTerm.trim() !== "" || s.context.segment !== null,
  )
  const sections = useSelector(actor, (s) => s.context.skin?.sections ?? defaultSections)
  const signedIn = useSelector(actor, (s) => s.context.session === "signedIn")
  const c = useSelector(actor, (s) => s.context)
  const lists: Readonly<Record<Exclude<SectionKey, "all">, Games>> = {
    new: c.newGames,
    top: c.top,
    featured: c.featured,
    jackpot: jackpotSection(c.games, c.jackpots),
    recommended: recommendedSection(c.games, c.recommended),
    favorites: favoritesSection(c.games, c.favorites),
  }
  return (
    <div className="lobby">
      <Controls actor={actor} />
      {filtering
        ? null
        : sections.map((id) =>
            id === "all" || (id === "favorites" && !signedIn) ? null : (
              <Section
                key={id}
                actor={actor}
                id={id}
                games={lists[id]}
                extra={id === "jackpot" ? <Jackpots actor={actor} /> : undefined}
              />
            ),
          )}
      <AllGames actor={actor} />
      {filtering ? null : <Winners actor={actor} />}
    </div>
  )
}
