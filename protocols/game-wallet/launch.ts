/**
 * Launch (casino → provider, docs/game-wallet-protocol.md, "Launch"): `POST {launchUrl}` signed with
 * the casinoKey; the answer is `200 { url }` (the game page the casino frames), 404 UNKNOWN_GAME,
 * 400 BAD_REQUEST or 503.
 */
import { Schema } from "effect"

const Nullable = (max: number) => Schema.NullOr(Schema.String.check(Schema.isMaxLength(max)))

/**
 * What the operator allows in the player's jurisdiction (beyond the spec): autoplay and turbo
 * (quick spin) on or off, and the least time from one round's start to the next one's. A provider
 * shows no control the rules forbid and refuses a round that comes sooner (429 TOO_FAST). Absent:
 * the provider's defaults (everything allowed, no minimum).
 */
export const PlayRules = Schema.Struct({
  autoplay: Schema.Boolean,
  turbo: Schema.Boolean,
  minRoundMs: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 60_000 })),
})
export type PlayRules = typeof PlayRules.Type

/**
 * The launch body. The casino sends every field (the nullable ones as null); a provider reads a
 * missing nullable field as null, and takes `lang`/`platform` as hints (unknown values fall back).
 * Demo: sessionToken and playerId null. Real: both set.
 */
export const LaunchRequest = Schema.Struct({
  sessionToken: Schema.optional(Nullable(200)),
  playerId: Schema.optional(Nullable(100)),
  nickname: Schema.optional(Nullable(100)),
  currency: Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/, { message: "3 capital letters" })),
  /** The game's launchId (from the games list). */
  gameId: Schema.String.check(Schema.isMaxLength(100)),
  demo: Schema.Boolean,
  lang: Schema.optional(Schema.String),
  /** "desktop" or "mobile". */
  platform: Schema.optional(Schema.String),
  /** The casino's lobby; the provider's page links the casino's verifier next to it. */
  lobbyUrl: Schema.optional(Nullable(2_000)),
  /** The player's jurisdiction's rules (PlayRules); absent: the provider's defaults. */
  play: Schema.optional(PlayRules),
  /** Random hex per request: no two requests carry the same signed bytes. */
  requestId: Schema.optional(Schema.String),
})
export type LaunchRequest = typeof LaunchRequest.Type

export const decodeLaunchRequest = Schema.decodeUnknownExit(Schema.fromJsonString(LaunchRequest))

/** The launch answer: where the casino's page frames the game (absolute http(s), or a path). */
export const LaunchAnswer = Schema.Struct({
  url: Schema.String.check(Schema.isPattern(/^(https?:\/\/|\/)\S+$/)),
})
export type LaunchAnswer = typeof LaunchAnswer.Type

export const decodeLaunchAnswer = Schema.decodeUnknownOption(Schema.fromJsonString(LaunchAnswer))
