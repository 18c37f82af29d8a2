/**
 * What a round's result says, in money (the game page and the Bets tab say the same): a return
 * below the bet is a loss, never "a win".
 *
 *   win > bet      "Won 1.98 EUR (+0.98)"        tone win
 *   0 < win < bet  "Returned 0.90 EUR (−0.10)"   tone loss
 *   win = bet      "Returned 1.00 EUR (±0.00)"   tone even
 *   win = 0        "Lost 1.00 EUR"               tone loss
 *
 * Amounts are integer minor units; the minus is U+2212. Browser-safe and pure.
 */
import { decimalsOfCurrency, subunitsToUnitOf } from "../currencies.ts"
import { formatMinorUnits } from "../money.ts"

export type ResultTone = "win" | "even" | "loss"

/** In the currency's decimals (the one currency table, services/currencies.ts). */
const amountText = (minor: bigint, currency: string): string =>
  formatMinorUnits(minor.toString(), subunitsToUnitOf(decimalsOfCurrency(currency)))

export const resultWords = (
  bet: bigint,
  win: bigint,
  currency: string,
): { text: string; tone: ResultTone } => {
  if (win === 0n) return { text: `Lost ${amountText(bet, currency)} ${currency}`, tone: "loss" }
  const paid = `${amountText(win, currency)} ${currency}`
  if (win > bet) return { text: `Won ${paid} (+${amountText(win - bet, currency)})`, tone: "win" }
  if (win < bet) return { text: `Returned ${paid} (\u2212${amountText(bet - win, currency)})`, tone: "loss" }
  return { text: `Returned ${paid} (±${amountText(0n, currency)})`, tone: "even" }
}

/** The multiplier actually paid, win ÷ bet floored to 1/100: "1.07×" (never the theoretical one). */
export const paidMultiplier = (bet: bigint, win: bigint): string => {
  if (bet <= 0n) return "0.00×"
  const hundredths = (win * 100n) / bet
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, "0")}×`
}
