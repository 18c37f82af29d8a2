/**
 * The `payment_config` cookie (spec section 3): what the deposit flow remembers for 20 minutes — the
 * gateways tried (failed ones marked 'Failed to process'), the amount as typed, the currency and the
 * coupon — so a reload or a second attempt resumes where the player was and skips failed gateways.
 * Browser-only I/O around the pure functions of money-rules.ts; the machines call these through
 * named actors/actions, so their tests replace them.
 */
import {
  MoneyConstants,
  type PaymentConfig,
  parsePaymentConfig,
  serializePaymentConfig,
} from "./money-rules.ts"

/** The cookie's raw value in a `document.cookie` string, or undefined. */
export const paymentCookieValue = (cookies: string): string | undefined => {
  const prefix = `${MoneyConstants.paymentCookieName}=`
  for (const part of cookies.split(";")) {
    const trimmed = part.trim()
    if (trimmed.startsWith(prefix)) return trimmed.slice(prefix.length)
  }
  return undefined
}

/** The `Set-Cookie`-style string `document.cookie` takes to store `config` (20 minutes, this site). */
export const paymentCookieString = (config: PaymentConfig, secure: boolean): string =>
  [
    `${MoneyConstants.paymentCookieName}=${serializePaymentConfig(config)}`,
    `Max-Age=${MoneyConstants.paymentCookieMinutes * 60}`,
    "Path=/",
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ")

export const readPaymentConfig = (): PaymentConfig | null =>
  typeof document === "undefined" ? null : parsePaymentConfig(paymentCookieValue(document.cookie))

export const writePaymentConfig = (config: PaymentConfig): void => {
  if (typeof document === "undefined") return
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and Safari < 18.4
  document.cookie = paymentCookieString(config, location.protocol === "https:")
}
