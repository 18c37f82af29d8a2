/**
 * Games: the schemas of the game-aggregator-service calls of spec section 7, and of the
 * profile-service's favorites and bet history. The groups are `api/game-service.ts`. Amounts are
 * integer minor units of their currency as decimal strings (never floats); RTP is an exact decimal.
 */
import { Schema } from "effect"
import { Amount, CurrencyCode, Decimal } from "./wallet-service.ts"

/** A moment, ISO 8601 in UTC. */
const Instant = Schema.String

const Short = (max: number) =>
  Schema.String.check(
    Schema.isMaxLength(max),
    Schema.isPattern(/^[^\p{Cc}\p{Cs}]*$/u, { message: "control characters are not allowed" }),
  )

/** A game id / launch id / slug: lower-case letters, digits and dashes. */
export const GameId = Schema.String.check(
  Schema.isPattern(/^[a-z0-9][a-z0-9-]{0,63}$/, { message: "a game id, e.g. dice-classic" }),
)

export const gameKinds = ["dice", "crash", "mines", "plinko", "roulette", "slot"] as const
export type GameKind = (typeof gameKinds)[number]

export const volatilities = ["low", "medium", "high"] as const

/** One game of the catalogue, as the lobby shows it. */
export const Game = Schema.Struct({
  id: GameId,
  /** What the launch call carries to the provider (the provider's own id of the game). */
  launchId: Schema.String,
  name: Schema.String,
  /** The studio brand that makes it (the bet-history provider filter uses the same codes). */
  provider: Schema.String,
  /** The category (segment) slug it belongs to. */
  category: Schema.String,
  kind: Schema.Literals(gameKinds),
  /** The image to show: the provider's art (a path here or its URL), else the casino's generated tile. */
  imageId: Schema.String,
  image: Schema.String,
  /** The theoretical return to player in percent, exact ("96.12"). */
  rtp: Decimal,
  volatility: Schema.Literals(volatilities),
  /** Whether the game has a demo mode (play money, no session needed). */
  demo: Schema.Boolean,
  /** Whether bets on it feed a progressive jackpot. */
  jackpot: Schema.Boolean,
  isNew: Schema.Boolean,
  featured: Schema.Boolean,
  /** Search words beyond the name (theme, mechanics). */
  tags: Schema.Array(Schema.String),
})
export type Game = typeof Game.Type
export const Games = Schema.Array(Game)
export type Games = typeof Games.Type

/** A segment of the lobby (spec: "segments (categories)"). */
export const Category = Schema.Struct({ slug: Schema.String, name: Schema.String, order: Schema.Int })
export type Category = typeof Category.Type

/** The lobby's catalogue path takes any text; what is not 3 letters becomes EUR (spec section 7). */
export const CatalogueParams = Schema.Struct({ currency: Schema.String })

/** GET /games-and-categories/{currency}: every game and every segment, with bet limits in that currency. */
export const GamesAndCategories = Schema.Struct({
  currency: CurrencyCode,
  games: Games,
  categories: Schema.Array(Category),
  /** Per game id: the smallest and largest bet in `currency`'s minor units. */
  betLimits: Schema.Record(Schema.String, Schema.Struct({ min: Amount, max: Amount })),
})
export type GamesAndCategories = typeof GamesAndCategories.Type

/** GET /jackpots: every progressive pool, live. */
export const Jackpot = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  currency: CurrencyCode,
  /** The pool now, in minor units. */
  amount: Amount,
  /** The games whose bets feed it and that can win it. */
  gameIds: Schema.Array(GameId),
  lastWonAt: Schema.NullOr(Instant),
})
export const Jackpots = Schema.Array(Jackpot)
export type Jackpots = typeof Jackpots.Type

/** GET /currency: the currencies games can be played in. */
export const GameCurrencies = Schema.Array(CurrencyCode)

/** GET /winners/latest and /winners/top: real rounds, the player's name masked ("Ma***a"). */
export const Winner = Schema.Struct({
  player: Schema.String,
  gameId: GameId,
  gameName: Schema.String,
  amount: Amount,
  currency: CurrencyCode,
  /** amount in EUR cents, for ranking across currencies. */
  amountInEur: Amount,
  at: Instant,
})
export const Winners = Schema.Array(Winner)
export type Winners = typeof Winners.Type

/** GET /skin-configuration: how the lobby is laid out. */
export const SkinConfiguration = Schema.Struct({
  productName: Schema.String,
  /** Lobby sections in order. */
  sections: Schema.Array(
    Schema.Literals(["new", "top", "featured", "jackpot", "recommended", "favorites", "all"]),
  ),
  /** Games shown first, and added per "more" (spec: 12). */
  pageSize: Schema.Int,
  /** The primary colour of the theme, CSS hex. */
  accent: Schema.String,
})
export type SkinConfiguration = typeof SkinConfiguration.Type

