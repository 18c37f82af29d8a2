/**
 * The database switch: PostgreSQL when `DATABASE_URL` is set, otherwise an embedded PGlite kept in
 * `${dataDir}/pglite` (persisted across restarts). Both are reached through the same `PgClient`
 * from `@effect/sql-pg`, so every query, migration and transaction is the same code.
 *
 * Name transforms: NONE. Column names are snake_case in SQL and rows come back with the same
 * snake_case keys; write `SELECT user_id AS "userId"` where code wants camelCase. (Explicit beats
 * magic: a transform would also rewrite jsonb keys and identifiers in raw SQL.)
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import { Effect, type Layer, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import { ConnectionError, SqlError } from "effect/sql/SqlError"
import type { AppConfigShape } from "../config.ts"
import { pgliteStream } from "./pgliteStream.ts"

export type DbLayer = Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, SqlError>

/** Whether a process with this pid is running (signal 0 probes without signalling). */
const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * One process per embedded database: `${dataDir}/pglite.lock` holds the owner's pid. A lock left by
 * a dead process is taken over; a live owner makes the start fail with a clear message.
 */
const lockedHere = new Set<string>()

const takeLock = (lockFile: string): void => {
  if (lockedHere.has(lockFile)) {
    throw new Error(`the embedded database ${dirname(lockFile)}/pglite is already open in this process`)
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, `${process.pid}\n`, { flag: "wx" })
      lockedHere.add(lockFile)
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      const owner = Number.parseInt(readFileSync(lockFile, "utf8"), 10)
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `the embedded database ${dirname(lockFile)}/pglite is in use by process ${owner}; ` +
            "run one server per DATA_DIR, or set DATABASE_URL to share a PostgreSQL",
        )
      }
      rmSync(lockFile, { force: true })
    }
  }
  throw new Error(`cannot lock ${lockFile}`)
}

const releaseLock = (lockFile: string): void => {
  lockedHere.delete(lockFile)
  rmSync(lockFile, { force: true })
}

/** Opens (or creates) the embedded database; closes it when the layer's scope ends. */
const acquirePglite = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const dir = join(dataDir, "pglite")
        mkdirSync(dir, { recursive: true })
        const lockFile = join(dataDir, "pglite.lock")
        takeLock(lockFile)
        try {
          return { db: await PGlite.create({ dataDir: dir }), lockFile }
        } catch (error) {
          releaseLock(lockFile)
          throw error
        }
      },
      catch: (cause) =>
        new SqlError({
          reason: new ConnectionError({
            cause,
            message: cause instanceof Error ? cause.message : String(cause),
            operation: "connect",
          }),
        }),
    }),
    ({ db, lockFile }) =>
      Effect.promise(async () => {
        await db.close()
        releaseLock(lockFile)
      }),
  )

export const makeDbLayer = (config: Pick<AppConfigShape, "databaseUrl" | "dataDir">): DbLayer => {
  if (config.databaseUrl !== undefined) {
    return PgClient.layer({
      url: Redacted.make(config.databaseUrl),
      maxConnections: 10,
      applicationName: "casino",
    })
  }
  return PgClient.layerFrom(
    Effect.gen(function* () {
      const { db } = yield* acquirePglite(config.dataDir)
      // PGlite is a single session: exactly one pooled connection, never recycled while in use.
      return yield* PgClient.make({
        stream: () => pgliteStream(db),
        database: "postgres",
        username: "postgres",
        applicationName: "casino",
        maxConnections: 1,
        minConnections: 1,
        prepare: true,
      })
    }),
  )
}
