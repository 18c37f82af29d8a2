/**
 * The rules both sides must agree on (spec sections 5 and 9): validation, messages and constants.
 * Pure functions only — the browser machines use them as named guards, the server re-checks with
 * them, and fast-check properties in tests/property exercise them.
 */

// ── Messages (spec section 5 and the error catalogue of section 8, verbatim) ─────────────────
export const Messages = {
  invalidEmail: "Doesn't appear to be a valid email. Wanna give it another go?",
  emailStatus: (status: string) => `Your email seems to be ${status}, Please try another email!`,
  blockedDomainRegister: "Something went wrong contact support",
  blockedDomainLogin: "Your account has been locked, Please contact support!",
  fullName: "Full Name should be between 3 to 50 characters",
  termsRequired: "You must be 18+ and accept the Terms and Conditions",
  loginCoolOff: "Your account is on cool off period, contact support!",
  loginLocked: "Your account has been locked, Please contact support!",
  loginFailed: "Either username or password is incorrect",
  signinDidNotWork: "Signin did not work!",
  registerEmailTaken: "User with same email exists",
  registerIncomplete: "Registration is not complete, Please contact support!",
  forgotSent: "Reset password link is sent!",
  resetRejected: "Password must be more than 8 characters and not previously been used!",
  resetNoEdits: "Please update values before continue",
  resetSuccess: "Your password has been changed, you can now sign in.",
  passwordsDoNotMatch: "Password and Confirm password do not match",
  passwordTooShort: "Password is too short",
  passwordMinDisplay: (min: number) => `Password is too short, min ${min} characters`,
  resendSuccess: "A verification link has been sent to your email.",
  resendFailure: "A verification link has already been sent to your email.",
  confirmSuccess: "Your email is confirmed. Thank you!",
  confirmFailure: "This confirmation link is invalid or has expired.",
  signoutFailed: "Signout did not work!",
  authCheckFailed: "Error",
  fundFailed: "Get fund did not work",
  clientIpFailed: "Client Ip went wrong",
  captchaRequired: "Please confirm you are not a robot",
  tooManyAttempts: (seconds: number) => `Too many attempts, please try again in ${seconds} seconds`,
  countryRestricted: "This service is not available in your country",
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
  /** A reset or change may not reuse one of the last N passwords (issue 2). */
  passwordHistoryDepth: 5,
} as const

// ── Text the database can store ──────────────────────────────────────────────────────────────
const UNPAIRED_SURROGATE = /[\uD800-\uDFFF]/u

/**
 * PostgreSQL text cannot hold NUL (U+0000), and a lone UTF-16 surrogate has no UTF-8 form (it would
 * arrive as U+FFFD, silently changing the value — two different passwords would hash the same).
 * The contract refuses both in every string field it stores or hashes (issue 7: a NUL in the e-mail
 * made sign-in answer 500). With the `u` flag a surrogate PAIR is one code point and does not match.
 */
export const isStorableText = (text: string): boolean =>
  !text.includes("\u0000") && !UNPAIRED_SURROGATE.test(text)

/** The same text with every NUL and unpaired surrogate replaced by U+FFFD: for diagnostics that must be kept. */
export const toStorableText = (text: string): string =>
  text.split("\u0000").join("\uFFFD").replace(new RegExp(UNPAIRED_SURROGATE.source, "gu"), "\uFFFD")

/** What the 400 says about such a field. */
export const unstorableTextMessage = "must not contain NUL characters or unpaired UTF-16 surrogates"

// ── Email ────────────────────────────────────────────────────────────────────────────────────
// The WHATWG "valid e-mail address" production, with a mandatory dot in the domain so that
// addresses like `a@localhost` (not deliverable on the public internet) are refused.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

export const isValidEmail = (email: string): boolean =>
  email.length <= Constants.emailMaxLength && EMAIL_PATTERN.test(email)

export const normalizeEmail = (email: string): string => email.trim().toLowerCase()

