/**
 * The sandbox chains beside the casino (providers/chains/): anvil for ETH and USDT, the UTXO chains
 * for BTC, LTC and DOGE, on their own port with their state under `${DATA_DIR}/chains`. The casino
 * is told what an operator would set for real chains: the node's JSON-RPC, the explorers' Esplora
 * APIs, the account xpubs (the public test mnemonic's) and a hot wallet key (anvil's dev account #1,
 * which the chains fund at every start).
 */
import { join } from "node:path"
import { privateKeyToAccount } from "viem/accounts"
import { loadChainsConfig } from "../../providers/chains/config.ts"
import { sandboxChainId } from "../../providers/chains/evm/anvil.ts"
import { type RunningChains, startChains } from "../../providers/chains/server.ts"
import { anvilTestAccounts, testXpubs } from "../../providers/chains/testKeys.ts"
import { sandboxConfirmations } from "../../server/crypto/config.ts"
import { type Party, publicUrlOf } from "../party.ts"

const set = (v: string | undefined): string | undefined =>
  v === undefined || v.trim() === "" ? undefined : v.trim()

export const chainsParty: Party<RunningChains> = {
  name: "chains",
  switch: "CHAIN_SANDBOX",
  defaultPort: (casinoPort) => casinoPort + 4,
  start: async (context, port) => {
    const env = context.env
    // The casino's own hot wallet key when the operator set one, else anvil's dev account #1.
    const hotKey = (set(env.CRYPTO_HOT_WALLET_KEY_ETH) ??
      anvilTestAccounts.hotWallet.privateKey) as `0x${string}`
    const hotWallet = /^0x[0-9a-fA-F]{64}$/.test(hotKey) ? privateKeyToAccount(hotKey).address : undefined
    const config = loadChainsConfig({
      CHAINS_PORT: String(port),
      CHAINS_HOST: context.host,
      CHAINS_PUBLIC_URL: publicUrlOf(context, port),
      // anvil next to the chains' port (casino + 5), or a kernel-chosen one when everything is.
      CHAINS_EVM_PORT: set(env.CHAINS_EVM_PORT) ?? String(context.kernelPorts ? 0 : port + 1),
      CHAINS_BLOCK_SECONDS: set(env.CHAIN_SANDBOX_BLOCK_SECONDS) ?? "2",
      CHAINS_DATA_DIR: join(context.dataDir, "chains"),
      CHAINS_FUND: [hotWallet, set(env.CHAINS_FUND)].filter((a) => a !== undefined).join(","),
      CHAINS_LOG_LEVEL: context.logLevel,
      CHAINS_NODE_ENV: context.nodeEnv,
    })
    const chains = await startChains(config)
    const confirmations = Object.entries(sandboxConfirmations)
      .map(([currency, n]) => `${currency}=${n}`)
      .join(",")
    return {
      name: "chains",
      url: chains.url,
      publicUrl: config.publicUrl,
      casinoEnv: {
        EVM_RPC_URL: chains.rpcUrl,
        EVM_CHAIN_ID: String(sandboxChainId),
        EVM_USDT_CONTRACT: chains.evm.usdtContract,
        CRYPTO_ESPLORA_BTC: chains.esploraUrl("bitcoin"),
        CRYPTO_ESPLORA_LTC: chains.esploraUrl("litecoin"),
        CRYPTO_ESPLORA_DOGE: chains.esploraUrl("dogecoin"),
        CRYPTO_XPUB_BTC: testXpubs.bitcoin,
        CRYPTO_XPUB_LTC: testXpubs.litecoin,
        CRYPTO_XPUB_DOGE: testXpubs.dogecoin,
        CRYPTO_XPUB_ETH: testXpubs.ethereum,
        CRYPTO_HOT_WALLET_KEY_ETH: anvilTestAccounts.hotWallet.privateKey,
        CRYPTO_CONFIRMATIONS: confirmations,
        CRYPTO_POLL_SECONDS: "2",
      },
      handle: chains,
      close: chains.close,
    }
  },
}
