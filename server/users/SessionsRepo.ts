/**
 * The SQL of sessions and sign-ins: the `sessions` rows (token SHA-256, user, expiry, revocation,
 * IP, user agent, country) and the `logins` history. Rules (token format, what counts as live) are
 * stated in the queries' WHERE clauses and documented in Sessions.ts; every function fails only
 * with `SqlError`.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export interface LiveSessionRow {
  readonly sessionId: string
  readonly userId: string
  readonly email: string
  readonly fullName: string
  readonly confirmed: boolean
  /** last_seen_at is older than 5 minutes: time to refresh it. */
  readonly stale: boolean
}

export interface SessionListRow {
  readonly id: string
  readonly ip: string | null
  readonly userAgent: string | null
  readonly country: string | null
  readonly createdAt: Date
  readonly lastSeenAt: Date
}

export interface LoginRow {
  readonly at: Date
  readonly ip: string
  readonly country: string
}

export interface NewSession {
  readonly tokenHash: string
  readonly userId: string
  readonly ttlHours: number
  readonly ip: string
  readonly userAgent: string | null
  readonly country: string
  readonly kind: "registration" | "signin"
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface SessionsRepoShape {
  /** Inserts the session and its sign-in record; returns the session id. */
  readonly insert: (session: NewSession) => Sql<string>
  /** The live session of a token hash (unrevoked, unexpired, account neither locked nor excluded). */
  readonly findLive: (tokenHash: string) => Sql<LiveSessionRow | undefined>
  readonly touch: (sessionId: string) => Sql<void>
  readonly revokeByTokenHash: (tokenHash: string) => Sql<void>
  readonly revokeAllForUser: (userId: string, keepSessionId: string | undefined) => Sql<void>
  /** Revokes one live session of the user; false when the id is not one of them. */
  readonly revokeOne: (userId: string, sessionId: string) => Sql<boolean>
  /** The user's unrevoked, unexpired sessions, newest first. */
  readonly listLive: (userId: string) => Sql<ReadonlyArray<SessionListRow>>
  /** The sign-in before the one that opened `currentSessionId` (or the latest, without one). */
  readonly loginBefore: (userId: string, currentSessionId: string | undefined) => Sql<LoginRow | undefined>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const insert = (s: NewSession) =>
    Effect.gen(function* () {
      const rows = yield* sql<{ readonly id: string }>`
        INSERT INTO sessions (token_hash, user_id, expires_at, ip, user_agent, country)
        VALUES (${s.tokenHash}, ${s.userId}, now() + make_interval(hours => ${s.ttlHours}::int),
                ${s.ip}, ${s.userAgent}, ${s.country})
        RETURNING id
      `
      const id = rows[0]?.id
      if (id === undefined) return yield* Effect.die(new Error("INSERT sessions returned no row"))
      yield* sql`
        INSERT INTO logins (user_id, session_id, kind, ip, country, user_agent)
        VALUES (${s.userId}, ${id}, ${s.kind}, ${s.ip}, ${s.country}, ${s.userAgent})
      `
      return id
    })

  const findLive = (tokenHash: string) =>
    sql<LiveSessionRow>`
      SELECT s.id AS "sessionId", u.id AS "userId", u.email, u.full_name AS "fullName",
             (u.confirmed_at IS NOT NULL) AS confirmed,
             (s.last_seen_at < now() - interval '5 minutes') AS stale
      FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = ${tokenHash} AND s.revoked_at IS NULL AND s.expires_at > now()
        AND u.locked_at IS NULL
        AND (u.self_exclusion_kind = 'indefinite' OR u.self_exclusion_until > now()) IS NOT TRUE
    `.pipe(Effect.map((rows) => rows[0]))

  const touch = (sessionId: string) =>
    sql`UPDATE sessions SET last_seen_at = now() WHERE id = ${sessionId}`.pipe(Effect.asVoid)

  const revokeByTokenHash = (tokenHash: string) =>
    sql`UPDATE sessions SET revoked_at = now() WHERE token_hash = ${tokenHash} AND revoked_at IS NULL`.pipe(
      Effect.asVoid,
    )

  const revokeAllForUser = (userId: string, keepSessionId: string | undefined) =>
    (keepSessionId === undefined
      ? sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${userId} AND revoked_at IS NULL`
      : sql`
          UPDATE sessions SET revoked_at = now()
          WHERE user_id = ${userId} AND revoked_at IS NULL AND id <> ${keepSessionId}
        `
    ).pipe(Effect.asVoid)

  const revokeOne = (userId: string, sessionId: string) =>
    sql<{ readonly id: string }>`
      UPDATE sessions SET revoked_at = now()
      WHERE id = ${sessionId} AND user_id = ${userId} AND revoked_at IS NULL AND expires_at > now()
      RETURNING id
    `.pipe(Effect.map((rows) => rows.length > 0))

  const listLive = (userId: string) =>
    sql<SessionListRow>`
      SELECT id, ip, user_agent AS "userAgent", country, created_at AS "createdAt",
             last_seen_at AS "lastSeenAt"
      FROM sessions
      WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > now()
      ORDER BY created_at DESC, id
    `

  const loginBefore = (userId: string, currentSessionId: string | undefined) =>
    (currentSessionId === undefined
      ? sql<LoginRow>`
          SELECT at, ip, country FROM logins WHERE user_id = ${userId} ORDER BY id DESC LIMIT 1
        `
      : sql<LoginRow>`
          SELECT at, ip, country FROM logins
          WHERE user_id = ${userId} AND session_id IS DISTINCT FROM ${currentSessionId}
            AND id < coalesce((SELECT id FROM logins WHERE session_id = ${currentSessionId}),
                              9223372036854775807)
          ORDER BY id DESC LIMIT 1
        `
    ).pipe(Effect.map((rows) => rows[0]))

  return {
    insert,
    findLive,
    touch,
    revokeByTokenHash,
    revokeAllForUser,
    revokeOne,
    listLive,
    loginBefore,
  } satisfies SessionsRepoShape
})

export class SessionsRepo extends Context.Service<SessionsRepo, SessionsRepoShape>()(
  "casino/server/SessionsRepo",
) {
  static readonly layer = Layer.effect(SessionsRepo, make)
}
