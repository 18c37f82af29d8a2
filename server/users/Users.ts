/**
 * Account access: registration, sign-in/out, passwords (change, forgot, reset), e-mail
 * confirmation, and the two profile reads. Every rule and message comes from services/rules.ts;
 * every failure is a wire error of services/errors.ts. Infrastructure failures (SQL, hashing) are
 * defects: the HTTP layer answers them with 500, never a client mistake.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import {
  AccountMessages,
  isAcceptablePassword,
  isBlockedDomain,
  isValidEmail,
  isValidFullName,
  normalizeEmail,
} from "../../services/account-rules.ts"
import {
  AccountLocked,
  AlreadyConfirmed,
  type CaptchaFailed,
  CountryRestricted,
  EmailTaken,
  IncorrectPassword,
  InvalidCredentials,
  InvalidToken,
  PasswordRejected,
  type RateLimited,
  RegistrationRefused,
  SelfExcluded,
  ValidationFailed,
} from "../../services/errors.ts"
import type { Fund, Profile } from "../../services/profile-service.ts"
import { Constants, isStorableText, Messages } from "../../services/rules.ts"
import type {
  AuthStatus,
  RegistrationPayload,
  ResetPasswordPayload,
  SignInPayload,
} from "../../services/user-service.ts"
import { Captcha } from "../captcha/Captcha.ts"
import { AppConfig } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import { Mailer } from "../mail/Mailer.ts"
import { confirmationMail, resetPasswordMail } from "../mail/templates.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { Passwords } from "./Passwords.ts"
import { type CurrentSession, type SessionMeta, Sessions } from "./Sessions.ts"
import { hashToken, looksLikeToken, newToken } from "./tokens.ts"

export interface RequestMeta extends SessionMeta {
  /** The session token the request already carries, if any (revoked on a new sign-in). */
  readonly sessionToken: string | undefined
  /** The `clickId` cookie, used when the registration payload has none. */
  readonly clickIdCookie: string | undefined
}

export interface SignedIn {
  readonly status: AuthStatus
  readonly token: string
}

export interface ChangePasswordInput {
  readonly oldPassword: string
  readonly newPassword: string
  readonly confirmPassword: string
}

export const UnauthenticatedMessage = "Please sign in to continue."
export const IncorrectPasswordMessage = "The current password is incorrect."
export const ResetTokenInvalidMessage = "This password reset link is invalid or has expired."
export const AlreadyConfirmedMessage = "Your e-mail address is already confirmed."

export interface UsersShape {
  readonly register: (
    payload: RegistrationPayload,
    meta: RequestMeta,
  ) => Effect.Effect<
    SignedIn,
    EmailTaken | RegistrationRefused | ValidationFailed | CountryRestricted | CaptchaFailed | RateLimited
  >
  readonly signIn: (
    payload: SignInPayload,
    meta: RequestMeta,
  ) => Effect.Effect<
    SignedIn,
    InvalidCredentials | AccountLocked | SelfExcluded | CountryRestricted | CaptchaFailed | RateLimited
  >
  readonly signOut: (token: string | undefined) => Effect.Effect<void>
  readonly changePassword: (
    session: CurrentSession,
    input: ChangePasswordInput,
  ) => Effect.Effect<void, IncorrectPassword | PasswordRejected | RateLimited>
  readonly forgotPassword: (
    email: string,
    meta: RequestMeta,
  ) => Effect.Effect<{ readonly message: string }, ValidationFailed | RateLimited>
  readonly resetPassword: (
    payload: ResetPasswordPayload,
  ) => Effect.Effect<void, PasswordRejected | InvalidToken | CaptchaFailed>
  readonly confirmAccount: (token: string) => Effect.Effect<{ readonly confirmed: boolean }, InvalidToken>
  readonly resendConfirmation: (
    session: CurrentSession,
  ) => Effect.Effect<{ readonly message: string }, AlreadyConfirmed | RateLimited>
  readonly profile: (userId: string) => Effect.Effect<Profile>
  readonly fund: (userId: string) => Effect.Effect<Fund>
}

