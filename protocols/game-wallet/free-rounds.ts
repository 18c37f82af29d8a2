/**
 * Free rounds (casino → provider, docs/game-wallet-protocol.md, "Free rounds"), as aggregators grant
 * them: the casino grants a player N rounds of one game at one bet; the provider plays them with no
 * bet call and reports each round's win to the seamless wallet with the grant's id
 * (`WinCall.freeRoundGrantId`, wallet.ts). The casino decides where free-round winnings go.
 *
 * `POST {freeRoundsUrl}` (default: the launch URL's sibling `freerounds`) signed with the casinoKey,
 * body `FreeRoundsGrant` → 200 `FreeRoundsAnswer`; the same grantId again answers the grant as it is
 * now (idempotent); 404 { error: "UNKNOWN_GAME" }; 400 { error: "BAD_REQUEST", message }.
 * `POST {freeRoundsUrl}/cancel` body `FreeRoundsCancel` → 200 `FreeRoundsAnswer` (status
 * "cancelled", roundsLeft 0; rounds already played stay played) | 404 { error: "UNKNOWN_GRANT" }.
 */
import { Schema } from "effect"

const Uuid = Schema.String.check(
  Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
)
const Id = Schema.String.check(
  Schema.isPattern(/^[\x21-\x7e]{1,100}$/, { message: "1 to 100 printable ASCII characters" }),
)
const PositiveMinor = Schema.String.check(
  Schema.isPattern(/^[1-9][0-9]{0,29}$/, { message: "positive minor units" }),
)
const RequestId = Schema.String.check(Schema.isPattern(/^[0-9a-f]{16,64}$/))

export const FreeRoundsGrant = Schema.Struct({
  /** Random hex per request: no two requests carry the same signed bytes. */
  requestId: RequestId,
  /** The casino's id of the grant: the provider keeps it and sends it with every free-round win. */
  grantId: Uuid,
  playerId: Uuid,
  currency: Schema.String.check(Schema.isPattern(/^[A-Z0-9]{2,10}$/)),
  /** The game's launchId (from the games list). */
  gameId: Id,
  rounds: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 })),
  /** The bet of every round, minor units of `currency`. */
  bet: PositiveMinor,
  /** ISO 8601: rounds not played by then are void. */
  expiresAt: Schema.String.check(Schema.isMaxLength(40)),
})
export type FreeRoundsGrant = typeof FreeRoundsGrant.Type

export const FreeRoundsCancel = Schema.Struct({ requestId: RequestId, grantId: Uuid })
export type FreeRoundsCancel = typeof FreeRoundsCancel.Type

export const freeRoundStatuses = ["active", "finished", "cancelled", "expired"] as const

export const FreeRoundsAnswer = Schema.Struct({
  grantId: Uuid,
  status: Schema.Literals(freeRoundStatuses),
  roundsLeft: Schema.Int,
})
export type FreeRoundsAnswer = typeof FreeRoundsAnswer.Type

export const decodeFreeRoundsGrant = Schema.decodeUnknownExit(Schema.fromJsonString(FreeRoundsGrant))
export const decodeFreeRoundsCancel = Schema.decodeUnknownExit(Schema.fromJsonString(FreeRoundsCancel))
export const decodeFreeRoundsAnswer = Schema.decodeUnknownOption(Schema.fromJsonString(FreeRoundsAnswer))

/** The free-rounds URL of an integration whose launch URL is `launchUrl` (its sibling `freerounds`). */
export const defaultFreeRoundsUrl = (launchUrl: string): string => new URL("freerounds", launchUrl).toString()
