/**
 * Server-side sessions. The browser holds a random 32-byte token (cookie `casino_session`); the
 * `sessions` table holds its SHA-256, the user, expiry, revocation, IP, user agent and the IP's
 * country (SessionsRepo). A session is valid while it is not revoked and not expired (database
 * clock) and its account is neither locked nor in an active self-exclusion: locking or excluding a
 * player ends their live sessions at once. Every new session is also a row of `logins` (the
 * profile's "last login").
 */
import { Context, Effect, Layer, Option } from "effect"
import type { PlayerSession } from "../../services/profile-service.ts"
import type { SessionUser } from "../../services/user-service.ts"
import { AppConfig } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import { SessionsRepo } from "./SessionsRepo.ts"
import { hashToken, looksLikeToken, newToken } from "./tokens.ts"
import { browserLabel } from "./userAgent.ts"

export interface SessionMeta {
  readonly ip: string
  readonly userAgent: string | undefined
}

export interface CurrentSession {
  readonly sessionId: string
  readonly user: SessionUser
}

export interface LastLogin {
  readonly at: string
  readonly ip: string
  readonly country: string
}

export interface SessionsShape {
  /** Creates a session (and its sign-in record) and returns its raw token (shown once, to the cookie). */
  readonly create: (
    userId: string,
    meta: SessionMeta,
    kind?: "registration" | "signin",
  ) => Effect.Effect<string>
  readonly resolve: (token: string | undefined) => Effect.Effect<Option.Option<CurrentSession>>
  readonly revoke: (token: string) => Effect.Effect<void>
  /** Revokes every live session of the user except `keepSessionId` (when given). */
  readonly revokeAllForUser: (userId: string, keepSessionId?: string) => Effect.Effect<void>
  /** The player's live sessions for the session list, the asking one marked `current`. */
  readonly list: (current: CurrentSession) => Effect.Effect<ReadonlyArray<PlayerSession>>
  /** Revokes one of the player's own live sessions; false for any other id (unknown, foreign, ended). */
  readonly revokeOwn: (userId: string, sessionId: string) => Effect.Effect<boolean>
  /** The sign-in before the current session's (null when there was none). */
  readonly lastLogin: (
    userId: string,
    currentSessionId: string | undefined,
  ) => Effect.Effect<LastLogin | null>
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Session ids are uuids; anything else cannot be one (and must not reach a uuid cast). */
export const looksLikeSessionId = (id: string): boolean => uuidPattern.test(id)

const make = Effect.gen(function* () {
  const repo = yield* SessionsRepo
  const config = yield* AppConfig
  const geo = yield* Geo

  const create = Effect.fn("Sessions.create")(function* (
    userId: string,
    meta: SessionMeta,
    kind: "registration" | "signin" = "signin",
  ) {
    const token = newToken()
    const { isoCode } = yield* geo.lookup(meta.ip)
    yield* repo
      .insert({
        tokenHash: hashToken(token),
        userId,
        ttlHours: config.sessionTtlHours,
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 512) ?? null,
        country: isoCode,
        kind,
      })
      .pipe(Effect.orDie)
    return token
  })

  const resolve = Effect.fn("Sessions.resolve")(function* (token: string | undefined) {
    if (token === undefined || !looksLikeToken(token)) return Option.none<CurrentSession>()
    const row = yield* repo.findLive(hashToken(token)).pipe(Effect.orDie)
    if (row === undefined) return Option.none<CurrentSession>()
    if (row.stale) yield* repo.touch(row.sessionId).pipe(Effect.orDie)
    return Option.some<CurrentSession>({
      sessionId: row.sessionId,
      user: { id: row.userId, email: row.email, fullName: row.fullName, confirmed: row.confirmed },
    })
  })

  const revoke = Effect.fn("Sessions.revoke")(function* (token: string) {
    if (!looksLikeToken(token)) return
    yield* repo.revokeByTokenHash(hashToken(token)).pipe(Effect.orDie)
  })

  const revokeAllForUser = Effect.fn("Sessions.revokeAllForUser")(function* (
    userId: string,
    keepSessionId?: string,
  ) {
    yield* repo.revokeAllForUser(userId, keepSessionId).pipe(Effect.orDie)
  })

  const list = Effect.fn("Sessions.list")(function* (current: CurrentSession) {
    const rows = yield* repo.listLive(current.user.id).pipe(Effect.orDie)
    const sessions: Array<PlayerSession> = []
    for (const row of rows) {
      // Sessions from before countries were recorded: look the IP up now.
      const country =
        row.country ?? (row.ip === null ? config.defaultCountry : (yield* geo.lookup(row.ip)).isoCode)
      sessions.push({
        id: row.id,
        browser: browserLabel(row.userAgent),
        ip: row.ip ?? "",
        country,
        createdAt: row.createdAt.toISOString(),
        lastSeenAt: row.lastSeenAt.toISOString(),
        current: row.id === current.sessionId,
      })
    }
    return sessions
  })

  const revokeOwn = Effect.fn("Sessions.revokeOwn")(function* (userId: string, sessionId: string) {
    if (!looksLikeSessionId(sessionId)) return false
    return yield* repo.revokeOne(userId, sessionId).pipe(Effect.orDie)
  })

  const lastLogin = Effect.fn("Sessions.lastLogin")(function* (
    userId: string,
    currentSessionId: string | undefined,
  ) {
    const row = yield* repo.loginBefore(userId, currentSessionId).pipe(Effect.orDie)
    return row === undefined ? null : { at: row.at.toISOString(), ip: row.ip, country: row.country }
  })

  return { create, resolve, revoke, revokeAllForUser, list, revokeOwn, lastLogin } satisfies SessionsShape
})

export class Sessions extends Context.Service<Sessions, SessionsShape>()("casino/server/Sessions") {
  static readonly layer = Layer.effect(Sessions, make).pipe(Layer.provide(SessionsRepo.layer))
}
