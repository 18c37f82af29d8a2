/**
 * The player's account services wired together: users (access), sessions, profile and promo mail,
 * verification documents (kyc) and responsible gaming, with their repositories. What they need from
 * outside: SqlClient, AppConfig, RateLimiter and Geo (built by server/app.ts before the routes).
 * `DepositTotals` reads the completed deposits of server/payments (DepositTotals.ts).
 */
import { Layer } from "effect"
import { ApiTokens } from "./backoffice/ApiTokens.ts"
import { Backoffice } from "./backoffice/Backoffice.ts"
import { Captcha } from "./captcha/Captcha.ts"
import { Kyc } from "./kyc/Kyc.ts"
import { Mailer } from "./mail/Mailer.ts"
import { OperatorAudit } from "./operator/Audit.ts"
import { Profile } from "./profile/Profile.ts"
import { ProfileRepo } from "./profile/ProfileRepo.ts"
import { PromoMail } from "./profile/PromoMail.ts"
import { DepositTotals } from "./responsible-gaming/DepositTotals.ts"
import { ResponsibleGaming } from "./responsible-gaming/ResponsibleGaming.ts"
import { Passwords } from "./users/Passwords.ts"
import { Sessions } from "./users/Sessions.ts"
import { Users } from "./users/Users.ts"
import { UsersRepo } from "./users/UsersRepo.ts"

const Base = Layer.mergeAll(
  Sessions.layer,
  Mailer.layer,
  Captcha.layer,
  Passwords.layer,
  UsersRepo.layer,
  ProfileRepo.layer,
  OperatorAudit.layer,
  DepositTotals.layer,
)

const Middle = Layer.mergeAll(Kyc.layer, PromoMail.layer, Backoffice.layer).pipe(Layer.provideMerge(Base))

export const AccountServicesLive = Layer.mergeAll(
  Users.layer,
  Profile.layer,
  ResponsibleGaming.layer,
  ApiTokens.layer,
).pipe(Layer.provideMerge(Middle))
