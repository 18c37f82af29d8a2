/**
 * Loyalty levels end to end on both backends (docs/loyalty.md): points from the real-money part of
 * bets only (bonus money earns none), weighted by game kind (slots 100 %, dice 10 %), a rollback
 * taking its bet's points back, the level-up pushed to the player's pages, the endpoint's answer,
 * 401 without a session, the weekly cashback paid once through the ledger (and nothing for a
 * winning week), the withdrawal-limit factor, and a balanced ledger. Expected figures are literals:
 * EUR at rate 1, Silver at 1,000 points with 2 % cashback and ×1.25 the daily withdrawal limit.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Loyalty } from "../../server/loyalty/Loyalty.ts"
import type { Game } from "../../services/game-service.ts"
import { gameOfKind, grantFirstDepositBonus, walletOf } from "./bonuses-support.ts"
import {
  betBody,
  type FakeGameProvider,
  fundedPlayer,
  startFakeGameProvider,
  walletCall,
} from "./games-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport, PROFILE } from "./money-support.ts"
import type { Browser } from "./users-support.ts"

const DAY = 86_400_000

/** The Monday (UTC) `weeksBack` weeks before the one holding now, as YYYY-MM-DD. */
const mondayWeeksAgo = (weeksBack: number): string => {
  const today = Math.floor(Date.now() / DAY) * DAY
  const sinceMonday = (new Date(today).getUTCDay() + 6) % 7
  return new Date(today - (sinceMonday + 7 * weeksBack) * DAY).toISOString().slice(0, 10)
}

interface LevelView {
  readonly level: number
  readonly name: string
  readonly points: string
  readonly nextLevel: { readonly level: number; readonly name: string; readonly minPoints: string } | null
  readonly pointsToNext: string | null
  readonly progressPercent: number
  readonly cashbackBps: number
  readonly withdrawLimitBps: number
  readonly perks: ReadonlyArray<string>
  readonly levels: ReadonlyArray<{ readonly name: string; readonly minPoints: string }>
}

