/**
 * What the Bonuses tab and the deposit step say about a bonus (services/bonus-rules.ts), held to
 * literal texts: the offer's terms, the wagering percent, the days left, the cap as the promotion
 * message writes it.
 */
import { describe, expect, it } from "vitest"
import {
  bonusDaysLeft,
  eurCapText,
  freeSpinsText,
  freeSpinWalletLabels,
  offerBandsText,
  offerTermsText,
  unlockedTotal,
  unlockHint,
  wageringPercent,
  winUnlockText,
} from "../../../services/bonus-rules.ts"

const welcome = {
  bands: [
    { upToEurCents: "1600", percent: 50, freeSpins: 100 },
    { upToEurCents: "5000", percent: 125, freeSpins: 125 },
    { upToEurCents: null, percent: 200, freeSpins: 150 },
  ],
  maxBonusEurCents: "800000",
  wageringMultiple: 10,
  validDays: 30,
  maxBetEurCents: "500",
  code: "WELCOME1",
}

describe("bonus texts", () => {
  it("an offer's bands and terms", () => {
    expect(offerBandsText(welcome)).toBe(
      "50 % up to 16.00 EUR (+100 free spins) · 125 % up to 50.00 EUR (+125 free spins) · 200 % above that (+150 free spins)",
    )
    expect(offerBandsText({ bands: [{ upToEurCents: null, percent: 150, freeSpins: 100 }] })).toBe(
      "150 % (+100 free spins)",
    )
    expect(offerTermsText(welcome)).toBe(
      "50 % up to 16.00 EUR (+100 free spins) · 125 % up to 50.00 EUR (+125 free spins) · 200 % above that (+150 free spins). Bonus at most 8,000 EUR; wager it 10× within 30 days; bets up to 5.00 EUR while it is active. Code: WELCOME1.",
    )
    expect(offerTermsText({ ...welcome, code: null })).not.toContain("Code:")
    expect(offerBandsText({ bands: [{ upToEurCents: null, percent: 100, freeSpins: 0 }] })).toBe("100 %")
  })

  it("the wagering percent: rounded down, at most 100, 100 when nothing is to wager", () => {
    expect(wageringPercent("0", "37500")).toBe(0)
    expect(wageringPercent("374", "37500")).toBe(0)
    expect(wageringPercent("375", "37500")).toBe(1)
    expect(wageringPercent("18749", "37500")).toBe(49)
    expect(wageringPercent("37500", "37500")).toBe(100)
    expect(wageringPercent("99999", "37500")).toBe(100)
    expect(wageringPercent("0", "0")).toBe(100)
  })

  it("days left: a started day counts, never negative", () => {
    const now = Date.parse("2026-11-27T12:00:00Z")
    expect(bonusDaysLeft("2026-12-27T12:00:00Z", now)).toBe(30)
    expect(bonusDaysLeft("2026-11-27T12:00:01Z", now)).toBe(1)
    expect(bonusDaysLeft("2026-11-27T12:00:00Z", now)).toBe(0)
    expect(bonusDaysLeft("2026-11-20T00:00:00Z", now)).toBe(0)
  })

  it("the cap as the deposit step's message writes it", () => {
    expect(eurCapText(800_000n)).toBe("8,000 EUR")
    expect(eurCapText(1_250n)).toBe("12.50 EUR")
    expect(eurCapText(123_456_700n)).toBe("1,234,567 EUR")
    expect(eurCapText(5n)).toBe("0.05 EUR")
  })
})

describe("free spins on the bonus card", () => {
  it("counts what is left, says when all were played, says nothing once withdrawn", () => {
    expect(freeSpinsText({ rounds: 125, played: 38, status: "active" })).toBe("Free spins: 87 of 125 left")
    expect(freeSpinsText({ rounds: 125, played: 0, status: "pending" })).toBe("Free spins: 125 of 125 left")
    expect(freeSpinsText({ rounds: 125, played: 125, status: "finished" })).toBe("Free spins: all 125 played")
    expect(freeSpinsText({ rounds: 125, played: 3, status: "cancelled" })).toBeNull()
    expect(freeSpinsText(null)).toBeNull()
  })
})

describe("the free-spin wallet's card", () => {
  it("says what unlocks the winnings, with the extra bonus when there is one", () => {
    expect(winUnlockText({ deposit: "20.00 EUR", extraBonusPercent: 25, max: "100.00 EUR" })).toBe(
      "Deposit 20.00 EUR or more and take a bonus to unlock what they win, with an extra 25 % of that deposit as bonus money (up to 100.00 EUR in all); it then joins that bonus and its wagering.",
    )
    expect(winUnlockText({ deposit: "10.00 USD", extraBonusPercent: 0, max: "50.00 USD" })).toBe(
      "Deposit 10.00 USD or more and take a bonus to unlock what they win (up to 50.00 USD in all); it then joins that bonus and its wagering.",
    )
  })

  it("names each state and adds up what an unlock moved", () => {
    expect(freeSpinWalletLabels).toEqual({
      locked: "Waiting for a deposit",
      unlocked: "Unlocked",
      expired: "Expired",
    })
    expect(unlockedTotal({ unlockedWinnings: "340", extraBonus: "750" })).toBe("1090")
    expect(unlockedTotal({ unlockedWinnings: null, extraBonus: null })).toBe("0")
  })
})

describe("the deposit step's unlock line", () => {
  const eur = (minor: string) => `${(Number(minor) / 100).toFixed(2)} EUR`
  const wallet = { balance: "340", winUnlockConfig: { depositAmount: "2000", extraBonusPercent: 25 } }
  it("says what this deposit unlocks once it is large enough", () => {
    expect(unlockHint(wallet, 3_000n, eur)).toBe(
      "Taking the bonus also unlocks the 3.40 EUR your free spins won, with an extra 25 % of this deposit.",
    )
    expect(unlockHint(wallet, 2_000n, eur)).toBe(
      "Taking the bonus also unlocks the 3.40 EUR your free spins won, with an extra 25 % of this deposit.",
    )
  })
  it("names the smallest deposit that unlocks while the amount is below it or not typed", () => {
    const below =
      "A deposit of 20.00 EUR or more taking the bonus also unlocks the 3.40 EUR your free spins won, with an extra 25 % of this deposit."
    expect(unlockHint(wallet, 1_999n, eur)).toBe(below)
    expect(unlockHint(wallet, null, eur)).toBe(below)
  })
  it("says nothing when nothing was won or nothing waits", () => {
    expect(unlockHint({ ...wallet, balance: "0" }, 3_000n, eur)).toBeNull()
    expect(unlockHint({ winUnlockConfig: null }, 3_000n, eur)).toBeNull()
    expect(unlockHint(null, 3_000n, eur)).toBeNull()
    expect(
      unlockHint(
        { balance: "500", winUnlockConfig: { depositAmount: "1000", extraBonusPercent: 0 } },
        1_000n,
        eur,
      ),
    ).toBe("Taking the bonus also unlocks the 5.00 EUR your free spins won.")
  })
})
