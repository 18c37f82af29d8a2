/**
 * The payment sandbox's own settings, from its own variables (prefixed `PAYMENT_SANDBOX_`), read once
 * at start. A bad value throws a ConfigError naming the variable (lib/env.ts). docs/payment-sandbox.md lists them.
 */
import { join } from "node:path"
import { Context, type LogLevel } from "effect"
import {
  type Env,
  httpUrl,
  invalid,
  logLevel as logLevelOf,
  origins,
  persistentSecret,
  port as portOf,
  postgresUrl,
  secret,
  text,
} from "../../lib/env.ts"
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

export const defaultPort = 8081

/** Parses the sandbox's variables; writes its generated secret into its data folder when unset. */
const P = "PAYMENT_SANDBOX_"

export const loadPaymentSandboxConfig = (env: Env): PaymentSandboxConfig => {
  const port = portOf(env, `${P}PORT`, defaultPort)
  const dataDir = text(env, `${P}DATA_DIR`) ?? join(".data", "payments")
  const configuredSecret = secret(env, `${P}SECRET`, 32)
  const rulesRaw = text(env, `${P}GATEWAY_RULES`) ?? ""
  const rules = parseGatewayRules(rulesRaw)
  if (!rules.ok) return invalid(`${P}GATEWAY_RULES`, rulesRaw, rules.error)
  const config = {
    port,
    host: text(env, `${P}HOST`) ?? "0.0.0.0",
    publicUrl: httpUrl(env, `${P}PUBLIC_URL`, `http://localhost:${port}`),
    databaseUrl: postgresUrl(env, `${P}DATABASE_URL`),
    schema: PAYMENT_SANDBOX_SCHEMA,
    dataDir,
    frameAncestors: origins(env, `${P}FRAME_ANCESTORS`, ["http://localhost:8080", "http://127.0.0.1:8080"]),
    logLevel: logLevelOf(env, `${P}LOG_LEVEL`),
    nodeEnv: text(env, `${P}NODE_ENV`) ?? "development",
    gatewayRules: rules.value,
  }
  // Generated last: a configuration with a bad value writes nothing.
  return { ...config, secret: configuredSecret ?? persistentSecret(dataDir) }
}
