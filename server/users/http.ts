/**
 * HTTP handlers of the user-service (services/api/user-service.ts). They read the request (client
 * IP, session cookie, clickId cookie), call `Users`, and set or clear the session cookie; a
 * registration's bonus code is handed to `Bonuses`.
 */
import { Effect, Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CasinoApi } from "../../services/api.ts"
import { Bonuses } from "../bonuses/Bonuses.ts"
import { FreeSpinWallets } from "../bonuses/FreeSpinWallets.ts"
import { Captcha } from "../captcha/Captcha.ts"
import { AppConfig } from "../config.ts"
import { Geo } from "../geo/Geo.ts"
import { requireSession } from "./auth.ts"
import {
  CLICK_ID_COOKIE,
  clearSessionCookie,
  noStore,
  readCookie,
  SESSION_COOKIE,
  setSessionCookie,
} from "./cookies.ts"
import { emailStatus } from "./emailStatus.ts"
import { Sessions } from "./Sessions.ts"
import { type RequestMeta, Users } from "./Users.ts"

export const UserHandlers = HttpApiBuilder.group(
  CasinoApi,
  "user",
  Effect.fn(function* (handlers) {
    const config = yield* AppConfig
    const geo = yield* Geo
    const users = yield* Users
    const sessions = yield* Sessions
    const captcha = yield* Captcha
    const bonuses = yield* Bonuses
    const freeSpins = yield* FreeSpinWallets

    const metaOf = (request: HttpServerRequest.HttpServerRequest): RequestMeta => ({
      ip: geo.clientIp(request),
      userAgent: request.headers["user-agent"],
      sessionToken: readCookie(request, SESSION_COOKIE),
      clickIdCookie: readCookie(request, CLICK_ID_COOKIE),
    })

    return handlers.handleAll({
      signin: Effect.fn("http.user.signin")(function* ({ payload, request }) {
        const signedIn = yield* users.signIn(payload, metaOf(request))
        yield* setSessionCookie(config, signedIn.token)
        return signedIn.status
      }),
      signout: Effect.fn("http.user.signout")(function* ({ request }) {
        yield* users.signOut(readCookie(request, SESSION_COOKIE))
        yield* clearSessionCookie(config)
      }),
      register: Effect.fn("http.user.register")(function* ({ payload, request }) {
        const signedIn = yield* users.register(payload, metaOf(request))
        yield* setSessionCookie(config, signedIn.token)
        // The registration's bonus code is taken for the first deposit, as a code redeemed in the
        // Bonuses tab. A code that grants nothing does not refuse the registration: the form checks
        // it as it is typed, and the Bonuses tab shows what was taken.
        const code = payload.registrationCode?.trim() ?? ""
        const user = signedIn.status.user
        // The welcome banner's free spins, granted on joining (their winnings wait for a deposit).
        if (user !== null) yield* freeSpins.onRegistration(user.id)
        if (code !== "" && user !== null)
          yield* bonuses
            .redeemCoupon(user.id, code)
            .pipe(
              Effect.catchTag("CouponRejected", (e) =>
                Effect.logInfo(`registration code of ${user.id} not taken: ${e.reason}`),
              ),
            )
        return signedIn.status
      }),
      validateEmail: ({ payload }) => Effect.succeed({ email_status: emailStatus(payload.email) }),
      forgotPassword: ({ payload, request }) => users.forgotPassword(payload.email, metaOf(request)),
      changePassword: Effect.fn("http.user.changePassword")(function* ({ payload, request }) {
        const session = yield* requireSession(sessions, request)
        yield* users.changePassword(session, payload)
      }),
      resetPassword: ({ payload }) => users.resetPassword(payload),
      confirmAccount: ({ payload }) => users.confirmAccount(payload.token),
      resendConfirmation: Effect.fn("http.user.resendConfirmation")(function* ({ request }) {
        const session = yield* requireSession(sessions, request)
        return yield* users.resendConfirmation(session)
      }),
      isAuthenticated: Effect.fn("http.user.isAuthenticated")(function* ({ request }) {
        const session = yield* sessions.resolve(readCookie(request, SESSION_COOKIE))
        return Option.match(session, {
          onNone: () => ({ isAuthenticated: false, user: null }),
          onSome: (s) => ({ isAuthenticated: true, user: s.user }),
        })
      }),
      captchaChallenge: () => Effect.andThen(noStore, captcha.challenge),
    })
  }),
)
