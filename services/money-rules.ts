/**
 * The money rules both sides apply (spec sections 4, 5 and 9): amounts as typed, minimums, the
 * 10 EUR gateway gate, conversions at an exact rate, the payment cookie, and the deposit messages.
 * Pure and exact: amounts are bigint minor units, rates are decimal strings parsed into a scaled
 * bigint — no float ever touches money. The machines name these as guards, the server re-checks
 * with the same functions, and tests/property exercises them.
 */
import type { DepositMethodKind } from "./profile-rules.ts"
import { Messages } from "./rules.ts"

export const MoneyMessages = {
  minimumsFailed: "Could not get deposit minimum amounts",
  currencyAdded: "Currency is added!",
  currencyAddFailed: "Couldn't add currency, please contact support",
  currencyRequired: "Selected currency is required.",
  fundFailed: Messages.fundFailed,
  totalDepositsFailed: "EligiblePromotions: did not work",
  gatewaysFailed: "Card payments are not available right now, please try again later",
  allGatewaysFailed:
    "No card provider could take this payment. Please try another method or contact support.",
  belowMinimum: (minimum: string, currency: string) => `The minimum deposit is ${minimum} ${currency}`,
  belowGatewayGate: "The minimum card payment is 10.00 EUR",
  invalidAmount: "Enter an amount, e.g. 30 or 30.50",
  limitExceeded: (remaining: string) =>
    `This deposit is above your deposit limit. You may deposit up to ${remaining} EUR now.`,
  limitReached: "You have reached your deposit limit. You can change it in your profile.",
  depositFailed: "The payment could not be started, please try again or contact support",
  depositCompleted: "Your deposit is credited",
  depositDeclined: "The payment was declined",
  blocked: "Payments are not available on this account",
  providerFailed: "Failed to process",
} as const

export const MoneyConstants = {
  quickAmountsEur: [30, 75, 100] as const,
  amountMaxLength: 12,
  /** The gateway screen opens only if amount × eurRate ≥ 10 EUR (spec sections 4, 5, 9). */
  gatewayGateEurCents: 1_000n,
  paymentCookieName: "payment_config",
  paymentCookieMinutes: 20,
  iframePollMs: 15_000,
  iframeAutoCloseMs: 10 * 60_000,
  /** Spec section 9: what the card providers cost and how fast they credit. */
  cardFeeText: "0% fee, instant",
} as const

// ── exact decimals ──────────────────────────────────────────────────────────────────────────────

/** Fixed-point scale of parsed rates: 18 decimals, enough for any rate the list carries. */
export const RATE_SCALE = 10n ** 18n

/** "0.92" → 920000000000000000n (× 10^18). Anything not a plain decimal is null. */
export const parseDecimal = (text: string): bigint | null => {
  const match = /^(\d{1,20})(?:\.(\d{1,18}))?$/.exec(text)
  if (match === null) return null
  const [, whole = "0", fraction = ""] = match
  return BigInt(whole) * RATE_SCALE + BigInt(fraction.padEnd(18, "0"))
}