interface CredentialRow {
  readonly id: string
  readonly email: string
  readonly fullName: string
  readonly passwordHash: string
  readonly confirmed: boolean
  readonly locked: boolean
  readonly excluded: boolean
  readonly excludedUntil: string | null
}

interface ProfileRow {
  readonly email: string
  readonly confirmed: boolean
  readonly firstName: string | null
  readonly lastName: string | null
  readonly receiveEmailPromo: boolean
  readonly nickName: string | null
  readonly phoneNumber: string | null
  readonly dialingCode: string | null
  readonly address: string | null
  readonly address2: string | null
  readonly zipCode: string | null
  readonly country: string | null
  readonly city: string | null
  readonly state: string | null
  readonly gender: string | null
  readonly dateOfBirth: number | null
}

interface FundRow {
  readonly currency: string
  readonly isDefault: boolean
  readonly balance: string
}

const isUniqueViolation = (error: SqlError.SqlError): boolean => error.reason._tag === "UniqueViolation"

const registrationIncomplete = (field: string) =>
  new ValidationFailed({ message: AccountMessages.registerIncomplete, field })

/**
 * The `clickId` cookie as stored: at most 128 code points, and only text the database can store.
 * A cookie is not typed by the player (and the cookie parser percent-decodes it: `%00` becomes
 * NUL), so a malformed one is ignored rather than failing the registration.
 */
export const cookieClickId = (cookie: string | undefined): string | undefined => {
  if (cookie === undefined) return undefined
  const value = Array.from(cookie).slice(0, 128).join("")
  return isStorableText(value) ? value : undefined
}

