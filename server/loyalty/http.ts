/**
 * `GET /profile-service/api/v1/profile/loyalty-level` (the bonuses group of the contract): the
 * session's player's level, points and progress; 401 without a session. A group is implemented in
 * one place (server/bonuses/http.ts), which hands this call here.
 */
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { requireSession } from "../users/auth.ts"
import { Sessions } from "../users/Sessions.ts"
import { Loyalty } from "./Loyalty.ts"

/** The handler of `loyaltyLevel`, built once with the group's services. */
export const loyaltyLevelHandler = Effect.gen(function* () {
  const sessions = yield* Sessions
  const loyalty = yield* Loyalty
  return ({ request }: { readonly request: HttpServerRequest.HttpServerRequest }) =>
    Effect.flatMap(requireSession(sessions, request), (s) => loyalty.status(s.user.id))
})
