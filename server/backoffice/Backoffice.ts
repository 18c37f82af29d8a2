/**
 * The back office's accounts, logins and sessions (docs/backoffice.md); the SQL is ./OperatorsRepo.ts.
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
 * - Every change an operator makes writes one `operator_audit` row in the same transaction; every
 *   failed password or code writes one too (and a log line), with the address. The password step's
 *   limits count failures by address, so knowing an e-mail is not enough to lock its operator out.
 * - The first admin's bootstrap (an operator secret, no one signed in) makes an admin only while no
 *   active admin exists.
 * Failures are the contract's wire errors (services/backoffice/errors.ts), answered as they are.
 */
import { randomBytes } from "node:crypto"
import { Context, Effect, Layer, Option } from "effect"
import { SqlError } from "effect/sql"
import {
  BadInput,
  BootstrapClosed,
  InvalidCode,
  LastAdmin,
  LoginExpired,
  OperatorNotFound,
} from "../../services/backoffice/errors.ts"
import type { SignedInOperator } from "../../services/backoffice/middleware.ts"
import type { AuditEntry, LoginStep, Operator } from "../../services/backoffice/operators.ts"
import { isRole, type Role } from "../../services/backoffice/permissions.ts"
import {
  EmailTaken,
  IncorrectPassword,
  InvalidCredentials,
  PasswordRejected,
  type RateLimited,
} from "../../services/errors.ts"
import { AppConfig } from "../config.ts"
import { RateLimiter, refuseFor } from "../security/RateLimiter.ts"
import { Passwords } from "../users/Passwords.ts"
import { hashToken, looksLikeToken, newToken } from "../users/tokens.ts"
import { ApiTokensRepo } from "./ApiTokensRepo.ts"
import { type AuditRow, type OperatorRow, OperatorsRepo } from "./OperatorsRepo.ts"
import { enrolment, newTotpSecret, verifyTotp } from "./secondFactor.ts"
import { openSecret, sealSecret } from "./secretBox.ts"

export type OperatorView = Operator
export type AuditEntryView = AuditEntry

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

export const actorOf = (current: SignedInOperator): Actor => ({
  operatorId: current.operator.id,
  email: current.operator.email,
  // The audit tells a script (and which of the operator's tokens) from the person in a browser.
  label:
    current.via.kind === "token"
      ? `token:${current.operator.email} (${current.via.name})`
      : `backoffice:${current.operator.email}`,
  ip: current.ip,
})

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

/** Minutes a password-stage session waits for its code. */
export const PENDING_LOGIN_MINUTES = 5
export const MIN_OPERATOR_PASSWORD = 12

const badCredentials = () => new InvalidCredentials({ message: "Wrong e-mail or password." })
const wrongCode = () => new InvalidCode({ message: "The code is wrong or was already used." })
const emailTaken = () => new EmailTaken({ message: "An operator with this e-mail address exists already." })

export const operatorView = (row: OperatorRow): OperatorView => ({
  id: row.id,
  email: row.email,
  name: row.name,
  role: isRole(row.role) ? row.role : "support",
  enrolled: row.totp_enrolled,
  disabled: row.disabled,
  mustChangePassword: row.must_change_password,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
})

/**
 * Who acted, for a person to read: an operator as "Name <e-mail>" (a token's row keeps its
 * `token:` prefix and the token's name), anyone else by the recorded actor.
 */
export const auditWho = (row: AuditRow): string => {
  if (row.operator_id === null || row.operator_email === null) return row.actor
  const person =
    row.operator_name === null ? row.operator_email : `${row.operator_name} <${row.operator_email}>`
  const token = `token:${row.operator_email} `
  return row.actor.startsWith(token) ? `token:${person} ${row.actor.slice(token.length)}` : person
}

/** The subject for a person to read: the player's e-mail, or the operator as "Name <e-mail>". */
export const auditSubjectName = (row: AuditRow): string | null =>
  row.player_email ??
  (row.subject_operator_name === null || row.subject_operator_email === null
    ? null
    : `${row.subject_operator_name} <${row.subject_operator_email}>`)

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const normalizeOperatorEmail = (email: string): string => email.trim().toLowerCase()

