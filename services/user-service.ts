/**
 * user-service (spec section 7): account access. Paths are the spec's, verbatim.
 */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  AccountLocked,
  AlreadyConfirmed,
  CaptchaFailed,
  CountryRestricted,
  EmailTaken,
  IncorrectPassword,
  InvalidCredentials,
  InvalidToken,
  PasswordRejected,
  RateLimited,
  RegistrationRefused,
  SelfExcluded,
  Unauthenticated,
  ValidationFailed,
} from "./errors.ts"
import { Constants, isStorableText, unstorableTextMessage } from "./rules.ts"

/**
 * A string field of a payload: at most `max` UTF-16 units, and text the database can store (no NUL,
 * no unpaired surrogate). A violation is the edge's 400 naming the field, never a 500 from SQL.
 */
const Text = (max: number) =>
  Schema.String.check(
    Schema.isMaxLength(max),
    Schema.makeFilter((s: string) => isStorableText(s) || unstorableTextMessage),
  )

const Email = Text(Constants.emailMaxLength)
/** Upper bound only: the minimum is a business rule answered with the spec's own message. */
const Password = Text(Constants.passwordMaxLength)
/** The ALTCHA widget's payload (base64 JSON). Empty is allowed by the schema and refused as "missing". */
const Captcha = Text(8_192)
const Token = Text(256)

export const SignInPayload = Schema.Struct({ email: Email, password: Password, captcha: Captcha })
export type SignInPayload = typeof SignInPayload.Type

export const RegistrationPayload = Schema.Struct({
  clickId: Schema.optional(Schema.NullOr(Text(128))),
  registrationCode: Schema.optional(Schema.NullOr(Text(64))),
  email: Email,
  password: Password,
  fullName: Text(200),
  terms: Schema.Boolean,
  language: Text(16),
  currency: Text(8),
  captcha: Captcha,
})
export type RegistrationPayload = typeof RegistrationPayload.Type

export const SessionUser = Schema.Struct({
  id: Schema.String,
  email: Schema.String,
  fullName: Schema.String,
  confirmed: Schema.Boolean,
})
export type SessionUser = typeof SessionUser.Type

export const AuthStatus = Schema.Struct({
  isAuthenticated: Schema.Boolean,
  user: Schema.NullOr(SessionUser),
})
export type AuthStatus = typeof AuthStatus.Type

export const EmailStatusResponse = Schema.Struct({
  email_status: Schema.Literals(["VALID", "INVALID", "DISPOSABLE"]),
})

export const ResetPasswordPayload = Schema.Struct({
  password: Password,
  confirmPassword: Password,
  token: Token,
  captcha: Captcha,
})
export type ResetPasswordPayload = typeof ResetPasswordPayload.Type

export const ChangePasswordPayload = Schema.Struct({
  oldPassword: Password,
  newPassword: Password,
  confirmPassword: Password,
})

/** ALTCHA v2 challenge, as `altcha-lib` createChallenge returns it and the widget expects it. */
export const CaptchaChallenge = Schema.Struct({
  parameters: Schema.Struct({
    algorithm: Schema.String,
    nonce: Schema.String,
    salt: Schema.String,
    cost: Schema.Number,
    keyLength: Schema.Number,
    keyPrefix: Schema.String,
    keySignature: Schema.optional(Schema.String),
    memoryCost: Schema.optional(Schema.Number),
    parallelism: Schema.optional(Schema.Number),
    expiresAt: Schema.optional(Schema.Number),
    data: Schema.optional(Schema.Record(Schema.String, Schema.Unknown)),
  }),
  signature: Schema.optional(Schema.String),
})
export type CaptchaChallenge = typeof CaptchaChallenge.Type

export const Acknowledged = Schema.Struct({ message: Schema.String })

export class UserServiceApi extends HttpApiGroup.make("user")
  .add(
    HttpApiEndpoint.post("signin", "/signin", {
      payload: SignInPayload,
      success: AuthStatus,
      error: [InvalidCredentials, AccountLocked, SelfExcluded, CountryRestricted, CaptchaFailed, RateLimited],
    }),
    HttpApiEndpoint.delete("signout", "/signout", { success: HttpApiSchema.NoContent }),
    HttpApiEndpoint.post("register", "/registration", {
      payload: RegistrationPayload,
      success: AuthStatus,
      error: [
        EmailTaken,
        RegistrationRefused,
        ValidationFailed,
        CountryRestricted,
        CaptchaFailed,
        RateLimited,
      ],
    }),
    HttpApiEndpoint.post("validateEmail", "/registration/validate", {
      payload: Schema.Struct({ email: Text(1024) }),
      success: EmailStatusResponse,
    }),
    HttpApiEndpoint.post("forgotPassword", "/forgot-password", {
      payload: Schema.Struct({ email: Email }),
      success: Acknowledged,
      error: [ValidationFailed, RateLimited],
    }),
    HttpApiEndpoint.post("changePassword", "/change-password", {
      payload: ChangePasswordPayload,
      success: HttpApiSchema.NoContent,
      error: [Unauthenticated, IncorrectPassword, PasswordRejected, RateLimited],
    }),
    HttpApiEndpoint.post("resetPassword", "/account/reset-password", {
      payload: ResetPasswordPayload,
      success: HttpApiSchema.NoContent,
      error: [PasswordRejected, InvalidToken, CaptchaFailed, RateLimited],
    }),
    HttpApiEndpoint.post("confirmAccount", "/account/confirm", {
      payload: Schema.Struct({ token: Token }),
      success: Schema.Struct({ confirmed: Schema.Boolean }),
      error: [InvalidToken],
    }),
    HttpApiEndpoint.post("resendConfirmation", "/account/resend", {
      success: Acknowledged,
      error: [Unauthenticated, AlreadyConfirmed, RateLimited],
    }),
    HttpApiEndpoint.post("isAuthenticated", "/isAuthenticated", { success: AuthStatus }),
    HttpApiEndpoint.get("captchaChallenge", "/captcha/challenge", { success: CaptchaChallenge }),
  )
  .prefix("/user-service/api/v1")
  .annotateMerge(
    OpenApi.annotations({
      title: "user-service",
      description: "Registration, sign-in, sessions, passwords, e-mail confirmation and the captcha.",
    }),
  ) {}
