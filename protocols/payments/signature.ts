/**
 * How a payment gateway signs what it POSTs to the merchant (payment webhooks and payout callbacks):
 * the shared rule of protocols/signature.ts over the raw body, with the gateway's webhook secret, in
 * the `X-Sandbox-Signature` header (the name the protocol has always used on the wire).
 *
 *   X-Sandbox-Signature: t=<unix s>,v1=<hex HMAC-SHA256(webhookSecret, t + "." + rawBody)>
 */
import { checkSignature, type SignatureProblem, signature } from "../signature.ts"

/** The header, lower-case as Node presents incoming headers. */
export const SIGNATURE_HEADER = "x-sandbox-signature"

export type { SignatureProblem }

/** The header's value for `rawBody` sent at `unixSeconds`. */
export const signEvent = (webhookSecret: string, unixSeconds: number, rawBody: string): string =>
  signature(webhookSecret, unixSeconds, rawBody)

/** Why a header is not acceptable for `rawBody` at `nowSeconds`, or undefined when it is. */
export const eventSignatureProblem = (
  webhookSecret: string,
  header: string | undefined,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds: number,
): SignatureProblem | undefined => {
  const check = checkSignature(webhookSecret, header, rawBody, nowSeconds, toleranceSeconds)
  return check.ok ? undefined : check.problem
}
