/**
 * SQL against the e2e server's PostgreSQL database, for arranging preconditions the UI cannot
 * reach (e.g. locking an account). One short-lived connection per call (lib/db/adminSql.ts).
 */
import { runSql as adminSql, withDatabase } from "../../../lib/db/adminSql.ts"

export const runSql = <A extends object = Record<string, unknown>>(
  url: string,
  text: string,
  params: ReadonlyArray<unknown> = [],
): Promise<ReadonlyArray<A>> => adminSql<A>(url, text, params, "casino-e2e")

export { withDatabase }
