/**
 * The back office's two guards, declared with the contract so every group states which one it
 * stands behind (the server implements them in server/backoffice/guard.ts):
 * - `BackofficeAddress`: the BACKOFFICE_ALLOW list only (the login steps);
 * - `BackofficeGuard`: the list, then the `bo_session` cookie, then the endpoint's `Requires`
 *   annotation against the operator's role, then (outside the session group) a password the
 *   operator has chosen; it provides the signed-in `CurrentOperator`.
 */
import { Context } from "effect"
import { HttpApiMiddleware } from "effect/http-api"
import { Unauthenticated } from "../errors.ts"
import { Forbidden, ForbiddenAddress, PasswordChangeRequired } from "./errors.ts"
import type { Operator } from "./operators.ts"

export interface SignedInOperator {
  /** The browser session's id, or the API token's. */
  readonly sessionId: string
  /** How this call was authenticated: the `bo_session` cookie, or an API token (named by its creator). */
  readonly via: { readonly kind: "session" } | { readonly kind: "token"; readonly name: string }
  readonly operator: Operator
  /** The client address (TRUST_PROXY-resolved), for the audit. */
  readonly ip: string
}

export class CurrentOperator extends Context.Service<CurrentOperator, SignedInOperator>()(
  "casino/backoffice/CurrentOperator",
) {}

export class BackofficeAddress extends HttpApiMiddleware.Service<BackofficeAddress>()(
  "casino/backoffice/Address",
  { error: ForbiddenAddress },
) {}

export class BackofficeGuard extends HttpApiMiddleware.Service<
  BackofficeGuard,
  { provides: CurrentOperator }
>()("casino/backoffice/Guard", {
  error: [ForbiddenAddress, Unauthenticated, Forbidden, PasswordChangeRequired],
}) {}
