/**
 * SQL against the e2e server's PostgreSQL database, for arranging preconditions the UI cannot
 * reach (e.g. locking an account). One short-lived connection per call.
 */
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"

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
        PgClient.layer({ url: Redacted.make(url), maxConnections: 1, applicationName: "casino-e2e" }),
      ),
      Effect.timeout(Duration.seconds(15)),
    ),
  )

/** The same server URL with another database name. */
export const withDatabase = (url: string, database: string): string => {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}
