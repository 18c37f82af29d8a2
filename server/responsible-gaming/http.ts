/**
 * Handlers of self-exclusion (PUT …/profile/self-exclude), the responsible-gaming settings
 * (GET/PUT …/profile/responsible-gaming) and the reality check of the asking session (GET/PUT
 * …/profile/reality-check). Self-exclusion signs the player out everywhere: every session is
 * revoked by the service and this browser's cookie is cleared. The reality-check PUT takes no body:
 * the moment it records is the database's, never the browser's; a session that ended between the
 * session check and the write is 401 like any other. The service pushes the answer to the player's
 * pages (`realityCheck`), so another tab of the session closes its reminder.
 */
import { Effect } from "effect"
import { Unauthenticated } from "../../services/errors.ts"
import { AppConfig } from "../config.ts"
import type { ProfileHandlers } from "../profile/handlers.ts"
import { requireSession, UnauthenticatedMessage } from "../users/auth.ts"
import { clearSessionCookie } from "../users/cookies.ts"
import { Sessions } from "../users/Sessions.ts"
import { ResponsibleGaming } from "./ResponsibleGaming.ts"

export const responsibleGamingHandlers = Effect.gen(function* () {
  const rg = yield* ResponsibleGaming
  const sessions = yield* Sessions
  const config = yield* AppConfig

  return {
    selfExclude: Effect.fn("http.profile.selfExclude")(function* ({ request, payload }) {
      const session = yield* requireSession(sessions, request)
      const exclusion = yield* rg.selfExclude(session.user.id, payload.selfExcludePeriod)
      yield* clearSessionCookie(config)
      return exclusion
    }),
    getResponsibleGaming: Effect.fn("http.profile.getResponsibleGaming")(function* ({ request }) {
      const session = yield* requireSession(sessions, request)
      return yield* rg.get(session.user.id)
    }),
    updateResponsibleGaming: Effect.fn("http.profile.updateResponsibleGaming")(function* ({
      request,
      payload,
    }) {
      const session = yield* requireSession(sessions, request)
      return yield* rg.update(session.user.id, payload)
    }),
    getRealityCheck: Effect.fn("http.profile.getRealityCheck")(function* ({ request }) {
      const session = yield* requireSession(sessions, request)
      const state = yield* rg.realityCheck(session.user.id, session.sessionId)
      if (state === undefined) return yield* new Unauthenticated({ message: UnauthenticatedMessage })
      return state
    }),
    acknowledgeRealityCheck: Effect.fn("http.profile.acknowledgeRealityCheck")(function* ({ request }) {
      const session = yield* requireSession(sessions, request)
      const state = yield* rg.acknowledgeRealityCheck(session.user.id, session.sessionId)
      if (state === undefined) return yield* new Unauthenticated({ message: UnauthenticatedMessage })
      return state
    }),
  } satisfies ProfileHandlers<
    | "selfExclude"
    | "getResponsibleGaming"
    | "updateResponsibleGaming"
    | "getRealityCheck"
    | "acknowledgeRealityCheck"
  >
})
