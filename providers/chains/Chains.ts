/**
 * The sandbox chains as one service: the EVM chain (anvil, EvmChain.ts) and the UTXO chains
 * (UtxoChains.ts), one faucet paying any of their currencies, mining on demand and, when a block
 * time is set, a block every n seconds on every chain. Started with the sandbox's scope, stopped
 * with it (anvil dumps its state on the way out).
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Context, Effect, Layer, Schedule } from "effect"
import { isUtxoNetwork, type UtxoNetwork, utxoNetworks } from "../../protocols/chains/networks.ts"
import { networkOf } from "../../services/crypto-rules.ts"
import type { CryptoCurrency, Network } from "../../services/crypto-service.ts"
import type { ChainsConfig } from "./config.ts"
import type { ChainDown, ChainRefused } from "./errors.ts"
import { type EvmSandboxShape, fundedBalances, makeEvmSandbox } from "./evm/EvmChain.ts"
import type { SandboxChain } from "./utxo/chain.ts"
import { makeUtxoChains } from "./utxo/UtxoChains.ts"

export interface Tip {
  readonly network: Network
  readonly height: number
}

export interface ChainsShape {
  readonly evm: EvmSandboxShape
  readonly utxo: (network: UtxoNetwork) => SandboxChain
  /** Pays `amount` minor units of `currency` to `to` from the chain's own funds; answers the tx hash. */
  readonly faucet: (
    currency: CryptoCurrency,
    to: string,
    amount: bigint,
  ) => Effect.Effect<string, ChainRefused | ChainDown>
  /** Mines `blocks` blocks on one chain, or on every chain; answers the new tips. */
  readonly mine: (
    network: Network | undefined,
    blocks: number,
  ) => Effect.Effect<ReadonlyArray<Tip>, ChainDown>
}

export class Chains extends Context.Service<Chains, ChainsShape>()("chains/Chains") {}

/** Where the chains keep their state: `<dataDir>/evm/state.json` and `<dataDir>/utxo/<network>.json`. */
export const stateDirs = (dataDir: string) => ({ evm: join(dataDir, "evm"), utxo: join(dataDir, "utxo") })

const make = (config: ChainsConfig) =>
  Effect.gen(function* () {
    const dirs = stateDirs(config.dataDir)
    mkdirSync(dirs.evm, { recursive: true })
    mkdirSync(dirs.utxo, { recursive: true })
    // A state file that does not verify stops the start with its reason (chain.ts), never a silent new chain.
    const utxo = makeUtxoChains(dirs.utxo)
    const evm = yield* makeEvmSandbox({
      blockTimeSeconds: config.blockSeconds,
      port: config.evmPort,
      stateFile: join(dirs.evm, "state.json"),
      fund: config.fund.map((address) => ({ address, ...fundedBalances })),
    })
    yield* Effect.logInfo(`sandbox EVM chain (anvil) at ${evm.rpcUrl}, chain id ${evm.chainId}`)
    if (config.blockSeconds > 0)
      yield* Effect.forkScoped(
        Effect.sync(() => {
          for (const n of utxoNetworks) utxo.chain(n).mine(1)
        }).pipe(Effect.repeat(Schedule.spaced(`${config.blockSeconds} seconds`)), Effect.delay("1 second")),
      )

    const faucet: ChainsShape["faucet"] = (currency, to, amount) =>
      networkOf[currency] === "ethereum" ? evm.send(currency, to, amount) : utxo.send(currency, to, amount)

    const mineOne = (network: Network, blocks: number): Effect.Effect<Tip, ChainDown> =>
      isUtxoNetwork(network)
        ? Effect.sync(() => ({ network, height: utxo.chain(network).mine(blocks).height }))
        : evm.mine(blocks).pipe(
            Effect.andThen(evm.height),
            Effect.map((height) => ({ network, height: Number(height) })),
          )

    const mine: ChainsShape["mine"] = (network, blocks) =>
      Effect.forEach(network === undefined ? [...utxoNetworks, "ethereum" as const] : [network], (n) =>
        mineOne(n, blocks),
      )

    return { evm, utxo: utxo.chain, faucet, mine } satisfies ChainsShape
  })

export const chainsLayer = (config: ChainsConfig) => Layer.effect(Chains, make(config))
