/**
 * Server-side sessions. The browser holds a random 32-byte token (cookie `casino_session`); the
 * `sessions` table holds its SHA-256, the user, expiry, revocation, IP and user agent. A session is
 * valid while it is not revoked and not expired (database clock) and its account is neither locked
 * nor in an active self-exclusion: locking or excluding a player ends their live sessions at once.
 */
import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { SessionUser } from "../../services/user-service.ts"
import { AppConfig } from "../config.ts"
import { hashToken, looksLikeToken, newToken } from "./tokens.ts"

export interface SessionMeta {
  readonly ip: string
  readonly userAgent: string | undefined
}

export interface CurrentSession {
  readonly sessionId: string
  readonly user: SessionUser
}

export interface SessionsShape {
  /** Creates a session for the user and returns its raw token (shown once, to the cookie). */
  readonly create: (userId: string, meta: SessionMeta) => Effect.Effect<string>
  readonly resolve: (token: string | undefined) => Effect.Effect<Option.Option<CurrentSession>>
  readonly revoke: (token: string) => Effect.Effect<void>
  /** Revokes every live session of the user except `keepSessionId` (when given). */
  readonly revokeAllForUser: (userId: string, keepSessionId?: string) => Effect.Effect<void>
}

interface SessionRow {
  readonly sessionId: string
  readonly userId: string
  readonly email: string
  readonly fullName: string
  readonly confirmed: boolean
  readonly stale: boolean
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const ttlHours = config.sessionTtlHours

  const create = Effect.fn("Sessions.create")(function* (userId: string, meta: SessionMeta) {
    const token = newToken()
    yield* sql`
      INSERT INTO sessions (token_hash, user_id, expires_at, ip, user_agent)
      VALUES (${hashToken(token)}, ${userId}, now() + make_interval(hours => ${ttlHours}::int),
              ${meta.ip}, ${meta.userAgent?.slice(0, 512) ?? null})
    `.pipe(Effect.orDie)
    return token
  })

  const resolve = Effect.fn("Sessions.resolve")(function* (token: string | undefined) {
    if (token === undefined || !looksLikeToken(token)) return Option.none<CurrentSession>()
    const rows = yield* sql<SessionRow>`
      SELECT s.id AS "sessionId", u.id AS "userId", u.email, u.full_name AS "fullName",
             (u.confirmed_at IS NOT NULL) AS confirmed,
             (s.last_seen_at < now() - interval '5 minutes') AS stale
      FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = ${hashToken(token)} AND s.revoked_at IS NULL AND s.expires_at > now()
        AND u.locked_at IS NULL
        AND (u.self_exclusion_kind = 'indefinite' OR u.self_exclusion_until > now()) IS NOT TRUE
    `.pipe(Effect.orDie)
    const row = rows[0]
    if (row === undefined) return Option.none<CurrentSession>()
    if (row.stale) {
      yield* sql`UPDATE sessions SET last_seen_at = now() WHERE id = ${row.sessionId}`.pipe(Effect.orDie)
    }
    return Option.some<CurrentSession>({
      sessionId: row.sessionId,
      user: { id: row.userId, email: row.email, fullName: row.fullName, confirmed: row.confirmed },
    })
  })

  const revoke = Effect.fn("Sessions.revoke")(function* (token: string) {
    if (!looksLikeToken(token)) return
    yield* sql`
      UPDATE sessions SET revoked_at = now() WHERE token_hash = ${hashToken(token)} AND revoked_at IS NULL
    `.pipe(Effect.orDie)
  })

  const revokeAllForUser = Effect.fn("Sessions.revokeAllForUser")(function* (
    userId: string,
    keepSessionId?: string,
  ) {
    if (keepSessionId === undefined) {
      yield* sql`UPDATE sessions SET revoked_at = now() WHERE user_id = ${userId} AND revoked_at IS NULL`.pipe(
        Effect.orDie,
      )
    } else {
      yield* sql`
        UPDATE sessions SET revoked_at = now()
        WHERE user_id = ${userId} AND revoked_at IS NULL AND id <> ${keepSessionId}
      `.pipe(Effect.orDie)
    }
  })

  return { create, resolve, revoke, revokeAllForUser } satisfies SessionsShape
})

export class Sessions extends Context.Service<Sessions, SessionsShape>()("casino/server/Sessions") {
  static readonly layer = Layer.effect(Sessions, make)
}
