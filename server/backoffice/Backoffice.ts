/**
 * The back office's accounts, logins and sessions (docs/backoffice.md).
 *
 * - Login is two steps. The password (argon2id, the players' `Passwords`) opens a `password`-stage
 *   session of 5 minutes; the TOTP code then replaces it with an `active` session (a new token, so
 *   a token seen before the second factor is worth nothing after it). An operator not yet enrolled
 *   gets a new secret at each password step until a code confirms it.
 * - A code is accepted once: the operator's `totp_last_step` only moves forward, in the same
 *   UPDATE that checks it (two requests racing with one code: one wins).
 * - Sessions end after BACKOFFICE_IDLE_MINUTES without use (each use slides it) and
 *   BACKOFFICE_SESSION_HOURS after login, on logout, and at once when the operator is disabled.
 *   Their times come from `config.backofficeClock`, so tests move time instead of sleeping.
 * - Every change an operator makes writes one `operator_audit` row in the same transaction.
 */
import { randomBytes } from "node:crypto"
import { Context, Effect, Layer, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { AppConfig } from "../config.ts"
import { OperatorRefused } from "../operator/endpoint.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { Passwords } from "../users/Passwords.ts"
import { hashToken, looksLikeToken, newToken } from "../users/tokens.ts"
import { isRole, type Role } from "./permissions.ts"
import { openSecret, sealSecret } from "./secretBox.ts"
import { base32Encode, newTotpSecret, otpauthUri, verifyTotp } from "./totp.ts"

export interface OperatorView {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly role: Role
  readonly enrolled: boolean
  readonly disabled: boolean
  readonly createdAt: string
  readonly updatedAt: string
}

export interface CurrentOperator {
  readonly sessionId: string
  readonly operator: OperatorView
}

export interface RequestMeta {
  readonly ip: string
  readonly userAgent: string | undefined
}

/** Who acts, as the audit records it: a back-office operator, or `npm run operator` (no id). */
export interface Actor {
  readonly operatorId: string | null
  readonly email: string | null
  readonly label: string
  readonly ip: string | null
}

export const actorOf = (current: CurrentOperator, ip: string): Actor => ({
  operatorId: current.operator.id,
  email: current.operator.email,
  label: `backoffice:${current.operator.email}`,
  ip,
})

export type LoginStep =
  | { readonly step: "totp" }
  | { readonly step: "enrol"; readonly otpauthUri: string; readonly secret: string }

export interface NewOperator {
  readonly email: string
  readonly name: string
  readonly role: Role
  readonly password?: string | undefined
}

export interface OperatorChanges {
  readonly role?: Role | undefined
  readonly disabled?: boolean | undefined
}

export interface AuditEntryView {
  readonly id: string
  readonly at: string
  readonly actor: string
  readonly operatorId: string | null
  readonly operatorEmail: string | null
  readonly action: string
  readonly subject: string | null
  readonly before: unknown
  readonly after: unknown
  readonly ip: string | null
}

/** Minutes a password-stage session waits for its code. */
export const PENDING_LOGIN_MINUTES = 5
export const MIN_OPERATOR_PASSWORD = 12

const refused = (status: number, error: string, message: string) =>
  new OperatorRefused({ status, error, message })

const badCredentials = () => refused(401, "InvalidCredentials", "Wrong e-mail or password.")

interface OperatorRow {
  readonly id: string
  readonly email: string
  readonly name: string
  readonly role: string
  readonly totp_enrolled: boolean
  readonly disabled: boolean
  readonly created_at: Date
  readonly updated_at: Date
}

interface SecretRow extends OperatorRow {
  readonly password_hash: string
  readonly totp_secret: string | null
  readonly totp_last_step: string | null
}

const operatorColumns = "id, email, name, role, totp_enrolled, disabled, created_at, updated_at"

const viewOf = (row: OperatorRow): OperatorView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: isRole(row.role) ? row.role : "support",
  enrolled: row.totp_enrolled,
  disabled: row.disabled,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
})

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const normalizeOperatorEmail = (email: string): string => email.trim().toLowerCase()

