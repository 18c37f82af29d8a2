/**
 * The sandbox on-ramp's own settings (docs/onramp.md), from its own variables, all prefixed
 * ONRAMP_SANDBOX_. A bad value throws a ConfigError naming the variable (lib/env.ts).
 *
 * | variable                       | default                 |                                               |
 * |--------------------------------|-------------------------|-----------------------------------------------|
 * | ONRAMP_SANDBOX_PORT            | 8082                    |                                               |
 * | ONRAMP_SANDBOX_HOST            | 127.0.0.1               |                                               |
 * | ONRAMP_SANDBOX_PUBLIC_URL      | http://localhost:<port> | where players' browsers reach its pages       |
 * | ONRAMP_SANDBOX_DATABASE_URL    | (none: PGlite)          | PostgreSQL; its tables in schema onramp_sandbox |
 * | ONRAMP_SANDBOX_DATA_DIR        | .data/onramp            | its PGlite (`pglite/`) and generated secret   |
 * | ONRAMP_SANDBOX_SECRET          | generated into `<data dir>/secret` | ≥ 32 chars: every widget key derives from it |
 * | ONRAMP_SANDBOX_FRAME_ANCESTORS | (none)                  | origins allowed to frame its pages (the casino's) |
 * | ONRAMP_SANDBOX_CALLBACK_URL    | (none: no callbacks)    | the casino's callback endpoint, `{widget}` in it |
 * | ONRAMP_SANDBOX_CHAINS_URL      | (none)                  | the sandbox chains it pays through (`POST /faucet`) |
 * | ONRAMP_SANDBOX_PRICES          | (the table's)           | its EUR prices, e.g. `BTC=60000,ETH=3000`     |
 * | ONRAMP_SANDBOX_LOG_LEVEL       | Info                    |                                               |
 * | ONRAMP_SANDBOX_NODE_ENV        | development             |                                               |
 */
import type { LogLevel } from "effect"
import {
  type Env,
  invalid,
  logLevel as logLevelOf,
  origins,
  persistentSecret,
  port as portOf,
  postgresUrl,
  secret,
  text,
} from "../../lib/env.ts"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import { parseDecimal } from "../../services/money-rules.ts"

export interface OnrampSandboxConfig {
  readonly port: number
  readonly host: string
  /** Where its pages are reached (no trailing slash); the widgets' base URLs are under it. */
  readonly publicUrl: string
  readonly databaseUrl: string | undefined
  /** Its PostgreSQL schema. */
  readonly schema: string
  readonly dataDir: string
  readonly secret: string
  /** Origins allowed to frame its pages (CSP frame-ancestors, beside itself). */
  readonly frameAncestors: ReadonlyArray<string>
  /** The casino's callback URL with `{widget}` where the widget id goes; undefined: no callbacks. */
  readonly callbackUrl: string | undefined
  /** The sandbox chains' base URL (its faucet pays the purchases); undefined: every purchase fails. */
  readonly chainsUrl: string | undefined
  /** Prices set at start (EUR per whole unit, scaled by 10^18); the others stay as stored. */
  readonly prices: ReadonlyMap<CryptoCurrency, bigint>
  readonly logLevel: LogLevel.LogLevel
  readonly nodeEnv: string
}

export const ONRAMP_SANDBOX_SCHEMA = "onramp_sandbox"

const currencies: ReadonlyArray<CryptoCurrency> = ["BTC", "LTC", "DOG", "ETH", "USDT"]

/** An http(s) URL (the callback URL's `{widget}` placeholder allowed), no trailing slash. */
const url = (env: Env, name: string): string | undefined => {
  const raw = text(env, name)
  if (raw === undefined) return undefined
  if (!/^https?:\/\/\S+$/.test(raw)) return invalid(name, raw, "an http(s) URL")
  try {
    new URL(raw.replace("{widget}", "banxa"))
  } catch {
    return invalid(name, raw, "an http(s) URL")
  }
  return raw.replace(/\/+$/, "")
}

export const parsePrices = (raw: string): ReadonlyMap<CryptoCurrency, bigint> | undefined => {
  const prices = new Map<CryptoCurrency, bigint>()
  for (const part of raw.split(",")) {
    const [code = "", price = ""] = part.split("=").map((s) => s.trim())
    const currency = currencies.find(
      (c) => c === code.toUpperCase() || (c === "DOG" && code.toUpperCase() === "DOGE"),
    )
    const rate = parseDecimal(price)
    if (currency === undefined || rate === null || rate <= 0n) return undefined
    prices.set(currency, rate)
  }
  return prices
}

export const loadOnrampSandboxConfig = (env: Env): OnrampSandboxConfig => {
  const p = "ONRAMP_SANDBOX_"
  const port = portOf(env, `${p}PORT`, 8082)
  const dataDir = text(env, `${p}DATA_DIR`) ?? ".data/onramp"
  const configuredSecret = secret(env, `${p}SECRET`, 32)
  const callbackUrl = url(env, `${p}CALLBACK_URL`)
  if (callbackUrl !== undefined && !callbackUrl.includes("{widget}"))
    invalid(`${p}CALLBACK_URL`, callbackUrl, "a URL with {widget} where the widget id goes")
  const pricesRaw = text(env, `${p}PRICES`)
  const prices =
    pricesRaw === undefined
      ? new Map<CryptoCurrency, bigint>()
      : (parsePrices(pricesRaw) ?? invalid(`${p}PRICES`, pricesRaw, "e.g. BTC=60000,ETH=3000,DOG=0.12"))
  const config = {
    port,
    host: text(env, `${p}HOST`) ?? "127.0.0.1",
    publicUrl: url(env, `${p}PUBLIC_URL`) ?? `http://localhost:${port}`,
    databaseUrl: postgresUrl(env, `${p}DATABASE_URL`),
    schema: ONRAMP_SANDBOX_SCHEMA,
    dataDir,
    frameAncestors: origins(env, `${p}FRAME_ANCESTORS`, []),
    callbackUrl,
    chainsUrl: url(env, `${p}CHAINS_URL`),
    prices,
    logLevel: logLevelOf(env, `${p}LOG_LEVEL`),
    nodeEnv: text(env, `${p}NODE_ENV`) ?? "development",
  }
  // Generated last: a configuration with a bad value writes nothing.
  return { ...config, secret: configuredSecret ?? persistentSecret(dataDir) }
}
