/**
 * The profile-service group (services/api/profile-service.ts), composed from the handlers of the
 * modules that own its endpoints: the profile and sessions (here), verification documents
 * (server/kyc/http.ts) and responsible gaming (server/responsible-gaming/http.ts). Every handler
 * starts from the request's session (401 without one) and acts on that player only — except the
 * unsubscribe link, which works without signing in and identifies its player by its secret id.
 *
 * Besides the contract: `GET …/profile/unsubscribe/{id}` answers 303 to the player app's page
 * `/unsubscribe/{id}`, for mail clients that open the `List-Unsubscribe` address in a browser
 * instead of POSTing to it (a GET must never unsubscribe: link scanners follow links).
 */
import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CasinoApi } from "../../services/api.ts"
import { SessionNotFound } from "../../services/errors.ts"
import { FreeSpinWallets } from "../bonuses/FreeSpinWallets.ts"
import { AppConfig, type AppConfigShape } from "../config.ts"
import { kycHandlers } from "../kyc/http.ts"
import { responsibleGamingHandlers } from "../responsible-gaming/http.ts"
import { requireSession } from "../users/auth.ts"
import { clearSessionCookie } from "../users/cookies.ts"
import { Sessions } from "../users/Sessions.ts"
import type { ProfileHandlers as Handlers } from "./handlers.ts"
import { Profile } from "./Profile.ts"
import { PromoMail, unsubscribeApiPath, unsubscribePagePath } from "./PromoMail.ts"

export const SessionNotFoundMessage = "There is no such session among yours."

const profileAndSessionHandlers = Effect.gen(function* () {
  const profile = yield* Profile
  const freeSpins = yield* FreeSpinWallets
  const promo = yield* PromoMail
  const sessions = yield* Sessions
  const config = yield* AppConfig

  return {
    getProfile: Effect.fn("http.profile.getProfile")(function* ({ request }) {
      const session = yield* requireSession(sessions, request)
      return yield* profile.get(session)
    }),
    updateProfile: Effect.fn("http.profile.updateProfile")(function* ({ request, payload }) {
      const session = yield* requireSession(sessions, request)
      return yield* profile.update(session, payload)
    }),
    getFund: Effect.fn("http.profile.getFund")(function* ({ request }) {
      const session = yield* requireSession(sessions, request)
      return yield* freeSpins.withFund(session.user.id, yield* profile.fund(session.user.id))
    }),
    setReceiveEmail: Effect.fn("http.profile.setReceiveEmail")(function* ({ request, payload }) {
      const session = yield* requireSession(sessions, request)
      return yield* profile.setReceiveEmail(session.user.id, payload.receiveEmailPromo)
    }),
    unsubscribe: ({ params }) => promo.unsubscribe(params.id),
    unsubscribeOneClick: ({ params }) => promo.unsubscribe(params.id),
    listSessions: Effect.fn("http.profile.listSessions")(function* ({ request }) {
      const session = yield* requireSession(sessions, request)
      return yield* sessions.list(session)
    }),
    revokeSession: Effect.fn("http.profile.revokeSession")(function* ({ request, params }) {
      const session = yield* requireSession(sessions, request)
      const revoked = yield* sessions.revokeOwn(session.user.id, params.id)
      if (!revoked) return yield* new SessionNotFound({ message: SessionNotFoundMessage })
      // Revoking the device that asks signs it out here too.
      if (params.id === session.sessionId) yield* clearSessionCookie(config)
    }),
  } satisfies Handlers<
    | "getProfile"
    | "updateProfile"
    | "getFund"
    | "setReceiveEmail"
    | "unsubscribe"
    | "unsubscribeOneClick"
    | "listSessions"
    | "revokeSession"
  >
})

export const ProfileHandlers = HttpApiBuilder.group(
  CasinoApi,
  "profile",
  Effect.fn(function* (handlers) {
    const own = yield* profileAndSessionHandlers
    const kyc = yield* kycHandlers
    const rg = yield* responsibleGamingHandlers
    return handlers.handleAll(own).handleAll(kyc).handleAll(rg)
  }),
)

/** GET on the unsubscribe address: 303 to the page (see the header). */
export const unsubscribeRedirectRoute = (config: Pick<AppConfigShape, "publicUrl">) =>
  HttpRouter.add(
    "GET",
    unsubscribeApiPath(":id") as `/${string}`,
    Effect.map(HttpRouter.params, (params) =>
      HttpServerResponse.redirect(
        `${config.publicUrl}${unsubscribePagePath(encodeURIComponent(params.id ?? ""))}`,
        {
          status: 303,
          headers: { "cache-control": "no-store" },
        },
      ),
    ),
  )
