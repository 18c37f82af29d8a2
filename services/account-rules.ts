/**
 * Account rules (spec section 5): e-mail, full name and passwords — shared by the account flows
 * (named guards), the server (re-checks) and the property tests.
 */
import { Constants } from "./rules.ts"

// ── Messages (spec section 5 and the error catalogue of section 8, verbatim) ─────────────────
export const AccountMessages = {
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
  captchaRequired: "Please confirm you are not a robot",
} as const

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
      return AccountMessages.resetNoEdits
    case "TOO_SHORT":
      return AccountMessages.passwordTooShort
    case "BELOW_MINIMUM":
      return AccountMessages.passwordMinDisplay(Constants.passwordMinLength)
    case "MISMATCH":
      return AccountMessages.passwordsDoNotMatch
  }
}
