/**
 * user-service (spec section 7): the schemas of account access — payloads, answers, shared by the
 * server, the group in `api/user-service.ts` and the browser client generated from it. Browser-safe
 * and light: this module imports only `Schema`.
 */
import { Schema } from "effect"
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

export const ValidateEmailPayload = Schema.Struct({ email: Text(1024) })
export const ForgotPasswordPayload = Schema.Struct({ email: Email })
export const ConfirmAccountPayload = Schema.Struct({ token: Token })
export const ConfirmAccountResult = Schema.Struct({ confirmed: Schema.Boolean })
