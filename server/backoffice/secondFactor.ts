/**
 * The operators' second factor: time-based one-time passwords (RFC 6238 over RFC 4226), computed
 * and compared by the `otpauth` library — HMAC-SHA1, 30-second steps, 6 digits, one step of
 * tolerance either way for clocks that drift. What stays here is the casino's rule around it: the
 * caller passes the time and the last step it accepted, and a step at or before that one is never
 * accepted again (a replay). Server-only: nothing of it belongs in a browser bundle.
 */
import { Secret, TOTP } from "otpauth"

const PERIOD_SECONDS = 30
const DIGITS = 6
/** Steps accepted either side of the current one. */
const WINDOW = 1

const totpOf = (secret: Uint8Array, issuer = "", account = "") =>
  new TOTP({
    issuer,
    label: account,
    // A copy: the library keeps the buffer it is given, the caller keeps its own.
    secret: new Secret({ buffer: Uint8Array.from(secret).buffer }),
    algorithm: "SHA1",
    digits: DIGITS,
    period: PERIOD_SECONDS,
  })

/**
 * The time-step `code` belongs to within ±1 step of `unixSeconds`, or undefined. Steps at or before
 * `lastUsedStep` are never matched: a code once accepted (or an older one) is a replay.
 */
export const verifyTotp = (
  secret: Uint8Array,
  code: string,
  unixSeconds: number,
  lastUsedStep: number | null,
): number | undefined => {
  if (!/^\d{6}$/.test(code)) return undefined
  const timestamp = unixSeconds * 1000
  // The library compares in constant time and answers the matching step's offset from now.
  const delta = totpOf(secret).validate({ token: code, timestamp, window: WINDOW })
  if (delta === null) return undefined
  const step = TOTP.counter({ period: PERIOD_SECONDS, timestamp }) + delta
  return lastUsedStep === null || step > lastUsedStep ? step : undefined
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommended length for HMAC-SHA1). */
export const newTotpSecret = (): Uint8Array => Uint8Array.from(new Secret({ size: 20 }).bytes)

/**
 * What an authenticator app needs to enrol: the `otpauth://totp/<issuer>:<account>?…` URI (for a QR
 * code) and the secret in base32 (to type in).
 */
export const enrolment = (
  issuer: string,
  account: string,
  secret: Uint8Array,
): { readonly uri: string; readonly base32: string } => {
  const totp = totpOf(secret, issuer, account)
  return { uri: totp.toString(), base32: totp.secret.base32 }
}