export interface BackofficeShape {
  readonly login: (
    input: { readonly email: string; readonly password: string },
    meta: RequestMeta,
  ) => Effect.Effect<{ readonly token: string; readonly answer: LoginStep }, OperatorRefused>
  readonly loginTotp: (
    pendingToken: string | undefined,
    code: string,
    meta: RequestMeta,
  ) => Effect.Effect<{ readonly token: string; readonly operator: OperatorView }, OperatorRefused>
  /** The live session of a token (sliding its idle time), else none. */
  readonly resolve: (token: string | undefined) => Effect.Effect<Option.Option<CurrentOperator>>
  readonly logout: (current: CurrentOperator, actor: Actor) => Effect.Effect<void>
  readonly listOperators: () => Effect.Effect<ReadonlyArray<OperatorView>>
  /** Creates an operator; `initialPassword` is the generated one, returned this once. */
  readonly createOperator: (
    actor: Actor,
    input: NewOperator,
  ) => Effect.Effect<
    { readonly operator: OperatorView; readonly initialPassword?: string | undefined },
    OperatorRefused
  >
  readonly updateOperator: (
    actor: Actor,
    id: string,
    changes: OperatorChanges,
  ) => Effect.Effect<OperatorView, OperatorRefused>
  /** Audit entries, newest first, with ids below `before` when given. */
  readonly audit: (limit: number, before: string | undefined) => Effect.Effect<ReadonlyArray<AuditEntryView>>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const passwords = yield* Passwords
  const limiter = yield* RateLimiter
  const limits = config.rateLimits

  const nowMs = () => config.backofficeClock()
  const iso = (ms: number) => new Date(ms).toISOString()

  const limited = (key: string, limit: (typeof limits)["signinPerIp"]) =>
    limiter.consume(key, limit).pipe(Effect.mapError((e) => refused(429, "RateLimited", e.message)))

  /** One audit row; run inside the transaction of the change it records. */
  const writeAudit = (
    actor: Actor,
    action: string,
    subject: string | null,
    before: unknown,
    after: unknown,
  ): Effect.Effect<void, SqlError.SqlError> =>
    sql`
      INSERT INTO operator_audit (actor, action, subject, details, operator_id, operator_email, before, after, ip)
      VALUES (${actor.label.slice(0, 200)}, ${action}, ${subject}, '{}'::jsonb, ${actor.operatorId},
              ${actor.email}, ${before === null ? null : JSON.stringify(before)}::jsonb,
              ${after === null ? null : JSON.stringify(after)}::jsonb, ${actor.ip})
    `.pipe(Effect.asVoid)

  const findByEmail = (email: string) =>
    sql<SecretRow>`
      SELECT ${sql.literal(operatorColumns)}, password_hash, totp_secret, totp_last_step::text AS totp_last_step
      FROM backoffice_operators WHERE lower(email) = ${normalizeOperatorEmail(email)}
    `.pipe(
      Effect.map((rows) => rows[0]),
      Effect.orDie,
    )

  const login = Effect.fn("Backoffice.login")(function* (
    input: { readonly email: string; readonly password: string },
    meta: RequestMeta,
  ) {
    yield* limited(`bo-login:ip:${meta.ip}`, limits.signinPerIp)
    yield* limited(`bo-login:email:${normalizeOperatorEmail(input.email)}`, limits.signinPerEmail)
    const row = yield* findByEmail(input.email)
    if (row === undefined || row.disabled) {
      // The same time as a real check: no telling which e-mails are operators.
      yield* passwords.verifyDummy(input.password)
      return yield* badCredentials()
    }
    if (!(yield* passwords.verify(row.password_hash, input.password))) return yield* badCredentials()
    let answer: LoginStep = { step: "totp" }
    if (!row.totp_enrolled) {
      const secret = newTotpSecret()
      yield* sql`
        UPDATE backoffice_operators SET totp_secret = ${sealSecret(config.backofficeTotpKey, secret)},
          totp_last_step = NULL
        WHERE id = ${row.id} AND NOT totp_enrolled
      `.pipe(Effect.orDie)
      answer = {
        step: "enrol",
        otpauthUri: otpauthUri(config.productName, row.email, secret),
        secret: base32Encode(secret),
      }
    }
    const token = newToken()
    const now = nowMs()
    yield* sql`
      INSERT INTO backoffice_sessions (token_hash, operator_id, stage, created_at, last_seen_at, expires_at, ip, user_agent)
      VALUES (${hashToken(token)}, ${row.id}, 'password', ${iso(now)}::timestamptz, ${iso(now)}::timestamptz,
              ${iso(now + PENDING_LOGIN_MINUTES * 60_000)}::timestamptz, ${meta.ip},
              ${meta.userAgent?.slice(0, 512) ?? null})
    `.pipe(Effect.orDie)
    return { token, answer }
  })

