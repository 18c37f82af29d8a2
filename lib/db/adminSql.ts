/**
 * SQL on a PostgreSQL server from outside a service: one short-lived connection per call. Used to
 * create or drop whole databases (the cluster's, the e2e run's) and, in tests, to arrange what the
 * UI cannot reach.
 */
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"

export const runSql = <A extends object = Record<string, unknown>>(
  url: string,
  text: string,
  params: ReadonlyArray<unknown> = [],
  applicationName = "casino-admin",
): Promise<ReadonlyArray<A>> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return yield* sql.unsafe<A>(text, params)
    }).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1, applicationName })),
      Effect.timeout(Duration.seconds(15)),
    ),
  )

/** The same server URL with another database name. */
export const withDatabase = (url: string, database: string): string => {
  const u = new URL(url)
  u.pathname = `/${database}`
  return u.toString()
}