export const emailDomain = (email: string): string => {
  const at = email.lastIndexOf("@")
  return at === -1 ? "" : email.slice(at + 1).toLowerCase()
}

/**
 * Spec: "Emails containing either of two blocked domains are rejected". A domain matches itself
 * and its subdomains (`x@mail.blocked.test` is blocked by `blocked.test`), never a look-alike
 * (`notblocked.test`).
 */
export const isBlockedDomain = (email: string, blockedDomains: ReadonlyArray<string>): boolean => {
  const domain = emailDomain(email)
  if (domain === "") return false
  return blockedDomains.some((blocked) => {
    const b = blocked.trim().toLowerCase()
    return b !== "" && (domain === b || domain.endsWith(`.${b}`))
  })
}

export type EmailStatus = "VALID" | "INVALID" | "DISPOSABLE"

// ── Full name ────────────────────────────────────────────────────────────────────────────────
// At least two words of letters (any script), separated by single spaces; 3 to 50 characters.
const FULL_NAME_PATTERN = /^\p{L}+(?: \p{L}+)+$/u

export const isValidFullName = (fullName: string): boolean => {
  const name = fullName.trim()
  return (
    name.length >= Constants.fullNameMinLength &&
    name.length <= Constants.fullNameMaxLength &&
    FULL_NAME_PATTERN.test(name)
  )
}

/** The name field's styling check: a non-empty run of letters and spaces (spec: pattern not shown). */
export const looksLikeFullName = (fullName: string): boolean => /^[\p{L} ]+$/u.test(fullName.trim())

// ── Passwords ────────────────────────────────────────────────────────────────────────────────
/** The server's rule and the register form's rule: 8 to 128 characters. */
export const isAcceptablePassword = (password: string): boolean =>
  password.length >= Constants.passwordMinLength && password.length <= Constants.passwordMaxLength

/** The register/login "success style": above 3 characters (spec section 5). */
export const passwordLooksLong = (password: string): boolean =>
  password.length > Constants.resetClientMinLength

export type ResetPasswordProblem = "NO_EDITS" | "TOO_SHORT" | "BELOW_MINIMUM" | "MISMATCH"

/**
 * The reset form's checks in the spec's order: a submit with no edits, then length under 3,
 * then the minimum of 8 shown as 'too short', then the confirmation must match.
 * Returns the first problem, or null when the form may be submitted.
 */
export const resetPasswordProblem = (input: {
  readonly password: string
  readonly confirmPassword: string
  readonly edited: boolean
}): ResetPasswordProblem | null => {
  if (!input.edited) return "NO_EDITS"
  if (input.password.length < Constants.resetClientMinLength) return "TOO_SHORT"
  if (input.password.length < Constants.passwordMinLength) return "BELOW_MINIMUM"
  if (input.password !== input.confirmPassword) return "MISMATCH"
  return null
}

export const resetPasswordMessage = (problem: ResetPasswordProblem): string => {
  switch (problem) {
    case "NO_EDITS":
      return Messages.resetNoEdits
    case "TOO_SHORT":
      return Messages.passwordTooShort
    case "BELOW_MINIMUM":
      return Messages.passwordMinDisplay(Constants.passwordMinLength)
    case "MISMATCH":
      return Messages.passwordsDoNotMatch
  }
}

// ── Currencies ───────────────────────────────────────────────────────────────────────────────
/** Display rules of the currency dropdown: DOG is shown as DOGE, USDT is marked (Erc20). */
export const currencyDisplayName = (code: string): string => {
  if (code === "DOG") return "DOGE"
  if (code === "USDT") return "USDT (Erc20)"
  return code
}

export const isCurrencyCode = (code: string): boolean => /^[A-Z]{3,5}$/.test(code)

// ── Geo ──────────────────────────────────────────────────────────────────────────────────────
export const isRestrictedCountry = (isoCode: string, restricted: ReadonlyArray<string>): boolean =>
  restricted.some((code) => code.toUpperCase() === isoCode.toUpperCase())
