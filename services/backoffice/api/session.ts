/**
 * Signing in and out of the back office: password, then the TOTP code (or its enrolment), the
 * signed-in operator, logout. The session is the `bo_session` cookie (Path=/api/backoffice).
 */
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { IncorrectPassword, InvalidCredentials, PasswordRejected, RateLimited } from "../../errors.ts"
import { Audits, publicAccess, Requires, SessionOnly, signedIn } from "../access.ts"
import { InvalidCode, LoginExpired } from "../errors.ts"
import { BackofficeAddress, BackofficeGuard } from "../middleware.ts"
import { ChangePasswordPayload, LoggedOut, LoginPayload, LoginStep, Me, TotpPayload } from "../operators.ts"

export class LoginApi extends HttpApiGroup.make("login")
  .add(
    HttpApiEndpoint.post("login", "/login", {
      payload: LoginPayload,
      success: LoginStep,
      error: [InvalidCredentials, RateLimited],
    }).annotate(Requires, publicAccess),
    HttpApiEndpoint.post("loginTotp", "/login/totp", {
      payload: TotpPayload,
      success: Me,
      error: [LoginExpired, InvalidCode, RateLimited],
    })
      .annotate(Requires, publicAccess)
      .annotate(Audits, ["operator.login", "operator.enrol"]),
  )
  .middleware(BackofficeAddress)
  .prefix("/api/backoffice/v1") {}

export class SessionApi extends HttpApiGroup.make("session")
  .add(
    HttpApiEndpoint.post("logout", "/logout", { success: LoggedOut })
      .annotate(Requires, signedIn)
      .annotate(Audits, ["operator.logout"]),
    HttpApiEndpoint.get("me", "/me", { success: Me }).annotate(Requires, signedIn),
    HttpApiEndpoint.post("changePassword", "/password", {
      payload: ChangePasswordPayload,
      success: Me,
      error: [IncorrectPassword, PasswordRejected, RateLimited],
    })
      .annotate(Requires, signedIn)
      .annotate(SessionOnly, true)
      .annotate(Audits, ["operator.password"]),
  )
  .middleware(BackofficeGuard)
  .prefix("/api/backoffice/v1") {}
