/**
 * How the back office writes amounts and times: minor units as the currency's decimal (the decimals
 * of the one currency table, services/currencies.ts), UTC times.
 */
import { decimalsOfCurrency } from "../../services/currencies.ts"

/** "12345" EUR → "123.45 EUR" (strings of integer minor units, as the API sends them). */
export const money = (minor: string, currency: string): string => {
  const decimals = decimalsOfCurrency(currency)
  const negative = minor.startsWith("-")
  const digits = (negative ? minor.slice(1) : minor).padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  const fraction =
    decimals === 0
      ? ""
      : `.${digits
          .slice(digits.length - decimals)
          .replace(/0+$/, "")
          .padEnd(2, "0")}`
  return `${negative ? "−" : ""}${whole}${fraction} ${currency}`
}

/** ISO time → "2026-11-28 14:05 UTC". */
export const when = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
