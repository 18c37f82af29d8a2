/**
 * The database switch every service here uses (the casino and each outside party, each with its own
 * storage): PostgreSQL when a URL is given, otherwise an embedded PGlite kept in `${dataDir}/pglite`
 * (persisted across restarts). Both are reached through the same `PgClient` from `@effect/sql-pg`,
 * so every query, migration and transaction is the same code.
 *
 * A `schema` keeps a service's tables apart on a shared PostgreSQL: its connections start with
 * `search_path` set to that schema alone, created if missing, so its SQL (and its migrations table)
 * never names or sees another service's tables. PGlite needs none: each service has its own folder.
 *
 * Name transforms: NONE. Column names are snake_case in SQL and rows come back with the same
 * snake_case keys; write `SELECT user_id AS "userId"` where code wants camelCase. (Explicit beats
 * magic: a transform would also rewrite jsonb keys and identifiers in raw SQL.)
 */
import { randomBytes } from "node:crypto"
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import { Effect, Layer, Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import { ConnectionError, SqlError } from "effect/sql/SqlError"
import { pgliteStream } from "./pgliteStream.ts"

export type DbLayer = Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, SqlError>

/** Whether a process with this pid exists (signal 0 probes without signalling; a zombie exists too). */
const exists = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

export interface ProcStat {
  /** Field 3: R, S, D, Z (zombie), X (dead)… */
  readonly state: string
  /** Field 22: start time in clock ticks since boot; with the pid it names one process for good. */
  readonly startTime: string
}

/** `/proc/<pid>/stat` (Linux), or undefined when it cannot be read (no such process, no procfs). */
export const procStat = (pid: number): ProcStat | undefined => {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8")
  } catch {
    return undefined
  }
  // Field 2 is the command name in parentheses and may itself contain spaces and ")": the fields
  // after it start behind the LAST ")".
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ")
  const state = rest[0]
  const startTime = rest[19]
  return state === undefined || startTime === undefined ? undefined : { state, startTime }
}

export interface LockOwner {
  readonly pid: number
  /** Absent in locks written before start times were recorded. */
  readonly startTime: string | undefined
}

/** The lock file's text: `<pid> <start time>` (the start time is empty without procfs). */
export const lockText = (pid: number, startTime: string | undefined): string =>
  startTime === undefined ? `${pid}\n` : `${pid} ${startTime}\n`

export const parseLock = (text: string): LockOwner | undefined => {
  const [pidText, startTime] = text.trim().split(/\s+/)
  const pid = Number(pidText)
  return Number.isSafeInteger(pid) && pid > 0 ? { pid, startTime: startTime || undefined } : undefined
}

/**
 * Whether the process that wrote a lock still runs. Dead: no such process; a zombie (killed but not
 * yet reaped by its parent, which never happens in a container whose pid 1 does not reap); or the
 * pid now belongs to another process (its start time differs from the one recorded in the lock).
 */
export const isLockOwnerAlive = (owner: LockOwner): boolean => {
  const stat = procStat(owner.pid)
  if (stat === undefined) {
    // No procfs entry: gone, or hidden from us (procfs mounted with hidepid): ask the kernel.
    return exists(owner.pid)
  }
  if (stat.state === "Z" || stat.state === "X" || stat.state === "x") return false
  return owner.startTime === undefined || owner.startTime === stat.startTime
}

/**
 * One process per embedded database: `${dataDir}/pglite.lock` names its owner (pid and start time).
 * A lock whose owner is dead is taken over; a live owner makes the start fail with a clear message.
 *
 * The lock appears atomically (written to a temporary file, then hard-linked into place, which fails
 * if a lock exists), so a reader never sees a half-written lock. A stale lock is first renamed away
 * and compared with what was judged stale: of several processes starting at once, exactly one wins.
 */
const lockedHere = new Set<string>()

const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code

const readIfExists = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8")
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined
    throw error
  }
}