describeBackends("loyalty: points, levels, cashback", ({ start }) => {
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

  const accrue = () =>
    server.run(
      Effect.gen(function* () {
        return yield* (yield* Loyalty).accrue
      }).pipe(Effect.orDie),
    )
  const runCashback = (weekStart: string) =>
    server.run(
      Effect.gen(function* () {
        return yield* (yield* Loyalty).runCashback(weekStart).pipe(Effect.result)
      }).pipe(Effect.orDie),
    )
  const levelOf = async (browser: Browser) => {
    const res = await browser.get(`${PROFILE}/profile/loyalty-level`)
    expect(res.status).toBe(200)
    return res.body as LevelView
  }
  const bet = (p: { userId: string; token: string }, game: Game, amount: string, roundId = randomUUID()) =>
    walletCall(server.url, "bet", betBody(game, p, amount, { roundId }))

  it("401 without a session", async () => {
    const res = await fetch(`${server.url}${PROFILE}/profile/loyalty-level`)
    expect(res.status).toBe(401)
    expect(await res.json()).toMatchObject({ _tag: "Unauthenticated" })
  })

  it("a new player is Bronze with 0 points, and sees every level", async () => {
    const p = await fundedPlayer(server, fake, "loyalty-new", 0n, slot)
    const level = await levelOf(p.player.browser)
    expect(level).toMatchObject({
      level: 1,
      name: "Bronze",
      points: "0",
      nextLevel: { level: 2, name: "Silver", minPoints: "1000" },
      pointsToNext: "1000",
      progressPercent: 0,
      cashbackBps: 0,
      withdrawLimitBps: 10000,
      perks: [],
    })
    expect(level.levels.map((l) => [l.name, l.minPoints])).toEqual([
      ["Bronze", "0"],
      ["Silver", "1000"],
      ["Gold", "5000"],
      ["Platinum", "25000"],
      ["Diamond", "100000"],
    ])
  })

  it("points: real money only, weighted by game kind; a rollback takes its points back", async () => {
    const p = await fundedPlayer(server, fake, "loyalty-weights", 10_000n, slot)
    expect((await bet(p, slot, "2000")).status).toBe(200) // 20.00 EUR on a slot: 20 points
    expect((await bet(p, dice, "5000")).status).toBe(200) // 50.00 EUR on dice at 10 %: 5 points
    const refunded = betBody(slot, p, "1000") // 10.00 EUR, rolled back below: 0 points
    expect((await walletCall(server.url, "bet", refunded)).status).toBe(200)
    const rolled = await walletCall(server.url, "rollback", {
      sessionToken: p.token,
      playerId: p.userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: refunded.roundId,
      refTransactionId: refunded.transactionId,
    })
    expect(rolled.status).toBe(200)
    await accrue()
    // A second run reads nothing new: the cursor moved with the points.
    await accrue()
    expect(await levelOf(p.player.browser)).toMatchObject({
      level: 1,
      name: "Bronze",
      points: "25",
      pointsToNext: "975",
      progressPercent: 2,
    })

    // Bonus money earns nothing: 3.00 EUR of cash, then the bonus pays the rest.
    const b = await fundedPlayer(server, fake, "loyalty-bonus", 300n, slot)
    await grantFirstDepositBonus(server, b.userId, "3000")
    expect((await bet(b, slot, "500")).status).toBe(200) // 3.00 cash + 2.00 bonus: 3 points
    expect((await bet(b, slot, "500")).status).toBe(200) // all bonus money: 0 points
    expect(await walletOf(server, b.userId)).toEqual({ cash: 0n, bonus: 3050n })
    await accrue()
    expect((await levelOf(b.player.browser)).points).toBe("3")
  })

  it("a level-up is pushed; cashback paid once for a losing week, none for a winning one", async () => {
    const loser = await fundedPlayer(server, fake, "loyalty-loser", 150_000n, slot)
    const winner = await fundedPlayer(server, fake, "loyalty-winner", 110_000n, slot)
    const stream = await loser.player.browser.pushStream()
    // 20 bets of 50.00 EUR on a slot: 1,000 points, Silver.
    for (let i = 0; i < 20; i++) {
      expect((await bet(loser, slot, "5000")).status).toBe(200)
      expect((await bet(winner, slot, "5000")).status).toBe(200)
    }
    const lastRound = randomUUID()
    expect((await bet(winner, slot, "100", lastRound)).status).toBe(200)
    const won = await walletCall(server.url, "win", {
      sessionToken: winner.token,
      playerId: winner.userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: lastRound,
      gameId: slot.launchId,
      amount: "120000",
      roundClosed: true,
    })
    expect(won.status).toBe(200)
    await accrue()
    const pushed = await stream.until('"type":"loyalty"')
    await stream.close()
    expect(pushed).toContain('event: loyalty\ndata: {"type":"loyalty","level":2,"name":"Silver"}')
    expect(await levelOf(loser.player.browser)).toMatchObject({
      level: 2,
      name: "Silver",
      points: "1000",
      nextLevel: { level: 3, name: "Gold", minPoints: "5000" },
      pointsToNext: "4000",
      progressPercent: 0,
      cashbackBps: 200,
      withdrawLimitBps: 12500,
      perks: ["2 % weekly cashback on net losses, paid as cash", "Daily withdrawal limit ×1.25"],
    })
    expect((await levelOf(winner.player.browser)).name).toBe("Silver")
    const factor = await server.run(
      Effect.gen(function* () {
        return yield* (yield* Loyalty).withdrawLimitFactorBps(loser.userId)
      }),
    )
    expect(factor).toBe(12500)

    // The week still running is not paid; a date that is no Monday is refused.
    const thisWeek = await runCashback(mondayWeeksAgo(0))
    expect(thisWeek._tag).toBe("Failure")
    expect((await runCashback("2026-11-25"))._tag).toBe("Failure")

    // Their game postings belong to a finished week (two weeks back: the hourly job pays only the last one).
    const week = mondayWeeksAgo(2)
    await server.query(
      `UPDATE ledger_transactions SET created_at = $3::timestamptz
       WHERE kind LIKE 'game.%' AND id IN (
         SELECT e.transaction_id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
         WHERE a.user_id IN ($1::uuid, $2::uuid))`,
      [loser.userId, winner.userId, `${week}T12:00:00Z`],
    )
    const cashBefore = (await walletOf(server, loser.userId)).cash
    expect(cashBefore).toBe(50_000n)
    const first = await runCashback(week)
    expect(first).toMatchObject({ _tag: "Success", success: { weekStart: week, payments: 1 } })
    const second = await runCashback(week)
    expect(second).toMatchObject({ _tag: "Success", success: { weekStart: week, payments: 0 } })
    // 1,000.00 EUR lost × 2 % = 20.00 EUR, paid once, as cash.
    expect((await walletOf(server, loser.userId)).cash).toBe(52_000n)
    const paid = await server.query<{
      user_id: string
      amount: string
      net_loss: string
      cashback_bps: number
    }>(
      `SELECT user_id::text AS user_id, amount::text AS amount, net_loss::text AS net_loss, cashback_bps
       FROM loyalty_cashbacks WHERE week_start = $1::date ORDER BY user_id`,
      [week],
    )
    expect(paid).toEqual([{ user_id: loser.userId, amount: "2000", net_loss: "100000", cashback_bps: 200 }])
    const postings = await server.query<{ kind: string; idempotency_key: string }>(
      `SELECT kind, idempotency_key FROM ledger_transactions WHERE idempotency_key LIKE $1`,
      [`loyalty:cashback:${loser.userId}:%`],
    )
    expect(postings).toEqual([
      { kind: "loyalty.cashback", idempotency_key: `loyalty:cashback:${loser.userId}:EUR:${week}` },
    ])
    const house = await server.query<{ balance: string }>(
      "SELECT balance::text AS balance FROM ledger_accounts WHERE kind = 'house' AND code = 'cashback' AND currency = 'EUR'",
    )
    expect(house).toEqual([{ balance: "-2000" }])
    expect((await ledgerReport(server)).clean).toBe(true)
  })
})
