/**
 * Server test harness: runs the REAL server (`makeServer`) in the test process on a free port with a
 * temporary data folder, against either backend:
 *
 * - `pglite`: the embedded database in `${dataDir}/pglite` (always available);
 * - `postgres`: a fresh database `casino_test_<random>` created on `TEST_DATABASE_URL`
 *   (default postgres://postgres@127.0.0.1:5432/postgres) and dropped at `close()`.
 *
 * `describeBackends(name, fn)` declares the same suite for both. When PostgreSQL cannot be reached
 * the postgres variant is skipped with a printed notice, except with CI=true, where it FAILS.
 *
 * Defaults for tests: captcha ON with a tiny cost (pass `{ captchaEnabled: false }` when a test
 * is not about the captcha), LOG_LEVEL Warn (set LOG_LEVEL=Info to see request lines),
 * PUBLIC_URL = the server's real URL (so e-mail links and the Origin allow-list match it).
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, it } from "vitest"
import { startLocal } from "../../compose/local.ts"
import type { PartyName, StartedParty } from "../../compose/party.ts"
import type { RunningServer, ServerServices } from "../../server/app.ts"
import type { AppConfigShape } from "../../server/config.ts"
import { freePort } from "../support/server.ts"
import {
  adminDatabaseUrl,
  adminSql,
  createDatabase,
  seedEmptyPglite,
  seedMigratedPglite,
  type TestDatabase,
} from "../support/templates.ts"

/**
 * Raw SQL through a running server's own pool (its `run`: the casino's, a provider's standalone
 * server's), rows as plain objects: how tests seed and inspect the database on either backend.
 */
export const queryThrough =
  (run: <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => Promise<A>) =>
  <T>(text: string, params: ReadonlyArray<unknown> = []): Promise<Array<T>> =>
    run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql.unsafe<T & object>(text, params)
        return [...rows] as Array<T>
      }),
    )
export type Backend = "pglite" | "postgres"

export interface TestServer {
  readonly backend: Backend
  /** Base URL, e.g. http://127.0.0.1:40123 (also the configured PUBLIC_URL). */
  readonly url: string
  readonly config: AppConfigShape
  readonly dataDir: string
  /** Where the mailer writes .eml files when no SMTP_URL is set. */
  readonly outboxDir: string
  /** Raw SQL through the server's own pool; `$1…` placeholders. Rows keep their snake_case names. */
  readonly query: <T = Record<string, unknown>>(
    text: string,
    params?: ReadonlyArray<unknown>,
  ) => Promise<Array<T>>
  /** Same as `query` (alias). */
  readonly sql: <T = Record<string, unknown>>(
    text: string,
    params?: ReadonlyArray<unknown>,
  ) => Promise<Array<T>>
  /** Runs an Effect with the server's services (SqlClient, AppConfig, RateLimiter, Geo…). */
  readonly run: RunningServer["run"]
  /** The outside parties' sandboxes started beside it (`options.parties`), by name. */
  readonly parties: ReadonlyMap<PartyName, StartedParty>
  readonly close: () => Promise<void>
  /** The casino's SIGTERM path (`RunningServer.drain`); its database stays until `close`. */
  readonly drain: (settleMs: number) => Promise<void>
}

export const testDatabaseUrl = adminDatabaseUrl

