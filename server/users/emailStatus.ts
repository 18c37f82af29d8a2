/**
 * The registration e-mail check: INVALID for bad syntax (the shared rule), DISPOSABLE for a
 * throw-away domain — the domain or any parent domain on the maintained list of the `mailchecker`
 * package — else VALID. It never looks at accounts, so it cannot reveal whether one exists.
 */
import MailChecker from "mailchecker"
import { type EmailStatus, emailDomain, isValidEmail } from "../../services/account-rules.ts"

const disposable: ReadonlySet<string> = MailChecker.blacklist()

export const isDisposableDomain = (domain: string): boolean => {
  let current = domain.toLowerCase()
  while (current !== "") {
    if (disposable.has(current)) return true
    const dot = current.indexOf(".")
    if (dot === -1) return false
    current = current.slice(dot + 1)
  }
  return false
}

export const emailStatus = (email: string): EmailStatus => {
  const trimmed = email.trim()
  if (!isValidEmail(trimmed)) return "INVALID"
  return isDisposableDomain(emailDomain(trimmed)) ? "DISPOSABLE" : "VALID"
}
