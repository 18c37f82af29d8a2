/**
 * The lobby's rules (docs/games.md): the catalogue, bet limits in the lobby's currency, sections
 * from real rounds, jackpots live from the ledger, winners, favorites, bet history, and the launch of
 * a game (demo: no session; real: signed in, not excluded, a wallet in the currency, a game session).
 *
 * The catalogue comes through the protocol, as an aggregator's does: each integration's signed games
 * list (Integrations.catalogue) is fetched at start and every GAME_CATALOGUE_REFRESH_SECONDS (and on
 * `refresh`), upserted under its code, and the lobby held in memory is reloaded from the tables.
 * A provider that does not answer never stops the casino: its last stored list stays, retried with
 * backoff. A fresh database has no stored list: until each integration answered once (or a short
 * grace passed) the lobby calls wait for it rather than show an empty lobby.
 */
import { createHash, randomBytes } from "node:crypto"
import { Cause, Context, Deferred, Duration, Effect, Exit, Layer, Option } from "effect"
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
import type { Catalogue } from "./catalogue.ts"
import { type GameRow, GamesRepo, type WinnerRow } from "./GamesRepo.ts"
import { type CatalogueUnavailable, Integrations } from "./Integrations.ts"
import { playRulesFor } from "./playRules.ts"
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
/**
 * On a fresh database, lobby calls wait at most this long (from the first such call: the server may
 * take a while to start serving) for lists that have not answered yet.
 */
const FIRST_LIST_GRACE_MS = 15_000
/** For this long after the start, a provider that says "not yet" (5xx) is logged quietly. */
const QUIET_START_MS = 60_000
/** A list request's time limit; shorter before a first answer (better to ask again soon). */
const FIRST_FETCH_TIMEOUT = Duration.seconds(4)
const FETCH_TIMEOUT = Duration.seconds(20)
/** Retries after a failed fetch: 250 ms doubling, at most a minute. */
const retryDelay = (failures: number) =>
  Duration.millis(Math.min(250 * 2 ** Math.min(failures - 1, 8), 60_000))
/**
 * Before a provider's first list, while it answers "not yet" (503 NOT_READY: a provider starting
 * beside this server computes its list first), it is asked again at most this long after.
 */
const STARTING_RETRY_MAX_MS = 2_000
/** Each integration's games sort after the previous one's (GAME_PROVIDERS' order). */
const SORT_STRIDE = 100_000

/** What one integration's fetch did: `changed` when its list was new to this process. */
export interface CatalogueSync {
  readonly integration: string
  readonly outcome: "changed" | "unchanged" | "failed"
  readonly games?: number
  readonly reason?: string
}

export interface LaunchContext {
  /** The signed-in player (sessionId of the casino sign-in), or undefined for a visitor. */
  readonly player: { readonly userId: string; readonly sessionId: string } | undefined
  /** The country of the request's IP: the jurisdiction of a visitor, or of a player with no profile country. */
  readonly ipCountry: string
}

type Unauth = { readonly _tag: "need-session" }

export interface GamesShape {
  readonly catalogue: () => Effect.Effect<ReadonlyArray<GameRow>>
  readonly byId: (id: string) => Effect.Effect<GameRow | undefined>
  /** Reads the lobby from the tables again (after an operator changed a game's settings). */
  readonly reload: () => Effect.Effect<void>
  /** Fetches every integration's games list now (the periodic refresh, on demand). */
  readonly refresh: () => Effect.Effect<ReadonlyArray<CatalogueSync>>
  readonly gamesAndCategories: (currency: string) => Effect.Effect<GamesAndCategories>
  readonly topGames: () => Effect.Effect<ReadonlyArray<Game>>
  readonly mainGames: () => Effect.Effect<ReadonlyArray<Game>>
  readonly featuredGames: () => Effect.Effect<ReadonlyArray<Game>>
  readonly newGames: () => Effect.Effect<ReadonlyArray<Game>>
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

/** A catalogue's content digest: an unchanged list is not written again at each refresh. */
const digestOf = (catalogue: Catalogue): string =>
  createHash("sha256")
    .update(JSON.stringify(catalogue, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)))
    .digest("hex")

