/** What an operator types as an amount, turned into the API's integer minor units (exact, no floats). */
import { decimalsOf } from "./format.ts"

export const decimalsFor = (currency: string): number => decimalsOf[currency] ?? 2

/** "12.5" EUR → "1250"; null when it is not a non-negative amount with at most the currency's decimals. */
export const minorOf = (text: string, currency: string): string | null => {
  const decimals = decimalsFor(currency)
  const match = /^(\d{1,30})(?:\.(\d*))?$/.exec(text.trim().replace(/[,\s]/g, ""))
  if (match === null) return null
  const whole = match[1] ?? "0"
  const fraction = match[2] ?? ""
  if (fraction.length > decimals) return null
  const digits = `${whole}${fraction.padEnd(decimals, "0")}`.replace(/^0+(?=\d)/, "")
  return digits
}

/** "1250" EUR → "12.50": minor units as the decimal an operator edits (no grouping, no currency). */
export const majorOf = (minor: string, currency: string): string => {
  const decimals = decimalsFor(currency)
  if (decimals === 0) return minor
  const digits = minor.padStart(decimals + 1, "0")
  return `${digits.slice(0, digits.length - decimals)}.${digits.slice(digits.length - decimals)}`
}
