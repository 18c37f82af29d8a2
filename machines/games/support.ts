/**
 * What the games domain's machines (gamesArea, lobby, gamePage, verifier; betHistory in the profile
 * area) share: the session status they follow, what they ask of the shell, and the game frame's
 * messages. Pure: no fetch, no DOM, no clock.
 */

/** The session as the games pages need it: still being checked, a visitor, or a signed-in player. */
export type SessionStatus = "checking" | "anonymous" | "signedIn"

/** Sent by the area to its open page whenever the session changes. */
export interface SessionEvent {
  readonly type: "SESSION"
  readonly status: SessionStatus
}

/**
 * What a games page asks of its area (which routes it to the shell or the session):
 * the login modal (a visitor toggled a favorite or asked for real money), the session re-checked
 * (a call answered 401). A round's new balance is not asked for: the server pushes it to the session.
 */
export type GamesRequest = { readonly type: "OPEN_LOGIN" } | { readonly type: "AUTH_RECHECK" }

/** What the game frame may tell the page (window.postMessage from the studio's page). */
export type FrameMessage =
  | { readonly type: "balance" }
  | { readonly type: "insufficientFunds" }
  | { readonly type: "error"; readonly code: string }

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * The frame's message, or null for anything else (other scripts post messages too):
 * `{ type: "studio:balance" }` after each round, `{ type: "studio:error", code }` on a refused bet.
 */
export const parseFrameMessage = (data: unknown): FrameMessage | null => {
  if (!isRecord(data)) return null
  if (data.type === "studio:balance") return { type: "balance" }
  if (data.type === "studio:error" && typeof data.code === "string") {
    return data.code === "INSUFFICIENT_FUNDS"
      ? { type: "insufficientFunds" }
      : { type: "error", code: data.code }
  }
  return null
}