interface Lobby {
  readonly rows: ReadonlyArray<GameRow>
  readonly byId: ReadonlyMap<string, GameRow>
  readonly all: ReadonlyArray<Game>
  readonly categories: ReadonlyArray<Category>
}

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
  const ledger = yield* Ledger
  const startedAt = Date.now()

  const loadLobby = Effect.gen(function* () {
    const rows = yield* repo.games()
    return {
      rows,
      byId: new Map(rows.map((g) => [g.id, g] as const)),
      all: rows.map(toGame),
      categories: yield* repo.categories(),
    } satisfies Lobby
  })
  // The last stored lists: a restart serves them at once, while the providers are asked again.
  let lobby: Lobby = yield* loadLobby
  let top: { readonly at: number; readonly games: ReadonlyArray<Game> } | undefined

  const known = yield* integrations.all()
  const stored = new Set(yield* repo.storedIntegrations())
  const waiting = new Set(known.map((i) => i.code).filter((code) => !stored.has(code)))
  const ready = yield* Deferred.make<void>()
  const release = (code: string) =>
    Effect.suspend(() => {
      waiting.delete(code)
      return waiting.size === 0 ? Deferred.succeed(ready, undefined) : Effect.void
    })
  yield* release("")
  let deadline: number | undefined
  /** The lobby in memory, once the first start's lists are in (or the grace is over). */
  const current = Effect.gen(function* () {
    if (!(yield* Deferred.isDone(ready))) {
      deadline ??= Date.now() + FIRST_LIST_GRACE_MS
      const waited = yield* Deferred.await(ready).pipe(
        Effect.timeoutOption(Duration.millis(Math.max(0, deadline - Date.now()))),
      )
      if (Option.isNone(waited)) yield* Deferred.succeed(ready, undefined)
    }
    return lobby
  })

  const digests = new Map<string, string>()
  const syncOne = (integration: (typeof known)[number], index: number) =>
    Effect.gen(function* () {
      const { catalogue, skipped } = yield* integrations
        .catalogue(integration)
        .pipe(Effect.timeout(digests.has(integration.code) ? FETCH_TIMEOUT : FIRST_FETCH_TIMEOUT))
      if (skipped.length > 0)
        yield* Effect.logWarning(
          `games: ${integration.code}'s list: ${skipped.length} title(s) left out: ${skipped.slice(0, 5).join("; ")}`,
        )
      const digest = digestOf(catalogue)
      if (digests.get(integration.code) === digest)
        return { integration: integration.code, outcome: "unchanged", games: catalogue.games.length } as const
      yield* repo.syncCatalogue(
        integration.code,
        index * SORT_STRIDE,
        catalogue,
        (g) => g.image ?? `${config.cdnBasePath}/games/${g.id}.svg`,
      )
      yield* Effect.tryPromise(() =>
        writeTileArt(
          config.cdnDir,
          catalogue.games.filter((g) => g.image === undefined),
        ),
      ).pipe(Effect.catch((e) => Effect.logWarning("games: writing tile art failed", e)))
      yield* seedJackpotPools.pipe(
        Effect.provideService(Ledger, ledger),
        Effect.provideService(Rates, rates),
        Effect.provideService(GamesRepo, repo),
        Effect.catch((e) => Effect.logWarning("games: seeding the jackpot pools failed", e)),
      )
      digests.set(integration.code, digest)
      lobby = yield* loadLobby
      top = undefined
      return { integration: integration.code, outcome: "changed", games: catalogue.games.length } as const
    })

  /**
   * One fetch; a failure is logged (quietly while a provider is starting) and answered. `starting`:
   * the provider has not given its first list yet and said "not yet" (a 5xx): asked again soon, the
   * first start's lobby waiting for it (within the grace).
   */
  const attempt = (integration: (typeof known)[number], index: number) =>
    Effect.exit(syncOne(integration, index)).pipe(
      Effect.flatMap((exit): Effect.Effect<CatalogueSync & { readonly starting?: boolean }> => {
        if (Exit.isSuccess(exit)) return Effect.as(release(integration.code), exit.value)
        if (Cause.hasInterruptsOnly(exit.cause)) return Effect.failCause(exit.cause).pipe(Effect.orDie)
        const error = Cause.findErrorOption(exit.cause)
        const problem: CatalogueUnavailable | undefined =
          error._tag === "Some" &&
          typeof error.value === "object" &&
          error.value._tag === "CatalogueUnavailable"
            ? error.value
            : undefined
        const reason =
          problem?.reason ??
          (error._tag === "Some" && error.value._tag === "TimeoutError"
            ? "no answer in time"
            : Cause.pretty(exit.cause))
        // A provider that answers "not yet" (503 while it prepares its list) is starting: the first
        // start's lobby waits for it. Any other failure will not mend soon: the lobby stops waiting
        // for it (its fiber keeps asking).
        const notYet = problem?.answered === true && /^answered 5/.test(problem.reason)
        const starting = notYet && !digests.has(integration.code) && Date.now() - startedAt < QUIET_START_MS
        const log = starting ? Effect.logDebug : Effect.logWarning
        return log(
          `games: ${integration.code}'s games list not taken (last stored list kept): ${reason}`,
        ).pipe(
          Effect.andThen(starting ? Effect.void : release(integration.code)),
          Effect.as({ integration: integration.code, outcome: "failed", reason, starting } as const),
        )
      }),
    )

  // One fiber per integration for the server's lifetime: fetch, then again after the refresh
  // period, or sooner (with backoff) after a failure.
  const refreshEvery = Duration.seconds(config.gameCatalogueRefreshSeconds)
  yield* Effect.forEach(
    known,
    (integration, index) =>
      Effect.gen(function* () {
        let failures = 0
        while (true) {
          const done = yield* attempt(integration, index)
          failures = done.outcome === "failed" ? failures + 1 : 0
          const delay = retryDelay(failures)
          yield* Effect.sleep(
            failures === 0
              ? refreshEvery
              : done.starting === true
                ? Duration.min(delay, Duration.millis(STARTING_RETRY_MAX_MS))
                : delay,
          )
        }
      }).pipe(Effect.forkScoped),
    { discard: true },
  )

  const refresh = () =>
    Effect.forEach(known, (integration, index) =>
      Effect.map(attempt(integration, index), ({ starting: _, ...sync }): CatalogueSync => sync),
    )

  const reload = () =>
    Effect.gen(function* () {
      lobby = yield* loadLobby
      top = undefined
    }).pipe(Effect.orDie)

  const topGames = () =>
    Effect.gen(function* () {
      const { byId, all } = yield* current
      const now = Date.now()
      if (top !== undefined && now - top.at < TOP_CACHE_MS) return top.games
      const ids = yield* repo.topGameIds(new Date(now - 7 * DAY_MS))
      const ranked = new Set(ids.filter((id) => byId.has(id)))
      // Most real rounds first, then the catalogue's own order for the rest.
      const games = [
        ...[...ranked].flatMap((id) => {
          const g = byId.get(id)
          return g === undefined ? [] : [toGame(g)]
        }),
        ...all.filter((g) => !ranked.has(g.id)),
      ]
      top = { at: now, games }
      return games
    }).pipe(Effect.orDie)

  const gamesAndCategories = (raw: string) =>
    Effect.gen(function* () {
      const { rows, all, categories } = yield* current
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
    Effect.all([repo.jackpotPools(), current]).pipe(
      Effect.map(([pools, { rows }]) =>
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
    Effect.all([repo.favoriteIds(userId), current]).pipe(
      Effect.map(([ids, { byId }]) =>
        ids.flatMap((id) => {
          const g = byId.get(id)
          return g === undefined ? [] : [toFavorite(g)]
        }),
      ),
      Effect.orDie,
    )

  const addFavorite = (userId: string, body: FavoriteGame) =>
    Effect.gen(function* () {
      const g = (yield* current).byId.get(body.id)
      if (g === undefined) return yield* new GameNotFound({ message: GameMessages.notFound, id: body.id })
      if (g.launchId !== body.launchId || g.brand !== body.provider)
        return yield* new GameNotFound({ message: GameMessages.mismatch, id: body.id })
      yield* repo.addFavorite(userId, g.id).pipe(Effect.orDie)
      return yield* favorites(userId)
    })

  const removeFavorite = (userId: string, id: string) =>
    Effect.gen(function* () {
      if ((yield* current).byId.has(id)) yield* repo.removeFavorite(userId, id).pipe(Effect.orDie)
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
      const game = (yield* current).byId.get(payload.id)
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
      // The player's jurisdiction is the profile's country; a visitor's (demo) is where they are.
      const country =
        (context.player === undefined
          ? null
          : yield* repo.profileCountry(context.player.userId).pipe(Effect.orDie)) ?? context.ipCountry
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
        play: playRulesFor(config.playRules, country),
      })
      if (answer._tag === "unknown-game")
        return yield* new GameNotFound({ message: GameMessages.unknownAtProvider, id: payload.id })
      if (answer._tag === "unavailable") return yield* unavailable
      return { url: answer.url, demo: payload.demo, currency }
    })

  const pick = (f: (g: GameRow) => boolean) => Effect.map(current, ({ rows }) => rows.filter(f).map(toGame))

  return {
    catalogue: () => Effect.map(current, ({ rows }) => rows),
    byId: (id) => Effect.map(current, ({ byId }) => byId.get(id)),
    reload,
    refresh,
    gamesAndCategories,
    topGames,
    mainGames: () => Effect.map(current, ({ all }) => all),
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
