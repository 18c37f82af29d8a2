/**
 * The SQL of the back office's accounts, sessions and audit (tables of 0075_backoffice.sql). No
 * rules here: what may happen, and when, is decided by ./Backoffice.ts; a function that must run
 * in the caller's transaction says so.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { Role } from "../../services/backoffice/permissions.ts"

export interface OperatorRow {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly role: string
  readonly totp_enrolled: boolean
  readonly disabled: boolean
  readonly must_change_password: boolean
  readonly created_at: Date
  readonly updated_at: Date
}

export interface SecretRow extends OperatorRow {
  readonly password_hash: string
  readonly totp_secret: string | null
  readonly totp_last_step: string | null
}

export interface AuditRow {
  readonly id: string
  readonly at: Date
  readonly actor: string
  readonly operator_id: string | null
  readonly operator_email: string | null
  /** The acting operator's name (as it is now). */
  readonly operator_name: string | null
  readonly action: string
  readonly subject: string | null
  /** The player the entry concerns (`user_id`), by e-mail. */
  readonly player_email: string | null
  /** The operator the subject is, for the operators' own actions (`operator.*`, `operators.*`). */
  readonly subject_operator_name: string | null
  readonly subject_operator_email: string | null
  readonly before: unknown
  readonly after: unknown
  readonly ip: string | null
}

export interface AuditWrite {
  readonly label: string
  readonly operatorId: string | null
  readonly email: string | null
  readonly ip: string | null
  readonly action: string
  readonly subject: string | null
  readonly before: unknown
  readonly after: unknown
}

export interface NewSession {
  readonly tokenHash: string
  readonly operatorId: string
  readonly stage: "password" | "active"
  readonly nowIso: string
  readonly expiresIso: string
  readonly ip: string
  readonly userAgent: string | null
}

