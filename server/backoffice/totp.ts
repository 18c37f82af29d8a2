/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP): HMAC-SHA1, 30-second steps, 6 digits,
 * one step of tolerance either way for clocks that drift. Written by hand on node:crypto because no
 * dependency could be added when the back office was built (docs/decisions.md: otplib is the
 * replacement to consider). Pure functions: the caller passes the time, and keeps the last step
 * accepted so that a code is never accepted twice.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

export const TOTP_STEP_SECONDS = 30
export const TOTP_DIGITS = 6
/** Steps accepted either side of the current one. */
export const TOTP_WINDOW = 1

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/** RFC 4648 base32, upper case, without padding (what authenticator apps expect in otpauth URIs). */
export const base32Encode = (bytes: Uint8Array): string => {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
    buffer &= (1 << bits) - 1
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31]
  return out
}

/** Decodes base32 (case, spaces and `=` padding ignored); undefined for any other character. */
export const base32Decode = (text: string): Uint8Array | undefined => {
  const clean = text.replace(/[\s=]/g, "").toUpperCase()
  const out: Array<number> = []
  let buffer = 0
  let bits = 0
  for (const ch of clean) {
    const value = BASE32.indexOf(ch)
    if (value === -1) return undefined
    buffer = (buffer << 5) | value
    bits += 5
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 255)
      bits -= 8
    }
    buffer &= (1 << bits) - 1
  }
  return Uint8Array.from(out)
}

/** RFC 4226 HOTP: the `digits`-digit code of `counter` (dynamic truncation of HMAC-SHA1). */
export const hotp = (secret: Uint8Array, counter: number, digits: number = TOTP_DIGITS): string => {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac("sha1", secret).update(message).digest()
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** digits).padStart(digits, "0")
}

/** The time-step of a Unix time in seconds. */
export const totpStep = (unixSeconds: number): number => Math.floor(unixSeconds / TOTP_STEP_SECONDS)

/** The code at a Unix time in seconds. */
export const totpAt = (secret: Uint8Array, unixSeconds: number, digits: number = TOTP_DIGITS): string =>
  hotp(secret, totpStep(unixSeconds), digits)

const sameCode = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/**
 * The time-step `code` belongs to within ±TOTP_WINDOW of `unixSeconds`, or undefined. Steps at or
 * before `lastUsedStep` are never matched: a code once accepted (or an older one) is a replay.
 */
export const verifyTotp = (
  secret: Uint8Array,
  code: string,
  unixSeconds: number,
  lastUsedStep: number | null = null,
): number | undefined => {
  if (!/^\d{6}$/.test(code)) return undefined
  const now = totpStep(unixSeconds)
  let matched: number | undefined
  // Every candidate is computed and compared, so the time taken says nothing of which matched.
  for (let step = now - TOTP_WINDOW; step <= now + TOTP_WINDOW; step++) {
    const fresh = lastUsedStep === null || step > lastUsedStep
    if (sameCode(hotp(secret, step), code) && fresh && matched === undefined) matched = step
  }
  return matched
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommended length for HMAC-SHA1). */
export const newTotpSecret = (): Uint8Array => new Uint8Array(randomBytes(20))

/** The `otpauth://totp/…` URI an authenticator app reads (as a QR code or pasted). */
export const otpauthUri = (issuer: string, account: string, secret: Uint8Array): string => {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`
  const query = new URLSearchParams({
    secret: base32Encode(secret),
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  })
  return `otpauth://totp/${label}?${query.toString()}`
}
