/**
 * The payment sandbox's own settings, from its own variables (prefixed `PAYMENT_SANDBOX_`), read once
 * at start. A bad value throws a plain Error naming the variable. docs/payment-sandbox.md lists them.
 */
import { randomBytes } from "node:crypto"
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Context, type LogLevel } from "effect"
import { type GatewayRule, parseGatewayRules } from "./rules.ts"

/** Its tables' PostgreSQL schema on a shared DATABASE_URL. */
export const PAYMENT_SANDBOX_SCHEMA = "payment_sandbox"

export interface PaymentSandboxConfig {
  readonly port: number
  readonly host: string
  /** Where payers' browsers reach its pages (the page addresses it answers are built from it). */
  readonly publicUrl: string
  /** PostgreSQL URL (its tables in `schema`); undefined ⇒ embedded PGlite in `${dataDir}/pglite`. */
  readonly databaseUrl: string | undefined
  readonly schema: string
  readonly dataDir: string
  /** Every merchant credential derives from it (credentials.ts); the control endpoint's bearer. */
  readonly secret: string
  /** Origins allowed to frame its pages (the merchants' sites), besides its own. */
  readonly frameAncestors: ReadonlyArray<string>
  readonly logLevel: LogLevel.LogLevel
  readonly nodeEnv: string
  /** PAYMENT_SANDBOX_GATEWAY_RULES: gateway code → its initiation rules. */
  readonly gatewayRules: ReadonlyMap<string, ReadonlyArray<GatewayRule>>
}

/** The configuration in the sandbox's context (its services read it). */
export class SandboxConfig extends Context.Service<SandboxConfig, PaymentSandboxConfig>()(
  "payment-sandbox/SandboxConfig",
) {}

type Env = Readonly<Record<string, string | undefined>>

const P = "PAYMENT_SANDBOX_"

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

const invalid = (name: string, value: string, expected: string): never => {
  throw new Error(`${name}=${JSON.stringify(value)} is invalid: expected ${expected}`)
}

const read = (env: Env, name: string): string | undefined => {
  const v = env[`${P}${name}`]?.trim()
  return v === undefined || v === "" ? undefined : v
}

const originOf = (name: string, value: string): string => {
  try {
    const url = new URL(value)
    if (url.protocol === "http:" || url.protocol === "https:") return url.origin
  } catch {}
  return invalid(name, value, "an http(s) URL")
}

/** `${dataDir}/secret`: read, or 32 random bytes (hex, mode 0600) written on first use. */
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

export const defaultPort = 8081

/** Parses the sandbox's variables; writes its generated secret into its data folder when unset. */
export const loadPaymentSandboxConfig = (env: Env): PaymentSandboxConfig => {
  const portRaw = read(env, "PORT")
  const port = portRaw === undefined ? defaultPort : Number(portRaw)
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    invalid(`${P}PORT`, portRaw ?? "", "a port 0…65535")
  const host = read(env, "HOST") ?? "0.0.0.0"
  const publicRaw = read(env, "PUBLIC_URL") ?? `http://localhost:${port}`
  originOf(`${P}PUBLIC_URL`, publicRaw)
  const databaseUrl = read(env, "DATABASE_URL")
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl))
    invalid(`${P}DATABASE_URL`, databaseUrl, "a postgres:// or postgresql:// URL")
  const dataDir = read(env, "DATA_DIR") ?? join(".data", "payments")
  const secretRaw = read(env, "SECRET")
  if (secretRaw !== undefined && secretRaw.length < 32)
    invalid(`${P}SECRET`, "(hidden)", "at least 32 characters")
  const ancestorsRaw = read(env, "FRAME_ANCESTORS") ?? "http://localhost:8080,http://127.0.0.1:8080"
  const frameAncestors = ancestorsRaw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((s) => originOf(`${P}FRAME_ANCESTORS`, s))
  const logRaw = read(env, "LOG_LEVEL") ?? "Info"
  const logLevel = logLevels.find((l) => l.toLowerCase() === logRaw.toLowerCase())
  if (logLevel === undefined) return invalid(`${P}LOG_LEVEL`, logRaw, logLevels.join(", "))
  const rulesRaw = read(env, "GATEWAY_RULES") ?? ""
  const rules = parseGatewayRules(rulesRaw)
  if (!rules.ok) return invalid(`${P}GATEWAY_RULES`, rulesRaw, rules.error)
  return {
    port,
    host,
    publicUrl: publicRaw.replace(/\/+$/, ""),
    databaseUrl,
    schema: PAYMENT_SANDBOX_SCHEMA,
    dataDir,
    secret: secretRaw ?? persistentSecret(dataDir),
    frameAncestors,
    logLevel,
    nodeEnv: read(env, "NODE_ENV") ?? "development",
    gatewayRules: rules.value,
  }
}