export const takeLock = (lockFile: string): void => {
  if (lockedHere.has(lockFile)) {
    throw new Error(`the embedded database ${dirname(lockFile)}/pglite is already open in this process`)
  }
  const suffix = `${process.pid}-${randomBytes(4).toString("hex")}`
  const temporary = `${lockFile}.new-${suffix}`
  writeFileSync(temporary, lockText(process.pid, procStat(process.pid)?.startTime))
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(temporary, lockFile)
        lockedHere.add(lockFile)
        return
      } catch (error) {
        if (errorCode(error) !== "EEXIST") throw error
      }
      const text = readIfExists(lockFile)
      if (text === undefined) continue
      const owner = parseLock(text)
      // Our own pid is a previous life of this process slot (a container's pid 1 restarted).
      if (owner !== undefined && owner.pid !== process.pid && isLockOwnerAlive(owner)) {
        throw new Error(
          `the embedded database ${dirname(lockFile)}/pglite is in use by process ${owner.pid}; ` +
            "run one server per DATA_DIR, or set DATABASE_URL to share a PostgreSQL",
        )
      }
      const aside = `${lockFile}.stale-${suffix}`
      try {
        renameSync(lockFile, aside)
      } catch (error) {
        if (errorCode(error) === "ENOENT") continue
        throw error
      }
      if (readIfExists(aside) !== text) {
        // Another starter replaced the stale lock between our read and our rename: put its lock back
        // (unless yet another one is there already) and judge again.
        try {
          linkSync(aside, lockFile)
        } catch {}
      }
      rmSync(aside, { force: true })
    }
    throw new Error(`cannot lock ${lockFile}: it keeps changing (several servers starting on one DATA_DIR?)`)
  } finally {
    rmSync(temporary, { force: true })
  }
}

export const releaseLock = (lockFile: string): void => {
  lockedHere.delete(lockFile)
  // Only our own lock: never remove one another process took over meanwhile.
  const owner = parseLock(readIfExists(lockFile) ?? "")
  if (owner === undefined || owner.pid === process.pid) rmSync(lockFile, { force: true })
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

export interface DbOptions {
  /** PostgreSQL URL; undefined ⇒ embedded PGlite in `${dataDir}/pglite`. */
  readonly databaseUrl: string | undefined
  readonly dataDir: string
  /** PostgreSQL only: the schema this service's tables live in (created if missing); default `public`. */
  readonly schema?: string | undefined
  /** Shown in `pg_stat_activity`. */
  readonly applicationName?: string | undefined
  /** PostgreSQL pool size (default 10). */
  readonly maxConnections?: number | undefined
}

const schemaName = /^[a-z_][a-z0-9_]{0,62}$/

/** Creates the schema on a short-lived connection before the pool (whose search_path names it) opens. */
const ensureSchema = (url: string, schema: string) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    yield* sql.unsafe(`CREATE SCHEMA IF NOT EXISTS ${schema}`)
  }).pipe(
    Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1, applicationName: "schema" })),
    Effect.scoped,
  )

export const makeDbLayer = (options: DbOptions): DbLayer => {
  const applicationName = options.applicationName ?? "casino"
  const { schema } = options
  if (schema !== undefined && !schemaName.test(schema)) {
    throw new Error(`invalid schema name ${JSON.stringify(schema)}: lowercase letters, digits and _`)
  }
  if (options.databaseUrl !== undefined) {
    const url = options.databaseUrl
    const pool = PgClient.layer({
      url: Redacted.make(url),
      maxConnections: options.maxConnections ?? 10,
      applicationName,
      ...(schema === undefined ? {} : { startupParameters: { search_path: schema } }),
    })
    return schema === undefined ? pool : Layer.provide(pool, Layer.effectDiscard(ensureSchema(url, schema)))
  }
  return PgClient.layerFrom(
    Effect.gen(function* () {
      const { db } = yield* acquirePglite(options.dataDir)
      // PGlite is a single session: exactly one pooled connection, never recycled while in use.
      return yield* PgClient.make({
        stream: () => pgliteStream(db),
        database: "postgres",
        username: "postgres",
        applicationName,
        maxConnections: 1,
        minConnections: 1,
        prepare: true,
      })
    }),
  )
}
