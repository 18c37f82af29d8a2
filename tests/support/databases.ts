/**
 * Databases for tests and benchmarks that run the server as a separate PROCESS (tests/support/server.ts):
 * fresh PostgreSQL databases on the local server, and pre-initialised PGlite folders.
 *
 * Same rules as `tests/server/harness.ts` (which serves the in-process tests): the admin URL is
 * `TEST_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/postgres); callers decide what an
 * unreachable PostgreSQL means (skipped locally, a failure with CI=true). No vitest import here, so
 * `bench/` can use it too.
 */
import { adminDatabaseUrl, runSql, seedEmptyPglite } from "./templates.ts"

export { adminDatabaseUrl, createDatabase, runSql, type TestDatabase } from "./templates.ts"

/** Why PostgreSQL cannot be used, or undefined when it answers. */
export const probePostgres = async (): Promise<string | undefined> => {
  try {
    await runSql(adminDatabaseUrl, "SELECT 1")
    return undefined
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/** Puts an initialised, empty PGlite database at `${dataDir}/pglite` (where the server looks). */
export const seedPgliteDataDir = (dataDir: string): Promise<void> => seedEmptyPglite(dataDir)
