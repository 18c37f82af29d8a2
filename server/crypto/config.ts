/**
 * Crypto configuration (docs/crypto.md "What production configures"), read from the environment by
 * `server/config.ts` into `AppConfigShape.crypto`. The casino reaches the chains only through these:
 *
 * - CRYPTO_XPUB_BTC / _LTC / _DOGE / _ETH: the account extended PUBLIC keys deposits are derived
 *   from. Unset ⇒ deposits on that network are not offered (and it is not watched). With
 *   NODE_ENV=production the public test mnemonic's xpubs are refused (server/security/production.ts,
 *   server/security/publicTestKeys.ts).
 * - CRYPTO_CONFIRMATIONS: e.g. "BTC=2,LTC=6,DOG=6,ETH=12,USDT=12" (the production defaults; a local
 *   composition passes `sandboxConfirmations` so a deposit credits within seconds).
 * - CRYPTO_ESPLORA_BTC / _LTC / _DOGE: the Esplora API a UTXO watcher reads (defaults: the public
 *   explorers; DOGE has none, so it is not watched without one).
 * - CRYPTO_POLL_SECONDS (the watcher's interval, 30), CRYPTO_SCAN_BATCH (blocks per scan step),
 *   CRYPTO_WATCHER=off (this process does not scan: e.g. web-only instances).
 * - EVM_CHAIN_ID, EVM_USDT_CONTRACT: the EVM chain (also what the EIP-681 URI of ETH/USDT carries;
 *   docs/chains-evm.md). EVM_RPC_URL and the hot wallet key are read by server/config.ts.
 */
import { MAINNET_USDT_CONTRACT } from "../../protocols/chains/evm.ts"
import type { UtxoNetwork } from "../../protocols/chains/networks.ts"
import type { CryptoCurrency, Network } from "../../services/crypto-service.ts"
import { isPublicTestXpub } from "../security/publicTestKeys.ts"
import { parseXpub } from "./derive.ts"

export interface CryptoConfig {
  /** The configured account xpubs; a network without one offers no deposits. */
  readonly xpubs: Readonly<Partial<Record<Network, string>>>
  /** True when at least one xpub is the public test mnemonic's (never in production). */
  readonly usesTestXpubs: boolean
  readonly confirmations: Readonly<Record<CryptoCurrency, number>>
  readonly esploraUrls: Readonly<Record<UtxoNetwork, string>>
  readonly pollSeconds: number
  readonly scanBatch: number
  readonly watcherEnabled: boolean
  readonly evmChainId: number
  readonly usdtContract: string
}

export const productionConfirmations: Readonly<Record<CryptoCurrency, number>> = {
  BTC: 2,
  LTC: 6,
  DOG: 6,
  ETH: 12,
  USDT: 12,
}
/** What a local composition passes (compose/parties/chains.ts): a deposit credits within seconds. */
export const sandboxConfirmations: Readonly<Record<CryptoCurrency, number>> = {
  BTC: 2,
  LTC: 3,
  DOG: 3,
  ETH: 3,
  USDT: 3,
}

/** The public Esplora instances (docs/crypto.md): Blockstream's, litecoinspace's; DOGE has no
 * widely run public Esplora, so production must name one (a self-hosted electrs for dogecoin). */
export const publicEsplora: Readonly<Record<UtxoNetwork, string | undefined>> = {
  bitcoin: "https://blockstream.info/api",
  litecoin: "https://litecoinspace.org/api",
  dogecoin: undefined,
}

/**
 * Why a server must not start with this crypto configuration, or undefined: in production no
 * CRYPTO_XPUB_* may be the public test mnemonic's (anyone could spend what players deposit).
 */
type Env = Record<string, string | undefined>
export type Fail = (name: string, value: string, expected: string) => never

