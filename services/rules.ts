/**
 * The rules both sides must agree on (spec sections 5 and 9): messages, constants, and the rules the
 * shell needs. Pure functions only — the browser machines use them as named guards, the server
 * re-checks with them, and fast-check properties in tests/property exercise them. The rules of a
 * domain live beside it (`account-rules.ts`: e-mail, full name, passwords), so a screen downloads
 * only the rules it applies.
 */

// ── Messages of the shell and session (the error catalogue of spec section 8, verbatim) ──────
// Each domain keeps its own beside its rules: account flows in account-rules.ts (`AccountMessages`).
export const Messages = {
  signoutFailed: "Signout did not work!",
  authCheckFailed: "Error",
  fundFailed: "Get fund did not work",
  clientIpFailed: "Client Ip went wrong",
  /** Spec section 7: what the IP service's client throws on a failed call (the state then says clientIpFailed). */
  ipServiceFailed: "Authentication failed!",
  tooManyAttempts: (seconds: number) => `Too many attempts, please try again in ${seconds} seconds`,
  countryRestricted: "This service is not available in your country",
  /** The toast when the server pushes a higher loyalty level (docs/loyalty.md). */
  levelUp: (name: string) => `Level up! You are now ${name}.`,
} as const

/** The generic error page (spec section 2), verbatim. */
export const ErrorPageTexts = {
  code: "500",
  title: "Error :(",
  body: "We are sorry. This was unexpected.",
  back: "Go Back",
} as const

// ── Constants (spec section 9) ───────────────────────────────────────────────────────────────
export const Constants = {
  defaultCurrency: "EUR",
  registerBannerMinWidth: 1100,
  welcomeFreeSpins: 125,
  toastDurationMs: 5_000,
  queryStaleMs: 300_000,
  modalResetDelayMs: 500,
  chatAttributesDelayMs: 3_000,
  clipboardFeedbackMs: 2_000,
  escapeKeyCode: 27,
  /** The client's own "too short" threshold for the reset form (spec: under 3 characters). */
  resetClientMinLength: 3,
  /** The length shown in the "too short" text, and the server's real minimum. */
  passwordMinLength: 8,
  /** Upper bound so a hashing request cannot be used to burn CPU. */
  passwordMaxLength: 128,
  fullNameMinLength: 3,
  fullNameMaxLength: 50,
  emailMaxLength: 254,
  /** A reset or change may not reuse one of the last N passwords. */
  passwordHistoryDepth: 5,
} as const

// ── Text the database can store ──────────────────────────────────────────────────────────────
const UNPAIRED_SURROGATE = /[\uD800-\uDFFF]/u

/**
 * PostgreSQL text cannot hold NUL (U+0000), and a lone UTF-16 surrogate has no UTF-8 form (it would
 * arrive as U+FFFD, silently changing the value — two different passwords would hash the same).
 * The contract refuses both in every string field it stores or hashes (a NUL in the e-mail
 * made sign-in answer 500). With the `u` flag a surrogate PAIR is one code point and does not match.
 */
export const isStorableText = (text: string): boolean =>
  !text.includes("\u0000") && !UNPAIRED_SURROGATE.test(text)

/** The same text with every NUL and unpaired surrogate replaced by U+FFFD: for diagnostics that must be kept. */
export const toStorableText = (text: string): string =>
  text.split("\u0000").join("\uFFFD").replace(new RegExp(UNPAIRED_SURROGATE.source, "gu"), "\uFFFD")

/** What the 400 says about such a field. */
export const unstorableTextMessage = "must not contain NUL characters or unpaired UTF-16 surrogates"

// ── Currencies ───────────────────────────────────────────────────────────────────────────────
/** Display rules of the currency dropdown: DOG is shown as DOGE, USDT is marked (Erc20). */
export const currencyDisplayName = (code: string): string => {
  if (code === "DOG") return "DOGE"
  if (code === "USDT") return "USDT (Erc20)"
  return code
}

export const isCurrencyCode = (code: string): boolean => /^[A-Z]{3,5}$/.test(code)

// ── Routes the shell hands to a lazily loaded screen ─────────────────────────────────────────
/** The profile area: `/profile` and its tabs (services/profile-tabs.ts). */
export const isProfilePath = (path: string): boolean => path === "/profile" || path.startsWith("/profile/")

/** The games area: the lobby at `/`, `/game/{id}`, `/fairness`. */
export const isGamesPath = (path: string): boolean => path === "/" || /^\/(game\/|fairness\/?$)/.test(path)

/** `/unsubscribe/{id}`, the link of every promotional e-mail: its id, or null. */
export const unsubscribeIdOf = (path: string): string | null => {
  const match = /^\/unsubscribe\/([^/]+)\/?$/.exec(path)
  if (match?.[1] === undefined) return null
  try {
    return decodeURIComponent(match[1])
  } catch {
    return null // a malformed escape: not a link we sent
  }
}

// ── Geo ──────────────────────────────────────────────────────────────────────────────────────
export const isRestrictedCountry = (isoCode: string, restricted: ReadonlyArray<string>): boolean =>
  restricted.some((code) => code.toUpperCase() === isoCode.toUpperCase())
