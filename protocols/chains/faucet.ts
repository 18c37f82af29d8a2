/**
 * The sandbox chains' control API (docs/chains-evm.md, docs/crypto.md "Sandbox chains"): what a
 * public testnet offers as a faucet, plus mining on demand, over plain HTTP JSON on the chains'
 * port. No key: like a testnet faucet, it gives away test coins of a chain that exists only here.
 *
 *   POST /faucet  FaucetRequest  → 200 FaucetResponse
 *                                  400 ChainsError (not this shape), 422 (refused: not an address of
 *                                  that chain, the faucet is empty), 503 (the chain's node is down)
 *   POST /mine    MineRequest    → 200 MineResponse (the new tips), 400 / 503 as above
 *
 * The faucet pays from the chain's own funds: ETH from anvil's dev account #0, USDT minted by that
 * account (the sandbox token's owner), BTC/LTC/DOGE from the coins each UTXO chain's faucet key mines.
 * The payment waits in the mempool for the next block (timer or `POST /mine`).
 */
import { Schema } from "effect"
import { cryptoCurrencies, networks } from "../../services/crypto-service.ts"

export const FAUCET_PATH = "/faucet"
export const MINE_PATH = "/mine"

/** A positive integer in the currency's minor units (wei, satoshi, USDT's 6 decimals), as text. */
export const MinorUnits = Schema.String.check(Schema.isPattern(/^[1-9]\d{0,77}$/))

export const FaucetRequest = Schema.Struct({
  /** The casino's currency list codes: BTC, LTC, DOG (Dogecoin), ETH, USDT (the ERC-20 token). */
  currency: Schema.Literals(cryptoCurrencies),
  /** The receiving address on that currency's chain. */
  to: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(128)),
  amount: MinorUnits,
})
export type FaucetRequest = typeof FaucetRequest.Type

export const FaucetResponse = Schema.Struct({
  /** The transaction's hash (0x… on the EVM chain, the txid on a UTXO chain). */
  txHash: Schema.String,
})
export type FaucetResponse = typeof FaucetResponse.Type

export const MineRequest = Schema.Struct({
  /** One chain; absent = every chain. */
  network: Schema.optionalKey(Schema.Literals(networks)),
  /** Blocks to mine (default 1). */
  blocks: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))),
})
export type MineRequest = typeof MineRequest.Type

export const MineResponse = Schema.Struct({
  tips: Schema.Array(Schema.Struct({ network: Schema.Literals(networks), height: Schema.Int })),
})
export type MineResponse = typeof MineResponse.Type

/** Every refusal's body. */
export const ChainsError = Schema.Struct({ error: Schema.String })
export type ChainsError = typeof ChainsError.Type
