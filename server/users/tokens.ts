/**
 * Secret tokens (sessions, e-mail links): 32 random bytes, base64url on the wire, and only their
 * SHA-256 (hex) in the database, so a leaked table cannot be replayed.
 */
import { createHash, randomBytes } from "node:crypto"

export const newToken = (): string => randomBytes(32).toString("base64url")

export const hashToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex")

/** 32 bytes in base64url are exactly 43 characters of the URL-safe alphabet. */
export const looksLikeToken = (token: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(token)
