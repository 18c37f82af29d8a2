/**
 * Playing with a bonus through the seamless-wallet protocol, on both backends: a bet takes cash
 * first, then bonus money; a win pays in the proportion the round's bets were; the maximum bet while
 * a bonus is active is refused with BONUS_MAX_BET; wagering counts bets × their game's weight
 * (slots 100 %, dice 10 %) and converts the bonus once met; a forfeit keeps the bonus's share of a
 * later win with the house; a rollback refunds each part where it came from. Every answer's balance
 * is cash + bonus money. Amounts are literals: a first deposit of 30.00 EUR earns 37.50 EUR
 * (125 %), wagering 10 × = 375.00 EUR, at most 5.00 EUR a bet.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { Game } from "../../services/game-service.ts"
import { gameOfKind, grantFirstDepositBonus, walletOf } from "./bonuses-support.ts"
import {
  betBody,
  type FakeGameProvider,
  fundedPlayer,
  launchReal,
  startFakeGameProvider,
  walletCall,
  winBody,
} from "./games-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport, PROFILE } from "./money-support.ts"
import type { Browser } from "./users-support.ts"

describeBackends("bonuses: playing with bonus money", ({ start }) => {
  let server: TestServer
  let fake: FakeGameProvider
  let slot: Game
  let dice: Game
  beforeAll(async () => {
    fake = await startFakeGameProvider()
    server = await start({ captchaEnabled: false }, { env: { ...fake.env, RATE_LIMIT_SCALE: "100" } })
    slot = await gameOfKind(server, "slot")
    dice = await gameOfKind(server, "dice")
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  const grantBonus = (userId: string, cents: string) => grantFirstDepositBonus(server, userId, cents)

  const balances = async (userId: string) => {
    const w = await walletOf(server, userId)
    return { cash: w.cash?.toString() ?? "none", bonus: w.bonus?.toString() ?? "none" }
  }

  const bonusOf = async (p: { player: { browser: Browser } }) => {
    const res = await p.player.browser.get(`${PROFILE}/profile/promotion`)
    const [bonus] = (res.body as { bonuses: ReadonlyArray<Record<string, unknown>> }).bonuses
    return bonus ?? {}
  }

  const bet = (p: { userId: string; token: string }, game: Game, amount: string, roundId = randomUUID()) =>
    walletCall(server.url, "bet", betBody(game, p, amount, { roundId }))

  const win = (p: { userId: string; token: string }, game: Game, amount: string, roundId: string) =>
    walletCall(server.url, "win", winBody(game, p, roundId, amount))

  it("cash first, then bonus; wins in proportion; the maximum bet; wagering by weight", async () => {
    const p = await fundedPlayer(server, fake, "bonus-play", 1000n, slot)
    await grantBonus(p.userId, "3000")
    const balance = await walletCall(server.url, "balance", {
      sessionToken: p.token,
      playerId: p.userId,
      currency: "EUR",
    })
    expect(balance).toEqual({ status: 200, body: { balance: "4750", currency: "EUR" } })

    expect((await bet(p, slot, "400")).body).toMatchObject({ balance: "4350" })
    expect(await balances(p.userId)).toEqual({ cash: "600", bonus: "3750" })
    expect((await bet(p, slot, "500")).body).toMatchObject({ balance: "3850" })
    // 100 of cash left: this bet is 100 cash + 400 bonus money.
    const round = randomUUID()
    expect((await bet(p, slot, "500", round)).body).toMatchObject({ balance: "3350" })
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "3350" })
    // A win of 10.00 on that round: 8.00 to the bonus (400 of 500), 2.00 to cash.
    expect((await win(p, slot, "1000", round)).body).toMatchObject({ balance: "4350" })
    expect(await balances(p.userId)).toEqual({ cash: "200", bonus: "4150" })

    const tooBig = await bet(p, slot, "501")
    expect(tooBig).toEqual({ status: 422, body: { error: "BONUS_MAX_BET", max: "500" } })
    expect(await balances(p.userId)).toEqual({ cash: "200", bonus: "4150" })

    // Dice counts 10 %: a 1.00 bet adds 0.10 to the wagering.
    const diceToken = await launchReal(fake, p.player, dice)
    expect((await bet({ userId: p.userId, token: diceToken }, dice, "100")).status).toBe(200)
    expect(await bonusOf(p)).toMatchObject({ status: "active", wagered: "1410", wageringRequired: "37500" })
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("refuses a bet above cash + bonus money, with that balance", async () => {
    const p = await fundedPlayer(server, fake, "bonus-short", 0n, slot)
    await grantBonus(p.userId, "3000")
    for (let i = 0; i < 7; i++) expect((await bet(p, slot, "500")).status).toBe(200)
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "250" })
    expect(await bet(p, slot, "300")).toEqual({
      status: 402,
      body: { error: "INSUFFICIENT_FUNDS", balance: "250" },
    })
  })

  it("meeting the wagering converts the bonus to cash", async () => {
    // 20.00 EUR earns 25.00 (125 %): 250.00 to wager, 50 bets of 5.00 paid from cash.
    const p = await fundedPlayer(server, fake, "bonus-convert", 30000n, slot)
    await grantBonus(p.userId, "2000")
    for (let i = 0; i < 49; i++) expect((await bet(p, slot, "500")).status).toBe(200)
    expect(await bonusOf(p)).toMatchObject({ status: "active", wagered: "24500", balance: "2500" })
    expect((await bet(p, slot, "500")).body).toMatchObject({ balance: "7500" })
    expect(await balances(p.userId)).toEqual({ cash: "7500", bonus: "0" })
    expect(await bonusOf(p)).toMatchObject({ status: "completed", endedAmount: "2500", balance: "0" })
    // Converted: the bonus's rules are gone, the next bet may be above 5.00.
    expect((await bet(p, slot, "600")).status).toBe(200)
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("a forfeit keeps the bonus's share of a later win with the house", async () => {
    const p = await fundedPlayer(server, fake, "bonus-forfeit-win", 0n, slot)
    await grantBonus(p.userId, "3000")
    const round = randomUUID()
    expect((await bet(p, slot, "500", round)).status).toBe(200)
    const bonus = await bonusOf(p)
    const forfeited = await p.player.browser.call("DELETE", `${PROFILE}/profile/promotion`, { id: bonus.id })
    expect(forfeited.body).toMatchObject({ status: "forfeited", endedAmount: "3250" })
    expect((await win(p, slot, "1000", round)).body).toMatchObject({ balance: "0" })
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "0" })
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("a rollback refunds the cash part to cash and the bonus part to the bonus, and its wagering", async () => {
    const p = await fundedPlayer(server, fake, "bonus-rollback", 100n, slot)
    await grantBonus(p.userId, "3000")
    const body = betBody(slot, p, "500")
    expect((await walletCall(server.url, "bet", body)).body).toMatchObject({ balance: "3350" })
    expect(await balances(p.userId)).toEqual({ cash: "0", bonus: "3350" })
    // A 5.00 EUR slot bet counts 5.00 EUR of wagering (slots weigh 100 %)…
    expect(await bonusOf(p)).toMatchObject({ wagered: "500" })
    const rolled = await walletCall(server.url, "rollback", {
      sessionToken: p.token,
      playerId: p.userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: body.roundId,
      refTransactionId: body.transactionId,
    })
    expect(rolled.body).toMatchObject({ balance: "3850" })
    expect(await balances(p.userId)).toEqual({ cash: "100", bonus: "3750" })
    // …and refunded, it counts no more.
    expect(await bonusOf(p)).toMatchObject({ wagered: "0" })
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("a player without a bonus plays as before (the batch's path)", async () => {
    const p = await fundedPlayer(server, fake, "no-bonus", 1000n, slot)
    expect((await bet(p, slot, "800")).body).toMatchObject({ balance: "200" })
    expect(await balances(p.userId)).toEqual({ cash: "200", bonus: "none" })
  })
})
