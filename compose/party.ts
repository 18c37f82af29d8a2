/**
 * What the composition root knows of an outside party's sandbox: whether it runs, where it
 * listens, how it starts, and what the casino must be told to reach it — the same variables an
 * operator sets for the real provider (PAYMENT_GATEWAYS, GAME_PROVIDERS, ONRAMP_WIDGETS, EVM_RPC_URL…).
 * The casino never learns that a party is a sandbox: it sees an address and keys (test keys begin
 * with `test_`, protocols/keys.ts, which is how it knows to call itself a sandbox and how production
 * refuses them).
 */
import type { LogLevel } from "effect"

export type PartyName = "chains" | "payments" | "onramp" | "studio"

/** What every party is started with. */
export interface LocalContext {
  readonly nodeEnv: string
  readonly logLevel: LogLevel.LogLevel
  /** Listen address of every party (HOST). */
  readonly host: string
  /** The hostname players use (from the casino's PUBLIC_URL): each party's pages are on it, own port. */
  readonly publicHostname: string
  /** DATA_DIR: a party keeps its storage in `${dataDir}/<party>/` (its PGlite, its files). */
  readonly dataDir: string
  /** DATABASE_URL: a party's tables then live in a schema of its own on it. */
  readonly databaseUrl: string | undefined
  readonly casino: {
    /** Where players reach the casino: the origin allowed to frame a party's pages. */
    readonly publicUrl: string
    /** Origins the casino's pages are served at (ALLOWED_ORIGINS): also allowed to frame them. */
    readonly origins: ReadonlyArray<string>
    /** How a party's server calls the casino (webhooks, wallet calls, callbacks). */
    readonly internalUrl: string
  }
  /** Every port is the kernel's choice (PORT=0: tests): a party's second port too (anvil's). */
  readonly kernelPorts: boolean
  /** The process environment: a party's own overrides (its secret, its port). */
  readonly env: Readonly<Record<string, string | undefined>>
}

export interface StartedParty<H = unknown> {
  readonly name: PartyName
  /** Where it listens (loopback for a wildcard host). */
  readonly url: string
  /** Where players' browsers reach its pages. */
  readonly publicUrl: string
  /** What the casino is told about it (merged into the casino's environment). */
  readonly casinoEnv: Readonly<Record<string, string>>
  /** The party's own handle (tests drive it: mine a block, read its tables). */
  readonly handle: H
  readonly close: () => Promise<void>
}

export interface Party<H = unknown> {
  readonly name: PartyName
  /** The variable that turns it on or off (`on`/`off`), e.g. SANDBOX_PAYMENTS. */
  readonly switch: string
  /** Its port when the casino's is `casinoPort` (0 ⇒ 0: the kernel picks), unless `<PREFIX>_PORT` says. */
  readonly defaultPort: (casinoPort: number) => number
  /**
   * Starts it on `port` (never 0: the composition root picks a free one first, since the public URL
   * names it); `started` holds the parties started before it (the on-ramp pays through the chains).
   */
  readonly start: (
    context: LocalContext,
    port: number,
    started: ReadonlyMap<PartyName, StartedParty>,
  ) => Promise<StartedParty<H>>
}

const loopbackTwins: Readonly<Record<string, string>> = { localhost: "127.0.0.1", "127.0.0.1": "localhost" }

/**
 * The origins allowed to frame a party's pages: the casino's origins, and on this machine each
 * loopback origin's twin (a player may open http://127.0.0.1:8080 where PUBLIC_URL says localhost).
 */
export const framingOrigins = (context: LocalContext): ReadonlyArray<string> => {
  const out = new Set<string>()
  for (const origin of [context.casino.publicUrl, ...context.casino.origins]) {
    const url = new URL(origin)
    out.add(url.origin)
    const twin = loopbackTwins[url.hostname]
    if (twin !== undefined) {
      url.hostname = twin
      out.add(url.origin)
    }
  }
  return [...out]
}

/** A party's public address: the players' hostname, its own port. */
export const publicUrlOf = (context: LocalContext, port: number): string => {
  const url = new URL(context.casino.publicUrl)
  // An IPv6 hostname keeps its brackets here.
  return `${url.protocol}//${url.hostname}:${port}`
}
