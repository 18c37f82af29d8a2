/**
 * The error codes of the seamless-wallet protocol (docs/game-wallet-protocol.md): every refusal is a
 * JSON body `{ "error": <code>, … }` with a 4xx status (5xx: no answer, the caller retries).
 */
export const GameWalletErrors = {
  /** 401, both directions: the X-Signature is missing, malformed, stale or wrong. */
  invalidSignature: "INVALID_SIGNATURE",
  /** 401, both directions: these exact signed bytes were taken before. */
  replayedSignature: "REPLAYED_SIGNATURE",
  /** 400: the body does not follow the protocol. */
  badRequest: "BAD_REQUEST",
  /** 404: launch of a game the provider does not offer; a bet on a game the casino does not list. */
  unknownGame: "UNKNOWN_GAME",
  /** 503, games list: the provider is starting (the casino retries). */
  notReady: "NOT_READY",
  // The wallet's answers (casino → provider).
  insufficientFunds: "INSUFFICIENT_FUNDS",
  sessionExpired: "SESSION_EXPIRED",
  playerBlocked: "PLAYER_BLOCKED",
  betLimit: "BET_LIMIT",
  /** 422, bet: above the maximum bet while the player's bonus is active ({ max }). */
  bonusMaxBet: "BONUS_MAX_BET",
  /** 404, win: the free-round grant named is not this player's, currency's and game's. */
  unknownGrant: "UNKNOWN_GRANT",
  /** 409, win: every round of the free-round grant named was played already. */
  freeRoundsUsedUp: "FREE_ROUNDS_USED_UP",
  duplicateMismatch: "DUPLICATE_MISMATCH",
  rolledBack: "ROLLED_BACK",
  unknownPlayer: "UNKNOWN_PLAYER",
  unknownRound: "UNKNOWN_ROUND",
  unknownProvider: "UNKNOWN_PROVIDER",
  unknownOperation: "UNKNOWN_OPERATION",
  /** 500: the casino failed; the provider treats it as no answer. */
  internal: "INTERNAL",
} as const

export type GameWalletError = (typeof GameWalletErrors)[keyof typeof GameWalletErrors]