export interface BackofficeShape {
  readonly login: (
    input: { readonly email: string; readonly password: string },
    meta: RequestMeta,
  ) => Effect.Effect<{ readonly token: string; readonly answer: LoginStep }, InvalidCredentials | RateLimited>
  readonly loginTotp: (
    pendingToken: string | undefined,
    code: string,
    meta: RequestMeta,
  ) => Effect.Effect<
    { readonly token: string; readonly operator: OperatorView },
    LoginExpired | InvalidCode | RateLimited
  >
  /** The live session of a token (sliding its idle time), else none. */
  readonly resolve: (token: string | undefined) => Effect.Effect<Option.Option<Omit<SignedInOperator, "ip">>>
  /**
   * The operator of a session still live, as it is now — without counting as a use: an open
   * stream re-checks its session with this, so it neither outlives the session nor keeps it alive.
   */
  readonly stillSignedIn: (sessionId: string) => Effect.Effect<Option.Option<OperatorView>>
  readonly logout: (current: SignedInOperator) => Effect.Effect<void>
  readonly listOperators: () => Effect.Effect<ReadonlyArray<OperatorView>>
  /** Creates an operator; `initialPassword` is the generated one, returned this once. */
  readonly createOperator: (
    actor: Actor,
    input: NewOperator,
  ) => Effect.Effect<
    { readonly operator: OperatorView; readonly initialPassword?: string | undefined },
    BadInput | EmailTaken
  >
  /**
   * The first admin, made with an operator secret (server/backoffice/operatorHttp.ts): an admin
   * only, and only while no active admin exists; audited `operators.bootstrap`, naming the secret
   * and the address. `initialPassword` as for `createOperator`.
   */
  readonly bootstrap: (
    origin: { readonly secretName: string; readonly ip: string },
    input: Omit<NewOperator, "password">,
  ) => Effect.Effect<
    { readonly operator: OperatorView; readonly initialPassword?: string | undefined },
    BadInput | EmailTaken | BootstrapClosed
  >
  readonly updateOperator: (
    actor: Actor,
    id: string,
    changes: OperatorChanges,
  ) => Effect.Effect<OperatorView, BadInput | OperatorNotFound | LastAdmin>
  /**
   * The operator's own new password (at least MIN_OPERATOR_PASSWORD, not the current one); their
   * other sessions and every API token of theirs end.
   */
  readonly changePassword: (
    current: SignedInOperator,
    input: { readonly currentPassword: string; readonly newPassword: string },
  ) => Effect.Effect<OperatorView, IncorrectPassword | PasswordRejected | RateLimited>
  /**
   * An admin's reset of someone's password (a new one-time password), second factor, or API
   * tokens; each ends their sessions and tokens.
   */
  readonly resetOperator: (
    actor: Actor,
    id: string,
    what: "password" | "totp" | "tokens",
  ) => Effect.Effect<
    { readonly operator: OperatorView; readonly initialPassword?: string | undefined },
    OperatorNotFound
  >
  /** Audit entries, newest first, with ids below `before` when given. */
  readonly audit: (limit: number, before: string | undefined) => Effect.Effect<ReadonlyArray<AuditEntryView>>
}

