/**
 * The casino's Ethereum node, from configuration (docs/chains-evm.md): EVM_RPC_URL (a node or a
 * provider's JSON-RPC), EVM_CHAIN_ID and EVM_USDT_CONTRACT; without EVM_RPC_URL there is no EVM
 * chain (`chain` undefined: ETH/USDT deposits not watched, payouts refused). `CryptoPayouts` is the
 * hot wallet when CRYPTO_HOT_WALLET_KEY_ETH and a chain are both there.
 */
import { Context, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { isHex } from "viem"
import { AppConfig } from "../../config.ts"
import { CryptoPayouts, type CryptoPayoutsShape, PayoutRejected } from "../payouts.ts"
import { makeHotWallet } from "./HotWallet.ts"

export interface EvmChainConfig {
  readonly rpcUrl: string
  readonly chainId: number
  readonly usdtContract: string
}

export interface EvmNodeShape {
  /** The node the adapter and the hot wallet use, or undefined when none is configured. */
  readonly chain: EvmChainConfig | undefined
}

export class EvmNode extends Context.Service<EvmNode, EvmNodeShape>()("casino/EvmNode") {}

/** Payouts when no hot wallet is configured: refused with the reason, never faked. */
const noPayouts: CryptoPayoutsShape = {
  supports: () => false,
  send: (request) =>
    Effect.fail(
      new PayoutRejected({ currency: request.currency, message: "no EVM hot wallet is configured" }),
    ),
  confirmations: () => Effect.succeed(null),
}

/** The configured hot wallet key (config.ts checked its form: 0x + 64 hex digits). */
const hotWalletKey = (key: string | undefined) => (key !== undefined && isHex(key) ? key : undefined)

/** EvmNode and CryptoPayouts for the server. */
export const evmLayer: Layer.Layer<EvmNode | CryptoPayouts, never, AppConfig | SqlClient.SqlClient> =
  Layer.effectContext(
    Effect.gen(function* () {
      const config = yield* AppConfig
      const chain: EvmChainConfig | undefined =
        config.evmRpcUrl === undefined
          ? undefined
          : { rpcUrl: config.evmRpcUrl, chainId: config.evmChainId, usdtContract: config.evmUsdtContract }
      const hotKey = hotWalletKey(config.cryptoHotWalletKeyEth)
      const payouts =
        chain === undefined || hotKey === undefined
          ? noPayouts
          : yield* makeHotWallet({ ...chain, privateKey: hotKey })
      return Context.make(EvmNode, { chain }).pipe(Context.add(CryptoPayouts, payouts))
    }),
  )
