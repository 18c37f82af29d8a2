/**
 * Round details (casino → provider, docs/game-wallet-protocol.md, "Round details"): what the casino's
 * verifier needs to recompute one round — the game, its kind and options, the seeds and the nonce.
 *
 * `POST {launch URL's sibling rounds/details}` signed with the casinoKey, body `RoundDetailsRequest`
 * → 200 `RoundDetails`, the answer signed in its own X-Signature with the walletSecret over the exact
 * response body (as the games list); 404 { error: "UNKNOWN_ROUND" } for a round that is not this
 * player's real-money round; 400 BAD_REQUEST. The server seed stays null until the player rotated it
 * (revealing it earlier would let anyone predict the seed's next rounds).
 */
import { Schema } from "effect"
import { gameKinds } from "./games-list.ts"

const Id = Schema.String.check(
  Schema.isPattern(/^[\x21-\x7e]{1,100}$/, { message: "1 to 100 printable ASCII characters" }),
)
const Hex64 = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/, { message: "64 hex digits" }))

export const RoundDetailsRequest = Schema.Struct({
  /** Random hex per request: no two requests carry the same signed bytes. */
  requestId: Schema.String.check(Schema.isPattern(/^[0-9a-f]{16,64}$/)),
  /** The `roundId` the provider sent in the round's bet. */
  roundId: Id,
  /** The player the casino launched the round's session for: another player's round is unknown. */
  playerId: Id,
})
export type RoundDetailsRequest = typeof RoundDetailsRequest.Type

export const decodeRoundDetailsRequest = Schema.decodeUnknownExit(Schema.fromJsonString(RoundDetailsRequest))

export const RoundDetails = Schema.Struct({
  roundId: Id,
  /** The provider's game id (its catalogue's `id`, which the verifier's maths is keyed by). */
  gameId: Schema.String.check(Schema.isPattern(/^[a-z0-9][a-z0-9-]{0,63}$/)),
  kind: Schema.Literals(gameKinds),
  /** The bet options as the round was played with them. */
  options: Schema.Unknown,
  clientSeed: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(64)),
  nonce: Schema.Number.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)),
  /** sha256 hex of the server seed, committed before the round. */
  serverSeedHash: Hex64,
  /** The server seed once the player rotated it, else null. */
  serverSeed: Schema.NullOr(
    Schema.String.check(Schema.isPattern(/^[\x21-\x7e]{1,200}$/, { message: "printable ASCII" })),
  ),
})
export type RoundDetails = typeof RoundDetails.Type

export const decodeRoundDetails = Schema.decodeUnknownExit(Schema.fromJsonString(RoundDetails))

/** Where a provider answers round details: the sibling `rounds/details` of its launch URL. */
export const roundDetailsUrlFor = (launchUrl: string): string =>
  new URL("rounds/details", launchUrl).toString()

/** A round-details answer larger than this is not one. */
export const ROUND_DETAILS_MAX_CHARS = 100_000
