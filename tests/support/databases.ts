/**
 * Databases for tests and benchmarks that run the server as a separate PROCESS (tests/support/server.ts):
 * fresh PostgreSQL databases on the local server, and pre-initialised PGlite folders.
 *
 * Same rules as `tests/server/harness.ts` (which serves the in-process tests): the admin URL is
 * `TEST_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/postgres); callers decide what an
 * unreachable PostgreSQL means (skipped locally, a failure with CI=true). No vitest import here, so
 * `bench/` can use it too.
 */
import { randomBytes } from "node:crypto"
import { cp, readFile, rename, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import { Duration, Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"

export const adminDatabaseUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

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
    }).pipe(
      Effect.provide(
        PgClient.layer({
          url: Redacted.make(url),
          maxConnections: 1,
          connectTimeout: Duration.seconds(3),
          applicationName: "casino-tests",
        }),
      ),
      Effect.scoped,
      Effect.timeout(Duration.seconds(30)),
    ),
  )

/** Why PostgreSQL cannot be used, or undefined when it answers. */
export const probePostgres = async (): Promise<string | undefined> => {
  try {
    await runSql(adminDatabaseUrl, "SELECT 1")
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

export interface TestDatabase {
  readonly name: string
  readonly url: string
  readonly drop: () => Promise<void>
}

/** A new, empty database `<prefix>_<random>` on the admin server; `drop()` removes it. */
export const createDatabase = async (prefix: string): Promise<TestDatabase> => {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`
  await runSql(adminDatabaseUrl, `CREATE DATABASE ${name}`)
  const url = new URL(adminDatabaseUrl)
  url.pathname = `/${name}`
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await runSql(adminDatabaseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    },
  }
}

/**
 * A freshly initialised, empty PGlite folder, made once per machine and PGlite version in the OS temp
 * folder (the same one `tests/server/harness.ts` uses): copying it replaces initdb in WASM (≈3–6 s).
 */
let template: Promise<string> | undefined
const pgliteTemplate = (): Promise<string> => {
  template ??= (async () => {
    const pkg = JSON.parse(
      await readFile(
        new URL("../../node_modules/@electric-sql/pglite/package.json", import.meta.url),
        "utf8",
      ),
    ) as { version: string }
    const dir = join(tmpdir(), `casino-pglite-template-${pkg.version}`)
    // The folder appears by an atomic rename once complete, so its PG_VERSION means ready.
    const exists = await stat(join(dir, "PG_VERSION")).then(
      () => true,
      () => false,
    )
    if (exists) return dir
    const building = `${dir}.building-${process.pid}-${randomBytes(4).toString("hex")}`
    const db = await PGlite.create({ dataDir: building })
    await db.close()
    try {
      await rename(building, dir)
    } catch {
      await rm(building, { recursive: true, force: true })
    }
    return dir
  })()
  return template
}

/** Puts an initialised, empty PGlite database at `${dataDir}/pglite` (where the server looks). */
export const seedPgliteDataDir = async (dataDir: string): Promise<void> => {
  await cp(await pgliteTemplate(), join(dataDir, "pglite"), { recursive: true })
}
