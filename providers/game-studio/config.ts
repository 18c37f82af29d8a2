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
 *   STUDIO_SESSION_SECONDS  86400                     a play session's lifetime from its launch; a mines
 *                                                     round left open longer is settled by the sweep
 *   STUDIO_CRASH_BETTING_MS 5000                      multiplayer crash: the betting phase of a game
 *   STUDIO_CRASH_BUSTED_MS  3000                      multiplayer crash: the pause after the bust
 *
 * A bad value throws a ConfigError naming the variable (lib/env.ts).
 */
import { join } from "node:path"
import type { LogLevel } from "effect"
import {
  bool,
  type Env,
  httpUrl,
  int,
  logLevel as logLevelOf,
  origins,
  persistentSecret,
  port as portOf,
  postgresUrl,
  secret,
  text,
} from "../../lib/env.ts"

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
  /** A play session's lifetime; also how long a mines round may stay open (minesRounds.ts). */
  readonly sessionSeconds: number
  /** Multiplayer crash (crash/engine.ts): how long bets are taken, how long the bust shows. */
  readonly crashBettingMs: number
  readonly crashBustedMs: number
}

export const loadStudioConfig = (env: Env): StudioConfig => {
  const nodeEnv = text(env, "NODE_ENV") ?? "development"
  const port = portOf(env, "STUDIO_PORT", DEFAULT_PORT)
  const publicUrl = httpUrl(env, "STUDIO_PUBLIC_URL", `http://localhost:${port}`)
  const databaseUrl = postgresUrl(env, "STUDIO_DATABASE_URL")
  const dataDir = text(env, "STUDIO_DATA_DIR") ?? join(".data", "studio")
  const configuredSecret = secret(env, "STUDIO_SECRET", 32)
  const walletUrl = httpUrl(env, "STUDIO_WALLET_URL", "http://localhost:8080/api/games/wallet/studio")
  const frameAncestors = origins(env, "STUDIO_FRAME_ANCESTORS", [])
  const logLevel = logLevelOf(env, "STUDIO_LOG_LEVEL")
  const sandbox = bool(env, "STUDIO_SANDBOX", nodeEnv !== "production")
  const betTimeoutMs = int(env, "STUDIO_BET_TIMEOUT_MS", 8_000, 100, 120_000)
  const retryTimeoutMs = int(env, "STUDIO_RETRY_TIMEOUT_MS", 10_000, 100, 120_000)
  // At most a week: the casino's own game sessions last 24 h (docs/game-wallet-protocol.md).
  const sessionSeconds = int(env, "STUDIO_SESSION_SECONDS", 86_400, 1, 604_800)
  const crashBettingMs = int(env, "STUDIO_CRASH_BETTING_MS", 5_000, 200, 120_000)
  const crashBustedMs = int(env, "STUDIO_CRASH_BUSTED_MS", 3_000, 100, 120_000)
  return {
    port,
    host: text(env, "STUDIO_HOST") ?? "0.0.0.0",
    publicUrl,
    databaseUrl,
    schema: STUDIO_SCHEMA,
    dataDir,
    // Generated last: a configuration with a bad value writes nothing.
    secret: configuredSecret ?? persistentSecret(dataDir),
    walletUrl,
    frameAncestors,
    sandbox,
    logLevel,
    nodeEnv,
    betTimeoutMs,
    retryTimeoutMs,
    sessionSeconds,
    crashBettingMs,
    crashBustedMs,
  }
}
