/**
 * user-service (spec section 7): account access. Paths are the spec's, verbatim. The server
 * implements this group; the browser's client (`services/clients/user.ts`) is generated from it.
 */
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
} from "../errors.ts"
import {
  Acknowledged,
  AuthStatus,
  CaptchaChallenge,
  ChangePasswordPayload,
  ConfirmAccountPayload,
  ConfirmAccountResult,
  EmailStatusResponse,
  ForgotPasswordPayload,
  RegistrationPayload,
  ResetPasswordPayload,
  SignInPayload,
  ValidateEmailPayload,
} from "../user-service.ts"

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
      payload: ValidateEmailPayload,
      success: EmailStatusResponse,
    }),
    HttpApiEndpoint.post("forgotPassword", "/forgot-password", {
      payload: ForgotPasswordPayload,
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
      payload: ConfirmAccountPayload,
      success: ConfirmAccountResult,
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
