/**
 * The lobby's rules (docs/games.md): the catalogue (seeded at start into the tables and kept in
 * memory — it changes only with a deploy), bet limits in the lobby's currency, sections from real
 * rounds, jackpots live from the ledger, winners, favorites, bet history, and the launch of a game
 * (demo: no session; real: signed in, not excluded, a wallet in the currency, a game session).
 */
import { randomBytes } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import { GameNotFound, GameUnavailable, PlayBlocked } from "../../services/errors.ts"
import type {
  BetHistory,
  Category,
  FavoriteGame,
  Game,
  GamesAndCategories,
  Jackpots,
  LaunchPayload,
  LaunchResponse,
  SkinConfiguration,
  Winners,
} from "../../services/game-service.ts"
import { AppConfig } from "../config.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { ResponsibleGaming } from "../responsible-gaming/ResponsibleGaming.ts"
import { Rates } from "../wallet/Rates.ts"
import { writeTileArt } from "./art.ts"
import { type Catalogue, studioCatalogue } from "./catalogue.ts"
import { type GameRow, GamesRepo, type WinnerRow } from "./GamesRepo.ts"
import { Integrations } from "./Integrations.ts"
import { betLimitsIn, eurCentsToMinor, lobbyCurrency, maskName, tokenHash } from "./rules.ts"

export const GameMessages = {
  notFound: "This game is not in the catalogue.",
  mismatch: "The game's details do not match the catalogue.",
  noDemo: "This game has no demo mode.",
  excluded: "You are self-excluded: real-money play is blocked until the exclusion ends.",
  noWallet: (currency: string) => `You have no ${currency} wallet to play from.`,
  noRate: (currency: string) => `Games cannot be played in ${currency}.`,
  unavailable: "The game could not be started. Please try again in a moment.",
  unknownAtProvider: "The provider does not offer this game any more.",
} as const

export const LOBBY_PAGE_SIZE = 12
export const WINNERS_LIMIT = 20
const DAY_MS = 86_400_000
/** Top games: real rounds of the last 7 days; cached this long (the ranking moves slowly). */
const TOP_CACHE_MS = 30_000
export const GAME_SESSION_TTL_HOURS = 24

export interface LaunchContext {
  /** The signed-in player (sessionId of the casino sign-in), or undefined for a visitor. */
  readonly player: { readonly userId: string; readonly sessionId: string } | undefined
}

type Unauth = { readonly _tag: "need-session" }

export interface GamesShape {
  readonly catalogue: () => ReadonlyArray<GameRow>
  readonly byId: (id: string) => GameRow | undefined
  readonly gamesAndCategories: (currency: string) => Effect.Effect<GamesAndCategories>
  readonly topGames: () => Effect.Effect<ReadonlyArray<Game>>
  readonly mainGames: () => ReadonlyArray<Game>
  readonly featuredGames: () => ReadonlyArray<Game>
  readonly newGames: () => ReadonlyArray<Game>
  readonly jackpots: () => Effect.Effect<Jackpots>
  readonly currencies: () => Effect.Effect<ReadonlyArray<string>>
  readonly latestWinners: () => Effect.Effect<Winners>
  readonly topWinners: () => Effect.Effect<Winners>
  readonly skin: () => SkinConfiguration
  readonly favorites: (userId: string) => Effect.Effect<ReadonlyArray<FavoriteGame>>
  readonly addFavorite: (
    userId: string,
    body: FavoriteGame,
  ) => Effect.Effect<ReadonlyArray<FavoriteGame>, GameNotFound>
  readonly removeFavorite: (userId: string, id: string) => Effect.Effect<ReadonlyArray<FavoriteGame>>
  readonly betHistory: (
    userId: string,
    window: { readonly from: Date; readonly to: Date } | undefined,
    brand: string | undefined,
    size: number,
    page: number,
  ) => Effect.Effect<BetHistory>
  readonly betProviders: (userId: string) => Effect.Effect<ReadonlyArray<string>>
  /** `need-session` when a real-money launch comes without a sign-in (the handler answers 401). */
  readonly launch: (
    payload: LaunchPayload,
    context: LaunchContext,
  ) => Effect.Effect<LaunchResponse, GameNotFound | PlayBlocked | GameUnavailable | Unauth>
}

