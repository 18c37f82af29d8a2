/**
 * The games list (casino → provider, docs/game-wallet-protocol.md, "Games list"): `POST {gamesUrl}`
 * signed with the casinoKey, body `{ requestId }`; the answer is the provider's titles, signed in its
 * own X-Signature with the walletSecret over the exact response body. 503 NOT_READY while starting.
 */
import { Schema } from "effect"

export const gameKinds = ["dice", "crash", "mines", "plinko", "roulette", "slot"] as const
export type GameKind = (typeof gameKinds)[number]

export const volatilities = ["low", "medium", "high"] as const

/** The request body: a random id, so no two requests carry the same signed bytes. */
export const GamesListRequest = Schema.Struct({ requestId: Schema.String })
export type GamesListRequest = typeof GamesListRequest.Type

const Slug = Schema.String.check(
  Schema.isPattern(/^[a-z0-9][a-z0-9-]{0,63}$/, { message: "lower-case letters, digits and -" }),
)
const Text = (max: number) => Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(max))
const EurCents = Schema.String.check(Schema.isPattern(/^[1-9][0-9]{0,17}$/, { message: "EUR cents" }))

/** One title of a provider's list, as sent. Unknown fields are ignored. */
export const ListedGame = Schema.Struct({
  id: Slug,
  /** What the launch and the wallet calls carry as `gameId`. */
  launchId: Schema.String.check(Schema.isPattern(/^[\x21-\x7e]{1,100}$/)),
  name: Text(100),
  brand: Text(60),
  category: Slug,
  kind: Schema.Literals(gameKinds),
  volatility: Schema.Literals(volatilities),
  /** The exact theoretical RTP with two decimals, rounded down. */
  rtp: Schema.String.check(Schema.isPattern(/^[0-9]{1,3}\.[0-9]{2}$/)),
  tags: Schema.Array(Text(40)).check(Schema.isMaxLength(20)),
  isNew: Schema.Boolean,
  featured: Schema.Boolean,
  demo: Schema.Boolean,
  jackpotId: Schema.NullOr(Slug),
  minBetEur: EurCents,
  maxBetEur: EurCents,
  /** The tile: an absolute http(s) URL. */
  image: Schema.optional(Schema.String.check(Schema.isPattern(/^https?:\/\/\S{1,2000}$/))),
})
export type ListedGame = typeof ListedGame.Type

export const ListedCategory = Schema.Struct({
  slug: Slug,
  name: Text(60),
  order: Schema.Number.check(Schema.isInt()),
})

export const ListedJackpot = Schema.Struct({ id: Slug, name: Text(100) })

export const GamesList = Schema.Struct({
  games: Schema.Array(ListedGame).check(Schema.isMaxLength(5_000)),
  categories: Schema.Array(ListedCategory).check(Schema.isMaxLength(100)),
  jackpots: Schema.Array(ListedJackpot).check(Schema.isMaxLength(100)),
})
export type GamesList = typeof GamesList.Type

export const decodeGamesList = Schema.decodeUnknownExit(Schema.fromJsonString(GamesList))

/** A games list larger than this is not a games list. */
export const GAMES_LIST_MAX_CHARS = 5_000_000
