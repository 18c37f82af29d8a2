/**
 * Games: the game-aggregator-service of spec section 7, verbatim, and the
 * profile-service's favorites and bet history. The server implements them (server/games/); the
 * browser's clients are generated from them.
 *
 * Not here, on purpose: the seamless-wallet protocol the game providers call
 * (`POST /api/games/wallet/{provider}/{balance|bet|win|rollback}`, raw body under HMAC, see
 * docs/game-wallet-protocol.md) — the browser never calls it.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  GameNotFound,
  GameUnavailable,
  PlayBlocked,
  RateLimited,
  RoundNotFound,
  Unauthenticated,
} from "../errors.ts"
import {
  BetHistory,
  BetHistoryQuery,
  BetProviders,
  CatalogueParams,
  FavoriteGame,
  FavoriteGames,
  FavoriteParams,
  GameCurrencies,
  Games,
  GamesAndCategories,
  Jackpots,
  LaunchPayload,
  LaunchResponse,
  RoundFairness,
  RoundFairnessQuery,
  SkinConfiguration,
  Winners,
} from "../game-service.ts"

export class GameServiceApi extends HttpApiGroup.make("games")
  .add(
    HttpApiEndpoint.post("launch", "/game", {
      payload: LaunchPayload,
      success: LaunchResponse,
      error: [Unauthenticated, GameNotFound, PlayBlocked, GameUnavailable, RateLimited],
    }),
    HttpApiEndpoint.get("gamesAndCategories", "/games-and-categories/:currency", {
      params: CatalogueParams,
      success: GamesAndCategories,
    }),
    HttpApiEndpoint.get("topGames", "/category/top-games", { success: Games }),
    HttpApiEndpoint.get("mainGames", "/category/main-games", { success: Games }),
    HttpApiEndpoint.get("featuredGames", "/category/featured-games", { success: Games }),
    HttpApiEndpoint.get("newGames", "/category/new-games", { success: Games }),
    HttpApiEndpoint.get("jackpots", "/jackpots", { success: Jackpots }),
    HttpApiEndpoint.get("currencies", "/currency", { success: GameCurrencies }),
    HttpApiEndpoint.get("latestWinners", "/winners/latest", { success: Winners }),
    HttpApiEndpoint.get("topWinners", "/winners/top", { success: Winners }),
    HttpApiEndpoint.get("skinConfiguration", "/skin-configuration", { success: SkinConfiguration }),
  )
  .prefix("/game-aggregator-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "game-aggregator-service",
      description:
        "The lobby's catalogue and sections, jackpots, winners from real rounds, and the launch of a " +
        "game (demo or real money) answering the URL its frame opens.",
    }),
  ) {}

export class PlayerGamesApi extends HttpApiGroup.make("playerGames")
  .add(
    HttpApiEndpoint.get("favorites", "/profile/favoriteGame", {
      success: FavoriteGames,
      error: [Unauthenticated],
    }),
    HttpApiEndpoint.post("addFavorite", "/profile/favoriteGame", {
      payload: FavoriteGame,
      success: FavoriteGames,
      error: [Unauthenticated, GameNotFound],
    }),
    HttpApiEndpoint.delete("removeFavorite", "/profile/favoriteGame/:id", {
      params: FavoriteParams,
      success: FavoriteGames,
      error: [Unauthenticated],
    }),
    HttpApiEndpoint.get("betHistory", "/history/bet", {
      query: BetHistoryQuery,
      success: BetHistory,
      error: [Unauthenticated],
    }),
    HttpApiEndpoint.get("betProviders", "/history/bet/provider", {
      success: BetProviders,
      error: [Unauthenticated],
    }),
    // The verifier's round: only its player may ask; the provider is asked for its seeds each time.
    HttpApiEndpoint.get("roundFairness", "/history/bet/fairness", {
      query: RoundFairnessQuery,
      success: RoundFairness,
      error: [Unauthenticated, RoundNotFound, GameUnavailable],
    }),
  )
  .prefix("/profile-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "profile-service: games",
      description:
        "The player's favorite games, the history of their real-money rounds, and one round's " +
        "seeds and options for the fairness verifier.",
    }),
  ) {}
