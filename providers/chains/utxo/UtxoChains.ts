/**
 * The sandbox's UTXO chains (docs/crypto.md "Sandbox chains"): one in-process chain per UTXO network
 * (BTC, LTC, DOGE), each kept in `<dataDir>/<network>.json` (chain.ts) so a restarted sandbox
 * continues the same chains, and a faucet paying from the coins each chain's faucet key mines.
 */
import { join } from "node:path"
import { Effect } from "effect"
import { isUtxoNetwork, type UtxoNetwork, utxoNetworks } from "../../../protocols/chains/networks.ts"
import { networkOf } from "../../../services/crypto-rules.ts"
import type { CryptoCurrency } from "../../../services/crypto-service.ts"
import { ChainRefused } from "../errors.ts"
import { SandboxChain, TxRefused } from "./chain.ts"

export interface UtxoChainsShape {
  readonly chain: (network: UtxoNetwork) => SandboxChain
  /** Pays from the chain's faucet; answers the txid (in the mempool until the next block). */
  readonly send: (currency: CryptoCurrency, to: string, amount: bigint) => Effect.Effect<string, ChainRefused>
}

/** The state file of one chain: `<dataDir>/<network>.json`. */
export const utxoStateFile = (dataDir: string, network: UtxoNetwork): string =>
  join(dataDir, `${network}.json`)

/**
 * The three chains, restored from `dataDir` when their files are there (a state file that does not
 * verify throws with its reason: never a silent new chain), else new ones; memory only without a dir.
 */
export const makeUtxoChains = (dataDir: string | undefined): UtxoChainsShape => {
  const chains = new Map(
    utxoNetworks.map(
      (n) =>
        [
          n,
          new SandboxChain(n, dataDir === undefined ? {} : { stateFile: utxoStateFile(dataDir, n) }),
        ] as const,
    ),
  )
  const chain = (network: UtxoNetwork) => {
    const c = chains.get(network)
    if (c === undefined) throw new Error(`no sandbox chain ${network}`)
    return c
  }
  return {
    chain,
    send: (currency, to, amount) => {
      const network = networkOf[currency]
      if (!isUtxoNetwork(network))
        return Effect.fail(new ChainRefused({ message: `${currency} is not on a UTXO chain` }))
      return Effect.try({
        try: () => chain(network).send(to, amount),
        catch: (e) =>
          new ChainRefused({
            message:
              e instanceof TxRefused
                ? e.message
                : `${to} is not a ${network} address (${e instanceof Error ? e.message : String(e)})`,
          }),
      })
    },
  }
}
