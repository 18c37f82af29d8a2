/**
 * The server's Ethereum node, from configuration (docs/chains-evm.md):
 * - CHAIN_SANDBOX=on (default outside production): a local anvil started with the server, its chain
 *   kept in `${DATA_DIR}/evm-sandbox/state.json`, a block every CHAIN_SANDBOX_BLOCK_SECONDS, the hot
 *   wallet topped up with ETH and USDT;
 * - otherwise EVM_RPC_URL (a node or provider), EVM_CHAIN_ID and EVM_USDT_CONTRACT;
 * - neither: no EVM chain (`chain` undefined) and payouts refused.
 * `CryptoPayouts` is the hot wallet when CRYPTO_HOT_WALLET_KEY_ETH and a chain are both there.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { Context, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { isHex, parseEther } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { AppConfig } from "../../config.ts"
import {
  EvmSandbox,
  type EvmSandboxError,
  type EvmSandboxShape,
  makeEvmSandbox,
} from "../../providers/evm-sandbox/index.ts"
import { CryptoPayouts, type CryptoPayoutsShape, PayoutRejected } from "../payouts.ts"
import { makeHotWallet } from "./HotWallet.ts"

export interface EvmChainConfig {
  readonly rpcUrl: string
  readonly chainId: number
  readonly usdtContract: string
}

export interface EvmNodeShape {
  /** The node the adapter and the hot wallet use, or undefined when none is configured. */
  readonly chain: EvmChainConfig | undefined
  /** The local sandbox (faucet, `mine`) when CHAIN_SANDBOX=on. */
  readonly sandbox: EvmSandboxShape | undefined
}

export class EvmNode extends Context.Service<EvmNode, EvmNodeShape>()("casino/EvmNode") {}

/** What the sandbox tops the hot wallet up to at each start. */
export const sandboxHotWalletFunding = { eth: parseEther("100"), usdt: 100_000_000_000n } // 100,000 USDT

/** Payouts when no hot wallet is configured: refused with the reason, never faked. */
const noPayouts: CryptoPayoutsShape = {
  supports: () => false,
  send: (request) =>
    Effect.fail(
      new PayoutRejected({ currency: request.currency, message: "no EVM hot wallet is configured" }),
    ),
  confirmations: () => Effect.succeed(null),
}

/** The configured hot wallet key (config.ts checked its form: 0x + 64 hex digits). */
const hotWalletKey = (key: string | undefined) => (key !== undefined && isHex(key) ? key : undefined)

const nodeFromConfig = Effect.gen(function* () {
  const config = yield* AppConfig
  const hotKey = hotWalletKey(config.cryptoHotWalletKeyEth)
  if (config.chainSandbox) {
    const dir = join(config.dataDir, "evm-sandbox")
    mkdirSync(dir, { recursive: true })
    const sandbox = yield* makeEvmSandbox({
      blockTimeSeconds: config.chainSandboxBlockSeconds,
      port: config.evmSandboxPort,
      stateFile: join(dir, "state.json"),
      fund:
        hotKey === undefined
          ? []
          : [{ address: privateKeyToAccount(hotKey).address, ...sandboxHotWalletFunding }],
    })
    yield* Effect.logInfo(`EVM sandbox (anvil) at ${sandbox.rpcUrl}, chain id ${sandbox.chainId}`)
    const chain: EvmChainConfig = {
      rpcUrl: sandbox.rpcUrl,
      chainId: sandbox.chainId,
      usdtContract: sandbox.usdtContract,
    }
    return { chain, sandbox } satisfies EvmNodeShape
  }
  const chain: EvmChainConfig | undefined =
    config.evmRpcUrl === undefined
      ? undefined
      : { rpcUrl: config.evmRpcUrl, chainId: config.evmChainId, usdtContract: config.evmUsdtContract }
  return { chain, sandbox: undefined } satisfies EvmNodeShape
})

/** EvmNode, CryptoPayouts and (sandbox on) EvmSandbox for the server. */
export const evmLayer: Layer.Layer<
  EvmNode | CryptoPayouts,
  EvmSandboxError,
  AppConfig | SqlClient.SqlClient
> = Layer.effectContext(
  Effect.gen(function* () {
    const config = yield* AppConfig
    const node = yield* nodeFromConfig
    const hotKey = hotWalletKey(config.cryptoHotWalletKeyEth)
    const payouts =
      node.chain === undefined || hotKey === undefined
        ? noPayouts
        : yield* makeHotWallet({ ...node.chain, privateKey: hotKey })
    const base = Context.make(EvmNode, node).pipe(Context.add(CryptoPayouts, payouts))
    return node.sandbox === undefined ? base : Context.add(base, EvmSandbox, node.sandbox)
  }),
)
