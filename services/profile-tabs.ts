/**
 * The profile area's tabs and their addresses (docs/decisions.md). The verification tab's
 * address is the spec's (`/profile/verification`, linked from cashout); the others follow it.
 */
export const profileTabs = [
  "general",
  "deposits",
  "withdrawals",
  "cryptoDeposits",
  "bets",
  "bonuses",
  "loyalty",
  "verification",
  "sessions",
  "security",
  "responsibleGaming",
  "promo",
] as const
export type ProfileTab = (typeof profileTabs)[number]

export const ProfileTabInfo = {
  general: { path: "/profile", label: "General" },
  deposits: { path: "/profile/deposits", label: "Deposits" },
  withdrawals: { path: "/profile/withdrawals", label: "Withdrawals" },
  cryptoDeposits: { path: "/profile/crypto-deposits", label: "Crypto deposits" },
  bets: { path: "/profile/bets", label: "Bets" },
  bonuses: { path: "/profile/bonuses", label: "Bonuses" },
  loyalty: { path: "/profile/loyalty", label: "Loyalty" },
  verification: { path: "/profile/verification", label: "Verification" },
  sessions: { path: "/profile/sessions", label: "Sessions" },
  security: { path: "/profile/security", label: "Security" },
  responsibleGaming: { path: "/profile/responsible-gaming", label: "Responsible gaming" },
  promo: { path: "/profile/promo", label: "Promo e-mail" },
} as const satisfies Record<ProfileTab, { path: string; label: string }>

/** The tab an address shows (a trailing slash is ignored), or null for an unknown one under /profile. */
export const profileTabOf = (path: string): ProfileTab | null => {
  const normalized = path.length > 1 ? path.replace(/\/+$/, "") : path
  return profileTabs.find((tab) => ProfileTabInfo[tab].path === normalized) ?? null
}
