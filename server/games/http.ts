/**
 * Handlers of the games groups (services/api/game-service.ts): the game-aggregator-service's lobby
 * calls and launch, the profile-service's favorites, bet history and a round's fairness details (the
 * player from the session, never from the request), and the plain route of the seamless wallet the providers call:
 * `POST /api/games/wallet/:provider/:op` (raw body under HMAC, so not a contract endpoint).
 */
import { Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { SIGNATURE_HEADER } from "../../protocols/game-wallet/signature.ts"
import { WALLET_PATH } from "../../protocols/game-wallet/wallet.ts"
import { CasinoApi } from "../../services/api.ts"
import { Unauthenticated } from "../../services/errors.ts"
import { AppConfig } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { requireSession, UnauthenticatedMessage } from "../users/auth.ts"
import { readCookie, SESSION_COOKIE } from "../users/cookies.ts"
import { Sessions } from "../users/Sessions.ts"
import { historyWindow } from "../wallet/http.ts"
import { Games } from "./Games.ts"
import { GamesRepo } from "./GamesRepo.ts"
import { GameWallet } from "./GameWallet.ts"
import { Integrations } from "./Integrations.ts"
import { roundFairness } from "./roundFairness.ts"

const DEFAULT_HISTORY_SIZE = 20

export const GameHandlers = HttpApiBuilder.group(
  CasinoApi,
  "games",
  Effect.fn(function* (handlers) {
    const games = yield* Games
    const sessions = yield* Sessions
    const limiter = yield* RateLimiter
    const geo = yield* Geo
    const config = yield* AppConfig

    return handlers
      .handle("launch", ({ request, payload }) =>
        Effect.gen(function* () {
          const session = yield* sessions.resolve(readCookie(request, SESSION_COOKIE))
          const player = Option.getOrUndefined(session)
          // Per player when signed in, per address for visitors' demo launches.
          yield* limiter.consume(
            player === undefined
              ? `game-launch-ip:${geo.clientIp(request)}`
              : `game-launch:${player.user.id}`,
            config.gameLaunchLimit,
          )
          return yield* games
            .launch(payload, {
              player:
                player === undefined ? undefined : { userId: player.user.id, sessionId: player.sessionId },
              ipCountry: (yield* geo.lookup(geo.clientIp(request))).isoCode,
            })
            .pipe(
              Effect.catchTag("need-session", () =>
                Effect.fail(new Unauthenticated({ message: UnauthenticatedMessage })),
              ),
            )
        }),
      )
      .handle("gamesAndCategories", ({ params }) => games.gamesAndCategories(params.currency))
      .handle("topGames", () => games.topGames())
      .handle("mainGames", () => games.mainGames())
      .handle("featuredGames", () => games.featuredGames())
      .handle("newGames", () => games.newGames())
      .handle("jackpots", () => games.jackpots())
      .handle("currencies", () => games.currencies())
      .handle("latestWinners", () => games.latestWinners())
      .handle("topWinners", () => games.topWinners())
      .handle("skinConfiguration", () => Effect.succeed(games.skin()))
  }),
)

export const PlayerGamesHandlers = HttpApiBuilder.group(
  CasinoApi,
  "playerGames",
  Effect.fn(function* (handlers) {
    const games = yield* Games
    const sessions = yield* Sessions
    const repo = yield* GamesRepo
    const integrations = yield* Integrations

    return handlers
      .handle("favorites", ({ request }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          return yield* games.favorites(session.user.id)
        }),
      )
      .handle("addFavorite", ({ request, payload }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          return yield* games.addFavorite(session.user.id, payload)
        }),
      )
      .handle("removeFavorite", ({ request, params }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          return yield* games.removeFavorite(session.user.id, params.id)
        }),
      )
      .handle("betHistory", ({ request, query }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          const window = historyWindow(query.from, query.to, new Date())
          return yield* games.betHistory(
            session.user.id,
            window,
            query.provider,
            query.size ?? DEFAULT_HISTORY_SIZE,
            query.page ?? 0,
          )
        }),
      )
      .handle("betProviders", ({ request }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          return yield* games.betProviders(session.user.id)
        }),
      )
      .handle("roundFairness", ({ request, query }) =>
        Effect.gen(function* () {
          const session = yield* requireSession(sessions, request)
          return yield* roundFairness(repo, integrations, session.user.id, query.round)
        }),
      )
  }),
)

const noStore = { "cache-control": "no-store" }

export const gameWalletRoutes = Layer.unwrap(
  Effect.gen(function* () {
    const wallet = yield* GameWallet
    const handler = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const params = yield* HttpRouter.params
      const raw = yield* request.text
      const answer = yield* wallet.handle(
        params.provider ?? "",
        params.op ?? "",
        raw,
        request.headers[SIGNATURE_HEADER],
      )
      return HttpServerResponse.jsonUnsafe(answer.body, { status: answer.status, headers: noStore })
    })
    return HttpRouter.add("POST", WALLET_PATH, handler)
  }),
)

export const gameEndpoints = [{ method: "POST", path: WALLET_PATH }] as const