const xpubEnv: Readonly<Record<Network, string>> = {
  bitcoin: "CRYPTO_XPUB_BTC",
  litecoin: "CRYPTO_XPUB_LTC",
  dogecoin: "CRYPTO_XPUB_DOGE",
  ethereum: "CRYPTO_XPUB_ETH",
}
const esploraEnv: Readonly<Record<UtxoNetwork, string>> = {
  bitcoin: "CRYPTO_ESPLORA_BTC",
  litecoin: "CRYPTO_ESPLORA_LTC",
  dogecoin: "CRYPTO_ESPLORA_DOGE",
}

const value = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim()
  return v === undefined || v === "" ? undefined : v
}

const intIn = (env: Env, name: string, def: number, min: number, max: number, fail: Fail): number => {
  const raw = value(env, name)
  if (raw === undefined) return def
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min || n > max) return fail(name, raw, `an integer ${min}…${max}`)
  return n
}

export const loadCryptoConfig = (env: Env, fail: Fail): CryptoConfig => {
  let usesTestXpubs = false
  const xpubs: Partial<Record<Network, string>> = {}
  for (const network of Object.keys(xpubEnv) as Network[]) {
    const name = xpubEnv[network]
    const raw = value(env, name)
    // Unset: that network offers no deposits (the server says so to a player who asks).
    if (raw === undefined) continue
    if (parseXpub(raw) === null) fail(name, "(hidden)", "an account extended PUBLIC key (xpub…)")
    // Refused in production with the other test parts (server/security/production.ts): tools that only
    // read the configuration (operator commands, tests) need no keys.
    if (isPublicTestXpub(raw)) usesTestXpubs = true
    xpubs[network] = raw
  }

  const confirmations = { ...productionConfirmations }
  const confRaw = value(env, "CRYPTO_CONFIRMATIONS")
  if (confRaw !== undefined) {
    for (const part of confRaw.split(",")) {
      const match = /^\s*(BTC|LTC|DOG|ETH|USDT)\s*=\s*(\d{1,4})\s*$/.exec(part)
      const n = Number(match?.[2])
      if (match === null || !(n >= 1))
        return fail("CRYPTO_CONFIRMATIONS", confRaw, "e.g. BTC=2,LTC=6,DOG=6,ETH=12,USDT=12")
      confirmations[match[1] as CryptoCurrency] = n
    }
  }

  const esploraUrls = {} as Record<UtxoNetwork, string>
  for (const network of Object.keys(esploraEnv) as UtxoNetwork[]) {
    const url = value(env, esploraEnv[network]) ?? publicEsplora[network]
    if (url !== undefined && !/^https?:\/\/\S+$/.test(url))
      fail(esploraEnv[network], url, "an http(s) URL of an Esplora API")
    // No explorer for a chain: its watcher does not run (docs/crypto.md); deposits still get addresses.
    esploraUrls[network] = (url ?? "").replace(/\/+$/, "")
  }

  const evmChainId = intIn(env, "EVM_CHAIN_ID", 1, 1, 2 ** 31 - 1, fail)
  const usdtContract = value(env, "EVM_USDT_CONTRACT") ?? MAINNET_USDT_CONTRACT
  if (!/^0x[0-9a-fA-F]{40}$/.test(usdtContract)) fail("EVM_USDT_CONTRACT", usdtContract, "a 0x… address")
  const watcherRaw = value(env, "CRYPTO_WATCHER")?.toLowerCase()
  if (watcherRaw !== undefined && watcherRaw !== "on" && watcherRaw !== "off")
    fail("CRYPTO_WATCHER", watcherRaw, '"on" or "off"')

  return {
    xpubs,
    usesTestXpubs,
    confirmations,
    esploraUrls,
    pollSeconds: intIn(env, "CRYPTO_POLL_SECONDS", 30, 1, 3600, fail),
    scanBatch: intIn(env, "CRYPTO_SCAN_BATCH", 20, 1, 1000, fail),
    watcherEnabled: watcherRaw !== "off",
    evmChainId,
    usdtContract,
  }
}
