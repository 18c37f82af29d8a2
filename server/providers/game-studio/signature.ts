/**
 * Request signatures of the game protocol, both directions (docs/game-wallet-protocol.md):
 * `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(key, t + "." + rawBody)>`, 300 s tolerance.
 */
import { checkSignature, signature } from "../../../protocols/signature.ts"

export const SIGNATURE_HEADER = "x-signature"
export const toleranceSeconds = 300

export const signBody = (key: string, body: string, unixSeconds = Math.floor(Date.now() / 1000)): string =>
  signature(key, unixSeconds, body)

/** The timestamp and HMAC of a header that signs this exact body with this key, in the tolerance. */
export const acceptedSignature = (
  key: string,
  header: string | undefined,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): { readonly t: number; readonly v1: string } | undefined => {
  const check = checkSignature(key, header, body, nowSeconds, toleranceSeconds)
  return check.ok ? { t: check.t, v1: check.v1 } : undefined
}

/** Whether the header signs this exact body with this key, within the tolerance (constant time). */
export const verifySignature = (
  key: string,
  header: string | undefined,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean => acceptedSignature(key, header, body, nowSeconds) !== undefined