/** "Ada Lovelace King" → first "Ada", last "Lovelace King". */
export const splitFullName = (fullName: string): { first: string; last: string | null } => {
  const [first = "", ...rest] = fullName.trim().split(/\s+/)
  return { first, last: rest.length === 0 ? null : rest.join(" ") }
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const config = yield* AppConfig
  const limiter = yield* RateLimiter
  const geo = yield* Geo
  const captcha = yield* Captcha
  const passwords = yield* Passwords
  const sessions = yield* Sessions
  const mailer = yield* Mailer
  const mailContext = { productName: config.productName, supportEmail: config.supportEmail }
  const limits = config.rateLimits

  const refuseRestrictedCountry = Effect.fn("Users.refuseRestrictedCountry")(function* (ip: string) {
    const { isoCode } = yield* geo.lookup(ip)
    if (yield* geo.isRestricted(isoCode)) {
      return yield* new CountryRestricted({ message: Messages.countryRestricted, isoCode })
    }
  })

  const statusOf = (user: AuthStatus["user"]): AuthStatus => ({ isAuthenticated: user !== null, user })

  /** True when `password` matches one of the user's last N stored passwords. */
  const isRecentPassword = Effect.fn("Users.isRecentPassword")(function* (userId: string, password: string) {
    const rows = yield* sql<{ readonly hash: string }>`
      SELECT hash FROM password_history WHERE user_id = ${userId}
      ORDER BY id DESC LIMIT ${Constants.passwordHistoryDepth}
    `.pipe(Effect.orDie)
    for (const row of rows) {
      if (yield* passwords.verify(row.hash, password)) return true
    }
    return false
  })

  /** Stores a new password hash with its history row, keeping only the last N history rows. */
  const storePassword = (userId: string, passwordHash: string) =>
    Effect.gen(function* () {
      yield* sql`UPDATE users SET password_hash = ${passwordHash} WHERE id = ${userId}`
      yield* sql`INSERT INTO password_history (user_id, hash) VALUES (${userId}, ${passwordHash})`
      yield* sql`
        DELETE FROM password_history WHERE user_id = ${userId} AND id NOT IN (
          SELECT id FROM password_history WHERE user_id = ${userId}
          ORDER BY id DESC LIMIT ${Constants.passwordHistoryDepth}
        )
      `
    })

  const insertEmailToken = (userId: string, purpose: "confirm" | "reset", token: string) => {
    const ttl =
      purpose === "confirm"
        ? sql`now() + make_interval(hours => ${config.confirmTokenTtlHours}::int)`
        : sql`now() + make_interval(mins => ${config.resetTokenTtlMinutes}::int)`
    return sql`
      INSERT INTO email_tokens (token_hash, user_id, purpose, expires_at)
      VALUES (${hashToken(token)}, ${userId}, ${purpose}, ${ttl})
    `
  }

  const confirmLink = (token: string) => `${config.publicUrl}/?modal=confirm-email&token=${token}`
  const resetLink = (token: string) => `${config.publicUrl}/?modal=reset-password&token=${token}`

  // ── registration ──────────────────────────────────────────────────────────────────────────
  const register = Effect.fn("Users.register")(function* (payload: RegistrationPayload, meta: RequestMeta) {
    yield* limiter.consume(`register:ip:${meta.ip}`, limits.registerPerIp)
    yield* captcha.verify(payload.captcha)
    yield* refuseRestrictedCountry(meta.ip)
    const email = payload.email.trim()
    if (isBlockedDomain(email, config.blockedEmailDomains)) {
      return yield* new RegistrationRefused({ message: AccountMessages.blockedDomainRegister })
    }
    if (!payload.terms) return yield* registrationIncomplete("terms")
    const fullName = payload.fullName.trim()
    if (!isValidFullName(fullName)) return yield* registrationIncomplete("fullName")
    if (!isValidEmail(email)) return yield* registrationIncomplete("email")
    if (!isAcceptablePassword(payload.password)) return yield* registrationIncomplete("password")
    const currency = (
      payload.currency.trim() === "" ? Constants.defaultCurrency : payload.currency.trim()
    ).toUpperCase()
    const known = yield* sql<{ readonly code: string }>`
      SELECT code FROM currencies WHERE code = ${currency} AND enabled
    `.pipe(Effect.orDie)
    if (known.length === 0) return yield* registrationIncomplete("currency")
    const language = payload.language.trim() === "" ? "en" : payload.language.trim()
    const clickId = payload.clickId?.trim() || cookieClickId(meta.clickIdCookie) || null
    const registrationCode = payload.registrationCode?.trim() || null
    const { first, last } = splitFullName(fullName)

    const passwordHash = yield* passwords.hash(payload.password)
    const confirmToken = newToken()

    const created = yield* sql
      .withTransaction(
        Effect.gen(function* () {
          const rows = yield* sql<{ readonly id: string; readonly confirmed: boolean }>`
            INSERT INTO users (email, password_hash, full_name, first_name, last_name, language, currency,
                               click_id, registration_code)
            VALUES (${email}, ${passwordHash}, ${fullName}, ${first}, ${last}, ${language}, ${currency},
                    ${clickId}, ${registrationCode})
            RETURNING id, (confirmed_at IS NOT NULL) AS confirmed
          `.pipe(
            Effect.catchTag("SqlError", (error) =>
              isUniqueViolation(error)
                ? Effect.fail(new EmailTaken({ message: AccountMessages.registerEmailTaken }))
                : Effect.die(error),
            ),
          )
          const user = rows[0]
          if (user === undefined) return yield* Effect.die(new Error("INSERT users returned no row"))
          yield* sql`INSERT INTO wallets (user_id, currency, is_default) VALUES (${user.id}, ${currency}, true)`
          yield* sql`INSERT INTO password_history (user_id, hash) VALUES (${user.id}, ${passwordHash})`
          yield* insertEmailToken(user.id, "confirm", confirmToken)
          const token = yield* sessions.create(user.id, meta)
          return { id: user.id, confirmed: user.confirmed, token }
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))

    yield* mailer
      .send(confirmationMail(mailContext, email, confirmLink(confirmToken), config.confirmTokenTtlHours))
      .pipe(
        Effect.catchCause((cause) =>
          Effect.logError(`confirmation e-mail to user ${created.id} failed`, cause),
        ),
      )

    return {
      token: created.token,
      status: statusOf({ id: created.id, email, fullName, confirmed: created.confirmed }),
    } satisfies SignedIn
  })

  // ── sign-in / sign-out ────────────────────────────────────────────────────────────────────
  const signIn = Effect.fn("Users.signIn")(function* (payload: SignInPayload, meta: RequestMeta) {
    const email = payload.email.trim()
    yield* limiter.consume(`signin:ip:${meta.ip}`, limits.signinPerIp)
    yield* limiter.consume(`signin:email:${normalizeEmail(email)}`, limits.signinPerEmail)
    yield* captcha.verify(payload.captcha)
    yield* refuseRestrictedCountry(meta.ip)
    if (isBlockedDomain(email, config.blockedEmailDomains)) {
      return yield* new AccountLocked({ message: AccountMessages.blockedDomainLogin })
    }
    const rows = yield* sql<CredentialRow>`
      SELECT id, email, full_name AS "fullName", password_hash AS "passwordHash",
             (confirmed_at IS NOT NULL) AS confirmed,
             (locked_at IS NOT NULL) AS locked,
             (self_exclusion_kind = 'indefinite' OR self_exclusion_until > now()) IS TRUE AS excluded,
             CASE WHEN self_exclusion_kind = 'indefinite' THEN NULL
                  ELSE to_char(self_exclusion_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
             END AS "excludedUntil"
      FROM users WHERE lower(email) = lower(${email})
    `.pipe(Effect.orDie)
    const user = rows[0]
    if (user === undefined) {
      yield* passwords.verifyDummy(payload.password)
      return yield* new InvalidCredentials({ message: AccountMessages.loginFailed })
    }
    if (!(yield* passwords.verify(user.passwordHash, payload.password))) {
      return yield* new InvalidCredentials({ message: AccountMessages.loginFailed })
    }
    if (user.locked) return yield* new AccountLocked({ message: AccountMessages.loginLocked })
    if (user.excluded)
      return yield* new SelfExcluded({ message: AccountMessages.loginCoolOff, until: user.excludedUntil })
    // A new token on every sign-in; the one the browser held before (if any) ends here.
    if (meta.sessionToken !== undefined) yield* sessions.revoke(meta.sessionToken)
    const token = yield* sessions.create(user.id, meta)
    return {
      token,
      status: statusOf({
        id: user.id,
        email: user.email,
        fullName: user.fullName,
        confirmed: user.confirmed,
      }),
    } satisfies SignedIn
  })

  const signOut = Effect.fn("Users.signOut")(function* (token: string | undefined) {
    if (token !== undefined) yield* sessions.revoke(token)
  })

  // ── passwords ─────────────────────────────────────────────────────────────────────────────
  const changePassword = Effect.fn("Users.changePassword")(function* (
    session: CurrentSession,
    input: ChangePasswordInput,
  ) {
    const userId = session.user.id
    // Guessing the current password through a stolen session is throttled like sign-in.
    yield* limiter.consume(`change-password:user:${userId}`, limits.signinPerEmail)
    const rows = yield* sql<{ readonly passwordHash: string }>`
      SELECT password_hash AS "passwordHash" FROM users WHERE id = ${userId}
    `.pipe(Effect.orDie)
    const current = rows[0]
    if (current === undefined || !(yield* passwords.verify(current.passwordHash, input.oldPassword))) {
      return yield* new IncorrectPassword({ message: IncorrectPasswordMessage })
    }
    if (input.newPassword !== input.confirmPassword) {
      return yield* new PasswordRejected({ message: AccountMessages.passwordsDoNotMatch })
    }
    if (!isAcceptablePassword(input.newPassword) || (yield* isRecentPassword(userId, input.newPassword))) {
      return yield* new PasswordRejected({ message: AccountMessages.resetRejected })
    }
    const passwordHash = yield* passwords.hash(input.newPassword)
    yield* sql
      .withTransaction(
        Effect.gen(function* () {
          yield* storePassword(userId, passwordHash)
          yield* sessions.revokeAllForUser(userId, session.sessionId)
        }),
      )
      .pipe(Effect.orDie)
  })

  const forgotPassword = Effect.fn("Users.forgotPassword")(function* (rawEmail: string, meta: RequestMeta) {
    const email = rawEmail.trim()
    if (!isValidEmail(email))
      return yield* new ValidationFailed({ message: AccountMessages.invalidEmail, field: "email" })
    yield* limiter.consume(`forgot:ip:${meta.ip}`, limits.forgotPerIp)
    yield* limiter.consume(`forgot:email:${normalizeEmail(email)}`, limits.forgotPerEmail)
    // The answer, and its timing, must not depend on whether the account exists: the lookup, the
    // token and the mail run detached from the request.
    yield* Effect.forkDetach(
      Effect.gen(function* () {
        const rows = yield* sql<{ readonly id: string; readonly email: string }>`
          SELECT id, email FROM users WHERE lower(email) = lower(${email})
        `
        const user = rows[0]
        if (user === undefined) return
        const token = newToken()
        yield* insertEmailToken(user.id, "reset", token)
        yield* mailer.send(
          resetPasswordMail(mailContext, user.email, resetLink(token), config.resetTokenTtlMinutes),
        )
      }).pipe(Effect.catchCause((cause) => Effect.logError("forgot-password e-mail failed", cause))),
    )
    return { message: AccountMessages.forgotSent }
  })

  const resetPassword = Effect.fn("Users.resetPassword")(function* (payload: ResetPasswordPayload) {
    yield* captcha.verify(payload.captcha)
    const invalid = new InvalidToken({ message: ResetTokenInvalidMessage })
    if (!looksLikeToken(payload.token)) return yield* invalid
    const tokenHash = hashToken(payload.token)
    const rows = yield* sql<{ readonly userId: string }>`
      SELECT user_id AS "userId" FROM email_tokens
      WHERE token_hash = ${tokenHash} AND purpose = 'reset' AND used_at IS NULL AND expires_at > now()
    `.pipe(Effect.orDie)
    const found = rows[0]
    if (found === undefined) return yield* invalid
    const userId = found.userId
    if (
      payload.password !== payload.confirmPassword ||
      !isAcceptablePassword(payload.password) ||
      (yield* isRecentPassword(userId, payload.password))
    ) {
      return yield* new PasswordRejected({ message: AccountMessages.resetRejected })
    }
    const passwordHash = yield* passwords.hash(payload.password)
    yield* sql
      .withTransaction(
        Effect.gen(function* () {
          // Claiming the token is the single-use guard: of two concurrent resets only one updates it.
          const claimed = yield* sql`
            UPDATE email_tokens SET used_at = now()
            WHERE token_hash = ${tokenHash} AND purpose = 'reset' AND used_at IS NULL AND expires_at > now()
            RETURNING id
          `
          if (claimed.length === 0) return yield* invalid
          yield* sql`
            UPDATE email_tokens SET used_at = now()
            WHERE user_id = ${userId} AND purpose = 'reset' AND used_at IS NULL
          `
          yield* storePassword(userId, passwordHash)
          yield* sessions.revokeAllForUser(userId)
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  })

  // ── e-mail confirmation ───────────────────────────────────────────────────────────────────
  const confirmAccount = Effect.fn("Users.confirmAccount")(function* (token: string) {
    const invalid = new InvalidToken({ message: AccountMessages.confirmFailure })
    if (!looksLikeToken(token)) return yield* invalid
    yield* sql
      .withTransaction(
        Effect.gen(function* () {
          const claimed = yield* sql<{ readonly userId: string }>`
            UPDATE email_tokens SET used_at = now()
            WHERE token_hash = ${hashToken(token)} AND purpose = 'confirm' AND used_at IS NULL AND expires_at > now()
            RETURNING user_id AS "userId"
          `
          const row = claimed[0]
          if (row === undefined) return yield* invalid
          yield* sql`UPDATE users SET confirmed_at = coalesce(confirmed_at, now()) WHERE id = ${row.userId}`
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
    return { confirmed: true }
  })

  const resendConfirmation = Effect.fn("Users.resendConfirmation")(function* (session: CurrentSession) {
    const userId = session.user.id
    if (session.user.confirmed) return yield* new AlreadyConfirmed({ message: AlreadyConfirmedMessage })
    yield* limiter.consume(`resend:user:${userId}`, limits.resendPerUser)
    const token = newToken()
    yield* sql
      .withTransaction(
        Effect.gen(function* () {
          yield* sql`
            UPDATE email_tokens SET used_at = now()
            WHERE user_id = ${userId} AND purpose = 'confirm' AND used_at IS NULL
          `
          yield* insertEmailToken(userId, "confirm", token)
        }),
      )
      .pipe(Effect.orDie)
    yield* mailer
      .send(
        confirmationMail(mailContext, session.user.email, confirmLink(token), config.confirmTokenTtlHours),
      )
      .pipe(Effect.orDie)
    return { message: AccountMessages.resendSuccess }
  })

  // ── profile reads ─────────────────────────────────────────────────────────────────────────
  const profile = Effect.fn("Users.profile")(function* (userId: string) {
    const rows = yield* sql<ProfileRow>`
      SELECT email, (confirmed_at IS NOT NULL) AS confirmed, first_name AS "firstName", last_name AS "lastName",
             receive_email_promo AS "receiveEmailPromo", nick_name AS "nickName", phone_number AS "phoneNumber",
             dialing_code AS "dialingCode", address, address2, zip_code AS "zipCode", country, city, state, gender,
             extract(epoch FROM date_of_birth::timestamp AT TIME ZONE 'UTC')::float8 AS "dateOfBirth"
      FROM users WHERE id = ${userId}
    `.pipe(Effect.orDie)
    const row = rows[0]
    if (row === undefined)
      return yield* Effect.die(new Error(`user ${userId} of a live session does not exist`))
    const gender = row.gender === "FEMALE" || row.gender === "MALE" ? row.gender : null
    return {
      email: row.email,
      confirmed: row.confirmed,
      firstName: row.firstName,
      lastName: row.lastName,
      receiveEmailPromo: row.receiveEmailPromo,
      // No verification documents exist before the verification capability.
      idVerification: { verified: false },
      billVerification: { verified: false },
      userDetails: {
        phone: { phoneNumber: row.phoneNumber, dialingCode: row.dialingCode },
        address: row.address,
        address2: row.address2,
        nickName: row.nickName,
        zipCode: row.zipCode,
        country: row.country,
        city: row.city,
        state: row.state,
        gender,
        dateOfBirth: row.dateOfBirth === null ? null : Math.floor(row.dateOfBirth),
        receiveEmailPromo: row.receiveEmailPromo,
      },
    } satisfies Profile
  })

  const fund = Effect.fn("Users.fund")(function* (userId: string) {
    const rows = yield* sql<FundRow>`
      SELECT currency, is_default AS "isDefault", balance::text AS balance
      FROM wallets WHERE user_id = ${userId}
      ORDER BY is_default DESC, currency
    `.pipe(Effect.orDie)
    return rows.map((row) => ({
      currency: row.currency,
      default: row.isDefault,
      balance: row.balance,
      freeSpinWallet: null,
    })) satisfies Fund
  })

  return {
    register,
    signIn,
    signOut,
    changePassword,
    forgotPassword,
    resetPassword,
    confirmAccount,
    resendConfirmation,
    profile,
    fund,
  } satisfies UsersShape
})

export class Users extends Context.Service<Users, UsersShape>()("casino/server/Users") {
  static readonly layer = Layer.effect(Users, make)
}