export const toGame = (g: GameRow): Game => ({
  id: g.id,
  launchId: g.launchId,
  name: g.name,
  provider: g.brand,
  category: g.category,
  kind: g.kind,
  imageId: g.id,
  image: g.image,
  rtp: g.rtp,
  volatility: g.volatility,
  demo: g.demo,
  jackpot: g.jackpotId !== null,
  isNew: g.isNew,
  featured: g.featured,
  tags: g.tags,
})

const toFavorite = (g: GameRow): FavoriteGame => ({
  id: g.id,
  launchId: g.launchId,
  category: g.category,
  name: g.name,
  provider: g.brand,
})

const toWinner = (w: WinnerRow) => ({
  player: maskName(w.name),
  gameId: w.gameId,
  gameName: w.gameName,
  amount: w.amount,
  currency: w.currency,
  amountInEur: w.amountInEur,
  at: w.at.toISOString(),
})

/** The catalogue the server seeds from: the studio's (catalogue.ts keeps a fixture for other uses). */
export const CatalogueSource = Context.Reference<Catalogue>("casino/server/GameCatalogue", {
  defaultValue: studioCatalogue,
})

/** Seeds every jackpot's pool in every currency with a rate once (idempotent: the ledger's key). */
const seedJackpotPools = Effect.gen(function* () {
  const ledger = yield* Ledger
  const rates = yield* Rates
  const repo = yield* GamesRepo
  const pools = yield* repo.jackpotPools()
  const jackpots = new Map(pools.map((p) => [p.id, BigInt(p.seedEur)] as const))
  for (const rate of yield* rates.list()) {
    if (!rate.enabled) continue
    for (const [id, seedEur] of jackpots) {
      const seed = eurCentsToMinor(seedEur, rate.eurRate, rate.subunitsToUnit)
      if (seed <= 0n) continue
      const house = yield* ledger.systemAccountId("house", "games", rate.currency)
      const pool = yield* ledger.systemAccountId("jackpot_pool", id, rate.currency)
      yield* ledger.post({
        kind: "jackpot.seed",
        idempotencyKey: `jackpot-seed:${id}:${rate.currency}`,
        entries: [
          { accountId: house, currency: rate.currency, amount: -seed },
          { accountId: pool, currency: rate.currency, amount: seed },
        ],
      })
    }
  }
})

