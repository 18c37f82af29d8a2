/**
 * Request signatures of the game protocol, both directions (docs/game-wallet-protocol.md):
 * `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(key, t + "." + rawBody)>`, 300 s tolerance.
 */
import { createHmac, timingSafeEqual } from "node:crypto"

export const SIGNATURE_HEADER = "x-signature"
export const toleranceSeconds = 300

export const signBody = (key: string, body: string, unixSeconds = Math.floor(Date.now() / 1000)): string =>
  `t=${unixSeconds},v1=${createHmac("sha256", key).update(`${unixSeconds}.${body}`).digest("hex")}`

/** The timestamp and HMAC of a header that signs this exact body with this key, in the tolerance. */
export const acceptedSignature = (
  key: string,
  header: string | undefined,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): { readonly t: number; readonly v1: string } | undefined => {
  if (header === undefined) return undefined
  const parts = new Map(
    header.split(",").map((p) => {
      const i = p.indexOf("=")
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()] as const
    }),
  )
  const t = Number(parts.get("t"))
  const v1 = parts.get("v1") ?? ""
  if (!Number.isSafeInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return undefined
  if (!/^[0-9a-f]{64}$/.test(v1)) return undefined
  const expected = createHmac("sha256", key).update(`${t}.${body}`).digest()
  return timingSafeEqual(expected, Buffer.from(v1, "hex")) ? { t, v1 } : undefined
}

/** Whether the header signs this exact body with this key, within the tolerance (constant time). */
export const verifySignature = (
  key: string,
  header: string | undefined,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean => acceptedSignature(key, header, body, nowSeconds) !== undefined
