/**
 * One adapter per Buy crypto widget FAMILY (docs/onramp.md): how the real widget is opened (its
 * hosted URL and query parameters, signed where the real protocol signs it) and how its
 * order-status callback is verified (HMAC with the shared secret and a timestamp). Each adapter
 * also holds the provider's side of the same protocol (`readLaunch`, `signCallback`): the sandbox
 * on-ramp (providers/onramp-sandbox/) plays the provider with it, the casino (server/crypto/)
 * opens widgets and checks callbacks with it, so both sides of one protocol live in one file.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import type { OnrampFamily } from "../../services/onramp-rules.ts"

/**
 * A widget's credentials, what the provider issues a partner: the casino is given them
 * (ONRAMP_WIDGETS), the sandbox derives its own from its secret (providers/onramp-sandbox/credentials.ts).
 */
export interface WidgetCredentials {
  /** Where the widget's hosted page lives (no trailing slash). */
  readonly baseUrl: string
  /** Public key carried in the URL (MoonPay, Transak) or the API key (Banxa), or the widget id (Mercuryo). */
  readonly apiKey: string
  /** Signs launch URLs (MoonPay, Mercuryo) and API requests (Banxa). */
  readonly secretKey: string
  /** Signs the provider's order-status callbacks. */
  readonly webhookSecret: string
}

export interface LaunchParams {
  readonly currency: CryptoCurrency
  readonly address: string
  /** Pre-filled EUR amount ("50.00"); the widget asks when absent. */
  readonly fiatAmountEur?: string | undefined
}

export interface Launch {
  readonly currency: CryptoCurrency
  readonly address: string
  readonly fiatAmountEur: string | undefined
}

export type LaunchCheck =
  | { readonly ok: true; readonly launch: Launch }
  | { readonly ok: false; readonly reason: "malformed" | "unknown-key" | "forged" | "currency" }

export const orderStatuses = ["pending", "completed", "failed"] as const
export type OrderStatus = (typeof orderStatuses)[number]

/** What a callback says about one order, family-neutral. */
export interface OrderEvent {
  /** Unique per callback: a replay repeats it (the receiver keeps it under UNIQUE). */
  readonly eventId: string
  readonly orderId: string
  readonly status: OrderStatus
  readonly currency: CryptoCurrency
  readonly address: string
  /** Minor units of the currency, decimal string. */
  readonly cryptoAmount: string
  readonly txHash: string | null
}

export type Headers = Readonly<Record<string, string | undefined>>

export type CallbackCheck =
  | { readonly ok: true; readonly event: OrderEvent }
  | { readonly ok: false; readonly reason: "unsigned" | "forged" | "stale" | "malformed" }

export interface SignedCallback {
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export interface OnrampAdapter {
  readonly family: OnrampFamily
  /** The casino's side: the frame's address for a player's purchase. */
  readonly launchUrl: (creds: WidgetCredentials, params: LaunchParams) => string
  /** The provider's side: the launch read back from its URL, its signature checked. */
  readonly readLaunch: (creds: WidgetCredentials, url: URL) => LaunchCheck
  /** The provider's side: an order-status callback, signed at `nowSeconds`. */
  readonly signCallback: (
    creds: WidgetCredentials,
    event: OrderEvent,
    nowSeconds: number,
    path: string,
  ) => SignedCallback
  /** The casino's side: the callback's signature and freshness checked, then its content read. */
  readonly verifyCallback: (
    creds: WidgetCredentials,
    request: { readonly headers: Headers; readonly body: string; readonly path: string },
    nowSeconds: number,
    toleranceSeconds: number,
  ) => CallbackCheck
}

// ---- shared pieces -----------------------------------------------------------------------------

export const hmacHex = (secret: string, data: string): string =>
  createHmac("sha256", secret).update(data).digest("hex")
export const hmacBase64 = (secret: string, data: string): string =>
  createHmac("sha256", secret).update(data).digest("base64")
export const sha512Hex = (data: string): string => createHash("sha512").update(data).digest("hex")

/** Constant-time comparison of two strings (unequal lengths are simply unequal). */
export const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export const fresh = (timestamp: number, nowSeconds: number, toleranceSeconds: number): boolean =>
  Number.isSafeInteger(timestamp) && Math.abs(nowSeconds - timestamp) <= toleranceSeconds

/** Looks a header up case-insensitively (Node lowercases, tests may not). */
export const header = (headers: Headers, name: string): string | undefined => {
  const wanted = name.toLowerCase()
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === wanted) return v
  return undefined
}

const cryptoCodes: ReadonlyArray<CryptoCurrency> = ["BTC", "LTC", "DOG", "ETH", "USDT"]

/** The currency list's code back from a provider's code ("doge"/"DOGE" → DOG). */
export const currencyFromProvider = (code: string | null): CryptoCurrency | undefined => {
  const upper = (code ?? "").toUpperCase()
  const mapped = upper === "DOGE" ? "DOG" : upper
  return cryptoCodes.find((c) => c === mapped)
}

/** The provider's ticker: the list's DOG is DOGE everywhere else. */
export const tickerOf = (currency: CryptoCurrency): string => (currency === "DOG" ? "DOGE" : currency)

/** The chain a provider names for a currency (USDT is the ERC-20 token on Ethereum). */
export const chainOf = (currency: CryptoCurrency): "bitcoin" | "litecoin" | "dogecoin" | "ethereum" => {
  switch (currency) {
    case "BTC":
      return "bitcoin"
    case "LTC":
      return "litecoin"
    case "DOG":
      return "dogecoin"
    case "ETH":
    case "USDT":
      return "ethereum"
  }
}

/** An EUR amount as the URL carries it: "50" or "50.5" or "50.50", at most 2 decimals. */
export const fiatAmountParam = (value: string | null): string | undefined | null => {
  if (value === null || value === "") return undefined
  return /^\d{1,7}(\.\d{1,2})?$/.test(value) ? value : null
}

/** Reads the JSON body of a callback into an OrderEvent, or undefined when it is not one. */
export const readOrderEvent = (value: unknown): OrderEvent | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  const v = value as Record<string, unknown>
  const str = (k: string) => (typeof v[k] === "string" ? (v[k] as string) : undefined)
  const eventId = str("eventId")
  const orderId = str("orderId")
  const status = orderStatuses.find((s) => s === v.status)
  const currency = currencyFromProvider(str("currency") ?? null)
  const address = str("address")
  const cryptoAmount = str("cryptoAmount")
  const txHash = v.txHash === null ? null : str("txHash")
  if (
    eventId === undefined ||
    orderId === undefined ||
    status === undefined ||
    currency === undefined ||
    address === undefined ||
    cryptoAmount === undefined ||
    !/^\d{1,78}$/.test(cryptoAmount) ||
    txHash === undefined
  )
    return undefined
  return { eventId, orderId, status, currency, address, cryptoAmount, txHash }
}

export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
