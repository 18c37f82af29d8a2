/**
 * `npm run provider -- chains`: the sandbox chains alone, from their CHAINS_* variables (config.ts).
 * Prints where everything is; SIGINT / SIGTERM stop the chains (anvil saves its state first).
 */
import { loadChainsConfig } from "./config.ts"
import { startChains } from "./server.ts"

const config = (() => {
  try {
    return loadChainsConfig(process.env)
  } catch (error) {
    console.error(`chains: configuration error: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(2)
  }
})()

const chains = await startChains(config).catch((error: unknown) => {
  console.error(`chains: failed to start: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
console.log(
  `chains: listening on ${chains.url} (public URL ${config.port === 0 ? chains.url : config.publicUrl}, state in ${config.dataDir})`,
)
console.log(
  `chains: EVM JSON-RPC ${chains.rpcUrl} (chain id ${chains.evm.chainId}, USDT ${chains.evm.usdtContract})`,
)
for (const network of ["bitcoin", "litecoin", "dogecoin"] as const)
  console.log(`chains: ${network} Esplora ${chains.esploraUrl(network)}`)
console.log(`chains: faucet POST ${chains.url}/faucet, blocks POST ${chains.url}/mine`)

let stopping = false
const stop = (signal: NodeJS.Signals) => {
  if (stopping) process.exit(1)
  stopping = true
  console.log(`chains: ${signal} received, stopping`)
  chains.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error("chains: error while stopping", error)
      process.exit(1)
    },
  )
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
