/**
 * The composition root: the casino and, beside it, a sandbox of each outside party it talks to
 * (the chains, the payment gateways, the game studio, the on-ramp), each on its own port with its
 * own storage, wired to the casino only through the variables an operator would set for the real
 * provider. `npm start` (compose/start.ts), the end-to-end tests and the benchmarks start it.
 *
 * Sandboxes are on by default outside production and refused in production: there the operator
 * points the casino at the real providers and runs `node server/main.ts`, or this with every
 * sandbox off.
 */
import { freePort } from "../lib/serve.ts"
import { makeServer, type RunningServer } from "../server/app.ts"
import { type AppConfigShape, ConfigError, loadConfig } from "../server/config.ts"
import { chainsParty } from "./parties/chains.ts"
import { onrampParty } from "./parties/onramp.ts"
import { payments } from "./parties/payments.ts"
import { studioParty } from "./parties/studio.ts"
import type { LocalContext, Party, PartyName, StartedParty } from "./party.ts"

type Env = Readonly<Record<string, string | undefined>>

/** Every party, in start order (a later one may use an earlier one: the on-ramp pays on the chains). */
export const parties: ReadonlyArray<Party> = [chainsParty, payments, studioParty, onrampParty]

export interface LocalStack {
  readonly casino: RunningServer
  readonly config: AppConfigShape
  readonly parties: ReadonlyMap<PartyName, StartedParty>
  /** The casino first (no new work), then the parties in reverse order. */
  readonly close: () => Promise<void>
}

const value = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim()
  return v === undefined || v === "" ? undefined : v
}

/** Whether a party's sandbox runs: its switch, else on outside production. Refused in production. */
export const sandboxOn = (env: Env, party: Pick<Party, "switch">): boolean => {
  const production = value(env, "NODE_ENV") === "production"
  const raw = value(env, party.switch)?.toLowerCase()
  if (raw !== undefined && !["on", "off"].includes(raw))
    throw new ConfigError(`${party.switch}=${JSON.stringify(raw)} is invalid: expected "on" or "off"`)
  const on = raw === undefined ? !production : raw === "on"
  if (on && production)
    throw new ConfigError(
      `${party.switch}=on is not allowed with NODE_ENV=production: a sandbox is test money; ` +
        `set ${party.switch}=off and configure the real provider`,
    )
  return on
}

const portOf = (env: Env, name: string, fallback: number): number => {
  const raw = value(env, name)
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 0 || n > 65_535)
    throw new ConfigError(`${name}=${JSON.stringify(raw)} is invalid: expected a port 0…65535`)
  return n
}

export interface StartOptions {
  /** Only these parties (tests); default: every party whose switch is on. */
  readonly only?: ReadonlyArray<PartyName>
  /** Fields of the casino's loaded configuration to replace (tests). */
  readonly overrides?: Partial<AppConfigShape>
}

/** The parties started for a casino, and the environment that tells the casino about them. */
export interface StartedParties {
  /** The casino's environment: the given one, its PORT and PUBLIC_URL, and each party's variables. */
  readonly casinoEnv: Readonly<Record<string, string | undefined>>
  readonly started: ReadonlyMap<PartyName, StartedParty>
  /** In reverse start order. */
  readonly close: () => Promise<void>
}

/**
 * Starts the parties that are on (or `only`) for a casino reached at PUBLIC_URL and INTERNAL_URL —
 * one process, or a cluster's proxy (scripts/cluster.ts) — and returns what the casino must be told.
 */
export const startParties = async (
  env: Env,
  options: Pick<StartOptions, "only"> = {},
): Promise<StartedParties & { readonly casinoPort: number }> => {
  // Validated as the casino validates it (a bad variable fails before anything starts).
  const base = loadConfig(env)
  const chosen = parties.filter((p) =>
    options.only === undefined ? sandboxOn(env, p) : options.only.includes(p.name),
  )
  // SANDBOX_PORTS=auto (tests, several stacks on one machine): every party on a kernel-chosen port;
  // else the casino's + 1…5, or kernel-chosen too when the casino's is (PORT=0).
  const portsRaw = value(env, "SANDBOX_PORTS") ?? "next"
  if (portsRaw !== "auto" && portsRaw !== "next")
    throw new ConfigError(`SANDBOX_PORTS=${JSON.stringify(portsRaw)} is invalid: expected "auto" or "next"`)
  const kernelPorts = base.port === 0 || portsRaw === "auto"
  // A kernel-chosen casino port is chosen NOW: every party is told the casino's address.
  const casinoPort = base.port === 0 && chosen.length > 0 ? await freePort() : base.port
  const publicUrl = value(env, "PUBLIC_URL") ?? `http://localhost:${casinoPort}`
  const casinoEnv: Record<string, string | undefined> = {
    ...env,
    PORT: String(casinoPort),
    PUBLIC_URL: publicUrl,
  }
  const config = loadConfig(casinoEnv)
  const context: LocalContext = {
    nodeEnv: config.nodeEnv,
    logLevel: config.logLevel,
    host: config.host,
    publicHostname: new URL(config.publicUrl).hostname,
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    casino: { publicUrl: config.publicUrl, origins: config.allowedOrigins, internalUrl: config.internalUrl },
    kernelPorts,
    env,
  }
  const started = new Map<PartyName, StartedParty>()
  const close = async () => {
    for (const p of [...started.values()].reverse()) await p.close().catch(() => undefined)
  }
  try {
    for (const party of chosen) {
      const fallback = kernelPorts ? 0 : party.defaultPort(casinoPort)
      const asked = portOf(env, `${party.switch}_PORT`, fallback)
      // A party's public URL names its port: a kernel-chosen one is chosen now.
      const port = asked === 0 ? await freePort() : asked
      started.set(party.name, await party.start(context, port, started))
    }
  } catch (error) {
    await close()
    throw error
  }
  for (const p of started.values()) {
    for (const [k, v] of Object.entries(p.casinoEnv)) if (value(env, k) === undefined) casinoEnv[k] = v
  }
  // The sandboxes' pages are plain http on this machine: the player app may frame them.
  const framed = [...started.values()].map((p) => new URL(p.publicUrl).origin)
  if (value(env, "FRAME_ORIGINS") === undefined && framed.length > 0)
    casinoEnv.FRAME_ORIGINS = framed.join(",")
  return { casinoEnv, started, close, casinoPort }
}

/** Starts the parties that are on, then the casino told about them. */
export const startLocal = async (env: Env, options: StartOptions = {}): Promise<LocalStack> => {
  const withParties = await startParties(env, options)
  try {
    const finalConfig = { ...loadConfig(withParties.casinoEnv), ...options.overrides }
    const casino = await makeServer(finalConfig)
    let closing: Promise<void> | undefined
    return {
      casino,
      config: finalConfig,
      parties: withParties.started,
      close: () => {
        closing ??= casino.close().finally(withParties.close)
        return closing
      },
    }
  } catch (error) {
    await withParties.close()
    throw error
  }
}
