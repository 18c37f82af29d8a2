/**
 * The SQL of the back office's settings (./Settings.ts): the games' lobby settings (columns of
 * migration 0078 the studios' syncs never write), the countries' list, and the lock that
 * serialises edits of the CDN's settings files.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface GameSettingRow {
  readonly id: string
  readonly name: string
  readonly provider: string
  readonly category: string
  readonly enabled: boolean
  readonly featured: boolean
  readonly order: number
}

export interface GameSettingChange {
  readonly enabled?: boolean | undefined
  readonly featured?: boolean | undefined
  readonly order?: number | undefined
}

export interface SettingsRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /**
   * Inside a transaction: waits for any other edit of the CDN's settings files to commit (a
   * transaction-scoped advisory lock), so two operators' edits never lose one another.
   */
  readonly lockFiles: Sql<void>
  /** Whether the code (upper case) is a country of the `countries` table. */
  readonly isCountry: (code: string) => Sql<boolean>
  /** The catalogue's current games (active), in the lobby's order. */
  readonly games: Sql<ReadonlyArray<GameSettingRow>>
  /** One active game, its row locked for the change. */
  readonly lockGame: (id: string) => Sql<GameSettingRow | undefined>
  readonly updateGame: (id: string, change: GameSettingChange) => Sql<void>
}

/** Any constant names the lock; this one is the settings files'. */
const FILES_LOCK = 780_078

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(`id, name, brand AS provider, category, enabled,
    coalesce(featured_override, featured) AS featured, coalesce(sort_override, sort) AS "order"`)

  return {
    transaction: (effect) => sql.withTransaction(effect),
    lockFiles: sql`SELECT pg_advisory_xact_lock(${FILES_LOCK})`.pipe(Effect.asVoid),
    isCountry: (code) =>
      sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM countries WHERE trim(code) = ${code}`.pipe(
        Effect.map((rows) => (rows[0]?.n ?? 0) > 0),
      ),
    games: sql<GameSettingRow>`
      SELECT ${columns} FROM games WHERE active ORDER BY coalesce(sort_override, sort), sort, id
    `,
    lockGame: (id) =>
      sql<GameSettingRow>`SELECT ${columns} FROM games WHERE id = ${id} AND active FOR UPDATE`.pipe(
        Effect.map((rows) => rows[0]),
      ),
    updateGame: (id, change) =>
      sql`
        UPDATE games SET
          enabled = coalesce(${change.enabled ?? null}::boolean, enabled),
          featured_override = coalesce(${change.featured ?? null}::boolean, featured_override),
          sort_override = coalesce(${change.order ?? null}::integer, sort_override),
          settings_updated_at = now()
        WHERE id = ${id}
      `.pipe(Effect.asVoid),
  } satisfies SettingsRepoShape
})

export class SettingsRepo extends Context.Service<SettingsRepo, SettingsRepoShape>()(
  "casino/server/backoffice/SettingsRepo",
) {
  static readonly layer = Layer.effect(SettingsRepo, make)
}
