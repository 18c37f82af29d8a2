/**
 * Migrations: a folder of ordered plain-SQL files `NNNN_name.sql` (each service has its own: the
 * casino's `server/db/migrations/`, each outside party's beside its code), run once each by the
 * `effect/sql` Migrator (table `schema_migrations` in the service's schema, each migration in a
 * transaction).
 *
 * The PostgreSQL extended protocol takes one statement per query, so a file is split into
 * statements first (aware of quotes, dollar-quoted bodies and comments) and they run in order.
 */
import { readdir, readFile } from "node:fs/promises"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Migrator from "effect/sql/Migrator"

/** Splits SQL text into statements on top-level semicolons. */
export const splitStatements = (text: string): Array<string> => {
  const out: Array<string> = []
  let current = ""
  let i = 0
  const n = text.length
  while (i < n) {
    const ch = text[i] as string
    const next = text[i + 1]
    if (ch === "-" && next === "-") {
      const end = text.indexOf("\n", i)
      i = end === -1 ? n : end + 1
      current += "\n"
      continue
    }
    if (ch === "/" && next === "*") {
      let depth = 1
      i += 2
      while (i < n && depth > 0) {
        if (text[i] === "/" && text[i + 1] === "*") {
          depth++
          i += 2
        } else if (text[i] === "*" && text[i + 1] === "/") {
          depth--
          i += 2
        } else i++
      }
      current += " "
      continue
    }
    if (ch === "'" || ch === '"') {
      let j = i + 1
      while (j < n) {
        if (text[j] === ch) {
          if (text[j + 1] === ch) j += 2
          else break
        } else j++
      }
      current += text.slice(i, j + 1)
      i = j + 1
      continue
    }
    if (ch === "$") {
      const tag = /^\$[A-Za-z_]?[A-Za-z0-9_]*\$/.exec(text.slice(i))
      if (tag !== null) {
        const end = text.indexOf(tag[0], i + tag[0].length)
        const stop = end === -1 ? n : end + tag[0].length
        current += text.slice(i, stop)
        i = stop
        continue
      }
    }
    if (ch === ";") {
      if (current.trim() !== "") out.push(current.trim())
      current = ""
      i++
      continue
    }
    current += ch
    i++
  }
  if (current.trim() !== "") out.push(current.trim())
  return out
}

/** Loads `NNNN_name.sql` files from a folder, sorted by id. */
export const fromSqlDirectory = (dir: string): Migrator.Loader =>
  Effect.tryPromise({
    try: async () => {
      const names = (await readdir(dir)).filter((f) => /^\d+_[\w-]+\.sql$/.test(f))
      const parsed = names.map((file) => {
        const match = /^(\d+)_([\w-]+)\.sql$/.exec(file)
        return { file, id: Number(match?.[1]), name: match?.[2] ?? file }
      })
      parsed.sort((a, b) => a.id - b.id)
      return parsed.map(
        ({ file, id, name }) =>
          [
            id,
            name,
            Effect.succeed(
              Effect.gen(function* () {
                const sql = yield* SqlClient.SqlClient
                const text = yield* Effect.promise(() => readFile(`${dir}/${file}`, "utf8"))
                for (const statement of splitStatements(text)) {
                  yield* sql.unsafe(statement)
                }
              }),
            ),
          ] as const,
      )
    },
    catch: (cause) =>
      new Migrator.MigrationError({
        kind: "ImportError",
        message: `cannot read migrations in ${dir}`,
        cause,
      }),
  })

const run = Migrator.make({})

/** Runs the folder's pending migrations; returns the ones applied now as [id, name]. */
export const migrate = (dir: string) =>
  run({ loader: fromSqlDirectory(dir), table: "schema_migrations" }).pipe(
    Effect.tap((applied) =>
      applied.length === 0
        ? Effect.logDebug("database schema is up to date")
        : Effect.logInfo(`applied migrations: ${applied.map(([id, name]) => `${id}_${name}`).join(", ")}`),
    ),
  )
