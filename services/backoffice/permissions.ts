/**
 * The back office's permission matrix, in one place: what each role may do. Every back-office
 * endpoint names the permission it needs (./access.ts, on the endpoint in ./api/) and the server
 * checks it against this table on every request; the browser reads the same table only to hide
 * what the server would refuse. docs/backoffice.md shows it.
 */
export const roles = ["support", "kyc", "payments", "marketing", "admin"] as const
export type Role = (typeof roles)[number]

export const permissions = [
  "players.read",
  "players.lock",
  "players.adjust",
  "kyc.review",
  "withdrawals.review",
  "promotions.manage",
  "games.manage",
  "countries.manage",
  "rates.manage",
  "operators.manage",
  "audit.read",
  "reports.read",
  "chat.answer",
] as const
export type Permission = (typeof permissions)[number]

/** Role → its permissions. The admin has every permission. */
export const matrix: Readonly<Record<Role, ReadonlyArray<Permission>>> = {
  support: ["players.read", "players.lock", "chat.answer"],
  kyc: ["players.read", "kyc.review", "chat.answer"],
  payments: ["players.read", "players.adjust", "withdrawals.review", "rates.manage", "reports.read"],
  marketing: ["players.read", "promotions.manage", "games.manage", "reports.read"],
  admin: permissions,
}

export const isRole = (value: string): value is Role => (roles as ReadonlyArray<string>).includes(value)

export const permissionsOf = (role: Role): ReadonlyArray<Permission> => matrix[role]

export const can = (role: Role, permission: Permission): boolean => matrix[role].includes(permission)
