/**
 * The sandbox's card checks and test cards (docs/payment-sandbox.md). Pure functions: the card page
 * (server side, on every submit) decides with these; the page's script repeats none of it.
 */

export type CardOutcome =
  | { readonly _tag: "Approve" }
  | { readonly _tag: "Decline"; readonly reason: string }
  /** Gateway error: the payment fails (status `failed`, not `declined`). */
  | { readonly _tag: "Fail"; readonly reason: string }
  | { readonly _tag: "Challenge" }

export interface TestCard {
  readonly number: string
  readonly label: string
  readonly outcome: CardOutcome
}

export const threeDSecureCode = "1234"
export const threeDSecureFailed = "3-D Secure authentication failed"

export const testCards: ReadonlyArray<TestCard> = [
  { number: "4242424242424242", label: "Approved", outcome: { _tag: "Approve" } },
  {
    number: "4000000000000002",
    label: "Declined (Card declined)",
    outcome: { _tag: "Decline", reason: "Card declined" },
  },
  {
    number: "4000000000009995",
    label: "Declined (Insufficient funds)",
    outcome: { _tag: "Decline", reason: "Insufficient funds" },
  },
  {
    number: "4000000000003220",
    label: `3-D Secure challenge (code ${threeDSecureCode} approves)`,
    outcome: { _tag: "Challenge" },
  },
  {
    number: "4000000000000119",
    label: "Gateway error (Processing error)",
    outcome: { _tag: "Fail", reason: "Processing error" },
  },
]

/** Digits only: spaces and dashes the payer typed are dropped; anything else stays (and fails). */
export const normalizeCardNumber = (text: string): string => text.replace(/[\s-]/g, "")

/** The Luhn (mod 10) check over a string of 12–19 digits. */
export const luhnValid = (digits: string): boolean => {
  if (!/^\d{12,19}$/.test(digits)) return false
  let sum = 0
  let double = false
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48
    if (double) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
    double = !double
  }
  return sum % 10 === 0
}

/** The check digit that makes `partial + digit` Luhn-valid. */
export const luhnCheckDigit = (partial: string): string => {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${partial}${d}`)) return String(d)
  throw new Error(`no check digit for ${partial}`)
}

/** "MM/YY" (also "MM / YY", "MMYY", "MM/YYYY") → { month, year } or undefined. */
export const parseExpiry = (text: string): { readonly month: number; readonly year: number } | undefined => {
  const m = /^(\d{2})\s*\/?\s*(\d{2}|\d{4})$/.exec(text.trim())
  if (m === null) return undefined
  const month = Number(m[1])
  const y = m[2] as string
  const year = y.length === 2 ? 2000 + Number(y) : Number(y)
  if (month < 1 || month > 12) return undefined
  return { month, year }
}

/** A card is valid through the last day of its expiry month (UTC). */
export const expiryNotPast = (
  expiry: { readonly month: number; readonly year: number },
  now: Date,
): boolean =>
  expiry.year > now.getUTCFullYear() ||
  (expiry.year === now.getUTCFullYear() && expiry.month >= now.getUTCMonth() + 1)

export interface CardInput {
  readonly number: string
  readonly expiry: string
  readonly cvc: string
  readonly holder: string
}

export type CardField = keyof CardInput

export type CardCheck =
  | { readonly ok: true; readonly last4: string; readonly outcome: CardOutcome }
  | { readonly ok: false; readonly errors: Partial<Record<CardField, string>> }

/** Every field's problem at once (the page shows them all), or the test card's outcome. */
export const checkCard = (input: CardInput, now: Date): CardCheck => {
  const errors: Partial<Record<CardField, string>> = {}
  const number = normalizeCardNumber(input.number)
  if (number === "") errors.number = "Enter the card number."
  else if (!luhnValid(number)) errors.number = "This card number is not valid."
  const expiry = parseExpiry(input.expiry)
  if (input.expiry.trim() === "") errors.expiry = "Enter the expiry date (MM/YY)."
  else if (expiry === undefined) errors.expiry = "Enter the expiry date as MM/YY."
  else if (!expiryNotPast(expiry, now)) errors.expiry = "This card has expired."
  const cvc = input.cvc.trim()
  if (cvc === "") errors.cvc = "Enter the security code."
  else if (!/^\d{3,4}$/.test(cvc)) errors.cvc = "The security code is 3 or 4 digits."
  const holder = input.holder.trim()
  if (holder === "") errors.holder = "Enter the name on the card."
  else if (holder.length > 100) errors.holder = "The name is too long (100 characters at most)."
  const card = testCards.find((c) => c.number === number)
  if (errors.number === undefined && card === undefined) {
    errors.number = "This sandbox accepts only the test cards listed below."
  }
  if (Object.keys(errors).length > 0 || card === undefined) return { ok: false, errors }
  return { ok: true, last4: number.slice(-4), outcome: card.outcome }
}
