/**
 * What the harnesses of the stand-alone providers share (payment-sandbox-harness.ts,
 * game-studio-harness.ts): a provider's own server on PGlite (a copy of a once-built empty data
 * directory) or on a fresh PostgreSQL database, its config on an ephemeral port, SQL on its
 * database, and one close that stops the server, drops the database and removes the data directory.
 */
import { randomBytes } from "node:crypto"
import { cp, mkdtemp, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import { Duration, Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { type AppConfigShape, loadConfig } from "../../server/config.ts"
import { freePort } from "../support/server.ts"
import { queryThrough, testDatabaseUrl } from "./harness.ts"

export type Backend = "pglite" | "postgres"

const withAdmin = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.runPromise(
    effect.pipe(
      Effect.provide(
        PgClient.layer({
          url: Redacted.make(testDatabaseUrl),
          maxConnections: 1,
          connectTimeout: Duration.seconds(3),
        }),
      ),
      Effect.scoped,
    ),
  )

/** A fresh database on the test PostgreSQL; dropped by the returned function. */
export const createPostgresDatabase = async (): Promise<{ url: string; drop: () => Promise<void> }> => {
  const name = `casino_sandbox_${randomBytes(6).toString("hex")}`
  await withAdmin(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE DATABASE ${name}`)))
  const url = new URL(testDatabaseUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () =>
      withAdmin(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
        ),
      ).then(() => undefined),
  }
}

/**
 * An empty PGlite data directory, built once per machine under `name` (initdb is the slow part):
 * each test copies it. Built aside and moved in, so parallel workers never see half of one.
 */
const pgliteTemplate = async (name: string): Promise<string> => {
  const dir = join(tmpdir(), `casino-pglite-template-${name}`)
  const ready = await stat(join(dir, "PG_VERSION")).then(
    () => true,
    () => false,
  )
  if (ready) return dir
  const building = `${dir}.building-${process.pid}-${randomBytes(4).toString("hex")}`
  const db = await PGlite.create({ dataDir: building })
  await db.close()
  await cp(building, dir, { recursive: true, force: false, errorOnExist: false })
  await rm(building, { recursive: true, force: true })
  return dir
}

/** A provider's own storage for a test: a PGlite folder, or a fresh PostgreSQL database. */
export interface ProviderStorage {
  /** The provider's data folder (its PGlite in `pglite/` when `databaseUrl` is undefined). */
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  /** Drops the database it created and removes the folder (once). */
  readonly close: () => Promise<void>
}

/**
 * Storage for a provider that runs on its own configuration (providers/<party>/config.ts): a copy
 * of the once-built empty PGlite under `name`, or a fresh database (or `databaseUrl`, shared: a
 * second process on the same data) where the provider keeps its tables in its own schema.
 */
export const providerStorage = async (options: {
  readonly backend: Backend
  readonly name: string
  readonly databaseUrl?: string
}): Promise<ProviderStorage> => {
  const dataDir = await mkdtemp(join(tmpdir(), `casino-${options.name}-test-`))
  let drop: (() => Promise<void>) | undefined
  let databaseUrl = options.databaseUrl
  if (options.backend === "postgres" && databaseUrl === undefined) {
    const db = await createPostgresDatabase()
    databaseUrl = db.url
    drop = db.drop
  } else if (options.backend === "pglite") {
    await cp(await pgliteTemplate(options.name), join(dataDir, "pglite"), { recursive: true })
  }
  let closing: Promise<void> | undefined
  return {
    dataDir,
    databaseUrl,
    close: () => {
      closing ??= (async () => {
        if (drop !== undefined) await drop()
        await rm(dataDir, { recursive: true, force: true })
      })()
      return closing
    },
  }
}

/** What the providers' stand-alone servers offer (their own server, e.g. providers/payment-sandbox/server.ts). */
export interface StandaloneServer {
  readonly url: string
  readonly close: () => Promise<void>
  readonly run: <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => Promise<A>
}

/** Where a stand-alone provider under test listens and keeps its storage. */
export interface StandaloneBase {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  readonly publicUrl: string
  readonly logLevel: string
  readonly databaseUrl: string | undefined
}

export interface StandaloneOptions<S extends StandaloneServer, C = AppConfigShape> {
  readonly backend: Backend
  /** Names the temporary data directory and the PGlite template ("sandbox", "studio"). */
  readonly name: string
  /** The provider's own variables (its secret) and any the test adds. */
  readonly env: Record<string, string>
  readonly logLevel: string
  /** Share an existing PostgreSQL database (a second process on the same data). */
  readonly databaseUrl?: string
  /**
   * The provider's configuration from its own variables (default: the casino's loadConfig over
   * PORT, HOST, DATA_DIR, PUBLIC_URL, LOG_LEVEL, DATABASE_URL and `env`).
   */
  readonly configure?: (base: StandaloneBase, env: Record<string, string>) => C
  readonly make: (config: C) => Promise<S>
}

export interface Standalone<S extends StandaloneServer, C = AppConfigShape> {
  readonly config: C
  readonly server: S
  readonly query: <T>(text: string, params?: ReadonlyArray<unknown>) => Promise<Array<T>>
  /** Stops the server, then drops the database it created and its data directory (once). */
  readonly close: () => Promise<void>
}

const casinoConfigure = (base: StandaloneBase, env: Record<string, string>): AppConfigShape =>
  loadConfig({
    PORT: String(base.port),
    HOST: base.host,
    DATA_DIR: base.dataDir,
    PUBLIC_URL: base.publicUrl,
    LOG_LEVEL: base.logLevel,
    NODE_ENV: "test",
    ...(base.databaseUrl === undefined ? {} : { DATABASE_URL: base.databaseUrl }),
    ...env,
  })

export const startStandalone = async <S extends StandaloneServer, C = AppConfigShape>(
  options: StandaloneOptions<S, C>,
): Promise<Standalone<S, C>> => {
  const dataDir = await mkdtemp(join(tmpdir(), `casino-${options.name}-test-`))
  let drop: (() => Promise<void>) | undefined
  let databaseUrl = options.databaseUrl
  if (options.backend === "postgres" && databaseUrl === undefined) {
    const db = await createPostgresDatabase()
    databaseUrl = db.url
    drop = db.drop
  } else if (options.backend === "pglite") {
    await cp(await pgliteTemplate(options.name), join(dataDir, "pglite"), { recursive: true })
  }
  const port = await freePort()
  const base: StandaloneBase = {
    port,
    host: "127.0.0.1",
    dataDir,
    publicUrl: `http://127.0.0.1:${port}`,
    logLevel: process.env.LOG_LEVEL ?? options.logLevel,
    databaseUrl,
  }
  const configure =
    options.configure ?? (casinoConfigure as unknown as (b: StandaloneBase, e: Record<string, string>) => C)
  const config = configure(base, options.env)
  const server = await options.make(config)
  const query = queryThrough(server.run)
  let closing: Promise<void> | undefined
  return {
    config,
    server,
    query,
    close: () => {
      closing ??= (async () => {
        await server.close()
        if (drop !== undefined) await drop()
        await rm(dataDir, { recursive: true, force: true })
      })()
      return closing
    },
  }
}
