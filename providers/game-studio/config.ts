/**
 * The game studio's settings, from its own variables (all prefixed `STUDIO_`, plus NODE_ENV): it
 * is a game provider that someone else could deploy, so it reads nothing of the casino's.
 *
 *   STUDIO_PORT             8083                      where it listens (0: any free port)
 *   STUDIO_HOST             0.0.0.0
 *   STUDIO_PUBLIC_URL       http://localhost:<port>   where players' browsers reach its pages and art
 *   STUDIO_DATABASE_URL     —                         PostgreSQL (its tables in the schema game_studio);
 *                                                     unset: its own PGlite in STUDIO_DATA_DIR/pglite
 *   STUDIO_DATA_DIR         .data/studio              its PGlite and its generated secret
 *   STUDIO_SECRET           generated                 ≥ 32 chars; the integration keys derive from it
 *                                                     (credentials.ts); unset: STUDIO_DATA_DIR/secret,
 *                                                     generated once
 *   STUDIO_WALLET_URL       http://localhost:8080/api/games/wallet/studio
 *                                                     the casino's seamless wallet for this studio
 *                                                     (the ops are appended: …/bet, …/win)
 *   STUDIO_FRAME_ANCESTORS  —                         comma list of the casino origins allowed to frame
 *                                                     its game pages (CSP frame-ancestors, besides itself)
 *   STUDIO_SANDBOX          on outside production     on: a test environment — its keys begin with
 *                                                     `test_` (protocols/keys.ts) and its pages carry a
 *                                                     visible "Sandbox" mark
 *   STUDIO_LOG_LEVEL        Info
 *   STUDIO_BET_TIMEOUT_MS   8000                      how long a bet waits for the wallet's answer
 *   STUDIO_RETRY_TIMEOUT_MS 10000                     how long a win/rollback delivery waits
 *
 * A bad value throws a plain Error naming the variable.
 */
import { randomBytes } from "node:crypto"
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { LogLevel } from "effect"

type Env = Readonly<Record<string, string | undefined>>

/** Its tables' schema on a shared PostgreSQL. */
export const STUDIO_SCHEMA = "game_studio"
export const DEFAULT_PORT = 8083

export interface StudioConfig {
  readonly port: number
  readonly host: string
  /** No trailing slash. */
  readonly publicUrl: string
  readonly databaseUrl: string | undefined
  readonly schema: string
  readonly dataDir: string
  readonly secret: string
  /** The casino's wallet for this studio, no trailing slash; read at each call. */
  readonly walletUrl: string
  /** Origins allowed to frame the game pages, besides the studio's own. */
  readonly frameAncestors: ReadonlyArray<string>
  /** A test environment: `test_` keys and the "Sandbox" mark on its pages. */
  readonly sandbox: boolean
  readonly logLevel: LogLevel.LogLevel
  readonly nodeEnv: string
  readonly betTimeoutMs: number
  readonly retryTimeoutMs: number
}

const logLevels: ReadonlyArray<LogLevel.LogLevel> = [
  "All",
  "Fatal",
  "Error",
  "Warn",
  "Info",
  "Debug",
  "Trace",
  "None",
]

const invalid = (name: string, value: string, expected: string): never => {
  throw new Error(`${name}=${JSON.stringify(value)} is invalid: expected ${expected}`)
}

const str = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim()
  return v === undefined || v === "" ? undefined : v
}

const int = (env: Env, name: string, def: number, min: number, max: number): number => {
  const raw = str(env, name)
  if (raw === undefined) return def
  const n = Number(raw)
  return Number.isInteger(n) && n >= min && n <= max ? n : invalid(name, raw, `an integer ${min}…${max}`)
}

const onOff = (env: Env, name: string, def: boolean): boolean => {
  const raw = str(env, name)?.toLowerCase()
  if (raw === undefined) return def
  if (["on", "true", "1", "yes"].includes(raw)) return true
  if (["off", "false", "0", "no"].includes(raw)) return false
  return invalid(name, raw, '"on" or "off"')
}

const httpUrl = (name: string, raw: string): string => {
  try {
    const url = new URL(raw)
    if (url.protocol === "http:" || url.protocol === "https:") return raw.replace(/\/+$/, "")
  } catch {}
  return invalid(name, raw, "an http(s) URL")
}

const origin = (name: string, raw: string): string => {
  try {
    const url = new URL(raw)
    if ((url.protocol === "http:" || url.protocol === "https:") && url.origin === raw.replace(/\/+$/, ""))
      return url.origin
  } catch {}
  return invalid(name, raw, "http(s) origins (scheme://host[:port]), separated by commas")
}

/** `${dataDir}/secret`, created (32 random bytes, hex, mode 0600) on first use. */
export const persistentStudioSecret = (dataDir: string): string => {
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

export const loadStudioConfig = (env: Env): StudioConfig => {
  const nodeEnv = str(env, "NODE_ENV") ?? "development"
  const port = int(env, "STUDIO_PORT", DEFAULT_PORT, 0, 65_535)
  const host = str(env, "STUDIO_HOST") ?? "0.0.0.0"
  const publicUrl = httpUrl("STUDIO_PUBLIC_URL", str(env, "STUDIO_PUBLIC_URL") ?? `http://localhost:${port}`)
  const databaseUrl = str(env, "STUDIO_DATABASE_URL")
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl))
    invalid("STUDIO_DATABASE_URL", databaseUrl, "a postgres:// or postgresql:// URL")
  const dataDir = str(env, "STUDIO_DATA_DIR") ?? join(".data", "studio")
  const configuredSecret = str(env, "STUDIO_SECRET")
  if (configuredSecret !== undefined && configuredSecret.length < 32)
    invalid("STUDIO_SECRET", "(hidden)", "at least 32 characters")
  const walletUrl = httpUrl(
    "STUDIO_WALLET_URL",
    str(env, "STUDIO_WALLET_URL") ?? "http://localhost:8080/api/games/wallet/studio",
  )
  const ancestorsRaw = str(env, "STUDIO_FRAME_ANCESTORS")
  const frameAncestors =
    ancestorsRaw === undefined
      ? []
      : ancestorsRaw
          .split(",")
          .map((o) => o.trim())
          .filter((o) => o !== "")
          .map((o) => origin("STUDIO_FRAME_ANCESTORS", o))
  const logLevelRaw = str(env, "STUDIO_LOG_LEVEL") ?? "Info"
  const logLevel =
    logLevels.find((l) => l.toLowerCase() === logLevelRaw.toLowerCase()) ??
    invalid("STUDIO_LOG_LEVEL", logLevelRaw, logLevels.join(", "))
  const sandbox = onOff(env, "STUDIO_SANDBOX", nodeEnv !== "production")
  const betTimeoutMs = int(env, "STUDIO_BET_TIMEOUT_MS", 8_000, 100, 120_000)
  const retryTimeoutMs = int(env, "STUDIO_RETRY_TIMEOUT_MS", 10_000, 100, 120_000)
  return {
    port,
    host,
    publicUrl,
    databaseUrl,
    schema: STUDIO_SCHEMA,
    dataDir,
    // Generated last: a configuration with a bad value writes nothing.
    secret: configuredSecret ?? persistentStudioSecret(dataDir),
    walletUrl,
    frameAncestors,
    sandbox,
    logLevel,
    nodeEnv,
    betTimeoutMs,
    retryTimeoutMs,
  }
}
