/**
 * Cashing out with an active bonus, on both backends: the request is refused until the player
 * confirms the forfeit (409 with what is lost), the spec's checks still come first, and a confirmed
 * request forfeits the bonus money in the same transaction as it holds the cash. Cash is never
 * touched by the forfeit. Amounts are written out as literals.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { grantFirstDepositBonus, walletOf } from "./bonuses-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport } from "./money-support.ts"
import { bankWithdraw, newCashier, PROFILE, skrillWithdraw } from "./withdrawals-support.ts"

interface BonusView {
  readonly id: string
  readonly status: string
  readonly endedAmount: string | null
}

describeBackends("bonuses: cashing out with an active bonus", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start(
      { captchaEnabled: false },
      { env: { RATE_LIMITS: JSON.stringify({ registerPerIp: { max: 100, windowSeconds: 3600 } }) } },
    )
  })
  afterAll(async () => {
    await server?.close()
  })

  it("asks for the forfeit first, then forfeits the bonus money with the request; the cash is untouched", async () => {
    const p = await newCashier(server, "cashout-bonus", { eur: 10_000n })
    // A first deposit of 30 EUR with WELCOME1: 125 % = 37.50 EUR of bonus money.
    await grantFirstDepositBonus(server, p.userId, "3000")
    expect(await walletOf(server, p.userId)).toEqual({ cash: 10_000n, bonus: 3_750n })

    const unconfirmed = await bankWithdraw(p, "2000")
    expect(unconfirmed.status).toBe(409)
    expect(unconfirmed.body).toMatchObject({
      _tag: "BonusForfeitRequired",
      currency: "EUR",
      name: "Welcome bonus",
      bonusBalance: "3750",
      message:
        "You have an active bonus (Welcome bonus). Cashing out now forfeits it: 37.50 EUR of bonus money goes back to the casino. Your cash is not touched.",
    })
    // Nothing happened: no withdrawal, the same money, the bonus still active.
    expect(await walletOf(server, p.userId)).toEqual({ cash: 10_000n, bonus: 3_750n })
    expect((await p.browser.get(`${PROFILE}/profile/withdrawals`)).body).toEqual([])

    // The spec's checks come before the bonus question, and a refused request forfeits nothing.
    const tooMuch = await p.browser.post(`${PROFILE}/profile/bank/withdraw`, {
      amount: "20000",
      currency: "EUR",
      email: "payee@example.com",
      forfeitBonus: true,
    })
    expect(tooMuch.status).toBe(409)
    expect(tooMuch.body).toMatchObject({ _tag: "NotEnoughMoney" })
    expect(await walletOf(server, p.userId)).toEqual({ cash: 10_000n, bonus: 3_750n })

    const confirmed = await p.browser.post(`${PROFILE}/profile/bank/withdraw`, {
      amount: "2000",
      currency: "EUR",
      email: "payee@example.com",
      forfeitBonus: true,
    })
    expect(confirmed.status).toBe(200)
    expect(confirmed.body).toMatchObject({ status: "requested", amount: "2000", currency: "EUR" })
    expect(await walletOf(server, p.userId)).toEqual({ cash: 8_000n, bonus: 0n })
    const bonuses = (await p.browser.get(`${PROFILE}/profile/promotion`)).body as {
      bonuses: ReadonlyArray<BonusView>
    }
    expect(bonuses.bonuses).toMatchObject([{ status: "forfeited", endedAmount: "3750" }])

    // With no bonus active the question is not asked again.
    const next = await skrillWithdraw(p, "1000")
    expect(next.status).toBe(200)
    expect(await walletOf(server, p.userId)).toEqual({ cash: 7_000n, bonus: 0n })
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("refuses a forfeitBonus that is not a boolean as a bad request", async () => {
    const p = await newCashier(server, "cashout-bonus-bad", { eur: 10_000n })
    const res = await p.browser.post(`${PROFILE}/profile/skrill/withdraw`, {
      amount: "1000",
      currency: "EUR",
      forfeitBonus: "yes",
    })
    expect(res.status).toBe(400)
    expect(await walletOf(server, p.userId)).toEqual({ cash: 10_000n, bonus: null })
  })
})
