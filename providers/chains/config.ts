/**
 * The sandbox chains' own settings (docs/chains-evm.md, docs/crypto.md "Sandbox chains"), from their
 * own variables, all prefixed CHAINS_. A bad value throws an Error naming the variable.
 *
 * | variable               | default                 |                                                  |
 * |------------------------|-------------------------|--------------------------------------------------|
 * | CHAINS_PORT            | 8084                    | its HTTP server: Esplora API + faucet / mine     |
 * | CHAINS_HOST            | 127.0.0.1               | listen address                                   |
 * | CHAINS_PUBLIC_URL      | http://localhost:<port> | where others reach it                            |
 * | CHAINS_EVM_PORT        | 0                       | anvil's loopback port (0: the kernel picks)      |
 * | CHAINS_BLOCK_SECONDS   | 2                       | a block every n s on every chain (0: on demand)  |
 * | CHAINS_DATA_DIR        | .data/chains            | `evm/state.json`, `utxo/<network>.json`          |
 * | CHAINS_FUND            | (none)                  | EVM addresses topped up at start (100 ETH, 100,000 USDT) |
 * | CHAINS_LOG_LEVEL       | Info                    |                                                  |
 * | CHAINS_NODE_ENV        | development             |                                                  |
 */
import type { LogLevel } from "effect"

type Env = Readonly<Record<string, string | undefined>>

export interface ChainsConfig {
  readonly port: number
  readonly host: string
  readonly publicUrl: string
  /** anvil's port on 127.0.0.1; 0 = the kernel picks. */
  readonly evmPort: number
  /** Seconds between blocks on every chain; 0 = only on demand (`POST /mine`). */
  readonly blockSeconds: number
  readonly dataDir: string
  /** EVM addresses topped up with ETH and USDT at every start (a casino's hot wallet). */
  readonly fund: ReadonlyArray<string>
  readonly logLevel: LogLevel.LogLevel
  readonly nodeEnv: string
}

const logLevels: ReadonlyArray<LogLevel.LogLevel> = [
  "All",
  "Trace",
  "Debug",
  "Info",
  "Warn",
  "Error",
  "Fatal",
  "None",
]

const value = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim()
  return v === undefined || v === "" ? undefined : v
}

const invalid = (name: string, raw: string, expected: string): never => {
  throw new Error(`${name}=${JSON.stringify(raw)} is invalid: expected ${expected}`)
}

const int = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = value(env, name)
  if (raw === undefined) return fallback
  const n = Number(raw)
  return Number.isInteger(n) && n >= min && n <= max ? n : invalid(name, raw, `an integer ${min}…${max}`)
}

export const loadChainsConfig = (env: Env): ChainsConfig => {
  const port = int(env, "CHAINS_PORT", 8084, 0, 65_535)
  const publicUrl = (value(env, "CHAINS_PUBLIC_URL") ?? `http://localhost:${port}`).replace(/\/+$/, "")
  try {
    new URL(publicUrl)
  } catch {
    invalid("CHAINS_PUBLIC_URL", publicUrl, "an http(s) URL")
  }
  const fundRaw = value(env, "CHAINS_FUND")
  const fund = (fundRaw ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "")
  for (const address of fund)
    if (!/^0x[0-9a-fA-F]{40}$/.test(address))
      invalid("CHAINS_FUND", fundRaw ?? "", "0x… EVM addresses, comma-separated")
  const logLevelRaw = value(env, "CHAINS_LOG_LEVEL") ?? "Info"
  const logLevel =
    logLevels.find((l) => l.toLowerCase() === logLevelRaw.toLowerCase()) ??
    invalid("CHAINS_LOG_LEVEL", logLevelRaw, logLevels.join(", "))
  return {
    port,
    host: value(env, "CHAINS_HOST") ?? "127.0.0.1",
    publicUrl,
    evmPort: int(env, "CHAINS_EVM_PORT", 0, 0, 65_535),
    blockSeconds: int(env, "CHAINS_BLOCK_SECONDS", 2, 0, 3600),
    dataDir: value(env, "CHAINS_DATA_DIR") ?? ".data/chains",
    fund,
    logLevel,
    nodeEnv: value(env, "CHAINS_NODE_ENV") ?? "development",
  }
}
