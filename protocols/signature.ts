/**
 * The request signature both signed protocols here use (payments webhooks and payouts,
 * docs/payments-protocol.md; the game wallet, docs/game-wallet-protocol.md), Stripe's scheme:
 *
 *   <header>: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + rawBody)>
 *
 * The receiver accepts a timestamp within its tolerance either way, and any of several `v1` values
 * (a sender rotating its secret signs with both). The `v1` answered is the EXPECTED one, so extra
 * values cannot dress up a replay as a new request: (t, v1) is the replay key.
 */
import { createHmac, timingSafeEqual } from "node:crypto"

export const signature = (secret: string, timestamp: number, rawBody: string): string =>
  `t=${timestamp},v1=${hmac(secret, timestamp, rawBody)}`

const hmac = (secret: string, timestamp: number, rawBody: string): string =>
  createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex")

export type SignatureProblem = "missing" | "malformed" | "stale" | "mismatch"

export type SignatureCheck =
  | { readonly ok: true; readonly t: number; readonly v1: string }
  | { readonly ok: false; readonly problem: SignatureProblem }

export const checkSignature = (
  secret: string,
  header: string | undefined,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds: number,
): SignatureCheck => {
  if (header === undefined || header.trim() === "") return { ok: false, problem: "missing" }
  let t: number | undefined
  const given: Array<string> = []
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2)
    if (key === "t" && value !== undefined && /^\d{1,12}$/.test(value)) t = Number(value)
    else if (key === "v1" && value !== undefined && /^[0-9a-f]{64}$/i.test(value))
      given.push(value.toLowerCase())
  }
  if (t === undefined || given.length === 0) return { ok: false, problem: "malformed" }
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return { ok: false, problem: "stale" }
  const expected = hmac(secret, t, rawBody)
  const wanted = Buffer.from(expected, "utf8")
  const matches = given.some((v) => {
    const candidate = Buffer.from(v, "utf8")
    return candidate.length === wanted.length && timingSafeEqual(candidate, wanted)
  })
  return matches ? { ok: true, t, v1: expected } : { ok: false, problem: "mismatch" }
}
