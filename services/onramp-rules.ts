/**
 * The Buy crypto widgets' rules (spec section 9: two fee tiers), shared by the casino (the widget
 * list of POST /profile/crypto/deposit) and the sandbox on-ramp's purchase page. Pure and exact:
 * EUR amounts are bigint cents, crypto amounts bigint minor units (satoshi, wei, USDT's 6 decimals),
 * rates the scaled bigint of money-rules (EUR per whole unit × RATE_SCALE). docs/onramp.md.
 *
 * Rounding: the fee is rounded DOWN (the player pays at most the exact fee), the crypto bought is
 * rounded DOWN to a whole minor unit (a chain cannot send less than one): the player is never short
 * by one minor unit or more against the exact arithmetic.
 */
import type { CryptoCurrency } from "./crypto-service.ts"
import { parseAmount, RATE_SCALE } from "./money-rules.ts"

/** The spec's two tiers. feeBps: 500 = 5 %. */
export interface OnrampTier {
  readonly feeBps: number
  readonly etaMinutes: number
  readonly verificationAboveEur: number
}

export const onrampTiers = {
  standard: { feeBps: 500, etaMinutes: 15, verificationAboveEur: 200 },
  saver: { feeBps: 450, etaMinutes: 20, verificationAboveEur: 100 },
} as const satisfies Record<string, OnrampTier>

/** How the real widget is opened and how its callbacks are signed (server/crypto/onramp/). */
export const onrampFamilies = ["banxa", "mercuryo", "moonpay", "transak"] as const
export type OnrampFamily = (typeof onrampFamilies)[number]

export interface OnrampWidgetInfo {
  readonly id: OnrampFamily
  readonly name: string
  readonly tier: OnrampTier
}

/**
 * The four widgets in display order: Banxa first (its frame is the spec's banxaCheckoutIframe).
 * One widget per family; the tier pairs follow docs/onramp.md.
 */
export const onrampWidgets: ReadonlyArray<OnrampWidgetInfo> = [
  { id: "banxa", name: "Banxa", tier: onrampTiers.standard },
  { id: "mercuryo", name: "Mercuryo", tier: onrampTiers.standard },
  { id: "moonpay", name: "MoonPay", tier: onrampTiers.saver },
  { id: "transak", name: "Transak", tier: onrampTiers.saver },
]

export const onrampWidget = (id: string): OnrampWidgetInfo | undefined =>
  onrampWidgets.find((w) => w.id === id)

/** Purchase bounds of the sandbox on-ramp, in EUR cents (both inclusive). */
export const onrampBounds = { minEurCents: 20_00n, maxEurCents: 5_000_00n } as const

export interface OnrampFee {
  /** What the player pays, EUR cents. */
  readonly grossEurCents: bigint
  readonly feeEurCents: bigint
  /** What buys crypto: gross − fee. */
  readonly netEurCents: bigint
}

/** The tier's fee on a gross amount, rounded down; fee + net = gross always. */
export const onrampFee = (grossEurCents: bigint, feeBps: number): OnrampFee => {
  const fee = (grossEurCents * BigInt(feeBps)) / 10_000n
  return { grossEurCents, feeEurCents: fee, netEurCents: grossEurCents - fee }
}

/** Above the tier's threshold (strictly) the purchase needs identity verification. */
export const needsVerification = (grossEurCents: bigint, tier: OnrampTier): boolean =>
  grossEurCents > BigInt(tier.verificationAboveEur) * 100n

/**
 * EUR cents → the currency's minor units at `eurRate` (EUR per whole unit × RATE_SCALE), rounded
 * down: cents / 100 / rate × subunits. Null for a rate that is not positive.
 */
export const cryptoForEurCents = (
  eurCents: bigint,
  eurRate: bigint,
  subunitsToUnit: bigint,
): bigint | null => (eurRate <= 0n ? null : (eurCents * RATE_SCALE * subunitsToUnit) / (100n * eurRate))

export interface OnrampQuote extends OnrampFee {
  readonly cryptoAmount: bigint
}

