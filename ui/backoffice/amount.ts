/**
 * What an operator types as an amount ("12.5" EUR) as the API's string of integer minor units
 * ("1250"), digit by digit: a float would turn 0.29 into 28.999… cents and lose the 18 decimals of
 * ETH altogether.
 */
import { decimalsOfCurrency } from "../../services/currencies.ts"

/**
 * A positive decimal in major units → its minor units, or null when it is not a plain positive
 * number ("1,000", "1e3", "-1", "", "0.00") or has more decimals than the currency has.
 */
export const toMinor = (major: string, decimals: number): string | null => {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(major.trim())
  if (match === null) return null
  const whole = match[1] ?? ""
  const fraction = match[2] ?? ""
  if (whole === "" && fraction === "") return null
  if (fraction.length > decimals) return null
  const digits = `${whole}${fraction.padEnd(decimals, "0")}`.replace(/^0+/, "")
  return digits === "" ? null : digits
}

/** The signed payload amount: "-" before a debit's digits. */
export const signedMinor = (sign: "+" | "-", minor: string): string => (sign === "-" ? `-${minor}` : minor)

/**
 * A minimum or limit typed in major units (zero allowed; thousands separators ignored) → minor
 * units as a string; null when it is not a plain amount of the currency.
 */
export const minorOf = (text: string, currency: string): string | null => {
  const plain = text.trim().replace(/[,\s]/g, "")
  if (/^0*(\.0*)?$/.test(plain) && /0/.test(plain)) return "0"
  return toMinor(plain, decimalsOfCurrency(currency))
}

/** Minor units → the plain decimal an input field shows ("1250" EUR → "12.50"). */
export const majorOf = (minor: string, currency: string): string => {
  const decimals = decimalsOfCurrency(currency)
  if (decimals === 0) return minor
  const digits = minor.padStart(decimals + 1, "0")
  return `${digits.slice(0, digits.length - decimals)}.${digits.slice(digits.length - decimals)}`
}
