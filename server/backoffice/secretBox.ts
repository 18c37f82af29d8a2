/**
 * The operators' TOTP secrets at rest: AES-256-GCM under BACKOFFICE_TOTP_KEY (hashed to 32 bytes),
 * `v1.<iv>.<tag>.<ciphertext>` in base64url. A copy of the table alone gives no second factor.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"

const keyOf = (secret: string): Buffer => createHash("sha256").update(secret, "utf8").digest()

export const sealSecret = (key: string, plain: Uint8Array): string => {
  const iv = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", keyOf(key), iv)
  const body = Buffer.concat([cipher.update(plain), cipher.final()])
  return ["v1", iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".")
}

/** The secret, or undefined for a value sealed under another key or damaged. */
export const openSecret = (key: string, sealed: string): Uint8Array | undefined => {
  const [version, iv, tag, body] = sealed.split(".")
  if (version !== "v1" || iv === undefined || tag === undefined || body === undefined) return undefined
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(key), Buffer.from(iv, "base64url"))
    decipher.setAuthTag(Buffer.from(tag, "base64url"))
    return new Uint8Array(Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]))
  } catch {
    return undefined
  }
}
