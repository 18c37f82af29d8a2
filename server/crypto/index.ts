/**
 * Crypto deposits wired for server/app.ts: the services (addresses, the deposits repo, the chain
 * watcher with its adapters). The chains themselves are outside parties reached by configuration.
 */
import { Effect, Layer } from "effect"
import { AppConfig } from "../config.ts"
import { Addresses } from "./Addresses.ts"
import { AddressesRepo } from "./AddressesRepo.ts"
import type { ChainAdapter } from "./chain.ts"
import { CryptoDepositsRepo } from "./DepositsRepo.ts"
import { EvmNode } from "./evm/EvmNode.ts"
import { makeEvmAdapter } from "./evm/index.ts"
import { Watcher } from "./Watcher.ts"

/** Addresses and the deposits repo (needs AppConfig and SqlClient). */
export const CryptoBaseLive = Addresses.layer.pipe(
  Layer.provideMerge(Layer.mergeAll(AddressesRepo.layer, CryptoDepositsRepo.layer)),
)

/**
 * The watcher (needs the money services: Ledger, Wallets, Rates, PlayerEvents) over the configured
 * UTXO chains plus the EVM chain (ETH and USDT) when the server has one (EVM_RPC_URL,
 * server/crypto/evm/EvmNode.ts) and an ethereum xpub to give addresses on it.
 */
export const CryptoWatcherLive = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const { chain } = yield* EvmNode
    const evm: ReadonlyArray<ChainAdapter> =
      chain === undefined || config.crypto.xpubs.ethereum === undefined
        ? []
        : [makeEvmAdapter({ rpcUrl: chain.rpcUrl, usdtContract: chain.usdtContract })]
    return Watcher.layer(evm)
  }),
)
