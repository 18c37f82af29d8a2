/**
 * `startChains(config)`: the sandbox chains on their own port, alone (no database: each chain keeps
 * its own state file under `config.dataDir`). What comes back is the running service and the handle
 * a test or the composition root drives the chains with in-process: mine, reorg, pay, read.
 */
import { Effect } from "effect"
import { type RunningService, serveRoutes, startService } from "../../lib/serve.ts"
import type { UtxoNetwork } from "../../protocols/chains/networks.ts"
import type { CryptoCurrency, Network } from "../../services/crypto-service.ts"
import { Chains, chainsLayer, type Tip } from "./Chains.ts"
import type { ChainsConfig } from "./config.ts"
import type { EvmSandboxShape } from "./evm/EvmChain.ts"
import { chainsRoutes } from "./http.ts"
import type { SandboxChain } from "./utxo/chain.ts"
import { sandboxChainPath } from "./utxo/esplora.ts"

export interface ChainsHandle {
  /** The chains' HTTP server (loopback). */
  readonly url: string
  readonly evm: EvmSandboxShape
  /** The EVM chain's JSON-RPC (anvil on 127.0.0.1). */
  readonly rpcUrl: string
  /** A UTXO chain, to mine, reorg, send and read in-process. */
  readonly utxo: (network: UtxoNetwork) => SandboxChain
  /** A UTXO chain's Esplora API root on this server. */
  readonly esploraUrl: (network: UtxoNetwork) => string
  /** Mines `blocks` (default 1) on one chain or on every chain; answers the new tips. */
  readonly mine: (network?: Network, blocks?: number) => Promise<ReadonlyArray<Tip>>
  /** The faucet, in-process: pays and answers the transaction hash. */
  readonly faucet: (currency: CryptoCurrency, to: string, amount: bigint) => Promise<string>
}

export interface RunningChains extends RunningService<Chains>, ChainsHandle {}

export const startChains = async (config: ChainsConfig): Promise<RunningChains> => {
  const listen = { port: config.port, host: config.host, logLevel: config.logLevel }
  const running = await startService(listen, serveRoutes(listen, chainsRoutes, chainsLayer(config)))
  const chains = await running.run(Effect.service(Chains))
  return {
    ...running,
    evm: chains.evm,
    rpcUrl: chains.evm.rpcUrl,
    utxo: chains.utxo,
    esploraUrl: (network) => `${running.url}${sandboxChainPath(network)}`,
    mine: (network, blocks = 1) => Effect.runPromise(chains.mine(network, blocks)),
    faucet: (currency, to, amount) => Effect.runPromise(chains.faucet(currency, to, amount)),
  }
}
