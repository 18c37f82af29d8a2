/**
 * The EVM chain of the sandbox (docs/chains-evm.md): a real local Ethereum node (anvil) with a real
 * ERC-20 installed AT the mainnet USDT address, so every line of the casino's EVM code (adapter,
 * watcher, hot wallet) runs unchanged against it. Its faucet pays ETH from anvil's funded dev
 * account #0 (a PUBLIC TEST key) and mints USDT as that account, which the sandbox makes the
 * token's owner.
 *
 * Blocks: none until asked (`mine`) with a block time of 0 (tests), else one every n seconds so
 * confirmations count up in front of a player.
 */
import { Effect, Semaphore } from "effect"
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  isAddress,
  numberToHex,
  type PublicClient,
  pad,
  parseEther,
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { MAINNET_USDT_CONTRACT } from "../../../protocols/chains/evm.ts"
import type { CryptoCurrency } from "../../../services/crypto-service.ts"
import { ChainDown, ChainRefused } from "../errors.ts"
import { anvilTestAccounts } from "../testKeys.ts"
import { sandboxChainId, startAnvil } from "./anvil.ts"
import { loadSandboxUsdt, sandboxUsdtAbi } from "./usdt.ts"

export { anvilBinary, sandboxChainId, startAnvil } from "./anvil.ts"

/** What each funded address is topped up to at every start: 100 ETH and 100,000 USDT. */
export const fundedBalances = { eth: parseEther("100"), usdt: 100_000_000_000n } as const

export interface EvmSandboxOptions {
  /** Seconds between blocks; 0 = blocks only on `mine` (tests). */
  readonly blockTimeSeconds?: number
  /** See `AnvilOptions.stateFile`; unset = a new chain every start (tests). */
  readonly stateFile?: string
  /** See `AnvilOptions.port`. */
  readonly port?: number
  /** Addresses topped up at start to at least these balances (a hot wallet): wei and USDT units. */
  readonly fund?: ReadonlyArray<{ readonly address: string; readonly eth: bigint; readonly usdt: bigint }>
}

export interface EvmSandboxShape {
  readonly rpcUrl: string
  readonly chainId: number
  readonly usdtContract: Address
  /** Pays ETH or USDT from the faucet account; answers the transaction hash (in the mempool). */
  readonly send: (
    currency: CryptoCurrency,
    to: string,
    amount: bigint,
  ) => Effect.Effect<string, ChainDown | ChainRefused>
  /** Mines `blocks` blocks now (default 1), whatever the block time. */
  readonly mine: (blocks?: number) => Effect.Effect<void, ChainDown>
  /** The current block number. */
  readonly height: Effect.Effect<bigint, ChainDown>
}

const describe = (error: unknown): string => {
  if (error instanceof Error) {
    // viem's errors carry a short message and a long multi-line details block: keep the short one.
    const short =
      "shortMessage" in error && typeof error.shortMessage === "string" ? error.shortMessage : error.message
    return short.split("\n")[0] ?? short
  }
  return String(error)
}

/** One RPC round trip; any failure is `ChainDown`. */
const rpc = <A>(label: string, call: () => Promise<A>): Effect.Effect<A, ChainDown> =>
  Effect.tryPromise({
    try: call,
    catch: (error) => new ChainDown({ network: "ethereum", message: `${label}: ${describe(error)}` }),
  })

/** Starts anvil, installs the token, funds the given addresses; everything stops with the scope. */
export const makeEvmSandbox = (options: EvmSandboxOptions = {}) =>
  Effect.gen(function* () {
    const node = yield* startAnvil({
      blockTimeSeconds: options.blockTimeSeconds ?? 0,
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }),
    })
    const chain = defineChain({
      id: sandboxChainId,
      name: "Sandbox chain (anvil)",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [node.rpcUrl] } },
    })
    const transport = http(node.rpcUrl, { retryCount: 1, timeout: 15_000 })
    const testClient = createTestClient({ chain, mode: "anvil", transport, cacheTime: 0 })
    const publicClient: PublicClient = createPublicClient({ chain, transport, cacheTime: 0 })
    const faucetAccount = privateKeyToAccount(anvilTestAccounts.faucet.privateKey)
    const wallet = createWalletClient({ chain, account: faucetAccount, transport, cacheTime: 0 })
    const usdtContract = getAddress(MAINNET_USDT_CONTRACT)
    const code = loadSandboxUsdt()

    const mine = (blocks = 1) => rpc("evm_mine", () => testClient.mine({ blocks }))

    // The constructor never runs for code installed by anvil_setCode: write its one state itself.
    yield* rpc("anvil_setCode", () => testClient.setCode({ address: usdtContract, bytecode: code.runtime }))
    yield* rpc("anvil_setStorageAt", () =>
      testClient.setStorageAt({
        address: usdtContract,
        index: numberToHex(code.ownerSlot, { size: 32 }),
        value: pad(faucetAccount.address, { size: 32 }),
      }),
    )

    // One faucet transaction at a time: each takes the next nonce of account #0.
    const lock = yield* Semaphore.make(1)
    const sendTx = (to: Address, value: bigint, data: Hex | undefined) =>
      rpc("eth_sendRawTransaction (faucet)", () =>
        wallet.sendTransaction(data === undefined ? { to, value } : { to, value, data }),
      ).pipe(Semaphore.withPermit(lock))

    const send = (currency: CryptoCurrency, to: string, amount: bigint) =>
      Effect.suspend((): Effect.Effect<string, ChainDown | ChainRefused> => {
        if (!isAddress(to, { strict: false }))
          return Effect.fail(new ChainRefused({ message: `${to} is not an Ethereum address` }))
        const receiver = getAddress(to)
        if (currency === "ETH") return sendTx(receiver, amount, undefined)
        if (currency === "USDT")
          return sendTx(
            usdtContract,
            0n,
            encodeFunctionData({ abi: sandboxUsdtAbi, functionName: "mint", args: [receiver, amount] }),
          )
        return Effect.fail(new ChainRefused({ message: `the EVM chain has no ${currency}` }))
      })

    // Top-ups, not gifts: a chain kept from the last run already holds the funds.
    for (const f of options.fund ?? []) {
      const address = getAddress(f.address)
      const eth = yield* rpc("eth_getBalance", () => publicClient.getBalance({ address }))
      if (eth < f.eth) yield* Effect.orDie(send("ETH", address, f.eth - eth))
      const usdt = yield* rpc("balanceOf", () =>
        publicClient.readContract({
          address: usdtContract,
          abi: sandboxUsdtAbi,
          functionName: "balanceOf",
          args: [address],
        }),
      )
      if (usdt < f.usdt) yield* Effect.orDie(send("USDT", address, f.usdt - usdt))
    }
    if ((options.fund ?? []).length > 0) {
      yield* mine(1)
      // Sanity: the token answers as installed (a wrong artifact would fail here, not in a payout).
      const owner = yield* rpc("owner()", () =>
        publicClient.readContract({ address: usdtContract, abi: sandboxUsdtAbi, functionName: "owner" }),
      )
      if (owner !== faucetAccount.address) {
        return yield* Effect.die(new Error(`SandboxUSDT owner is ${owner}, expected the faucet account`))
      }
    }

    return {
      rpcUrl: node.rpcUrl,
      chainId: node.chainId,
      usdtContract,
      send,
      mine,
      height: rpc("eth_blockNumber", () => publicClient.getBlockNumber({ cacheTime: 0 })),
    } satisfies EvmSandboxShape
  })