export const onrampQuote = (
  grossEurCents: bigint,
  tier: OnrampTier,
  eurRate: bigint,
  subunitsToUnit: bigint,
): OnrampQuote | null => {
  const fee = onrampFee(grossEurCents, tier.feeBps)
  const cryptoAmount = cryptoForEurCents(fee.netEurCents, eurRate, subunitsToUnit)
  return cryptoAmount === null ? null : { ...fee, cryptoAmount }
}

export const OnrampMessages = {
  amountInvalid: "Enter an amount in EUR, e.g. 50 or 50.50",
  amountTooLow: "The minimum purchase is 20.00 EUR",
  amountTooHigh: "The maximum purchase is 5000.00 EUR",
  nameRequired: "Enter your full name as on your document",
  birthDateInvalid: "Enter a valid date of birth",
  underage: "You must be 18 or older to buy crypto",
  documentInvalid: "Enter the document number: 6 to 12 letters or digits",
  documentRejected: "This document could not be verified",
} as const

export type AmountCheck =
  | { readonly ok: true; readonly eurCents: bigint }
  | { readonly ok: false; readonly message: string }

/** The EUR amount as typed ("50", "50.5", "50,50") checked against the bounds. */
export const checkOnrampAmount = (typed: string): AmountCheck => {
  const cents = parseAmount(typed, 100n)
  if (cents === null) return { ok: false, message: OnrampMessages.amountInvalid }
  if (cents < onrampBounds.minEurCents) return { ok: false, message: OnrampMessages.amountTooLow }
  if (cents > onrampBounds.maxEurCents) return { ok: false, message: OnrampMessages.amountTooHigh }
  return { ok: true, eurCents: cents }
}

export interface VerificationInput {
  readonly fullName: string
  /** YYYY-MM-DD. */
  readonly birthDate: string
  readonly documentNumber: string
}

export type VerificationErrors = Partial<Record<keyof VerificationInput, string>>

/** The sandbox's rejected test document (docs/onramp.md): verification fails with a message. */
export const rejectedTestDocument = "REJECT000"

/** Whole years between a YYYY-MM-DD birth date and today (UTC), or null for an impossible date. */
export const ageOn = (birthDate: string, today: Date): number | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthDate)
  if (match === null) return null
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(y, m - 1, d))
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null
  if (date.getTime() > today.getTime() || y < 1900) return null
  const ty = today.getUTCFullYear()
  const beforeBirthday =
    today.getUTCMonth() < m - 1 || (today.getUTCMonth() === m - 1 && today.getUTCDate() < d)
  return ty - y - (beforeBirthday ? 1 : 0)
}

/** The verification step's fields; an empty object means verified. */
export const checkVerification = (input: VerificationInput, today: Date): VerificationErrors => {
  const errors: VerificationErrors = {}
  const name = input.fullName.trim()
  if (name.length < 3 || name.length > 100 || !/\s/.test(name)) errors.fullName = OnrampMessages.nameRequired
  const age = ageOn(input.birthDate.trim(), today)
  if (age === null) errors.birthDate = OnrampMessages.birthDateInvalid
  else if (age < 18) errors.birthDate = OnrampMessages.underage
  const doc = input.documentNumber.trim().toUpperCase()
  if (!/^[A-Z0-9]{6,12}$/.test(doc)) errors.documentNumber = OnrampMessages.documentInvalid
  else if (doc === rejectedTestDocument) errors.documentNumber = OnrampMessages.documentRejected
  return errors
}

/** A plausible receiving address for the currency (the faucet's chain has the final word). */
export const plausibleAddress = (currency: CryptoCurrency, address: string): boolean => {
  switch (currency) {
    case "ETH":
    case "USDT":
      return /^0x[0-9a-fA-F]{40}$/.test(address)
    case "BTC":
    case "LTC":
    case "DOG":
      // bech32 (bc1…, ltc1…, bcrt1…, rltc1…) or base58 (P2PKH / P2SH).
      return (
        /^[a-z]{1,6}1[02-9ac-hj-np-z]{6,87}$/.test(address) || /^[1-9A-HJ-NP-Za-km-z]{25,40}$/.test(address)
      )
  }
}
