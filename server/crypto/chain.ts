/**
 * What the chain watcher needs from a chain, one adapter per chain family (docs/crypto.md):
 * EVM (server/crypto/evm/, JSON-RPC: native ETH and ERC-20 `Transfer` logs) and UTXO (Esplora REST:
 * BTC, LTC, DOGE). The watcher owns cursors, confirmations, reorgs and credits; an adapter only reads
 * the chain. Heights and amounts are bigint; addresses are compared in `normalizeAddress` form.
 */
import { type Effect, Schema } from "effect"
import type { CryptoCurrency, Network } from "../../services/crypto-service.ts"

/** The chain could not be read now (node down, timeout, bad answer): the watcher retries later. */
export class ChainUnavailable extends Schema.TaggedError<ChainUnavailable>()("ChainUnavailable", {
  network: Schema.String,
  message: Schema.String,
}) {}

export interface BlockRef {
  readonly height: bigint
  readonly hash: string
}

/** One transfer to a watched address, as the chain shows it in one block. */
export interface ObservedTransfer {
  readonly network: Network
  readonly currency: CryptoCurrency
  readonly txHash: string
  /** ERC-20: the log index; UTXO: the output index (vout); native ETH: null. */
  readonly outputIndex: number | null
  readonly block: BlockRef
  /** The receiving address, normalized (`normalizeAddress`). */
  readonly to: string
  /** In the currency's minor units (wei, satoshi, USDT's 6 decimals). */
  readonly amount: bigint
}

export interface ChainAdapter {
  readonly network: Network
  /** The current tip (latest block). */
  readonly tip: Effect.Effect<BlockRef, ChainUnavailable>
  /** The hash of the canonical block at a height, or null above the tip. */
  readonly blockHash: (height: bigint) => Effect.Effect<string | null, ChainUnavailable>
  /**
   * Every transfer in the canonical blocks `from..to` (inclusive) whose receiver `isWatched` says
   * is ours. The block refs carried by each transfer are the ones the adapter read, so the watcher
   * can tell if a block was replaced between the scan and the credit.
   */
  readonly transfersIn: (
    from: bigint,
    to: bigint,
    isWatched: (normalizedAddress: string) => boolean,
  ) => Effect.Effect<ReadonlyArray<ObservedTransfer>, ChainUnavailable>
}

/** EVM addresses compare lowercased (checksums are display); UTXO addresses as given (bech32 is lowercase). */
export const normalizeAddress = (network: Network, address: string): string =>
  network === "ethereum" ? address.toLowerCase() : address
