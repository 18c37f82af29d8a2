/**
 * Account access: registration, sign-in/out, passwords (change, forgot, reset) and e-mail
 * confirmation. The rules live here (messages from services/account-rules.ts and rules.ts, every
 * failure a wire error of services/errors.ts); the SQL is UsersRepo.ts. Infrastructure failures
 * (SQL, hashing) are defects: the HTTP layer answers them with 500, never a client mistake.
 */
import { Context, Effect, Layer } from "effect"
import type { SqlError } from "effect/sql"
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
import { PromoMail } from "../profile/PromoMail.ts"
import { RateLimiter } from "../security/RateLimiter.ts"
import { Passwords } from "./Passwords.ts"
import { type CurrentSession, type SessionMeta, Sessions } from "./Sessions.ts"
import { hashToken, looksLikeToken, newToken } from "./tokens.ts"
import { UsersRepo } from "./UsersRepo.ts"

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
  const repo = yield* UsersRepo
  const config = yield* AppConfig
  const limiter = yield* RateLimiter
  const geo = yield* Geo
  const captcha = yield* Captcha
  const passwords = yield* Passwords
  const sessions = yield* Sessions
  const mailer = yield* Mailer
  const promo = yield* PromoMail
  const mailContext = { productName: config.productName, supportEmail: config.supportEmail }
  const limits = config.rateLimits
  const historyDepth = Constants.passwordHistoryDepth

  const refuseRestrictedCountry = Effect.fn("Users.refuseRestrictedCountry")(function* (ip: string) {
    const { isoCode } = yield* geo.lookup(ip)
    if (yield* geo.isRestricted(isoCode)) {
      return yield* new CountryRestricted({ message: Messages.countryRestricted, isoCode })
    }
  })

  const statusOf = (user: AuthStatus["user"]): AuthStatus => ({ isAuthenticated: user !== null, user })

  /** True when `password` matches one of the user's last N stored passwords. */
  const isRecentPassword = Effect.fn("Users.isRecentPassword")(function* (userId: string, password: string) {
    const hashes = yield* repo.recentPasswordHashes(userId, historyDepth).pipe(Effect.orDie)
    for (const hash of hashes) {
      if (yield* passwords.verify(hash, password)) return true
    }
    return false
  })

  const tokenTtl = (purpose: "confirm" | "reset") =>
    purpose === "confirm" ? { hours: config.confirmTokenTtlHours } : { minutes: config.resetTokenTtlMinutes }

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
    if (!(yield* repo.isCurrencyEnabled(currency).pipe(Effect.orDie)))
      return yield* registrationIncomplete("currency")
    const language = payload.language.trim() === "" ? "en" : payload.language.trim()
    const clickId = payload.clickId?.trim() || cookieClickId(meta.clickIdCookie) || null
    const registrationCode = payload.registrationCode?.trim() || null
    const { first, last } = splitFullName(fullName)

    const passwordHash = yield* passwords.hash(payload.password)
    const confirmToken = newToken()

    const created = yield* repo
      .transaction(
        Effect.gen(function* () {
          const user = yield* repo
            .insertUser({
              email,
              passwordHash,
              fullName,
              firstName: first,
              lastName: last,
              language,
              currency,
              clickId,
              registrationCode,
            })
            .pipe(
              Effect.catchTag("SqlError", (error) =>
                isUniqueViolation(error)
                  ? Effect.fail(new EmailTaken({ message: AccountMessages.registerEmailTaken }))
                  : Effect.die(error),
              ),
            )
          yield* repo.insertEmailToken(user.id, "confirm", hashToken(confirmToken), tokenTtl("confirm"))
          const token = yield* sessions.create(user.id, meta, "registration")
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
    const user = yield* repo.findCredentials(email).pipe(Effect.orDie)
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
    const token = yield* sessions.create(user.id, meta, "signin")
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
    const current = yield* repo.passwordHash(userId).pipe(Effect.orDie)
    if (current === undefined || !(yield* passwords.verify(current, input.oldPassword))) {
      return yield* new IncorrectPassword({ message: IncorrectPasswordMessage })
    }
    if (input.newPassword !== input.confirmPassword) {
      return yield* new PasswordRejected({ message: AccountMessages.passwordsDoNotMatch })
    }
    if (!isAcceptablePassword(input.newPassword) || (yield* isRecentPassword(userId, input.newPassword))) {
      return yield* new PasswordRejected({ message: AccountMessages.resetRejected })
    }
    const passwordHash = yield* passwords.hash(input.newPassword)
    yield* repo
      .transaction(
        Effect.gen(function* () {
          yield* repo.storePassword(userId, passwordHash, historyDepth)
          // Every other device signs in again with the new password.
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
        const user = yield* repo.findByEmail(email)
        if (user === undefined) return
        const token = newToken()
        yield* repo.insertEmailToken(user.id, "reset", hashToken(token), tokenTtl("reset"))
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
    const userId = yield* repo.findUsableToken(tokenHash, "reset").pipe(Effect.orDie)
    if (userId === undefined) return yield* invalid
    if (
      payload.password !== payload.confirmPassword ||
      !isAcceptablePassword(payload.password) ||
      (yield* isRecentPassword(userId, payload.password))
    ) {
      return yield* new PasswordRejected({ message: AccountMessages.resetRejected })
    }
    const passwordHash = yield* passwords.hash(payload.password)
    yield* repo
      .transaction(
        Effect.gen(function* () {
          // Claiming the token is the single-use guard: of two concurrent resets only one updates it.
          const claimed = yield* repo.claimToken(tokenHash, "reset")
          if (claimed === undefined) return yield* invalid
          yield* repo.retireTokens(userId, "reset")
          yield* repo.storePassword(userId, passwordHash, historyDepth)
          // Whoever knew the old password is signed out everywhere.
          yield* sessions.revokeAllForUser(userId)
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  })

  // ── e-mail confirmation ───────────────────────────────────────────────────────────────────
  const confirmAccount = Effect.fn("Users.confirmAccount")(function* (token: string) {
    const invalid = new InvalidToken({ message: AccountMessages.confirmFailure })
    if (!looksLikeToken(token)) return yield* invalid
    const userId = yield* repo
      .transaction(
        Effect.gen(function* () {
          const claimed = yield* repo.claimToken(hashToken(token), "confirm")
          if (claimed === undefined) return yield* invalid
          yield* repo.markConfirmed(claimed)
          return claimed
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
    // A player who already accepted promotional mail gets the welcome offer now (once; a failed
    // delivery is logged and does not fail the confirmation).
    yield* promo.welcomeOfferIfDue(userId)
    return { confirmed: true }
  })

  const resendConfirmation = Effect.fn("Users.resendConfirmation")(function* (session: CurrentSession) {
    const userId = session.user.id
    if (session.user.confirmed) return yield* new AlreadyConfirmed({ message: AlreadyConfirmedMessage })
    yield* limiter.consume(`resend:user:${userId}`, limits.resendPerUser)
    const token = newToken()
    yield* repo
      .transaction(
        Effect.gen(function* () {
          yield* repo.retireTokens(userId, "confirm")
          yield* repo.insertEmailToken(userId, "confirm", hashToken(token), tokenTtl("confirm"))
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

  return {
    register,
    signIn,
    signOut,
    changePassword,
    forgotPassword,
    resetPassword,
    confirmAccount,
    resendConfirmation,
  } satisfies UsersShape
})

export class Users extends Context.Service<Users, UsersShape>()("casino/server/Users") {
  /** Needs UsersRepo, AppConfig, RateLimiter, Geo, Captcha, Passwords, Sessions, Mailer and PromoMail. */
  static readonly layer = Layer.effect(Users, make)
}
