/**
 * The lobby's reads, reused until stale (services/query-cache.ts): a player back from the account
 * or a game sees the lobby at once and the server is not asked the same nine questions again. The
 * jackpots are live (read again every 30 s), so a kept amount is reused for half that at most and the
 * refresh always reads anew. Favorites are the player's own; an add or remove keeps its answer.
 */
import { Effect } from "effect"
import { CdnFiles, RecommendedGames } from "./cdn.ts"
import { fetchCdnFile } from "./client.ts"
import { gamesClient } from "./clients/games.ts"
import { playerGamesClient } from "./clients/playerGames.ts"
import { JACKPOT_REFRESH_MS } from "./lobby-rules.ts"
import { keyedQuery, query } from "./query-cache.ts"

export const lobbyQueries = {
  catalogue: keyedQuery((currency: string) => gamesClient.gamesAndCategories({ params: { currency } }), {
    scope: "public",
  }),
  top: query(gamesClient.topGames(), { scope: "public" }),
  featured: query(gamesClient.featuredGames(), { scope: "public" }),
  newGames: query(gamesClient.newGames(), { scope: "public" }),
  jackpots: query(gamesClient.jackpots(), { scope: "public", staleMs: JACKPOT_REFRESH_MS / 2 }),
  winners: query(gamesClient.latestWinners(), { scope: "public" }),
  skin: query(gamesClient.skinConfiguration(), { scope: "public" }),
  recommended: query(
    // The CDN base is read from the page when the file is asked for, not when this module loads.
    Effect.suspend(() => fetchCdnFile(CdnFiles.recommendedGames, RecommendedGames)),
    { scope: "public" },
  ),
  favorites: query(playerGamesClient.favorites(), { scope: "player" }),
}
