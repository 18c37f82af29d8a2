/**
 * The subset of the Esplora REST API (Blockstream's block explorer API, also served by electrs and
 * mempool.space) that the casino's UTXO adapter reads and the sandbox chains serve
 * (docs/crypto.md "Sandbox chains"). Paths are relative to the explorer's API root, e.g.
 * `https://blockstream.info/api`:
 *
 *   GET  /blocks/tip/height          the tip's height, text
 *   GET  /blocks/tip/hash            the tip's hash, text
 *   GET  /block-height/:height       the hash of the block at that height, text (404 above the tip)
 *   GET  /block/:hash                EsploraBlock
 *   GET  /block/:hash/txids          the block's txids
 *   GET  /block/:hash/txs/:start     EsploraTx[], 25 per page (`start` a multiple of 25)
 *   GET  /tx/:txid                   EsploraTx
 *   GET  /tx/:txid/hex               the raw transaction, hex text
 *   GET  /address/:address/utxo      EsploraUtxo[]
 *   POST /tx                         broadcast a raw transaction (hex body); answers the txid, or 400
 */

/** Transactions per page of `/block/:hash/txs/:start`. */
export const ESPLORA_PAGE = 25

export interface EsploraVin {
  readonly txid: string
  readonly vout: number
  readonly is_coinbase: boolean
}

export interface EsploraVout {
  readonly scriptpubkey: string
  /** Absent for an output that pays no address (OP_RETURN…). */
  readonly scriptpubkey_address?: string | undefined
  /** Minor units (satoshi, litoshi, koinu); read with `parseEsploraTxs` to keep large values exact. */
  readonly value: bigint | number
}

export type EsploraStatus =
  | { readonly confirmed: false }
  | {
      readonly confirmed: true
      readonly block_height: number
      readonly block_hash: string
      readonly block_time: number
    }

export interface EsploraTx {
  readonly txid: string
  readonly vin: ReadonlyArray<EsploraVin>
  readonly vout: ReadonlyArray<EsploraVout>
  readonly status: EsploraStatus
}

export interface EsploraBlock {
  readonly id: string
  readonly height: number
  readonly previousblockhash: string
  readonly timestamp: number
  readonly tx_count: number
}

export interface EsploraUtxo {
  readonly txid: string
  readonly vout: number
  readonly value: number
  readonly status: { readonly confirmed: boolean }
}

/**
 * Esplora prints output values as bare JSON integers in minor units. Above 2^53 (≈ 90 million DOGE
 * in koinu: Dogecoin's supply is far beyond it) a plain `JSON.parse` rounds them, so every `value`
 * is read from its source text as a bigint (the reviver's `context.source`, Node 22+): a whale's
 * deposit is read exactly, never rounded nor skipped.
 */
export const parseEsploraTxs = (text: string): ReadonlyArray<EsploraTx> =>
  JSON.parse(text, (key, value: unknown, context?: { readonly source?: string }) =>
    key === "value" && typeof value === "number" && /^\d+$/.test(context?.source ?? "")
      ? BigInt(context?.source ?? "0")
      : value,
  ) as ReadonlyArray<EsploraTx>