const make = Effect.gen(function* () {
  const repo = yield* GamesRepo
  const config = yield* AppConfig
  const rates = yield* Rates
  const integrations = yield* Integrations
  const rg = yield* ResponsibleGaming
  const source = yield* CatalogueSource

  yield* repo.seedCatalogue(source, (g) => g.image ?? `${config.cdnBasePath}/games/${g.id}.svg`)
  yield* Effect.promise(() =>
    writeTileArt(
      config.cdnDir,
      source.games.filter((g) => g.image === undefined),
    ),
  )
  yield* seedJackpotPools.pipe(
    Effect.catch((e) => Effect.logWarning("games: seeding the jackpot pools failed", e)),
  )
  const rows = yield* repo.games()
  const byIdMap = new Map(rows.map((g) => [g.id, g] as const))
  const all = rows.map(toGame)
  const categories: ReadonlyArray<Category> = yield* repo.categories()

  let top: { readonly at: number; readonly games: ReadonlyArray<Game> } | undefined
  const topGames = () =>
    Effect.gen(function* () {
      const now = Date.now()
      if (top !== undefined && now - top.at < TOP_CACHE_MS) return top.games
      const ids = yield* repo.topGameIds(new Date(now - 7 * DAY_MS))
      const ranked = new Set(ids.filter((id) => byIdMap.has(id)))
      // Most real rounds first, then the catalogue's own order for the rest.
      const games = [
        ...[...ranked].flatMap((id) => {
          const g = byIdMap.get(id)
          return g === undefined ? [] : [toGame(g)]
        }),
        ...all.filter((g) => !ranked.has(g.id)),
      ]
      top = { at: now, games }
      return games
    }).pipe(Effect.orDie)

  const gamesAndCategories = (raw: string) =>
    Effect.gen(function* () {
      const wanted = lobbyCurrency(raw)
      // A 3-letter code the casino has no rate for: the lobby shows EUR instead.
      const rate = (yield* rates.get(wanted)) ?? (yield* rates.get("EUR"))
      const currency = rate?.currency ?? "EUR"
      const betLimits: Record<string, { min: string; max: string }> = {}
      if (rate !== undefined)
        for (const g of rows) {
          const limits = betLimitsIn(
            BigInt(g.minBetEur),
            BigInt(g.maxBetEur),
            rate.eurRate,
            rate.subunitsToUnit,
          )
          if (limits !== undefined)
            betLimits[g.id] = { min: limits.min.toString(), max: limits.max.toString() }
        }
      return { currency, games: all, categories, betLimits }
    })

  const jackpots = () =>
    repo.jackpotPools().pipe(
      Effect.map((pools) =>
        pools.flatMap((p) =>
          p.currency === null || p.amount === null
            ? []
            : [
                {
                  id: p.id,
                  name: p.name,
                  currency: p.currency,
                  amount: p.amount,
                  gameIds: rows.filter((g) => g.jackpotId === p.id).map((g) => g.id),
                  lastWonAt: p.lastWonAt === null ? null : p.lastWonAt.toISOString(),
                },
              ],
        ),
      ),
      Effect.orDie,
    )

  const favorites = (userId: string) =>
    repo.favoriteIds(userId).pipe(
      Effect.map((ids) =>
        ids.flatMap((id) => {
          const g = byIdMap.get(id)
          return g === undefined ? [] : [toFavorite(g)]
        }),
      ),
      Effect.orDie,
    )

  const addFavorite = (userId: string, body: FavoriteGame) =>
    Effect.gen(function* () {
      const g = byIdMap.get(body.id)
      if (g === undefined) return yield* new GameNotFound({ message: GameMessages.notFound, id: body.id })
      if (g.launchId !== body.launchId || g.brand !== body.provider)
        return yield* new GameNotFound({ message: GameMessages.mismatch, id: body.id })
      yield* repo.addFavorite(userId, g.id).pipe(Effect.orDie)
      return yield* favorites(userId)
    })

  const removeFavorite = (userId: string, id: string) =>
    Effect.gen(function* () {
      if (byIdMap.has(id)) yield* repo.removeFavorite(userId, id).pipe(Effect.orDie)
      return yield* favorites(userId)
    })

  const betHistory: GamesShape["betHistory"] = (userId, window, brand, size, page) =>
    Effect.gen(function* () {
      if (window === undefined || window.from >= window.to)
        return { content: [], page, size, totalElements: 0, totalPages: 0 }
      const { rows: found, total } = yield* repo
        .betHistory({ userId, from: window.from, to: window.to, brand, size, page })
        .pipe(Effect.orDie)
      return {
        content: found.map((r) => ({ ...r, at: r.at.toISOString() })),
        page,
        size,
        totalElements: total,
        totalPages: Math.ceil(total / size),
      }
    })

  const launch: GamesShape["launch"] = (payload, context) =>
    Effect.gen(function* () {
      const game = byIdMap.get(payload.id)
      if (game === undefined)
        return yield* new GameNotFound({ message: GameMessages.notFound, id: payload.id })
      if (game.launchId !== payload.launchId)
        return yield* new GameNotFound({ message: GameMessages.mismatch, id: payload.id })
      const integration = yield* integrations.get(game.integration)
      const unavailable = new GameUnavailable({ message: GameMessages.unavailable, provider: game.brand })
      if (integration === undefined) return yield* unavailable
      let currency: string
      let sessionToken: string | null = null
      let playerId: string | null = null
      let nickname: string | null = null
      if (payload.demo) {
        if (!game.demo) return yield* new GameNotFound({ message: GameMessages.noDemo, id: payload.id })
        // Play money: any currency with a rate, the player's default, else EUR.
        const wanted =
          payload.currency ??
          (context.player === undefined
            ? undefined
            : (yield* repo.walletCurrencies(context.player.userId).pipe(Effect.orDie))[0]?.currency)
        currency = wanted !== undefined && (yield* rates.get(wanted)) !== undefined ? wanted : "EUR"
      } else {
        const player = context.player
        if (player === undefined) return yield* Effect.fail<Unauth>({ _tag: "need-session" })
        if ((yield* rg.currentExclusion(player.userId)) !== null)
          return yield* new PlayBlocked({ message: GameMessages.excluded, reason: "excluded" })
        const wallets = yield* repo.walletCurrencies(player.userId).pipe(Effect.orDie)
        const wallet =
          payload.currency === undefined ? wallets[0] : wallets.find((w) => w.currency === payload.currency)
        const wanted = payload.currency ?? "EUR"
        if (wallet === undefined)
          return yield* new PlayBlocked({ message: GameMessages.noWallet(wanted), reason: "currency" })
        if ((yield* rates.get(wallet.currency)) === undefined)
          return yield* new PlayBlocked({ message: GameMessages.noRate(wallet.currency), reason: "currency" })
        currency = wallet.currency
        const token = randomBytes(32).toString("base64url")
        yield* repo
          .createSession({
            tokenHash: tokenHash(token),
            userId: player.userId,
            casinoSessionId: player.sessionId,
            currency,
            gameId: game.id,
            integration: game.integration,
            ttlHours: GAME_SESSION_TTL_HOURS,
          })
          .pipe(Effect.orDie)
        sessionToken = token
        playerId = player.userId
        nickname = yield* repo.nickname(player.userId).pipe(Effect.orDie)
      }
      const answer = yield* integrations.launch(integration, {
        sessionToken,
        playerId,
        nickname,
        currency,
        gameId: game.launchId,
        demo: payload.demo,
        lang: payload.lang,
        platform: payload.platform,
        lobbyUrl: `${config.publicUrl}/`,
      })
      if (answer._tag === "unknown-game")
        return yield* new GameNotFound({ message: GameMessages.unknownAtProvider, id: payload.id })
      if (answer._tag === "unavailable") return yield* unavailable
      return { url: answer.url, demo: payload.demo, currency }
    })

  const pick = (f: (g: GameRow) => boolean) => rows.filter(f).map(toGame)

  return {
    catalogue: () => rows,
    byId: (id) => byIdMap.get(id),
    gamesAndCategories,
    topGames,
    mainGames: () => all,
    featuredGames: () => pick((g) => g.featured),
    newGames: () => pick((g) => g.isNew),
    jackpots,
    currencies: () => repo.currencies().pipe(Effect.orDie),
    latestWinners: () =>
      repo.latestWinners(WINNERS_LIMIT).pipe(
        Effect.map((w) => w.map(toWinner)),
        Effect.orDie,
      ),
    topWinners: () =>
      repo.topWinners(new Date(Date.now() - 30 * DAY_MS), WINNERS_LIMIT).pipe(
        Effect.map((w) => w.map(toWinner)),
        Effect.orDie,
      ),
    skin: () => ({
      productName: config.productName,
      sections: ["new", "top", "featured", "jackpot", "recommended", "favorites", "all"],
      pageSize: LOBBY_PAGE_SIZE,
      accent: "#f5b301",
    }),
    favorites,
    addFavorite,
    removeFavorite,
    betHistory,
    betProviders: (userId) => repo.betBrands(userId).pipe(Effect.orDie),
    launch,
  } satisfies GamesShape
})

export class Games extends Context.Service<Games, GamesShape>()("casino/server/Games") {
  static readonly layer = Layer.effect(Games, make)
}