const make = Effect.gen(function* () {
  const repo = yield* OperatorsRepo
  const tokens = yield* ApiTokensRepo
  const config = yield* AppConfig
  const passwords = yield* Passwords
  const limiter = yield* RateLimiter
  const limits = config.rateLimits

  const nowMs = () => config.backofficeClock()
  const iso = (ms: number) => new Date(ms).toISOString()

  const audit = (actor: Actor, action: string, subject: string | null, before: unknown, after: unknown) =>
    repo.writeAudit({ ...actor, action, subject, before, after })

  /**
   * A failed sign-in step, written to the audit (outside any transaction: the attempt changed
   * nothing) and the log, with the address and the e-mail as typed (normalised), never the
   * password or the code. Who acted is not known: `operator_id` stays empty, the targeted operator
   * is the subject.
   */
  const failedStep = (
    action: "operator.login-failed" | "operator.totp-failed",
    email: string,
    operatorId: string | null,
    reason: string,
    meta: RequestMeta,
  ) =>
    Effect.andThen(
      Effect.logWarning(`back office: ${action} for ${email} from ${meta.ip} (${reason})`),
      repo
        .writeAudit({
          label: `sign-in attempt: ${email}`,
          operatorId: null,
          email: null,
          ip: meta.ip,
          action,
          subject: operatorId,
          before: null,
          after: { email: email.slice(0, 254), reason },
        })
        .pipe(Effect.orDie),
    )

  /**
   * The password step's limits (docs/backoffice.md, "Login rate limits"), so that knowing an
   * operator's e-mail is not enough to lock them out: every attempt of an address counts
   * (signinPerIp); failures count per e-mail and address (signinPerEmail: a stranger spends only
   * their own address's) and per e-mail from everywhere (signinPerIp: many addresses guessing one
   * password), and past the latter only an address without a failure for that e-mail gets a try.
   */
  const loginLimits = (email: string, ip: string) => {
    const here = `bo-login:failed:${email}:${ip}`
    const everywhere = `bo-login:failed:${email}`
    const clean = { max: 1, windowSeconds: limits.signinPerEmail.windowSeconds }
    return {
      before: Effect.gen(function* () {
        yield* limiter.consume(`bo-login:ip:${ip}`, limits.signinPerIp)
        const fromHere = yield* limiter.blockedFor(here, limits.signinPerEmail)
        if (fromHere > 0) return yield* refuseFor(fromHere)
        const fromEverywhere = yield* limiter.blockedFor(everywhere, limits.signinPerIp)
        if (fromEverywhere > 0 && (yield* limiter.blockedFor(here, clean)) > 0)
          return yield* refuseFor(fromEverywhere)
      }),
      failed: Effect.andThen(
        limiter.record(here, limits.signinPerEmail),
        limiter.record(everywhere, limits.signinPerIp),
      ),
    }
  }

  const login = Effect.fn("Backoffice.login")(function* (
    input: { readonly email: string; readonly password: string },
    meta: RequestMeta,
  ) {
    const email = normalizeOperatorEmail(input.email)
    const limit = loginLimits(email, meta.ip)
    yield* limit.before
    const row = yield* repo.findByEmail(email).pipe(Effect.orDie)
    const refuse = (operatorId: string | null, reason: string) =>
      Effect.andThen(
        Effect.andThen(limit.failed, failedStep("operator.login-failed", email, operatorId, reason, meta)),
        badCredentials(),
      )
    if (row === undefined || row.disabled) {
      // The same time as a real check: no telling which e-mails are operators.
      yield* passwords.verifyDummy(input.password)
      return yield* refuse(row?.id ?? null, row === undefined ? "no such operator" : "operator disabled")
    }
    if (!(yield* passwords.verify(row.password_hash, input.password)))
      return yield* refuse(row.id, "wrong password")
    let answer: LoginStep = { step: "totp" }
    if (!row.totp_enrolled) {
      const secret = newTotpSecret()
      yield* repo.setPendingSecret(row.id, sealSecret(config.backofficeTotpKey, secret)).pipe(Effect.orDie)
      const { uri, base32 } = enrolment(config.productName, row.email, secret)
      answer = { step: "enrol", otpauthUri: uri, secret: base32 }
    }
    const token = newToken()
    const now = nowMs()
    yield* repo
      .insertSession({
        tokenHash: hashToken(token),
        operatorId: row.id,
        stage: "password",
        nowIso: iso(now),
        expiresIso: iso(now + PENDING_LOGIN_MINUTES * 60_000),
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 512) ?? null,
      })
      .pipe(Effect.orDie)
    return { token, answer }
  })

  const loginTotp = Effect.fn("Backoffice.loginTotp")(function* (
    pendingToken: string | undefined,
    code: string,
    meta: RequestMeta,
  ) {
    const expired = new LoginExpired({ message: "Sign in with your e-mail and password first." })
    if (pendingToken === undefined || !looksLikeToken(pendingToken)) return yield* expired
    const now = nowMs()
    const pending = yield* repo.findPendingLogin(hashToken(pendingToken), iso(now)).pipe(Effect.orDie)
    if (pending === undefined || pending.totp_secret === null) return yield* expired
    // Six digits are few: the guesses per operator are limited like passwords per e-mail. Only
    // someone who passed the password step can spend them.
    yield* limiter.consume(`bo-totp:operator:${pending.id}`, limits.signinPerEmail)
    const refused = (reason: string) =>
      Effect.andThen(
        failedStep("operator.totp-failed", normalizeOperatorEmail(pending.email), pending.id, reason, meta),
        wrongCode(),
      )
    const secret = openSecret(config.backofficeTotpKey, pending.totp_secret)
    if (secret === undefined) {
      yield* Effect.logError(
        `back office: the TOTP secret of ${pending.id} does not open with BACKOFFICE_TOTP_KEY`,
      )
      return yield* refused("the secret does not open with BACKOFFICE_TOTP_KEY")
    }
    const lastStep = pending.totp_last_step === null ? null : Number(pending.totp_last_step)
    const step = verifyTotp(secret, code, Math.floor(now / 1000), lastStep)
    if (step === undefined) return yield* refused("wrong or used code")
    const token = newToken()
    const enrolling = !pending.totp_enrolled
    const operator = yield* repo
      .withTransaction(
        Effect.gen(function* () {
          const row = yield* repo.acceptStep(pending.id, step)
          // Another request took this step first (the same code sent twice at once).
          if (row === undefined) return yield* wrongCode()
          yield* repo.revokeSession(pending.session_id, iso(now))
          yield* repo.insertSession({
            tokenHash: hashToken(token),
            operatorId: row.id,
            stage: "active",
            nowIso: iso(now),
            expiresIso: iso(now + config.backofficeSessionHours * 3_600_000),
            ip: meta.ip,
            userAgent: meta.userAgent?.slice(0, 512) ?? null,
          })
          const actor: Actor = {
            operatorId: row.id,
            email: row.email,
            label: `backoffice:${row.email}`,
            ip: meta.ip,
          }
          if (enrolling)
            yield* audit(actor, "operator.enrol", row.id, { enrolled: false }, { enrolled: true })
          else yield* audit(actor, "operator.login", row.id, null, null)
          return operatorView(row)
        }),
      )
      .pipe(
        Effect.catchTag("SqlError", Effect.die),
        Effect.catchTag("InvalidCode", () => refused("wrong or used code")),
      )
    return { token, operator }
  })

  const resolve = Effect.fn("Backoffice.resolve")(function* (token: string | undefined) {
    if (token === undefined || !looksLikeToken(token)) return Option.none()
    const now = nowMs()
    const row = yield* repo
      .touchSession(hashToken(token), iso(now), iso(now - config.backofficeIdleMinutes * 60_000))
      .pipe(Effect.orDie)
    return row === undefined
      ? Option.none()
      : Option.some({
          sessionId: row.session_id,
          via: { kind: "session" } as const,
          operator: operatorView(row),
        })
  })

  const stillSignedIn = Effect.fn("Backoffice.stillSignedIn")(function* (sessionId: string) {
    const now = nowMs()
    const row = yield* repo
      .peekSession(sessionId, iso(now), iso(now - config.backofficeIdleMinutes * 60_000))
      .pipe(Effect.orDie)
    return row === undefined ? Option.none() : Option.some(operatorView(row))
  })

  const logout = Effect.fn("Backoffice.logout")(function* (current: SignedInOperator) {
    yield* repo
      .withTransaction(
        Effect.gen(function* () {
          // Signing out with an API token ends that token: a script's way to give its key back.
          if (current.via.kind === "token") yield* tokens.revoke(current.sessionId, iso(nowMs()))
          else yield* repo.revokeSession(current.sessionId, iso(nowMs()))
          yield* audit(actorOf(current), "operator.logout", current.operator.id, null, null)
        }),
      )
      .pipe(Effect.orDie)
  })

  const listOperators = Effect.fn("Backoffice.listOperators")(function* () {
    return (yield* repo.listOperators().pipe(Effect.orDie)).map(operatorView)
  })

  /**
   * A new operator and its audit row `action`, in one transaction; `admit` runs first in it and
   * may refuse (the bootstrap's rule).
   */
  const create = Effect.fnUntraced(function* <E extends BootstrapClosed>(
    actor: Actor,
    input: NewOperator,
    action: "operators.create" | "operators.bootstrap",
    admit: Effect.Effect<void, E | SqlError.SqlError>,
  ) {
    const email = input.email.trim()
    const name = input.name.trim()
    if (!emailPattern.test(email) || email.length > 254)
      return yield* new BadInput({ message: "The e-mail address is not valid." })
    if (name === "" || name.length > 100)
      return yield* new BadInput({ message: "The name must be 1 to 100 characters." })
    if (
      input.password !== undefined &&
      (input.password.length < MIN_OPERATOR_PASSWORD || input.password.length > 128)
    )
      return yield* new BadInput({
        message: `The password must be ${MIN_OPERATOR_PASSWORD} to 128 characters.`,
      })
    const initialPassword = input.password === undefined ? randomBytes(18).toString("base64url") : undefined
    const passwordHash = yield* passwords.hash(input.password ?? initialPassword ?? "")
    const operator = yield* repo
      .withTransaction(
        Effect.gen(function* () {
          yield* admit
          if (yield* repo.emailTaken(normalizeOperatorEmail(email))) return yield* emailTaken()
          const row = yield* repo.insertOperator({
            email,
            name,
            passwordHash,
            role: input.role,
            mustChangePassword: initialPassword !== undefined,
          })
          if (row === undefined)
            return yield* Effect.die(new Error("INSERT backoffice_operators returned no row"))
          const view = operatorView(row)
          yield* audit(actor, action, view.id, null, view)
          return view
        }),
      )
      .pipe(
        Effect.catchIf(SqlError.isSqlError, (error) =>
          error.reason._tag === "UniqueViolation" ? Effect.fail(emailTaken()) : Effect.die(error),
        ),
      )
    return initialPassword === undefined ? { operator } : { operator, initialPassword }
  })

  const createOperator = Effect.fn("Backoffice.createOperator")(function* (actor: Actor, input: NewOperator) {
    return yield* create(actor, input, "operators.create", Effect.void)
  })

  const bootstrap = Effect.fn("Backoffice.bootstrap")(function* (
    origin: { readonly secretName: string; readonly ip: string },
    input: Omit<NewOperator, "password">,
  ) {
    if (input.role !== "admin")
      return yield* new BadInput({
        message: "The bootstrap makes the first admin only: the role must be admin.",
      })
    const actor: Actor = {
      operatorId: null,
      email: null,
      label: `bootstrap (operator secret ${origin.secretName})`,
      ip: origin.ip,
    }
    const closed = Effect.gen(function* () {
      if ((yield* repo.activeAdminsForBootstrap()) === 0) return
      yield* Effect.logWarning(
        `back office: the bootstrap was refused to operator secret ${origin.secretName} from ${origin.ip}: an active admin exists`,
      )
      return yield* new BootstrapClosed({
        message:
          "An active admin exists: the bootstrap is closed. An admin adds operators in the back office.",
      })
    })
    return yield* create(actor, input, "operators.bootstrap", closed)
  })

  const updateOperator = Effect.fn("Backoffice.updateOperator")(function* (
    actor: Actor,
    id: string,
    changes: OperatorChanges,
  ) {
    if (changes.role === undefined && changes.disabled === undefined)
      return yield* new BadInput({ message: "Nothing to change: give role or disabled." })
    const notFound = new OperatorNotFound({ message: "No operator has this id." })
    if (!uuidPattern.test(id)) return yield* notFound
    return yield* repo
      .withTransaction(
        Effect.gen(function* () {
          const { activeAdmins, operator: current } = yield* repo.lockForUpdate(id)
          if (current === undefined) return yield* notFound
          const before = operatorView(current)
          const role = changes.role ?? before.role
          const disabled = changes.disabled ?? before.disabled
          const wasActiveAdmin = before.role === "admin" && !before.disabled
          const staysActiveAdmin = role === "admin" && !disabled
          if (wasActiveAdmin && !staysActiveAdmin && activeAdmins <= 1)
            return yield* new LastAdmin({
              message: "The last active admin cannot lose the role or be disabled.",
            })
          const row = yield* repo.updateOperator(id, role, disabled)
          if (row === undefined) return yield* notFound
          if (disabled && !before.disabled) {
            yield* repo.revokeSessionsOf(id, iso(nowMs()))
            yield* tokens.revokeAllOf(id, iso(nowMs()))
          }
          const after = operatorView(row)
          yield* audit(actor, "operators.update", id, before, after)
          return after
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  })

  const changePassword = Effect.fn("Backoffice.changePassword")(function* (
    current: SignedInOperator,
    input: { readonly currentPassword: string; readonly newPassword: string },
  ) {
    yield* limiter.consume(`bo-password:operator:${current.operator.id}`, limits.signinPerEmail)
    const row = yield* repo.findSecretById(current.operator.id).pipe(Effect.orDie)
    if (row === undefined || !(yield* passwords.verify(row.password_hash, input.currentPassword)))
      return yield* new IncorrectPassword({ message: "The current password is not right." })
    if (input.newPassword.length < MIN_OPERATOR_PASSWORD || input.newPassword.length > 128)
      return yield* new PasswordRejected({
        message: `The new password must be ${MIN_OPERATOR_PASSWORD} to 128 characters.`,
      })
    if (input.newPassword === input.currentPassword)
      return yield* new PasswordRejected({ message: "The new password must differ from the current one." })
    const hash = yield* passwords.hash(input.newPassword)
    return yield* repo
      .withTransaction(
        Effect.gen(function* () {
          const updated = yield* repo.setPassword(current.operator.id, hash, false)
          if (updated === undefined) return yield* Effect.die(new Error("the signed-in operator vanished"))
          // Whoever learnt the old password may have made a token or kept a session: both end.
          yield* repo.revokeOtherSessions(current.operator.id, current.sessionId, iso(nowMs()))
          const tokensEnded = yield* tokens.revokeAllOf(current.operator.id, iso(nowMs()))
          const view = operatorView(updated)
          yield* audit(
            actorOf(current),
            "operator.password",
            current.operator.id,
            { mustChangePassword: current.operator.mustChangePassword },
            { mustChangePassword: false, tokensEnded },
          )
          return view
        }),
      )
      .pipe(Effect.orDie)
  })

  const resetOperator = Effect.fn("Backoffice.resetOperator")(function* (
    actor: Actor,
    id: string,
    what: "password" | "totp" | "tokens",
  ) {
    const notFound = new OperatorNotFound({ message: "No operator has this id." })
    if (!uuidPattern.test(id)) return yield* notFound
    const initialPassword = what === "password" ? randomBytes(18).toString("base64url") : undefined
    const hash = initialPassword === undefined ? undefined : yield* passwords.hash(initialPassword)
    const operator = yield* repo
      .withTransaction(
        Effect.gen(function* () {
          const found = (yield* repo.lockForUpdate(id)).operator
          if (found === undefined) return yield* notFound
          const before = operatorView(found)
          const row =
            what === "tokens"
              ? found
              : hash === undefined
                ? yield* repo.resetTotp(id)
                : yield* repo.setPassword(id, hash, true)
          if (row === undefined) return yield* notFound
          yield* repo.revokeSessionsOf(id, iso(nowMs()))
          yield* tokens.revokeAllOf(id, iso(nowMs()))
          const after = operatorView(row)
          yield* audit(actor, "operators.reset", id, { ...before, reset: what }, after)
          return after
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
    return initialPassword === undefined ? { operator } : { operator, initialPassword }
  })

  const auditPage = Effect.fn("Backoffice.audit")(function* (limit: number, before: string | undefined) {
    const rows = yield* repo.audit(limit, before).pipe(Effect.orDie)
    return rows.map(
      (r): AuditEntryView => ({
        id: r.id,
        at: new Date(r.at).toISOString(),
        actor: r.actor,
        who: auditWho(r),
        operatorId: r.operator_id,
        operatorEmail: r.operator_email,
        action: r.action,
        subject: r.subject,
        subjectName: auditSubjectName(r),
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
    stillSignedIn,
    logout,
    listOperators,
    createOperator,
    bootstrap,
    updateOperator,
    changePassword,
    resetOperator,
    audit: auditPage,
  } satisfies BackofficeShape
})

export class Backoffice extends Context.Service<Backoffice, BackofficeShape>()("casino/server/Backoffice") {
  static readonly layer = Layer.effect(Backoffice, make).pipe(
    Layer.provideMerge(Layer.mergeAll(OperatorsRepo.layer, ApiTokensRepo.layer)),
  )
}
