/**
 * A round's result in money words (services/games/words.ts): what the game page and the Bets tab
 * both say. A return below the bet is a loss; only a win above the bet is a win.
 */
import { describe, expect, it } from "vitest"
import { resultWords } from "../../services/games/words.ts"

const cases: ReadonlyArray<readonly [bigint, bigint, string, string, "win" | "even" | "loss"]> = [
  [100n, 198n, "EUR", "Won 1.98 EUR (+0.98)", "win"],
  [100n, 90n, "EUR", "Returned 0.90 EUR (−0.10)", "loss"],
  [100n, 100n, "EUR", "Returned 1.00 EUR (±0.00)", "even"],
  [100n, 0n, "EUR", "Lost 1.00 EUR", "loss"],
  [250n, 1n, "USD", "Returned 0.01 USD (−2.49)", "loss"],
  [100n, 123_456n, "EUR", "Won 1,234.56 EUR (+1,233.56)", "win"],
  [100n, 250n, "JPY", "Won 250 JPY (+150)", "win"],
  [100n, 90n, "JPY", "Returned 90 JPY (−10)", "loss"],
  [100n, 100n, "JPY", "Returned 100 JPY (±0)", "even"],
  [1_000n, 0n, "JPY", "Lost 1,000 JPY", "loss"],
  // The casino's crypto currencies: Dogecoin's code DOG has 8 decimals, as BTC has.
  [100_000_000n, 0n, "DOG", "Lost 1.00 DOG", "loss"],
  [100_000n, 150_000n, "BTC", "Won 0.0015 BTC (+0.0005)", "win"],
]

describe("resultWords", () => {
  it.each(cases)("bet %s, win %s %s → %s (%s)", (bet, win, currency, text, tone) => {
    expect(resultWords(bet, win, currency)).toEqual({ text, tone })
  })

  it("uses the minus sign U+2212, not a hyphen", () => {
    expect(resultWords(100n, 90n, "EUR").text).toContain("\u2212")
    expect(resultWords(100n, 90n, "EUR").text).not.toContain("-")
  })
})
