/**
 * What the studio's page tells the player for each refusal of a bet by the casino's wallet
 * (providers/game-studio/Studio.ts, docs/game-wallet-protocol.md), amounts in the round's currency.
 */
import { describe, expect, it } from "vitest"
import { betRefusal } from "../../../providers/game-studio/Studio.ts"

const refused = (status: number, error: string, body: Record<string, unknown>) =>
  ({ _tag: "Refused", status, error, body: { error, ...body } }) as const

describe("the studio's words for a refused bet", () => {
  it("names the maximum bet of an active bonus", () => {
    expect(betRefusal(refused(422, "BONUS_MAX_BET", { max: "500" }), "EUR")).toEqual({
      _tag: "Refusal",
      status: 422,
      error: "BONUS_MAX_BET",
      message: "While your bonus is active a bet may be at most 5.00 EUR.",
    })
  })

  it("names the balance, the limits and the exclusion", () => {
    expect(betRefusal(refused(402, "INSUFFICIENT_FUNDS", { balance: "250" }), "EUR").message).toBe(
      "Your balance is too low for this bet (balance 2.50 EUR).",
    )
    expect(betRefusal(refused(422, "BET_LIMIT", { min: "10", max: "10000" }), "EUR").message).toBe(
      "This bet is outside the limits: from 0.10 EUR to 100.00 EUR.",
    )
    expect(betRefusal(refused(403, "PLAYER_BLOCKED", {}), "EUR").message).toBe(
      "You cannot place bets: your account is excluded from play.",
    )
  })
})