/** A scaled rate back to its shortest decimal string ("0.92", "1"). */
export const formatDecimal = (scaled: bigint): string => {
  const whole = scaled / RATE_SCALE
  const fraction = (scaled % RATE_SCALE).toString().padStart(18, "0").replace(/0+$/, "")
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`
}

/** The number of decimals a currency shows: log10(subunits_to_unit) (100 → 2, 10^8 → 8). */
export const decimalsOf = (subunitsToUnit: bigint): number => subunitsToUnit.toString().length - 1

// ── amounts as typed ────────────────────────────────────────────────────────────────────────────

/**
 * What a player typed into an amount field, in minor units: "30", "30.5", "30,50", "0.0015" (BTC).
 * At most `MoneyConstants.amountMaxLength` characters, at most the currency's decimals; anything
 * else (empty, letters, a sign, too many decimals) is null. Zero is allowed here; minimums decide.
 */
export const parseAmount = (typed: string, subunitsToUnit: bigint): bigint | null => {
  const text = typed.trim()
  if (text.length === 0 || text.length > MoneyConstants.amountMaxLength) return null
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(text)
  if (match === null) return null
  const [, whole = "0", fraction = ""] = match
  const decimals = decimalsOf(subunitsToUnit)
  if (fraction.length > decimals) return null
  return (
    BigInt(whole) * subunitsToUnit + (decimals === 0 ? 0n : BigInt(fraction.padEnd(decimals, "0") || "0"))
  )
}

/** Minor units as the plain decimal a player would type ("30.00", "0.0015"); no grouping. */
export const formatAmount = (minor: bigint, subunitsToUnit: bigint): string => {
  const decimals = decimalsOf(subunitsToUnit)
  const negative = minor < 0n
  const abs = negative ? -minor : minor
  const whole = abs / subunitsToUnit
  if (decimals === 0) return `${negative ? "-" : ""}${whole}`
  const fraction = (abs % subunitsToUnit).toString().padStart(decimals, "0")
  // Keep at least 2 decimals, drop the trailing zeros after that (wei would show 18 digits).
  const trimmed = fraction.replace(/0+$/, "").padEnd(Math.min(2, decimals), "0")
  return `${negative ? "-" : ""}${whole}.${trimmed}`
}

/** A whole-euro quick amount in a currency's minor units at `eurRate` (rounded up: never below it). */
export const fromEuros = (euros: bigint, eurRate: bigint, subunitsToUnit: bigint): bigint | null => {
  if (eurRate <= 0n) return null
  const numerator = euros * RATE_SCALE * subunitsToUnit
  return (numerator + eurRate - 1n) / eurRate
}

/**
 * An amount in minor units converted to EUR cents at `eurRate` (scaled by RATE_SCALE), rounded
 * down: what the amount is worth at least. amount / subunits × rate × 100.
 */
export const toEurCents = (amount: bigint, eurRate: bigint, subunitsToUnit: bigint): bigint =>
  (amount * eurRate * 100n) / (subunitsToUnit * RATE_SCALE)

// ── the deposit rules ───────────────────────────────────────────────────────────────────────────

export interface DepositQuote {
  readonly amount: bigint
  readonly subunitsToUnit: bigint
  readonly minDeposit: bigint
  /** Scaled by RATE_SCALE. */
  readonly eurRate: bigint
}

/** Spec section 5: the amount must be at least minDeposit. */
export const meetsMinimum = (q: DepositQuote): boolean => q.amount > 0n && q.amount >= q.minDeposit

/** Spec sections 4, 5, 9: the gateway screen opens only if amount × eurRate ≥ 10 EUR. */
export const passesGatewayGate = (q: DepositQuote): boolean =>
  toEurCents(q.amount, q.eurRate, q.subunitsToUnit) >= MoneyConstants.gatewayGateEurCents

/** Which profile requirements (spec section 5) each fiat method has. */
export const fiatMethods = ["card", "skrill", "jeton", "mifinity"] as const
export type FiatMethod = (typeof fiatMethods)[number]

export const profileRequirementOf = (method: FiatMethod): DepositMethodKind => {
  switch (method) {
    case "card":
      return "card"
    case "skrill":
      return "ewalletOne"
    case "jeton":
    case "mifinity":
      return "ewalletTwo"
  }
}

// ── the payment cookie (spec section 3: payment_config, 20 minutes) ─────────────────────────────

/**
 * What the deposit flow remembers between attempts and reloads: the gateways tried (each failed one
 * marked 'Failed to process'), the amount as typed, the currency and the coupon.
 */
export interface PaymentConfig {
  readonly tabs: Readonly<Record<string, string>>
  readonly depositAmount: string
  readonly currency: string
  readonly promotionCoupon: string
}

export const emptyPaymentConfig = (currency: string): PaymentConfig => ({
  tabs: {},
  depositAmount: "",
  currency,
  promotionCoupon: "",
})

const isRecordOfStrings = (value: unknown): value is Record<string, string> =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === "string")

/** The cookie's value (URI-encoded JSON) read back; anything unreadable is no memory at all. */
export const parsePaymentConfig = (raw: string | undefined): PaymentConfig | null => {
  if (raw === undefined || raw === "") return null
  try {
    const value: unknown = JSON.parse(decodeURIComponent(raw))
    if (typeof value !== "object" || value === null) return null
    const v = value as Record<string, unknown>
    if (!isRecordOfStrings(v.tabs)) return null
    if (typeof v.depositAmount !== "string" || typeof v.currency !== "string") return null
    const coupon = typeof v.promotionCoupon === "string" ? v.promotionCoupon : ""
    return {
      tabs: v.tabs,
      depositAmount: v.depositAmount.slice(0, MoneyConstants.amountMaxLength),
      currency: v.currency,
      promotionCoupon: coupon,
    }
  } catch {
    return null
  }
}

export const serializePaymentConfig = (config: PaymentConfig): string =>
  encodeURIComponent(JSON.stringify(config))

/** The config after `gateway` failed: marked 'Failed to process'. */
export const markFailed = (config: PaymentConfig, gateway: string): PaymentConfig => ({
  ...config,
  tabs: { ...config.tabs, [gateway]: MoneyMessages.providerFailed },
})

/** The first gateway of the cascade (in the server's order) not marked failed, or null when all failed. */
export const nextGateway = (gateways: ReadonlyArray<string>, config: PaymentConfig): string | null =>
  gateways.find((g) => config.tabs[g] !== MoneyMessages.providerFailed) ?? null