const probePostgres = async (): Promise<string | undefined> => {
  try {
    await adminSql("SELECT 1")
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

let postgresProblem: Promise<string | undefined> | undefined
/** Why PostgreSQL is unusable, or undefined when it answers. Probed once per test file. */
export const postgresUnavailable = (): Promise<string | undefined> => {
  postgresProblem ??= probePostgres()
  return postgresProblem
}

/** Whether starting the server failed because its port was taken meanwhile. */
const addressInUse = (error: unknown): boolean => {
  try {
    return JSON.stringify(error).includes("EADDRINUSE") || String(error).includes("EADDRINUSE")
  } catch {
    return String(error).includes("EADDRINUSE")
  }
}

export interface TestServerOptions {
  readonly backend?: Backend
  readonly env?: Record<string, string>
  /**
   * Sandboxes of outside parties to start beside the casino (compose/local.ts), each with its own
   * storage: a PGlite folder under the server's data folder, or its own schema in the test database.
   */
  readonly parties?: ReadonlyArray<PartyName>
}

/** Starts the real server for a test. `overrides` replace fields of the loaded configuration. */
export const startTestServer = async (
  overrides: Partial<AppConfigShape> = {},
  options: TestServerOptions = {},
): Promise<TestServer> => {
  const backend = options.backend ?? "pglite"
  const dataDir = await mkdtemp(join(tmpdir(), "casino-test-"))
  let database: TestDatabase | undefined
  if (backend === "postgres") {
    const problem = await postgresUnavailable()
    if (problem !== undefined) throw new Error(`PostgreSQL at ${testDatabaseUrl} is unreachable: ${problem}`)
    database = await createDatabase("casino_test", { migrated: true })
  } else {
    // The casino's folder and each party's (compose/local.ts: `${DATA_DIR}/<party>/pglite`).
    await seedMigratedPglite(dataDir)
    for (const party of options.parties ?? []) await seedEmptyPglite(join(dataDir, party))
  }
  const envFor = (port: number): Record<string, string> => ({
    PORT: String(port),
    // The parties on kernel-chosen ports: several test servers run at once.
    SANDBOX_PORTS: "auto",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    CAPTCHA_COST: "10",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "Warn",
    NODE_ENV: "test",
    ...(database === undefined ? {} : { DATABASE_URL: database.url }),
    ...options.env,
  })
  // The port is chosen before listening (the config names it: PUBLIC_URL, INTERNAL_URL), so another
  // process may take it in between: then try another free port, a few times.
  const start = async (port: number) => {
    const stack = await startLocal(envFor(port), { only: options.parties ?? [], overrides })
    return { running: stack.casino, config: stack.config, parties: stack.parties, close: stack.close }
  }
  let started: Awaited<ReturnType<typeof start>> | undefined
  for (let attempt = 1; started === undefined; attempt++) {
    try {
      started = await start(overrides.port ?? (await freePort()))
    } catch (error) {
      if (overrides.port === undefined && attempt < 5 && addressInUse(error)) continue
      if (database !== undefined) await database.drop().catch(() => undefined)
      await rm(dataDir, { recursive: true, force: true })
      throw error
    }
  }
  const { running, config, parties } = started
  const stop = started.close
  const query = queryThrough(running.run)
  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= (async () => {
      await stop()
      if (database !== undefined) await database.drop()
      await rm(dataDir, { recursive: true, force: true })
    })()
    return closing
  }
  return {
    backend,
    url: running.url,
    config,
    dataDir,
    outboxDir: config.mailOutboxDir,
    query,
    sql: query,
    run: <A, E>(effect: Effect.Effect<A, E, ServerServices>) => running.run(effect),
    parties,
    close,
    drain: (settleMs) => running.drain(settleMs),
  }
}

export interface BackendContext {
  readonly backend: Backend
  /** `startTestServer` bound to this backend. */
  readonly start: (
    overrides?: Partial<AppConfigShape>,
    options?: Omit<TestServerOptions, "backend">,
  ) => Promise<TestServer>
}

const pgProblem = await postgresUnavailable()
let noticePrinted = false

/**
 * Declares the suite once per backend in `backends`: `${name} [pglite]` and `${name} [postgres]`.
 * With CI=true an unreachable PostgreSQL fails the run; otherwise that variant is skipped.
 */
const describeOnEach = (
  backends: ReadonlyArray<Backend>,
  name: string,
  fn: (ctx: BackendContext) => void,
): void => {
  for (const backend of backends) {
    const ctx: BackendContext = {
      backend,
      start: (overrides, options) => startTestServer(overrides, { ...options, backend }),
    }
    if (backend === "postgres" && pgProblem !== undefined) {
      if (process.env.CI === "true") {
        describe(`${name} [postgres]`, () => {
          it("needs PostgreSQL (CI=true)", () => {
            throw new Error(`PostgreSQL at ${testDatabaseUrl} is unreachable under CI: ${pgProblem}`)
          })
        })
      } else {
        if (!noticePrinted) {
          noticePrinted = true
          console.warn(
            `[tests/server] PostgreSQL at ${testDatabaseUrl} is unreachable (${pgProblem}); ` +
              "skipping the postgres variants. Set TEST_DATABASE_URL or start PostgreSQL to run them.",
          )
        }
        describe.skip(`${name} [postgres]`, () => fn(ctx))
      }
      continue
    }
    describe(`${name} [${backend}]`, () => fn(ctx))
  }
}

/**
 * The suite on both backends, where the database is what is tested: the ledger and money,
 * concurrency, migrations, SQL-heavy repositories, crash durability. Say so in the file's header.
 */
export const describeBackends = (name: string, fn: (ctx: BackendContext) => void): void =>
  describeOnEach(["pglite", "postgres"], name, fn)

/**
 * The suite on one backend, where the database is not what is tested (HTTP edges, validation,
 * permissions, pages, protocols): the file's header says which and why. PostgreSQL is the usual
 * choice (the production database, and the faster to start); PGlite where the embedded default is
 * the point.
 */
export const describeOn = (backend: Backend, name: string, fn: (ctx: BackendContext) => void): void =>
  describeOnEach([backend], name, fn)
