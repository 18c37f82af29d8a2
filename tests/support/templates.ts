/**
 * Databases for tests, made from templates instead of from nothing: every test server used to run
 * initdb (PGlite, in WASM) or an empty CREATE DATABASE and then all the casino's migrations; now
 * each starts from a copy of a database already migrated, once per machine and migration set.
 *
 * - PGlite: a data folder in the OS temp folder, `casino-pglite-<version>-<key>`, copied into the
 *   server's `${DATA_DIR}/pglite` (a file copy). The empty one (initdb only) serves the outside
 *   parties, which migrate their own tables.
 * - PostgreSQL: a database `casino_tpl_<key>` on the admin server, the TEMPLATE of each
 *   `CREATE DATABASE` (a copy made by the server).
 *
 * `<key>` is a hash of the migration files: a new or changed migration makes a new template, so a
 * test never runs on a schema older than the code. The server still runs its migrations and seed at
 * start (they find the work done), so what it checks at start is unchanged. A template appears by an
 * atomic rename once complete, so concurrent workers and test runs never see half of one.
 */
import { createHash, randomBytes } from "node:crypto"
import { cp, readdir, readFile, rename, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import { Duration, Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { makeDbLayer } from "../../lib/db/client.ts"
import { migrate, migrationsDir } from "../../server/db/migrate.ts"

/** The admin database tests create theirs on (`TEST_DATABASE_URL`). */
export const adminDatabaseUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

const once = <A>(make: () => Promise<A>): (() => Promise<A>) => {
  let made: Promise<A> | undefined
  return () => {
    made ??= make()
    return made
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

/** A hash of the casino's migrations (names and contents), 12 hex digits. */
const migrationsKey = once(async () => {
  const hash = createHash("sha256")
  for (const name of (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql")).sort()) {
    hash.update(name)
    hash.update(await readFile(join(migrationsDir, name)))
  }
  return hash.digest("hex").slice(0, 12)
})

const pgliteVersion = once(async () => {
  const pkg = JSON.parse(
    await readFile(new URL("../../node_modules/@electric-sql/pglite/package.json", import.meta.url), "utf8"),
  ) as { version: string }
  return pkg.version
})

/** Builds `dir` with `build(into)` into a temporary sibling, then renames it in place (first one wins). */
const buildOnce = async (dir: string, ready: string, build: (into: string) => Promise<void>) => {
  if (await exists(join(dir, ready))) return dir
  const building = `${dir}.building-${process.pid}-${randomBytes(4).toString("hex")}`
  try {
    await build(building)
    await rename(building, dir)
  } catch (error) {
    await rm(building, { recursive: true, force: true })
    // Another worker or run won the race: its template is as good as ours.
    if (await exists(join(dir, ready))) return dir
    throw error
  }
  return dir
}

/** An initialised, empty PGlite folder (initdb only): what the parties start from. */
export const emptyPgliteTemplate = once(async () =>
  buildOnce(join(tmpdir(), `casino-pglite-template-${await pgliteVersion()}`), "PG_VERSION", async (into) => {
    const db = await PGlite.create({ dataDir: into })
    await db.close()
  }),
)

/** A PGlite data folder holding the casino's database, migrated (a DATA_DIR with its `pglite/`). */
export const migratedPgliteTemplate = once(async () =>
  buildOnce(
    join(tmpdir(), `casino-pglite-${await pgliteVersion()}-${await migrationsKey()}`),
    "pglite/PG_VERSION",
    async (into) => {
      await cp(await emptyPgliteTemplate(), join(into, "pglite"), { recursive: true })
      await Effect.runPromise(
        migrate().pipe(Effect.provide(makeDbLayer({ databaseUrl: undefined, dataDir: into })), Effect.scoped),
      )
      await rm(join(into, "pglite.lock"), { force: true })
    },
  ),
)

/** Puts the casino's migrated PGlite database at `${dataDir}/pglite`. */
export const seedMigratedPglite = async (dataDir: string): Promise<void> => {
  await cp(join(await migratedPgliteTemplate(), "pglite"), join(dataDir, "pglite"), { recursive: true })
}

/** Puts an empty PGlite database at `${dir}/pglite` (an outside party's folder). */
export const seedEmptyPglite = async (dir: string): Promise<void> => {
  await cp(await emptyPgliteTemplate(), join(dir, "pglite"), { recursive: true })
}

const connection = (url: string) =>
  PgClient.layer({
    url: Redacted.make(url),
    maxConnections: 1,
    connectTimeout: Duration.seconds(3),
    applicationName: "casino-tests",
  })

/** Runs SQL on a short-lived single connection; `$1…` placeholders; rows keep their column names. */
export const runSql = <A extends object = Record<string, unknown>>(
  url: string,
  text: string,
  params: ReadonlyArray<unknown> = [],
): Promise<ReadonlyArray<A>> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return yield* sql.unsafe<A>(text, params)
    }).pipe(Effect.provide(connection(url)), Effect.scoped, Effect.timeout(Duration.seconds(60))),
  )

/** Runs SQL on the admin database. */
export const adminSql = (text: string): Promise<ReadonlyArray<Record<string, unknown>>> =>
  runSql(adminDatabaseUrl, text)

const urlOf = (name: string) => {
  const url = new URL(adminDatabaseUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/** The migrated PostgreSQL template's name, made on first need. */
export const postgresTemplate = once(async () => {
  const name = `casino_tpl_${await migrationsKey()}`
  const found = await adminSql(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)
  if (found.length > 0) return name
  const building = `${name}_b${randomBytes(4).toString("hex")}`
  await adminSql(`CREATE DATABASE ${building}`)
  try {
    await Effect.runPromise(migrate().pipe(Effect.provide(connection(urlOf(building))), Effect.scoped))
    // A template takes no connections of its own: the pool above is closed by now.
    await adminSql(`ALTER DATABASE ${building} RENAME TO ${name}`)
  } catch (error) {
    await adminSql(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`)
    const won = await adminSql(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)
    if (won.length === 0) throw error
  }
  return name
})

export interface TestDatabase {
  readonly name: string
  readonly url: string
  readonly drop: () => Promise<void>
}

/**
 * A new database `<prefix>_<random>` on the admin server: a copy of the migrated template
 * (`migrated`, the casino's own database) or empty (a party's, a process that migrates itself).
 */
export const createDatabase = async (prefix: string, options: { readonly migrated?: boolean } = {}) => {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`
  const template = options.migrated === true ? ` TEMPLATE ${await postgresTemplate()}` : ""
  await adminSql(`CREATE DATABASE ${name}${template}`)
  return {
    name,
    url: urlOf(name),
    drop: async () => {
      await adminSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  } satisfies TestDatabase
}