  const loginTotp = Effect.fn("Backoffice.loginTotp")(function* (
    pendingToken: string | undefined,
    code: string,
    meta: RequestMeta,
  ) {
    const expired = refused(401, "LoginExpired", "Sign in with your e-mail and password first.")
    if (pendingToken === undefined || !looksLikeToken(pendingToken)) return yield* expired
    const now = nowMs()
    const pending = (yield* sql<SecretRow & { readonly session_id: string }>`
      SELECT s.id AS session_id, o.id, o.email, o.name, o.role, o.totp_enrolled, o.disabled, o.created_at,
             o.updated_at, o.password_hash, o.totp_secret, o.totp_last_step::text AS totp_last_step
      FROM backoffice_sessions s JOIN backoffice_operators o ON o.id = s.operator_id
      WHERE s.token_hash = ${hashToken(pendingToken)} AND s.stage = 'password' AND s.revoked_at IS NULL
        AND s.expires_at > ${iso(now)}::timestamptz AND NOT o.disabled
    `.pipe(Effect.orDie))[0]
    if (pending === undefined || pending.totp_secret === null) return yield* expired
    // Six digits are few: the guesses per operator are limited like passwords per e-mail.
    yield* limited(`bo-totp:operator:${pending.id}`, limits.signinPerEmail)
    const secret = openSecret(config.backofficeTotpKey, pending.totp_secret)
    if (secret === undefined) {
      yield* Effect.logError(
        `back office: the TOTP secret of ${pending.id} does not open with BACKOFFICE_TOTP_KEY`,
      )
      return yield* refused(401, "InvalidCode", "The code is wrong or was already used.")
    }
    const lastStep = pending.totp_last_step === null ? null : Number(pending.totp_last_step)
    const step = verifyTotp(secret, code, Math.floor(now / 1000), lastStep)
    if (step === undefined)
      return yield* refused(401, "InvalidCode", "The code is wrong or was already used.")
    const token = newToken()
    const enrolling = !pending.totp_enrolled
    const operator = yield* sql
      .withTransaction(
        Effect.gen(function* () {
          const updated = yield* sql<OperatorRow>`
            UPDATE backoffice_operators
            SET totp_last_step = ${step}, totp_enrolled = true,
                updated_at = CASE WHEN totp_enrolled THEN updated_at ELSE now() END
            WHERE id = ${pending.id} AND (totp_last_step IS NULL OR totp_last_step < ${step})
            RETURNING ${sql.literal(operatorColumns)}
          `
          const row = updated[0]
          if (row === undefined)
            return yield* refused(401, "InvalidCode", "The code is wrong or was already used.")
          yield* sql`UPDATE backoffice_sessions SET revoked_at = ${iso(now)}::timestamptz WHERE id = ${pending.session_id}`
          yield* sql`
            INSERT INTO backoffice_sessions (token_hash, operator_id, stage, created_at, last_seen_at, expires_at, ip, user_agent)
            VALUES (${hashToken(token)}, ${row.id}, 'active', ${iso(now)}::timestamptz, ${iso(now)}::timestamptz,
                    ${iso(now + config.backofficeSessionHours * 3_600_000)}::timestamptz, ${meta.ip},
                    ${meta.userAgent?.slice(0, 512) ?? null})
          `
          const view = viewOf(row)
          const actor: Actor = {
            operatorId: row.id,
            email: row.email,
            label: `backoffice:${row.email}`,
            ip: meta.ip,
          }
          if (enrolling)
            yield* writeAudit(actor, "operator.enrol", row.id, { enrolled: false }, { enrolled: true })
          else yield* writeAudit(actor, "operator.login", row.id, null, null)
          return view
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
    return { token, operator }
  })

  const resolve = Effect.fn("Backoffice.resolve")(function* (token: string | undefined) {
    if (token === undefined || !looksLikeToken(token)) return Option.none<CurrentOperator>()
    const now = nowMs()
    const rows = yield* sql<OperatorRow & { readonly session_id: string }>`
      UPDATE backoffice_sessions s SET last_seen_at = ${iso(now)}::timestamptz
      FROM backoffice_operators o
      WHERE o.id = s.operator_id AND s.token_hash = ${hashToken(token)} AND s.stage = 'active'
        AND s.revoked_at IS NULL AND s.expires_at > ${iso(now)}::timestamptz
        AND s.last_seen_at > ${iso(now - config.backofficeIdleMinutes * 60_000)}::timestamptz
        AND NOT o.disabled
      RETURNING s.id AS session_id, o.id, o.email, o.name, o.role, o.totp_enrolled, o.disabled,
                o.created_at, o.updated_at
    `.pipe(Effect.orDie)
    const row = rows[0]
    return row === undefined
      ? Option.none<CurrentOperator>()
      : Option.some<CurrentOperator>({ sessionId: row.session_id, operator: viewOf(row) })
  })

  const logout = Effect.fn("Backoffice.logout")(function* (current: CurrentOperator, actor: Actor) {
    yield* sql
      .withTransaction(
        Effect.gen(function* () {
          yield* sql`
            UPDATE backoffice_sessions SET revoked_at = ${iso(nowMs())}::timestamptz
            WHERE id = ${current.sessionId} AND revoked_at IS NULL
          `
          yield* writeAudit(actor, "operator.logout", current.operator.id, null, null)
        }),
      )
      .pipe(Effect.orDie)
  })

  const listOperators = Effect.fn("Backoffice.listOperators")(function* () {
    const rows = yield* sql<OperatorRow>`
      SELECT ${sql.literal(operatorColumns)} FROM backoffice_operators ORDER BY created_at, email
    `.pipe(Effect.orDie)
    return rows.map(viewOf)
  })

  const createOperator = Effect.fn("Backoffice.createOperator")(function* (actor: Actor, input: NewOperator) {
    const email = input.email.trim()
    const name = input.name.trim()
    if (!emailPattern.test(email) || email.length > 254)
      return yield* refused(400, "BadRequest", "The e-mail address is not valid.")
    if (name === "" || name.length > 100)
      return yield* refused(400, "BadRequest", "The name must be 1 to 100 characters.")
    if (
      input.password !== undefined &&
      (input.password.length < MIN_OPERATOR_PASSWORD || input.password.length > 128)
    )
      return yield* refused(
        400,
        "BadRequest",
        `The password must be ${MIN_OPERATOR_PASSWORD} to 128 characters.`,
      )
    const initialPassword = input.password === undefined ? randomBytes(18).toString("base64url") : undefined
    const passwordHash = yield* passwords.hash(input.password ?? initialPassword ?? "")
    const operator = yield* sql
      .withTransaction(
        Effect.gen(function* () {
          const taken =
            yield* sql`SELECT 1 FROM backoffice_operators WHERE lower(email) = ${normalizeOperatorEmail(email)}`
          if (taken.length > 0)
            return yield* refused(409, "EmailTaken", "An operator with this e-mail address exists already.")
          const rows = yield* sql<OperatorRow>`
            INSERT INTO backoffice_operators (email, name, password_hash, role)
            VALUES (${email}, ${name}, ${passwordHash}, ${input.role})
            RETURNING ${sql.literal(operatorColumns)}
          `
          const row = rows[0]
          if (row === undefined)
            return yield* Effect.die(new Error("INSERT backoffice_operators returned no row"))
          const view = viewOf(row)
          yield* writeAudit(actor, "operators.create", view.id, null, view)
          return view
        }),
      )
      .pipe(
        Effect.catchTag("SqlError", (error) =>
          error.reason._tag === "UniqueViolation"
            ? Effect.fail(refused(409, "EmailTaken", "An operator with this e-mail address exists already."))
            : Effect.die(error),
        ),
      )
    return initialPassword === undefined ? { operator } : { operator, initialPassword }
  })

  const updateOperator = Effect.fn("Backoffice.updateOperator")(function* (
    actor: Actor,
    id: string,
    changes: OperatorChanges,
  ) {
    if (changes.role === undefined && changes.disabled === undefined)
      return yield* refused(400, "BadRequest", "Nothing to change: give role or disabled.")
    const notFound = refused(404, "OperatorNotFound", "No operator has this id.")
    if (!uuidPattern.test(id)) return yield* notFound
    return yield* sql
      .withTransaction(
        Effect.gen(function* () {
          // The admins are locked together, so two admins demoting each other at once cannot both win.
          const admins = yield* sql<{ readonly id: string }>`
            SELECT id FROM backoffice_operators WHERE role = 'admin' AND NOT disabled ORDER BY id FOR UPDATE
          `
          const current = (yield* sql<OperatorRow>`
            SELECT ${sql.literal(operatorColumns)} FROM backoffice_operators WHERE id = ${id} FOR UPDATE
          `)[0]
          if (current === undefined) return yield* notFound
          const before = viewOf(current)
          const role = changes.role ?? before.role
          const disabled = changes.disabled ?? before.disabled
          const wasActiveAdmin = before.role === "admin" && !before.disabled
          const staysActiveAdmin = role === "admin" && !disabled
          if (wasActiveAdmin && !staysActiveAdmin && admins.length <= 1)
            return yield* refused(
              409,
              "LastAdmin",
              "The last active admin cannot lose the role or be disabled.",
            )
          const rows = yield* sql<OperatorRow>`
            UPDATE backoffice_operators SET role = ${role}, disabled = ${disabled}, updated_at = now()
            WHERE id = ${id}
            RETURNING ${sql.literal(operatorColumns)}
          `
          const row = rows[0]
          if (row === undefined) return yield* notFound
          if (disabled && !before.disabled)
            yield* sql`
              UPDATE backoffice_sessions SET revoked_at = ${iso(nowMs())}::timestamptz
              WHERE operator_id = ${id} AND revoked_at IS NULL
            `
          const after = viewOf(row)
          yield* writeAudit(actor, "operators.update", id, before, after)
          return after
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  })

  const audit = Effect.fn("Backoffice.audit")(function* (limit: number, before: string | undefined) {
    // ORDER BY names the table's column: the text alias `id` would sort "9" after "10".
    const rows = yield* sql<{
      readonly id: string
      readonly at: Date
      readonly actor: string
      readonly operator_id: string | null
      readonly operator_email: string | null
      readonly action: string
      readonly subject: string | null
      readonly before: unknown
      readonly after: unknown
      readonly ip: string | null
    }>`
      SELECT id::text AS id, at, actor, operator_id, operator_email, action, subject, before, after, ip
      FROM operator_audit
      WHERE ${before === undefined ? sql`true` : sql`id < ${before}::bigint`}
      ORDER BY operator_audit.id DESC LIMIT ${limit}
    `.pipe(Effect.orDie)
    return rows.map(
      (r): AuditEntryView => ({
        id: r.id,
        at: new Date(r.at).toISOString(),
        actor: r.actor,
        operatorId: r.operator_id,
        operatorEmail: r.operator_email,
        action: r.action,
        subject: r.subject,
        before: r.before,
        after: r.after,
        ip: r.ip,
      }),
    )
  })

  return {
    login,
    loginTotp,
    resolve,
    logout,
    listOperators,
    createOperator,
    updateOperator,
    audit,
  } satisfies BackofficeShape
})

export class Backoffice extends Context.Service<Backoffice, BackofficeShape>()("casino/server/Backoffice") {
  static readonly layer = Layer.effect(Backoffice, make)
}
