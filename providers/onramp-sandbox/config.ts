/**
 * The sandbox on-ramp's own settings (docs/onramp.md), from its own variables, all prefixed
 * ONRAMP_SANDBOX_. A bad value throws an Error naming the variable.
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
import { randomBytes } from "node:crypto"
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { LogLevel } from "effect"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import { parseDecimal } from "../../services/money-rules.ts"

type Env = Readonly<Record<string, string | undefined>>

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
const currencies: ReadonlyArray<CryptoCurrency> = ["BTC", "LTC", "DOG", "ETH", "USDT"]

const value = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim()
  return v === undefined || v === "" ? undefined : v
}

const invalid = (name: string, raw: string, expected: string): never => {
  throw new Error(`${name}=${JSON.stringify(raw)} is invalid: expected ${expected}`)
}

const url = (env: Env, name: string): string | undefined => {
  const raw = value(env, name)
  if (raw === undefined) return undefined
  if (!/^https?:\/\/\S+$/.test(raw)) return invalid(name, raw, "an http(s) URL")
  try {
    new URL(raw.replace("{widget}", "banxa"))
  } catch {
    return invalid(name, raw, "an http(s) URL")
  }
  return raw.replace(/\/+$/, "")
}

/** `<dataDir>/secret`, created (32 random bytes, hex, mode 0600) on first use. */
export const persistentSecret = (dataDir: string): string => {
  const file = join(dataDir, "secret")
  try {
    const existing = readFileSync(file, "utf8").trim()
    if (existing.length >= 32) return existing
  } catch {
    // not there yet
  }
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(32).toString("hex")
  writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return secret
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
  const portRaw = value(env, `${p}PORT`)
  const port = portRaw === undefined ? 8082 : Number(portRaw)
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    invalid(`${p}PORT`, portRaw ?? "", "a port 0…65535")
  const databaseUrl = value(env, `${p}DATABASE_URL`)
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl))
    invalid(`${p}DATABASE_URL`, databaseUrl, "a postgres:// URL")
  const dataDir = value(env, `${p}DATA_DIR`) ?? ".data/onramp"
  const secretRaw = value(env, `${p}SECRET`)
  if (secretRaw !== undefined && secretRaw.length < 32)
    invalid(`${p}SECRET`, "(hidden)", "at least 32 characters")
  const callbackUrl = url(env, `${p}CALLBACK_URL`)
  if (callbackUrl !== undefined && !callbackUrl.includes("{widget}"))
    invalid(`${p}CALLBACK_URL`, callbackUrl, "a URL with {widget} where the widget id goes")
  const frameRaw = value(env, `${p}FRAME_ANCESTORS`) ?? ""
  const frameAncestors = frameRaw
    .split(",")
    .map((o) => o.trim())
    .filter((o) => o !== "")
    .map((o) => {
      try {
        return new URL(o).origin
      } catch {
        return invalid(`${p}FRAME_ANCESTORS`, frameRaw, "comma-separated origins")
      }
    })
  const pricesRaw = value(env, `${p}PRICES`)
  const prices =
    pricesRaw === undefined
      ? new Map<CryptoCurrency, bigint>()
      : (parsePrices(pricesRaw) ?? invalid(`${p}PRICES`, pricesRaw, "e.g. BTC=60000,ETH=3000,DOG=0.12"))
  const logLevelRaw = value(env, `${p}LOG_LEVEL`) ?? "Info"
  const logLevel =
    logLevels.find((l) => l.toLowerCase() === logLevelRaw.toLowerCase()) ??
    invalid(`${p}LOG_LEVEL`, logLevelRaw, logLevels.join(", "))
  return {
    port,
    host: value(env, `${p}HOST`) ?? "127.0.0.1",
    publicUrl: url(env, `${p}PUBLIC_URL`) ?? `http://localhost:${port}`,
    databaseUrl,
    schema: ONRAMP_SANDBOX_SCHEMA,
    dataDir,
    secret: secretRaw ?? persistentSecret(dataDir),
    frameAncestors,
    callbackUrl,
    chainsUrl: url(env, `${p}CHAINS_URL`),
    prices,
    logLevel,
    nodeEnv: value(env, `${p}NODE_ENV`) ?? "development",
  }
}
