/**
 * Money out: the schemas of the withdrawable, withdraw and withdrawals calls. The group
 * is `api/cashout-service.ts`; the rules both sides apply (the cashout click's four checks in
 * order, amount parsing) are `cashout-rules.ts`. Amounts are integer minor units as strings.
 *
 * The spec does not show the fiat form's withdraw path: the Bank Account tab posts
 * `POST /profile/bank/withdraw` (amount, currency, email), the payment-wallet tab posts the spec's
 * `POST /profile/skrill/withdraw` (amount, currency) to the player's own account e-mail.
 */
import { Schema } from "effect"
import { Amount, CurrencyCode, PositiveAmount } from "./wallet-service.ts"

/** GET /profile/withdrawable?currency= (absent: the player's default wallet). */
export const WithdrawableQuery = Schema.Struct({ currency: Schema.optional(CurrencyCode) })
export type WithdrawableQuery = typeof WithdrawableQuery.Type

/** What the player may take out now: cash less funds held by pending withdrawals (and bonus rules). */
export const Withdrawable = Schema.Struct({ currency: CurrencyCode, withdrawable: Amount })
export type Withdrawable = typeof Withdrawable.Type

const Email = Schema.String.check(
  Schema.isMaxLength(254),
  Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: "an e-mail address" }),
)

/**
 * Set by the player who confirmed that cashing out forfeits the active bonus in this currency
 * (docs/bonuses.md). Without it such a request is refused with `BonusForfeitRequired`.
 */
const forfeitBonus = Schema.optional(Schema.Boolean)

/** POST /profile/crypto/withdraw: the spec's payload (and the bonus forfeit's consent). */
export const CryptoWithdrawPayload = Schema.Struct({
  amount: PositiveAmount,
  currency: CurrencyCode,
  address: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(128)),
  forfeitBonus,
})
export type CryptoWithdrawPayload = typeof CryptoWithdrawPayload.Type

/** POST /profile/skrill/withdraw: the spec's payload; paid to the player's account e-mail. */
export const SkrillWithdrawPayload = Schema.Struct({
  amount: PositiveAmount,
  currency: CurrencyCode,
  forfeitBonus,
})
export type SkrillWithdrawPayload = typeof SkrillWithdrawPayload.Type

/** POST /profile/bank/withdraw: the Bank Account tab (its only input is an e-mail). */
export const BankWithdrawPayload = Schema.Struct({
  amount: PositiveAmount,
  currency: CurrencyCode,
  email: Email,
  forfeitBonus,
})
export type BankWithdrawPayload = typeof BankWithdrawPayload.Type

export const withdrawalMethods = ["crypto", "skrill", "bank"] as const
export type WithdrawalMethod = (typeof withdrawalMethods)[number]

/**
 * The lifecycle (docs/withdrawals.md): requested → approved (operator) → sent → paid, or rejected
 * (operator, funds returned) / failed (the payout failed after sending, funds returned).
 */
export const withdrawalStatuses = ["requested", "approved", "sent", "paid", "rejected", "failed"] as const
export type WithdrawalStatus = (typeof withdrawalStatuses)[number]

export const WithdrawalStep = Schema.Struct({
  status: Schema.Literals(withdrawalStatuses),
  /** ISO 8601, UTC. */
  at: Schema.String,
  /** The reason of a rejection or failure, a transaction hash, a provider reference. */
  note: Schema.NullOr(Schema.String),
})
export type WithdrawalStep = typeof WithdrawalStep.Type

export const Withdrawal = Schema.Struct({
  id: Schema.String,
  method: Schema.Literals(withdrawalMethods),
  currency: CurrencyCode,
  amount: Amount,
  /** Payout address (crypto) or e-mail (skrill, bank). */
  destination: Schema.String,
  status: Schema.Literals(withdrawalStatuses),
  /** On-chain transaction of a crypto payout once sent. */
  txHash: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String,
  /** Every status the withdrawal went through, oldest first. */
  timeline: Schema.Array(WithdrawalStep),
})
export type Withdrawal = typeof Withdrawal.Type

/** The answer of every withdraw call is the new `Withdrawal` (status "requested"). */
export type WithdrawResponse = Withdrawal

export const Withdrawals = Schema.Array(Withdrawal)
export type Withdrawals = typeof Withdrawals.Type
