/**
 * The session of the request, or 401: every profile-service call starts here, and takes the
 * player's id from the session it returns — never from the request — so one player can only ever
 * read or change their own account.
 */
import { Effect, Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import { Unauthenticated } from "../../services/errors.ts"
import { readCookie, SESSION_COOKIE } from "./cookies.ts"
import type { CurrentSession, Sessions } from "./Sessions.ts"

export const UnauthenticatedMessage = "Please sign in to continue."

export const requireSession = (
  sessions: Sessions["Service"],
  request: HttpServerRequest.HttpServerRequest,
): Effect.Effect<CurrentSession, Unauthenticated> =>
  sessions.resolve(readCookie(request, SESSION_COOKIE)).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.fail(new Unauthenticated({ message: UnauthenticatedMessage })),
        onSome: Effect.succeed,
      }),
    ),
  )
