/**
 * The sandbox chains' own settings (docs/chains-evm.md, docs/crypto.md "Sandbox chains"), from their
 * own variables, all prefixed CHAINS_. A bad value throws a ConfigError naming the variable (lib/env.ts).
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
import {
  type Env,
  httpUrl,
  int,
  invalid,
  logLevel as logLevelOf,
  port as portOf,
  text,
} from "../../lib/env.ts"

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

export const loadChainsConfig = (env: Env): ChainsConfig => {
  const port = portOf(env, "CHAINS_PORT", 8084)
  const fundRaw = text(env, "CHAINS_FUND")
  const fund = (fundRaw ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "")
  for (const address of fund)
    if (!/^0x[0-9a-fA-F]{40}$/.test(address))
      invalid("CHAINS_FUND", fundRaw ?? "", "0x… EVM addresses, comma-separated")
  return {
    port,
    host: text(env, "CHAINS_HOST") ?? "127.0.0.1",
    publicUrl: httpUrl(env, "CHAINS_PUBLIC_URL", `http://localhost:${port}`),
    evmPort: portOf(env, "CHAINS_EVM_PORT", 0),
    blockSeconds: int(env, "CHAINS_BLOCK_SECONDS", 2, 0, 3600),
    dataDir: text(env, "CHAINS_DATA_DIR") ?? ".data/chains",
    fund,
    logLevel: logLevelOf(env, "CHAINS_LOG_LEVEL"),
    nodeEnv: text(env, "CHAINS_NODE_ENV") ?? "development",
  }
}
