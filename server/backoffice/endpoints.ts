/**
 * Every back-office endpoint, once: method, path, who may call it, and what it writes to the audit.
 * The router (./http.ts) is built from this table — a handler per key, checked by the compiler — and
 * the permission tests walk the same table, so an endpoint cannot be added without its permission
 * and without being tested for every role.
 */
import type { Permission } from "./permissions.ts"

export const BACKOFFICE_PREFIX = "/api/backoffice/v1"

/** Who may call: anyone (the login steps), any signed-in operator, or holders of one permission. */
export type Access =
  | { readonly kind: "public" }
  | { readonly kind: "signedIn" }
  | { readonly kind: "permission"; readonly permission: Permission }

export interface BackofficeEndpoint {
  readonly method: "GET" | "POST" | "PATCH"
  /** Router pattern (`:id` = one segment). */
  readonly path: `/${string}`
  readonly access: Access
  /**
   * The audit action a successful call writes (exactly one row), one of these; empty for a read,
   * and for the password step, which gives nothing usable before the code.
   */
  readonly audits: ReadonlyArray<string>
}

const signedIn = { kind: "signedIn" } as const
const publicAccess = { kind: "public" } as const
const needs = (permission: Permission) => ({ kind: "permission", permission }) as const

export const backofficeEndpoints = {
  login: { method: "POST", path: `${BACKOFFICE_PREFIX}/login`, access: publicAccess, audits: [] },
  loginTotp: {
    method: "POST",
    path: `${BACKOFFICE_PREFIX}/login/totp`,
    access: publicAccess,
    audits: ["operator.login", "operator.enrol"],
  },
  logout: {
    method: "POST",
    path: `${BACKOFFICE_PREFIX}/logout`,
    access: signedIn,
    audits: ["operator.logout"],
  },
  me: { method: "GET", path: `${BACKOFFICE_PREFIX}/me`, access: signedIn, audits: [] },
  listOperators: {
    method: "GET",
    path: `${BACKOFFICE_PREFIX}/operators`,
    access: needs("operators.manage"),
    audits: [],
  },
  createOperator: {
    method: "POST",
    path: `${BACKOFFICE_PREFIX}/operators`,
    access: needs("operators.manage"),
    audits: ["operators.create"],
  },
  updateOperator: {
    method: "PATCH",
    path: `${BACKOFFICE_PREFIX}/operators/:id`,
    access: needs("operators.manage"),
    audits: ["operators.update"],
  },
  audit: { method: "GET", path: `${BACKOFFICE_PREFIX}/audit`, access: needs("audit.read"), audits: [] },
} as const satisfies Record<string, BackofficeEndpoint>

export type BackofficeEndpointKey = keyof typeof backofficeEndpoints

export const backofficeEndpointList: ReadonlyArray<
  BackofficeEndpoint & { readonly key: BackofficeEndpointKey }
> = (Object.keys(backofficeEndpoints) as Array<BackofficeEndpointKey>).map((key) => ({
  key,
  ...backofficeEndpoints[key],
}))
