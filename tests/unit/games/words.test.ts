/**
 * The result words (services/games/words.ts) and the game page's copy of the rule
 * (providers/game-studio/pages/core.ts, a plain script) against one literal table: only a win above
 * the bet is a win; a partial return is "Returned" with the real minus sign; the multiplier is the
 * one paid (win ÷ bet of the money).
 */
import { describe, expect, it } from "vitest"
import { wordsScript } from "../../../providers/game-studio/pages/core.ts"
import { paidMultiplier, resultWords } from "../../../services/games/words.ts"

const TABLE: ReadonlyArray<{
  bet: bigint
  win: bigint
  currency: string
  text: string
  tone: "win" | "even" | "loss"
  paid: string
}> = [
  { bet: 100n, win: 198n, currency: "EUR", text: "Won 1.98 EUR (+0.98)", tone: "win", paid: "1.98×" },
  {
    bet: 100n,
    win: 90n,
    currency: "EUR",
    text: "Returned 0.90 EUR (\u22120.10)",
    tone: "loss",
    paid: "0.90×",
  },
  { bet: 100n, win: 100n, currency: "EUR", text: "Returned 1.00 EUR (±0.00)", tone: "even", paid: "1.00×" },
  { bet: 100n, win: 0n, currency: "EUR", text: "Lost 1.00 EUR", tone: "loss", paid: "0.00×" },
  { bet: 100n, win: 107n, currency: "EUR", text: "Won 1.07 EUR (+0.07)", tone: "win", paid: "1.07×" },
  {
    bet: 5n,
    win: 123456n,
    currency: "USD",
    text: "Won 1,234.56 USD (+1,234.51)",
    tone: "win",
    paid: "24691.20×",
  },
  { bet: 20n, win: 3n, currency: "EUR", text: "Returned 0.03 EUR (\u22120.17)", tone: "loss", paid: "0.15×" },
  { bet: 1000n, win: 2500n, currency: "JPY", text: "Won 2,500 JPY (+1,500)", tone: "win", paid: "2.50×" },
  { bet: 1000n, win: 0n, currency: "JPY", text: "Lost 1,000 JPY", tone: "loss", paid: "0.00×" },
]

type ScriptWords = {
  resultWords: (bet: bigint, win: bigint, currency: string) => { text: string; tone: string }
  paidMultiplier: (bet: bigint, win: bigint) => string
}

const isScriptWords = (v: unknown): v is ScriptWords =>
  typeof v === "object" && v !== null && "resultWords" in v && "paidMultiplier" in v

const fromScript = (): ScriptWords => {
  const made: unknown = new Function(`${wordsScript}; return { resultWords, paidMultiplier }`)()
  if (!isScriptWords(made)) throw new Error("the page's words script defines no resultWords")
  return made
}

describe("result words", () => {
  const script = fromScript()
  for (const row of TABLE) {
    it(`${row.bet} → ${row.win} ${row.currency}: ${row.text}`, () => {
      expect(resultWords(row.bet, row.win, row.currency)).toEqual({ text: row.text, tone: row.tone })
      expect(script.resultWords(row.bet, row.win, row.currency)).toEqual({ text: row.text, tone: row.tone })
      expect(paidMultiplier(row.bet, row.win)).toBe(row.paid)
      expect(script.paidMultiplier(row.bet, row.win)).toBe(row.paid)
    })
  }

  it("the minus is U+2212, never a hyphen", () => {
    expect(resultWords(100n, 90n, "EUR").text).toContain("\u2212")
    expect(resultWords(100n, 90n, "EUR").text).not.toContain("-")
  })
})
