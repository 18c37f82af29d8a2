/**
 * What the modal host hands to, and expects back from, the account flows it invokes
 * (login, register, forgot password, reset password, e-mail confirmation).
 * A flow never talks to other actors: it ends in a final state whose output says what happened,
 * and the modal host routes that (auth re-check, navigation). This keeps every flow testable alone.
 */
import type { Currencies, SiteConfig } from "../services/cdn.ts"
import type { SessionUser } from "../services/user-service.ts"

export interface FlowInput {
  readonly siteConfig: SiteConfig
  readonly currencies: Currencies
  /** The `token` query parameter of an e-mail link (reset password, e-mail confirmation). */
  readonly token: string | null
}

export type FlowOutput =
  | { readonly type: "signedIn"; readonly user: SessionUser }
  | { readonly type: "registered"; readonly user: SessionUser }
  | { readonly type: "resetLinkSent" }
  | { readonly type: "passwordReset" }
  | { readonly type: "emailConfirmed" }