export const platforms = ["desktop", "mobile"] as const

/** POST /game (spec: id, gameName, demo, lang, launchId, imageId, platform, provider, category). */
export const LaunchPayload = Schema.Struct({
  id: GameId,
  gameName: Short(100),
  demo: Schema.Boolean,
  lang: Short(16),
  launchId: Short(100),
  imageId: Short(200),
  platform: Schema.Literals(platforms),
  provider: Short(64),
  category: Short(64),
  /** The wallet to play from (default: the player's default wallet). */
  currency: Schema.optional(CurrencyCode),
})
export type LaunchPayload = typeof LaunchPayload.Type

/** The URL the game frame opens. */
export const LaunchResponse = Schema.Struct({
  url: Schema.String,
  demo: Schema.Boolean,
  currency: CurrencyCode,
})
export type LaunchResponse = typeof LaunchResponse.Type

// ── profile-service: favorites and bet history ───────────────────────────────────────────────────

/** Spec section 3: favorite game body. */
export const FavoriteGame = Schema.Struct({
  id: GameId,
  launchId: Short(100),
  category: Short(64),
  name: Short(100),
  provider: Short(64),
})
export type FavoriteGame = typeof FavoriteGame.Type
export const FavoriteGames = Schema.Array(FavoriteGame)
export type FavoriteGames = typeof FavoriteGames.Type

export const FavoriteParams = Schema.Struct({ id: Schema.String })

const Day = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/, { message: "a day, yyyy-mm-dd" }))
// The bounds are plain filters, not isGreaterThanOrEqualTo / isBetween: those bring Schema's Order
// machinery (~490 B gzip) into the browser's first download, where every Effect export any chunk
// uses lands (vite.config.ts, the core group). Same 400 for a value out of range.
const PageNumber = Schema.NumberFromString.check(
  Schema.isInt(),
  Schema.makeFilter((n: number) => n >= 0 || "a page number, 0 or more"),
)
const PageSize = Schema.NumberFromString.check(
  Schema.isInt(),
  Schema.makeFilter((n: number) => (n >= 1 && n <= 100) || "a page size between 1 and 100"),
)

/** GET /history/bet?from&to&size&page&provider: days inclusive (UTC), page from 0. */
export const BetHistoryQuery = Schema.Struct({
  from: Schema.optional(Day),
  to: Schema.optional(Day),
  size: Schema.optional(PageSize),
  page: Schema.optional(PageNumber),
  provider: Schema.optional(Short(64)),
})
export type BetHistoryQuery = typeof BetHistoryQuery.Type

/** One round the player played for real money. */
export const BetRecord = Schema.Struct({
  roundId: Schema.String,
  gameId: GameId,
  gameName: Schema.String,
  provider: Schema.String,
  currency: CurrencyCode,
  bet: Amount,
  win: Amount,
  status: Schema.Literals(["open", "settled", "rolled-back"]),
  at: Instant,
  /** The player's n-th round of this game (1 = their first), counted over all their rounds of it. */
  roundNumber: Schema.Int,
})
export type BetRecord = typeof BetRecord.Type

export const BetHistory = Schema.Struct({
  content: Schema.Array(BetRecord),
  page: Schema.Int,
  size: Schema.Int,
  totalElements: Schema.Int,
  totalPages: Schema.Int,
})
export type BetHistory = typeof BetHistory.Type

/** GET /history/bet/provider: the providers the player has rounds with. */
export const BetProviders = Schema.Array(Schema.String)

/** GET /history/bet/fairness?round: `round` is the provider's round id (BetRecord.roundId). */
export const RoundFairnessQuery = Schema.Struct({
  round: Schema.String.check(
    Schema.isPattern(/^[\x21-\x7e]{1,100}$/, { message: "a round id, 1 to 100 printable characters" }),
  ),
})
export type RoundFairnessQuery = typeof RoundFairnessQuery.Type

/**
 * One of the player's rounds as the verifier needs it: the provider's round details (its game id,
 * the kind, the options, the seeds, the nonce; the server seed null until the player rotated it) and
 * what the casino recorded (bet, win).
 */
export const RoundFairness = Schema.Struct({
  roundId: Schema.String,
  /** The provider's game id: the one the verifier's maths is keyed by. */
  gameId: GameId,
  gameName: Schema.String,
  kind: Schema.Literals(gameKinds),
  options: Schema.Unknown,
  clientSeed: Schema.String,
  nonce: Schema.Int,
  /** sha256 hex of the server seed, committed before the round. */
  serverSeedHash: Schema.String,
  serverSeed: Schema.NullOr(Schema.String),
  currency: CurrencyCode,
  bet: Amount,
  win: Amount,
  roundNumber: Schema.Int,
  at: Instant,
})
export type RoundFairness = typeof RoundFairness.Type
