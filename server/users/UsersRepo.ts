/**
 * The SQL of account access: users, their password history, e-mail tokens and first wallet. No
 * rules live here (they are in Users.ts); every function fails only with `SqlError`, which the
 * service turns into a wire error (a unique violation at registration) or a defect.
 * Tokens arrive already hashed: this module never sees a raw token.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export interface CredentialRow {
  readonly id: string
  readonly email: string
  readonly fullName: string
  readonly passwordHash: string
  readonly confirmed: boolean
  readonly locked: boolean
  readonly excluded: boolean
  /** ISO-8601 end of an active exclusion; null when indefinite (or none). */
  readonly excludedUntil: string | null
}

export interface NewUser {
  readonly email: string
  readonly passwordHash: string
  readonly fullName: string
  readonly firstName: string
  readonly lastName: string | null
  readonly language: string
  readonly currency: string
  readonly clickId: string | null
  readonly registrationCode: string | null
}

export type TokenPurpose = "confirm" | "reset"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface UsersRepoShape {
  /** Runs `effect` in one transaction (nested calls are savepoints). */
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  readonly isCurrencyEnabled: (code: string) => Sql<boolean>
  /** Inserts the user, the first (default) wallet and the first password-history row. */
  readonly insertUser: (user: NewUser) => Sql<{ readonly id: string; readonly confirmed: boolean }>
  readonly findCredentials: (email: string) => Sql<CredentialRow | undefined>
  readonly findByEmail: (email: string) => Sql<{ readonly id: string; readonly email: string } | undefined>
  readonly passwordHash: (userId: string) => Sql<string | undefined>
  /** The hashes of the last `depth` passwords, newest first. */
  readonly recentPasswordHashes: (userId: string, depth: number) => Sql<ReadonlyArray<string>>
  /** Sets the password and keeps only the last `depth` history rows. */
  readonly storePassword: (userId: string, passwordHash: string, depth: number) => Sql<void>
  readonly insertEmailToken: (
    userId: string,
    purpose: TokenPurpose,
    tokenHash: string,
    ttl: { readonly hours: number } | { readonly minutes: number },
  ) => Sql<void>
  /** The user of a usable (unused, unexpired) token, without using it. */
  readonly findUsableToken: (tokenHash: string, purpose: TokenPurpose) => Sql<string | undefined>
  /** Uses a usable token atomically (single use even under concurrency); its user, or undefined. */
  readonly claimToken: (tokenHash: string, purpose: TokenPurpose) => Sql<string | undefined>
  /** Retires every unused token of the user for `purpose`. */
  readonly retireTokens: (userId: string, purpose: TokenPurpose) => Sql<void>
  readonly markConfirmed: (userId: string) => Sql<void>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const isCurrencyEnabled = (code: string) =>
    sql<{ readonly code: string }>`SELECT code FROM currencies WHERE code = ${code} AND enabled`.pipe(
      Effect.map((rows) => rows.length > 0),
    )

  const insertUser = (user: NewUser) =>
    Effect.gen(function* () {
      const rows = yield* sql<{ readonly id: string; readonly confirmed: boolean }>`
        INSERT INTO users (email, password_hash, full_name, first_name, last_name, language, currency,
                           click_id, registration_code)
        VALUES (${user.email}, ${user.passwordHash}, ${user.fullName}, ${user.firstName}, ${user.lastName},
                ${user.language}, ${user.currency}, ${user.clickId}, ${user.registrationCode})
        RETURNING id, (confirmed_at IS NOT NULL) AS confirmed
      `
      const created = rows[0]
      if (created === undefined) return yield* Effect.die(new Error("INSERT users returned no row"))
      yield* sql`INSERT INTO wallets (user_id, currency, is_default) VALUES (${created.id}, ${user.currency}, true)`
      yield* sql`INSERT INTO password_history (user_id, hash) VALUES (${created.id}, ${user.passwordHash})`
      return created
    })

  const findCredentials = (email: string) =>
    sql<CredentialRow>`
      SELECT id, email, full_name AS "fullName", password_hash AS "passwordHash",
             (confirmed_at IS NOT NULL) AS confirmed,
             (locked_at IS NOT NULL) AS locked,
             (self_exclusion_kind = 'indefinite' OR self_exclusion_until > now()) IS TRUE AS excluded,
             CASE WHEN self_exclusion_kind = 'indefinite' THEN NULL
                  ELSE to_char(self_exclusion_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
             END AS "excludedUntil"
      FROM users WHERE lower(email) = lower(${email})
    `.pipe(Effect.map((rows) => rows[0]))

  const findByEmail = (email: string) =>
    sql<{ readonly id: string; readonly email: string }>`
      SELECT id, email FROM users WHERE lower(email) = lower(${email})
    `.pipe(Effect.map((rows) => rows[0]))

  const passwordHash = (userId: string) =>
    sql<{ readonly passwordHash: string }>`
      SELECT password_hash AS "passwordHash" FROM users WHERE id = ${userId}
    `.pipe(Effect.map((rows) => rows[0]?.passwordHash))

  const recentPasswordHashes = (userId: string, depth: number) =>
    sql<{ readonly hash: string }>`
      SELECT hash FROM password_history WHERE user_id = ${userId} ORDER BY id DESC LIMIT ${depth}
    `.pipe(Effect.map((rows) => rows.map((r) => r.hash)))

  const storePassword = (userId: string, hash: string, depth: number) =>
    Effect.gen(function* () {
      yield* sql`UPDATE users SET password_hash = ${hash} WHERE id = ${userId}`
      yield* sql`INSERT INTO password_history (user_id, hash) VALUES (${userId}, ${hash})`
      yield* sql`
        DELETE FROM password_history WHERE user_id = ${userId} AND id NOT IN (
          SELECT id FROM password_history WHERE user_id = ${userId} ORDER BY id DESC LIMIT ${depth}
        )
      `
    })

  const insertEmailToken = (
    userId: string,
    purpose: TokenPurpose,
    tokenHash: string,
    ttl: { readonly hours: number } | { readonly minutes: number },
  ) => {
    const expires =
      "hours" in ttl
        ? sql`now() + make_interval(hours => ${ttl.hours}::int)`
        : sql`now() + make_interval(mins => ${ttl.minutes}::int)`
    return sql`
      INSERT INTO email_tokens (token_hash, user_id, purpose, expires_at)
      VALUES (${tokenHash}, ${userId}, ${purpose}, ${expires})
    `.pipe(Effect.asVoid)
  }

  const findUsableToken = (tokenHash: string, purpose: TokenPurpose) =>
    sql<{ readonly userId: string }>`
      SELECT user_id AS "userId" FROM email_tokens
      WHERE token_hash = ${tokenHash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()
    `.pipe(Effect.map((rows) => rows[0]?.userId))

  const claimToken = (tokenHash: string, purpose: TokenPurpose) =>
    sql<{ readonly userId: string }>`
      UPDATE email_tokens SET used_at = now()
      WHERE token_hash = ${tokenHash} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()
      RETURNING user_id AS "userId"
    `.pipe(Effect.map((rows) => rows[0]?.userId))

  const retireTokens = (userId: string, purpose: TokenPurpose) =>
    sql`
      UPDATE email_tokens SET used_at = now()
      WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL
    `.pipe(Effect.asVoid)

  const markConfirmed = (userId: string) =>
    sql`UPDATE users SET confirmed_at = coalesce(confirmed_at, now()) WHERE id = ${userId}`.pipe(
      Effect.asVoid,
    )

  return {
    transaction: sql.withTransaction,
    isCurrencyEnabled,
    insertUser,
    findCredentials,
    findByEmail,
    passwordHash,
    recentPasswordHashes,
    storePassword,
    insertEmailToken,
    findUsableToken,
    claimToken,
    retireTokens,
    markConfirmed,
  } satisfies UsersRepoShape
})

export class UsersRepo extends Context.Service<UsersRepo, UsersRepoShape>()("casino/server/UsersRepo") {
  static readonly layer = Layer.effect(UsersRepo, make)
}
