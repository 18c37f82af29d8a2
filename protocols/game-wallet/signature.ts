/**
 * The seamless-wallet protocol's signature rule (docs/game-wallet-protocol.md, "Signatures"), both
 * directions: `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(key, t + "." + rawBody)>` over the
 * exact bytes sent (protocols/signature.ts), 300 s tolerance either way. Casino → provider requests
 * (launch, games list) are signed with the casinoKey; provider → casino calls (the wallet) and the
 * provider's games-list answer with the walletSecret.
 */
import { checkSignature, signature } from "../signature.ts"

/** The header's name as Node hands it over (lower case); HTTP header names are case-insensitive. */
export const SIGNATURE_HEADER = "x-signature"

/** How far a signature's `t` may be from the receiver's clock, either way. */
export const TOLERANCE_SECONDS = 300

export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

/** The header value signing `rawBody` with `key` at `timestamp` (default: now). */
export const signBody = (key: string, rawBody: string, timestamp: number = nowSeconds()): string =>
  signature(key, timestamp, rawBody)

/** A signature header that verified: its timestamp and the v1 that matched (the replay key). */
export interface AcceptedSignature {
  readonly t: number
  readonly v1: string
}

/**
 * The accepted timestamp and HMAC of a header that signs exactly `rawBody` with `key` within the
 * tolerance, or undefined (missing, malformed, stale, forged). Constant-time comparison.
 */
export const acceptedSignature = (
  key: string,
  header: string | undefined,
  rawBody: string,
  now: number = nowSeconds(),
  toleranceSeconds: number = TOLERANCE_SECONDS,
): AcceptedSignature | undefined => {
  const check = checkSignature(key, header, rawBody, now, toleranceSeconds)
  return check.ok ? { t: check.t, v1: check.v1 } : undefined
}

/** Whether the header signs exactly `rawBody` with `key` within the tolerance. */
export const verifySignature = (
  key: string,
  header: string | undefined,
  rawBody: string,
  now: number = nowSeconds(),
  toleranceSeconds: number = TOLERANCE_SECONDS,
): boolean => acceptedSignature(key, header, rawBody, now, toleranceSeconds) !== undefined
