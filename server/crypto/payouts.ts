/**
 * Crypto payouts: what the withdrawals module needs from a chain to pay a player out.
 * The EVM implementation (server/crypto/evm/, a hot wallet whose key comes from configuration) signs
 * and broadcasts ETH and USDT transfers; UTXO chains have none here and stay "approved" for a manual
 * payout (docs/withdrawals.md). The service is a Context tag so the server can provide it or not.
 */
import { Context, type Effect, Schema } from "effect"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import type { ChainUnavailable } from "./chain.ts"

/** The chain refused the payout itself (invalid address, hot wallet short of funds or gas). */
export class PayoutRejected extends Schema.TaggedError<PayoutRejected>()("PayoutRejected", {
  currency: Schema.String,
  message: Schema.String,
}) {}

export interface PayoutRequest {
  /** One per withdrawal, e.g. `withdrawal:<id>`: the same key never signs a second transaction. */
  readonly key: string
  readonly currency: CryptoCurrency
  readonly to: string
  /** Minor units of the currency (wei, USDT's 6 decimals). */
  readonly amount: bigint
}

export interface CryptoPayoutsShape {
  readonly supports: (currency: CryptoCurrency) => boolean
  /**
   * Signs (once per key, the signed transaction kept before it is broadcast) and broadcasts the
   * payout; a repeated call with the same key rebroadcasts the same transaction and answers its hash.
   */
  readonly send: (
    request: PayoutRequest,
  ) => Effect.Effect<{ readonly txHash: string }, ChainUnavailable | PayoutRejected>
  /** Confirmations of a sent payout: 0 while in the mempool, null when the chain no longer knows it. */
  readonly confirmations: (
    currency: CryptoCurrency,
    txHash: string,
  ) => Effect.Effect<number | null, ChainUnavailable>
}

export class CryptoPayouts extends Context.Service<CryptoPayouts, CryptoPayoutsShape>()(
  "casino/CryptoPayouts",
) {}
