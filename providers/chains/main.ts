/**
 * `npm run provider -- chains`: the sandbox chains alone, from their CHAINS_* variables (config.ts).
 * Prints where everything is; SIGINT / SIGTERM stop the chains (anvil saves its state first).
 */
import { runMain } from "../../lib/main.ts"
import { loadChainsConfig } from "./config.ts"
import { startChains } from "./server.ts"

runMain({
  name: "chains",
  config: () => loadChainsConfig(process.env),
  start: startChains,
  describe: (config, chains) => [
    `listening on ${chains.url} (public URL ${config.port === 0 ? chains.url : config.publicUrl}, state in ${config.dataDir})`,
    `EVM JSON-RPC ${chains.rpcUrl} (chain id ${chains.evm.chainId}, USDT ${chains.evm.usdtContract})`,
    ...(["bitcoin", "litecoin", "dogecoin"] as const).map(
      (network) => `${network} Esplora ${chains.esploraUrl(network)}`,
    ),
    `faucet POST ${chains.url}/faucet, blocks POST ${chains.url}/mine`,
  ],
})
