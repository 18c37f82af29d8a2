/**
 * The lobby's pure rules (spec sections 3 and 8): which games a section, a segment and a
 * search show, how far the "more" list reaches, the catalogue's currency, the favorite body, and the
 * lobby's failure messages. Browser-safe and pure, shared by the lobby machine, its view and the
 * property tests (tests/property/lobby-rules.property.test.ts).
 */
import type { RecommendedGames } from "./cdn.ts"
import type { FavoriteGame, FavoriteGames, Game, Games, Jackpots } from "./game-service.ts"

/** Spec section 8: the game list starts at 12 and grows by 12 per 'more' (numberOfGames). */
export const PAGE_SIZE = 12

/** The search waits this long after the last keystroke (ms), so typing does not filter per key. */
export const SEARCH_DEBOUNCE_MS = 300

/** The live pool amounts are read again this often (ms). */
export const JACKPOT_REFRESH_MS = 30_000

/** Spec section 8's messages, verbatim; the others (not in the spec) follow their pattern. */
export const LobbyMessages = {
  newGames: "Get New Games did not work",
  topGames: "Get Top Games did not work",
  featuredGames: "Get Featured Games did not work",
  favorites: "Get Favorit did not work",
  addFavorite: "Add favorit did not work",
  deleteFavorite: "Delete favorit did not work",
  // Not in the spec (docs/decisions.md, "Lobby messages"): the same wording for the other calls.
  catalogue: "Get Games did not work",
  jackpots: "Get Jackpots did not work",
  winners: "Get Winners did not work",
  skin: "Get Skin Configuration did not work",
  recommended: "Get Recommended Games did not work",
} as const

/** Spec section 7: a currency that is not 3 letters becomes EUR (upper-cased otherwise). */
export const catalogueCurrency = (currency: string | null | undefined): string =>
  currency !== null && currency !== undefined && /^[A-Za-z]{3}$/.test(currency)
    ? currency.toUpperCase()
    : "EUR"

/** Lower case, accents dropped, runs of spaces and dashes as one space: "Crash-Ö  Ride" → "crash o ride". */
export const normalizeText = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    // Upper then lower: a case fold, so "ß" and "SS" meet (fast-check found "ß" ≠ "SS".toLowerCase()).
    .toUpperCase()
    .toLowerCase()
    .replace(/[\s\-_]+/g, " ")
    .trim()

/** The words of a search; an empty or blank search has none (and matches every game). */
export const searchWords = (term: string): ReadonlyArray<string> =>
  normalizeText(term)
    .split(" ")
    .filter((word) => word.length > 0)

/** Every word of the search occurs in the game's name, brand (provider) or one of its tags. */
export const matchesSearch = (game: Game, term: string): boolean => {
  const words = searchWords(term)
  if (words.length === 0) return true
  const haystack = normalizeText([game.name, game.provider, ...game.tags].join(" "))
  return words.every((word) => haystack.includes(word))
}

/** The "all games" list: the segment's games (null: every segment) that match the search, in catalogue order. */
export const filterGames = (
  games: Games,
  filter: { readonly term: string; readonly segment: string | null },
): Games =>
  games.filter(
    (game) =>
      (filter.segment === null || game.category === filter.segment) && matchesSearch(game, filter.term),
  )

/** The first `count` games of the list (what the "all games" grid shows). */
export const visibleGames = (games: Games, count: number): Games => games.slice(0, Math.max(0, count))

/** Whether "more" would show more games. */
export const hasMore = (total: number, count: number): boolean => count < total

/** The count after one "more": 12 further. */
export const nextCount = (count: number): number => count + PAGE_SIZE

/** The catalogue's games with these ids, in the order of the ids; unknown ids are dropped. */
export const gamesByIds = (games: Games, ids: ReadonlyArray<string>): Games => {
  const byId = new Map(games.map((game) => [game.id, game] as const))
  const seen = new Set<string>()
  const out: Array<Game> = []
  for (const id of ids) {
    const game = byId.get(id)
    if (game !== undefined && !seen.has(id)) {
      seen.add(id)
      out.push(game)
    }
  }
  return out
}

/** The recommended section: the CDN's list resolved against the catalogue (a title it no longer has is left out). */
export const recommendedSection = (games: Games, recommended: RecommendedGames): Games =>
  gamesByIds(
    games,
    recommended.map((r) => r.id),
  )

/** The favorites section: the player's favorites that the catalogue still has. */
export const favoritesSection = (games: Games, favorites: FavoriteGames): Games =>
  gamesByIds(
    games,
    favorites.map((f) => f.id),
  )

/** The jackpot section: games that feed a pool (the pools' own lists first, then any flagged game). */
export const jackpotSection = (games: Games, jackpots: Jackpots): Games =>
  gamesByIds(games, [
    ...jackpots.flatMap((j) => j.gameIds),
    ...games.filter((g) => g.jackpot).map((g) => g.id),
  ])

/**
 * The pools the lobby shows: each jackpot once, in the catalogue's currency (the session's), else in
 * EUR (every pool exists per currency on the server; listing them all buries the lobby).
 */
export const poolsIn = (jackpots: Jackpots, currency: string): Jackpots => {
  const pick = (code: string) => jackpots.filter((j) => j.currency === code)
  const inCurrency = pick(currency)
  return inCurrency.length > 0 ? inCurrency : pick("EUR")
}

export const isFavorite = (favorites: FavoriteGames, id: string): boolean =>
  favorites.some((f) => f.id === id)

/** Spec section 3: the favorite game body. */
export const favoriteBody = (game: Game): FavoriteGame => ({
  id: game.id,
  launchId: game.launchId,
  category: game.category,
  name: game.name,
  provider: game.provider,
})
