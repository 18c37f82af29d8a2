/**
 * The seamless wallet (provider → casino, docs/game-wallet-protocol.md, "Seamless wallet"):
 * `POST {walletUrl}/{op}`, op ∈ balance | bet | win | rollback, a JSON body signed with the
 * walletSecret. Amounts are integer minor units of `currency` as decimal strings. Every op is
 * idempotent by (provider, transactionId); the answers are below, refusals `{ error, … }` (errors.ts).
 */
import { Schema } from "effect"

export const walletOps = ["balance", "bet", "win", "rollback"] as const
export type WalletOp = (typeof walletOps)[number]

export const isWalletOp = (op: string): op is WalletOp => (walletOps as ReadonlyArray<string>).includes(op)

/** The casino's wallet path of an integration's op: `{casino}/api/games/wallet/{code}/{op}`. */
export const WALLET_PATH = "/api/games/wallet/:provider/:op"

const Id = Schema.String.check(
  Schema.isPattern(/^[\x21-\x7e]{1,100}$/, { message: "1 to 100 printable ASCII characters" }),
)
const Uuid = Schema.String.check(
  Schema.isPattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
)
export const Minor = Schema.String.check(
  Schema.isPattern(/^(0|[1-9][0-9]{0,29})$/, { message: "minor units" }),
)
const Currency = Schema.String.check(Schema.isPattern(/^[A-Z0-9]{2,10}$/))
/** The casino's launch token (sent at launch, back on every call). */
const Token = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{16,100}$/))

export const BalanceCall = Schema.Struct({ sessionToken: Token, playerId: Uuid, currency: Currency })
export type BalanceCall = typeof BalanceCall.Type

export const BetCall = Schema.Struct({
  sessionToken: Token,
  playerId: Uuid,
  currency: Currency,
  transactionId: Id,
  roundId: Id,
  /** The game's launchId. */
  gameId: Id,
  amount: Minor,
  /** On jackpot games: the part of the bet that feeds the pool (≤ amount). */
  jackpotContribution: Schema.optional(Minor),
})
export type BetCall = typeof BetCall.Type

export const WinCall = Schema.Struct({
  /** Never required: a win is paid after the session expired. */
  sessionToken: Schema.optional(Schema.NullOr(Schema.String)),
  playerId: Uuid,
  currency: Currency,
  transactionId: Id,
  roundId: Id,
  gameId: Id,
  amount: Minor,
  roundClosed: Schema.Boolean,
  /** Present: this round won that jackpot (the provider's id). */
  jackpotId: Schema.optional(Schema.NullOr(Id)),
  /**
   * Present: a free round of that grant (free-rounds.ts). No bet call precedes it: this win opens and
   * closes the round (`roundClosed` true), and the casino counts it against the grant.
   */
  freeRoundGrantId: Schema.optional(Uuid),
})
export type WinCall = typeof WinCall.Type

export const RollbackCall = Schema.Struct({
  sessionToken: Schema.optional(Schema.NullOr(Schema.String)),
  playerId: Uuid,
  currency: Currency,
  transactionId: Id,
  roundId: Id,
  /** The bet to refund. */
  refTransactionId: Id,
})
export type RollbackCall = typeof RollbackCall.Type

/** The body of each op, decoded from the raw text that was signed. */
export const decodeWalletCall = {
  balance: Schema.decodeUnknownExit(Schema.fromJsonString(BalanceCall)),
  bet: Schema.decodeUnknownExit(Schema.fromJsonString(BetCall)),
  win: Schema.decodeUnknownExit(Schema.fromJsonString(WinCall)),
  rollback: Schema.decodeUnknownExit(Schema.fromJsonString(RollbackCall)),
} as const

/** 200 to balance. */
export const BalanceAnswer = Schema.Struct({ balance: Minor, currency: Currency })
export type BalanceAnswer = typeof BalanceAnswer.Type

/** 200 to bet, win and rollback (the first answer again for a retried transactionId). */
export const SettledAnswer = Schema.Struct({
  balance: Minor,
  currency: Currency,
  transactionId: Id,
  /** A win naming a jackpot: what the pool paid (included in the balance). */
  jackpotAmount: Schema.optional(Minor),
})
export type SettledAnswer = typeof SettledAnswer.Type

/** A refusal: its code (errors.ts) and, by code, `balance` (INSUFFICIENT_FUNDS), `min`/`max` (BET_LIMIT). */
export const WalletRefusal = Schema.Struct({
  error: Schema.String,
  message: Schema.optional(Schema.String),
  balance: Schema.optional(Minor),
  min: Schema.optional(Minor),
  max: Schema.optional(Minor),
})
export type WalletRefusal = typeof WalletRefusal.Type
