/**
 * Who may call a back-office endpoint, and what a successful call writes to the audit — annotations
 * on each endpoint of the contract (./api/), so the rule sits beside the call it guards. The
 * server's guard middleware reads `Requires` on every request and refuses an endpoint without it
 * (fail closed); the permission and audit tests walk every endpoint of `BackofficeApi` reading the
 * same annotations; the browser reads them only to hide what the server would refuse.
 */
import { Context, Option } from "effect"
import type { Permission } from "./permissions.ts"

/** Anyone (the login steps), any signed-in operator, or holders of one permission. */
export type Access =
  | { readonly kind: "public" }
  | { readonly kind: "signedIn" }
  | { readonly kind: "permission"; readonly permission: Permission }

export class Requires extends Context.Service<Requires, Access>()("casino/backoffice/Requires") {}

/**
 * The audit actions a successful call writes (exactly one row, one of these); absent or empty for
 * a read, and for the password step, which gives nothing usable before the code. (A failed sign-in
 * step writes a row of its own: `operator.login-failed`, `operator.totp-failed`.)
 */
export class Audits extends Context.Service<Audits, ReadonlyArray<string>>()("casino/backoffice/Audits") {}

/**
 * The call needs the browser session (password and TOTP passed): an API token is refused. Set on
 * what would let a token outlive its own limits — a new token, a new password, an operator made,
 * changed or reset (an admin of the token holder's choosing).
 */
export class SessionOnly extends Context.Service<SessionOnly, true>()("casino/backoffice/SessionOnly") {}

export const publicAccess: Access = { kind: "public" }
export const signedIn: Access = { kind: "signedIn" }
export const needs = (permission: Permission): Access => ({ kind: "permission", permission })

export const accessOf = (annotations: Context.Context<never>): Access | undefined =>
  Option.getOrUndefined(Context.getOption(annotations, Requires))

export const auditsOf = (annotations: Context.Context<never>): ReadonlyArray<string> =>
  Option.getOrElse(Context.getOption(annotations, Audits), () => [])

export const isSessionOnly = (annotations: Context.Context<never>): boolean =>
  Option.isSome(Context.getOption(annotations, SessionOnly))