const operatorColumns =
  "id, email, name, role, totp_enrolled, disabled, must_change_password, created_at, updated_at"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface OperatorsRepoShape {
  readonly withTransaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  readonly findByEmail: (normalizedEmail: string) => Sql<SecretRow | undefined>
  readonly emailTaken: (normalizedEmail: string) => Sql<boolean>
  readonly setPendingSecret: (id: string, sealed: string) => Sql<void>
  readonly insertSession: (session: NewSession) => Sql<void>
  /** A live password-stage session of an enabled operator, with the operator's secrets. */
  readonly findPendingLogin: (
    tokenHash: string,
    nowIso: string,
  ) => Sql<(SecretRow & { readonly session_id: string }) | undefined>
  /** Moves the last used TOTP step forward and enrols; none when `step` is not past it (a replay). */
  readonly acceptStep: (id: string, step: number) => Sql<OperatorRow | undefined>
  readonly revokeSession: (sessionId: string, nowIso: string) => Sql<void>
  readonly revokeSessionsOf: (operatorId: string, nowIso: string) => Sql<void>
  /** Slides a live active session's last use; its operator, or none when it is not live. */
  readonly touchSession: (
    tokenHash: string,
    nowIso: string,
    idleSinceIso: string,
  ) => Sql<(OperatorRow & { readonly session_id: string }) | undefined>
  /** The operator of a live active session, without sliding its last use (a stream's re-check). */
  readonly peekSession: (
    sessionId: string,
    nowIso: string,
    idleSinceIso: string,
  ) => Sql<OperatorRow | undefined>
  readonly listOperators: () => Sql<ReadonlyArray<OperatorRow>>
  readonly insertOperator: (input: {
    readonly email: string
    readonly name: string
    readonly passwordHash: string
    readonly role: Role
    readonly mustChangePassword: boolean
  }) => Sql<OperatorRow | undefined>
  readonly findSecretById: (id: string) => Sql<SecretRow | undefined>
  /** A new password; `mustChange` when it is a generated one the operator has not chosen. */
  readonly setPassword: (
    id: string,
    passwordHash: string,
    mustChange: boolean,
  ) => Sql<OperatorRow | undefined>
  /** Forgets the second factor: the next sign-in enrols a new authenticator. */
  readonly resetTotp: (id: string) => Sql<OperatorRow | undefined>
  /** Ends every session of the operator but `keepSessionId`. */
  readonly revokeOtherSessions: (operatorId: string, keepSessionId: string, nowIso: string) => Sql<void>
  /**
   * In the caller's transaction: the number of active admins, under a transaction-scoped advisory
   * lock, so two bootstraps at once cannot both find none.
   */
  readonly activeAdminsForBootstrap: () => Sql<number>
  /** In the caller's transaction: the active admins and the operator, both locked. */
  readonly lockForUpdate: (id: string) => Sql<{
    readonly activeAdmins: number
    readonly operator: OperatorRow | undefined
  }>
  readonly updateOperator: (id: string, role: Role, disabled: boolean) => Sql<OperatorRow | undefined>
  /** In the caller's transaction: one audit row. */
  readonly writeAudit: (entry: AuditWrite) => Sql<void>
  readonly audit: (limit: number, before: string | undefined) => Sql<ReadonlyArray<AuditRow>>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value))

  const repo: OperatorsRepoShape = {
    withTransaction: (effect) => sql.withTransaction(effect),
    findByEmail: (email) =>
      sql<SecretRow>`
        SELECT ${sql.literal(operatorColumns)}, password_hash, totp_secret, totp_last_step::text AS totp_last_step
        FROM backoffice_operators WHERE lower(email) = ${email}
      `.pipe(Effect.map((rows) => rows[0])),
    emailTaken: (email) =>
      sql`SELECT 1 FROM backoffice_operators WHERE lower(email) = ${email}`.pipe(
        Effect.map((rows) => rows.length > 0),
      ),
    setPendingSecret: (id, sealed) =>
      sql`
        UPDATE backoffice_operators SET totp_secret = ${sealed}, totp_last_step = NULL
        WHERE id = ${id} AND NOT totp_enrolled
      `.pipe(Effect.asVoid),
    insertSession: (s) =>
      sql`
        INSERT INTO backoffice_sessions (token_hash, operator_id, stage, created_at, last_seen_at, expires_at, ip, user_agent)
        VALUES (${s.tokenHash}, ${s.operatorId}, ${s.stage}, ${s.nowIso}::timestamptz, ${s.nowIso}::timestamptz,
                ${s.expiresIso}::timestamptz, ${s.ip}, ${s.userAgent})
      `.pipe(Effect.asVoid),
    findPendingLogin: (tokenHash, nowIso) =>
      sql<SecretRow & { readonly session_id: string }>`
        SELECT s.id AS session_id, o.id, o.email, o.name, o.role, o.totp_enrolled, o.disabled,
               o.must_change_password, o.created_at, o.updated_at, o.password_hash, o.totp_secret, o.totp_last_step::text AS totp_last_step
        FROM backoffice_sessions s JOIN backoffice_operators o ON o.id = s.operator_id
        WHERE s.token_hash = ${tokenHash} AND s.stage = 'password' AND s.revoked_at IS NULL
          AND s.expires_at > ${nowIso}::timestamptz AND NOT o.disabled
      `.pipe(Effect.map((rows) => rows[0])),
    acceptStep: (id, step) =>
      sql<OperatorRow>`
        UPDATE backoffice_operators
        SET totp_last_step = ${step}, totp_enrolled = true,
            updated_at = CASE WHEN totp_enrolled THEN updated_at ELSE now() END
        WHERE id = ${id} AND (totp_last_step IS NULL OR totp_last_step < ${step})
        RETURNING ${sql.literal(operatorColumns)}
      `.pipe(Effect.map((rows) => rows[0])),
    revokeSession: (sessionId, nowIso) =>
      sql`
        UPDATE backoffice_sessions SET revoked_at = ${nowIso}::timestamptz
        WHERE id = ${sessionId} AND revoked_at IS NULL
      `.pipe(Effect.asVoid),
    revokeSessionsOf: (operatorId, nowIso) =>
      sql`
        UPDATE backoffice_sessions SET revoked_at = ${nowIso}::timestamptz
        WHERE operator_id = ${operatorId} AND revoked_at IS NULL
      `.pipe(Effect.asVoid),
    touchSession: (tokenHash, nowIso, idleSinceIso) =>
      sql<OperatorRow & { readonly session_id: string }>`
        UPDATE backoffice_sessions s SET last_seen_at = ${nowIso}::timestamptz
        FROM backoffice_operators o
        WHERE o.id = s.operator_id AND s.token_hash = ${tokenHash} AND s.stage = 'active'
          AND s.revoked_at IS NULL AND s.expires_at > ${nowIso}::timestamptz
          AND s.last_seen_at > ${idleSinceIso}::timestamptz
          AND NOT o.disabled
        RETURNING s.id AS session_id, o.id, o.email, o.name, o.role, o.totp_enrolled, o.disabled,
                  o.must_change_password, o.created_at, o.updated_at
      `.pipe(Effect.map((rows) => rows[0])),
    peekSession: (sessionId, nowIso, idleSinceIso) =>
      sql<OperatorRow>`
        SELECT o.id, o.email, o.name, o.role, o.totp_enrolled, o.disabled,
               o.must_change_password, o.created_at, o.updated_at
        FROM backoffice_sessions s JOIN backoffice_operators o ON o.id = s.operator_id
        WHERE s.id = ${sessionId} AND s.stage = 'active' AND s.revoked_at IS NULL
          AND s.expires_at > ${nowIso}::timestamptz AND s.last_seen_at > ${idleSinceIso}::timestamptz
          AND NOT o.disabled
      `.pipe(Effect.map((rows) => rows[0])),
    listOperators: () =>
      sql<OperatorRow>`
        SELECT ${sql.literal(operatorColumns)} FROM backoffice_operators ORDER BY created_at, email
      `,
    insertOperator: (input) =>
      sql<OperatorRow>`
        INSERT INTO backoffice_operators (email, name, password_hash, role, must_change_password)
        VALUES (${input.email}, ${input.name}, ${input.passwordHash}, ${input.role}, ${input.mustChangePassword})
        RETURNING ${sql.literal(operatorColumns)}
      `.pipe(Effect.map((rows) => rows[0])),
    findSecretById: (id) =>
      sql<SecretRow>`
        SELECT ${sql.literal(operatorColumns)}, password_hash, totp_secret, totp_last_step::text AS totp_last_step
        FROM backoffice_operators WHERE id = ${id}
      `.pipe(Effect.map((rows) => rows[0])),
    setPassword: (id, passwordHash, mustChange) =>
      sql<OperatorRow>`
        UPDATE backoffice_operators
        SET password_hash = ${passwordHash}, must_change_password = ${mustChange}, updated_at = now()
        WHERE id = ${id}
        RETURNING ${sql.literal(operatorColumns)}
      `.pipe(Effect.map((rows) => rows[0])),
    resetTotp: (id) =>
      sql<OperatorRow>`
        UPDATE backoffice_operators
        SET totp_secret = NULL, totp_enrolled = false, totp_last_step = NULL, updated_at = now()
        WHERE id = ${id}
        RETURNING ${sql.literal(operatorColumns)}
      `.pipe(Effect.map((rows) => rows[0])),
    revokeOtherSessions: (operatorId, keepSessionId, nowIso) =>
      sql`
        UPDATE backoffice_sessions SET revoked_at = ${nowIso}::timestamptz
        WHERE operator_id = ${operatorId} AND id <> ${keepSessionId} AND revoked_at IS NULL
      `.pipe(Effect.asVoid),
    activeAdminsForBootstrap: () =>
      Effect.gen(function* () {
        yield* sql`SELECT pg_advisory_xact_lock(hashtextextended('backoffice:bootstrap', 0))`
        const [row] = yield* sql<{ readonly n: number }>`
          SELECT count(*)::int AS n FROM backoffice_operators WHERE role = 'admin' AND NOT disabled
        `
        return row?.n ?? 0
      }),
    lockForUpdate: (id) =>
      Effect.gen(function* () {
        // The admins are locked together, so two admins demoting each other at once cannot both win.
        const admins = yield* sql<{ readonly id: string }>`
          SELECT id FROM backoffice_operators WHERE role = 'admin' AND NOT disabled ORDER BY id FOR UPDATE
        `
        const operator = (yield* sql<OperatorRow>`
          SELECT ${sql.literal(operatorColumns)} FROM backoffice_operators WHERE id = ${id} FOR UPDATE
        `)[0]
        return { activeAdmins: admins.length, operator }
      }),
    updateOperator: (id, role, disabled) =>
      sql<OperatorRow>`
        UPDATE backoffice_operators SET role = ${role}, disabled = ${disabled}, updated_at = now()
        WHERE id = ${id}
        RETURNING ${sql.literal(operatorColumns)}
      `.pipe(Effect.map((rows) => rows[0])),
    writeAudit: (e) =>
      sql`
        INSERT INTO operator_audit (actor, action, subject, details, operator_id, operator_email, before, after, ip)
        VALUES (${e.label.slice(0, 200)}, ${e.action}, ${e.subject}, '{}'::jsonb, ${e.operatorId},
                ${e.email}, ${json(e.before)}::jsonb, ${json(e.after)}::jsonb, ${e.ip})
      `.pipe(Effect.asVoid),
    audit: (limit, before) =>
      // The names are joined on read: the audit keeps ids (and the e-mail at the time), never
      // rewritten. ORDER BY names the table's column: the text alias `id` would sort "9" after "10".
      sql<AuditRow>`
        SELECT a.id::text AS id, a.at, a.actor, a.operator_id, a.operator_email, who.name AS operator_name,
               a.action, a.subject, u.email AS player_email,
               so.name AS subject_operator_name, so.email AS subject_operator_email,
               a.before, a.after, a.ip
        FROM operator_audit a
        LEFT JOIN backoffice_operators who ON who.id = a.operator_id
        LEFT JOIN users u ON u.id = a.user_id
        LEFT JOIN backoffice_operators so
          ON (a.action LIKE 'operator.%' OR a.action LIKE 'operators.%') AND so.id::text = a.subject
        WHERE ${before === undefined ? sql`true` : sql`a.id < ${before}::bigint`}
        ORDER BY a.id DESC LIMIT ${limit}
      `,
  }
  return repo
})

export class OperatorsRepo extends Context.Service<OperatorsRepo, OperatorsRepoShape>()(
  "casino/server/backoffice/OperatorsRepo",
) {
  static readonly layer = Layer.effect(OperatorsRepo, make)
}
