/**
 * What the profile domain's machines share: how a tab machine ends (its output, routed by the
 * profile area to the shell), how a failed call that means "the session is gone" is recognised,
 * and the note a tab sends its parent when it changed the account (so the session's copy of the
 * profile is refreshed). Pure.
 */
import { Unauthenticated } from "../../services/errors.ts"
import type { Profile } from "../../services/profile-service.ts"

/**
 * A tab machine's final output. `sessionEnded`: a call answered 401 (the session was revoked or
 * expired) — the area asks the shell to re-check the session. `selfExcluded`: the account is
 * signed out everywhere. `saved`: the profile form was asked to finish after saving (deposits).
 */
export type TabOutput =
  | { readonly type: "sessionEnded" }
  | { readonly type: "selfExcluded" }
  | { readonly type: "saved"; readonly profile: Profile }

/** Sent to the parent when a tab changed the account (a save, the promo switch). */
export interface AccountChanged {
  readonly type: "ACCOUNT_CHANGED"
}

/** A call failed because the session is gone (revoked on another device, expired). */
export const isSessionGone = (error: unknown): boolean => error instanceof Unauthenticated

export const sessionEnded: TabOutput = { type: "sessionEnded" }
