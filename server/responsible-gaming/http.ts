/**
 * Handlers of self-exclusion (PUT …/profile/self-exclude) and the responsible-gaming settings
 * (GET/PUT …/profile/responsible-gaming). Self-exclusion signs the player out everywhere: every
 * session is revoked by the service and this browser's cookie is cleared.
 */
import { Effect } from "effect"
import { AppConfig } from "../config.ts"
import type { ProfileHandlers } from "../profile/handlers.ts"
import { requireSession } from "../users/auth.ts"
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
  } satisfies ProfileHandlers<"selfExclude" | "getResponsibleGaming" | "updateResponsibleGaming">
})
