/**
 * The back office's screens and the permission each needs to be shown. The server refuses every
 * call a screen would make without it; this only keeps the menu to what the role can use.
 */
import type { Permission } from "./permissions.ts"

export const screens = [
  { id: "dashboard", label: "Dashboard", path: "/backoffice", needs: null },
  { id: "players", label: "Players", path: "/backoffice/players", needs: "players.read" },
  { id: "kyc", label: "KYC queue", path: "/backoffice/kyc", needs: "kyc.review" },
  { id: "withdrawals", label: "Withdrawals", path: "/backoffice/withdrawals", needs: "withdrawals.review" },
  { id: "support", label: "Support inbox", path: "/backoffice/support", needs: "chat.answer" },
  { id: "reports", label: "Reports", path: "/backoffice/reports", needs: "reports.read" },
  { id: "promotions", label: "Promotions", path: "/backoffice/promotions", needs: "promotions.manage" },
  { id: "games", label: "Games", path: "/backoffice/games", needs: "games.manage" },
  { id: "countries", label: "Countries", path: "/backoffice/countries", needs: "countries.manage" },
  { id: "rates", label: "Rates", path: "/backoffice/rates", needs: "rates.manage" },
  { id: "operators", label: "Operators", path: "/backoffice/operators", needs: "operators.manage" },
  { id: "audit", label: "Audit log", path: "/backoffice/audit", needs: "audit.read" },
  { id: "tokens", label: "API tokens", path: "/backoffice/tokens", needs: null },
] as const satisfies ReadonlyArray<{
  readonly id: string
  readonly label: string
  readonly path: string
  readonly needs: Permission | null
}>

export type BackofficeScreen = (typeof screens)[number]["id"]

export const screenAllowed = (screen: BackofficeScreen, permissions: ReadonlyArray<Permission>): boolean => {
  const needs = screens.find((s) => s.id === screen)?.needs ?? null
  return needs === null || permissions.includes(needs)
}

/** `/backoffice/kyc` → `kyc`; anything unknown → the dashboard. */
export const screenOfPath = (path: string): BackofficeScreen =>
  screens.find((s) => s.id !== "dashboard" && (path === s.path || path.startsWith(`${s.path}/`)))?.id ??
  "dashboard"

export const pathOfScreen = (screen: BackofficeScreen): string =>
  screens.find((s) => s.id === screen)?.path ?? "/backoffice"
