/**
 * The EVM sandbox (docs/chains-evm.md): a real local Ethereum node (anvil) started with the server
 * when CHAIN_SANDBOX=on and stopped with it, with a real ERC-20 installed AT the mainnet USDT
 * address, so every line of the casino's EVM code (adapter, watcher, hot wallet) runs unchanged
 * against it. It also is the `SandboxFaucet` the Buy crypto sandbox and the tests pay players
 * from: ETH from anvil's funded dev account #0 (a PUBLIC TEST key), USDT minted by that account,
 * which the sandbox makes the token's owner.
 *
 * Blocks: in tests none is mined until a test asks (`mine`); the server passes a block time (2 s by
 * default) so confirmations count up in front of a player.
 */
import { Context, Effect, Layer, Semaphore } from "effect"
import {
  type Address,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  numberToHex,
  pad,
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import type { CryptoCurrency } from "../../../services/crypto-service.ts"
import type { ChainUnavailable, SandboxFaucet } from "../../crypto/chain.ts"
import { evmPublicClient, mainnetUsdtContract, rpc } from "../../crypto/evm/rpc.ts"
import { type AnvilStartFailed, anvilTestAccounts, sandboxChainId, startAnvil } from "./anvil.ts"
import { loadSandboxUsdt, sandboxUsdtAbi } from "./usdt.ts"

export { anvilBinary, anvilTestAccounts, sandboxChainId, startAnvil } from "./anvil.ts"

export interface EvmSandboxOptions {
  /** Seconds between blocks; 0 = blocks only on `mine` (tests). */
  readonly blockTimeSeconds?: number
  /** See `AnvilOptions.stateFile`; unset = a new chain every start (tests). */
  readonly stateFile?: string
  /** See `AnvilOptions.port`. */
  readonly port?: number
  /** Addresses topped up at start to at least these balances (the hot wallet): wei and USDT units. */
  readonly fund?: ReadonlyArray<{ readonly address: string; readonly eth: bigint; readonly usdt: bigint }>
}

export interface EvmSandboxShape {
  readonly rpcUrl: string
  readonly chainId: number
  readonly usdtContract: Address
  readonly faucet: SandboxFaucet
  /** Mines `blocks` blocks now (default 1), whatever the block time. */
  readonly mine: (blocks?: number) => Effect.Effect<void, ChainUnavailable>
}

export class EvmSandbox extends Context.Service<EvmSandbox, EvmSandboxShape>()("casino/EvmSandbox") {}

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
      name: "Casino sandbox (anvil)",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [node.rpcUrl] } },
    })
    const transport = http(node.rpcUrl, { retryCount: 1, timeout: 15_000 })
    const testClient = createTestClient({ chain, mode: "anvil", transport, cacheTime: 0 })
    const publicClient = evmPublicClient(node.rpcUrl)
    const faucetAccount = privateKeyToAccount(anvilTestAccounts.faucet.privateKey)
    const wallet = createWalletClient({ chain, account: faucetAccount, transport, cacheTime: 0 })
    const usdtContract = getAddress(mainnetUsdtContract)
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
      Effect.suspend(() => {
        const receiver = getAddress(to)
        if (currency === "ETH") return sendTx(receiver, amount, undefined)
        if (currency === "USDT")
          return sendTx(
            usdtContract,
            0n,
            encodeFunctionData({ abi: sandboxUsdtAbi, functionName: "mint", args: [receiver, amount] }),
          )
        return Effect.die(new Error(`the EVM sandbox has no ${currency}`))
      })

    // Top-ups, not gifts: a chain kept from the last run already holds the funds.
    for (const f of options.fund ?? []) {
      const address = getAddress(f.address)
      const eth = yield* rpc("eth_getBalance", () => publicClient.getBalance({ address }))
      if (eth < f.eth) yield* send("ETH", address, f.eth - eth)
      const usdt = yield* rpc("balanceOf", () =>
        publicClient.readContract({
          address: usdtContract,
          abi: sandboxUsdtAbi,
          functionName: "balanceOf",
          args: [address],
        }),
      )
      if (usdt < f.usdt) yield* send("USDT", address, f.usdt - usdt)
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

    const faucet: SandboxFaucet = { currencies: ["ETH", "USDT"], send }
    return {
      rpcUrl: node.rpcUrl,
      chainId: node.chainId,
      usdtContract,
      faucet,
      mine,
    } satisfies EvmSandboxShape
  })

export type EvmSandboxError = AnvilStartFailed | ChainUnavailable

export const evmSandboxLayer = (options: EvmSandboxOptions = {}): Layer.Layer<EvmSandbox, EvmSandboxError> =>
  Layer.effect(EvmSandbox, makeEvmSandbox(options))
