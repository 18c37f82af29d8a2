/**
 * A real local EVM chain per test file: `startEvmSandbox()` runs the server's own sandbox (anvil
 * from `@foundry-rs/anvil-linux-amd64` on 127.0.0.1 with a kernel-chosen port, SandboxUSDT at the mainnet USDT
 * address, blocks only when the test mines) and adds what only tests need: snapshots and reverts
 * for reorgs, raw viem clients, and sending from any anvil dev account (PUBLIC TEST keys).
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
import { evmPublicClient } from "../../server/crypto/evm/rpc.ts"
import {
  type EvmSandboxOptions,
  type EvmSandboxShape,
  makeEvmSandbox,
  sandboxChainId,
} from "../../server/providers/evm-sandbox/index.ts"

/** anvil's dev accounts #2…#4 (PUBLIC TEST keys from the "test test … junk" mnemonic), free for tests. */
export const anvilSpareKeys = [
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
] as const

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
