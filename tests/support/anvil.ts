/**
 * A real local EVM chain per test file: `startEvmSandbox()` runs the sandbox chains' EVM chain
 * (providers/chains/evm/: anvil from `@foundry-rs/anvil-linux-amd64` on 127.0.0.1 with a
 * kernel-chosen port, SandboxUSDT at the mainnet USDT address, blocks only when the test mines)
 * and adds what only tests need: snapshots and reverts for reorgs, raw viem clients, and sending
 * from any anvil dev account (PUBLIC TEST keys).
 */
import { Effect, Exit, Scope } from "effect"
import {
  type Address,
  createTestClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  type TestClient,
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import {
  type EvmSandboxOptions,
  type EvmSandboxShape,
  makeEvmSandbox,
  sandboxChainId,
} from "../../providers/chains/evm/EvmChain.ts"
import { anvilDevAccounts } from "../../providers/chains/testKeys.ts"
import { evmPublicClient } from "../../server/crypto/evm/rpc.ts"

/** anvil's dev accounts #2…#4 (PUBLIC TEST keys from the "test test … junk" mnemonic), free for tests. */
const devKey = (i: number): Hex => {
  const key = anvilDevAccounts[i]?.privateKey
  if (key === undefined) throw new Error(`no anvil dev account #${i}`)
  return key
}
export const anvilSpareKeys = [devKey(2), devKey(3), devKey(4)] as const

export interface TestChain extends EvmSandboxShape {
  readonly public: PublicClient
  readonly test: TestClient<"anvil">
  /** Sends from a dev account (its private key) and answers the hash; not mined until `mine`. */
  readonly sendFrom: (key: Hex, tx: { to: Address; value?: bigint; data?: Hex; gas?: bigint }) => Promise<Hex>
  readonly run: <A, E>(effect: Effect.Effect<A, E>) => Promise<A>
  readonly close: () => Promise<void>
}

export const startEvmSandbox = async (options: EvmSandboxOptions = {}): Promise<TestChain> => {
  const scope = Scope.makeUnsafe()
  const exit = await Effect.runPromiseExit(makeEvmSandbox(options).pipe(Scope.provide(scope)))
  if (Exit.isFailure(exit)) {
    await Effect.runPromise(Scope.close(scope, exit))
    return Effect.runPromise(Effect.failCause(exit.cause))
  }
  const sandbox = exit.value
  const chain = defineChain({
    id: sandboxChainId,
    name: "anvil (test)",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [sandbox.rpcUrl] } },
  })
  const transport = http(sandbox.rpcUrl)
  const test = createTestClient({ chain, mode: "anvil", transport, cacheTime: 0 })
  return {
    ...sandbox,
    public: evmPublicClient(sandbox.rpcUrl),
    test,
    sendFrom: (key, tx) =>
      createWalletClient({
        chain,
        account: privateKeyToAccount(key),
        transport,
        cacheTime: 0,
      }).sendTransaction(tx),
    run: (effect) => Effect.runPromise(effect),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  }
}
