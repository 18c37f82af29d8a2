/**
 * Loyalty levels end to end on both backends (docs/loyalty.md): points from the real-money part of
 * bets only (bonus money earns none), weighted by game kind (slots 100 %, dice 10 %), a rollback
 * taking its bet's points back, the level-up pushed to the player's pages, the endpoint's answer,
 * 401 without a session, the weekly cashback paid once through the ledger (and nothing for a
 * winning week), a round counted in the week it started with its late rollback and win, the level
 * held at the week's end, the 48 hours' wait before a week is paid, the withdrawal-limit factor, and
 * a balanced ledger. Expected figures are literals: EUR at rate 1, Silver at 1,000 points with 2 %
 * cashback and ×1.25 the daily withdrawal limit, Gold at 5,000 points with 5 %. The loyalty jobs are
 * off: each test runs the accrual and the cashback itself, after moving its bets back in time.
 */
import { randomUUID } from "node:crypto"
import { Clock, Effect } from "effect"
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
const HOUR = 3_600_000

/** The Monday (UTC) `weeksBack` weeks before the one holding now, as YYYY-MM-DD. */
const mondayWeeksAgo = (weeksBack: number): string => {
  const today = Math.floor(Date.now() / DAY) * DAY
  const sinceMonday = (new Date(today).getUTCDay() + 6) % 7
  return new Date(today - (sinceMonday + 7 * weeksBack) * DAY).toISOString().slice(0, 10)
}

/** The instant `days` days and `time` (HH:MM, UTC) after the Monday `week` starts, as ISO text. */
const dayOfWeek = (week: string, days: number, time: string): string =>
  `${new Date(Date.parse(`${week}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10)}T${time}:00Z`

/** The real clock, but reading `ms` as the time (a run "48 hours after the week's end"). */
const clockAt = (real: Clock.Clock, ms: number): Clock.Clock => ({
  currentTimeMillisUnsafe: () => ms,
  currentTimeMillis: Effect.succeed(ms),
  currentTimeNanosUnsafe: () => BigInt(ms) * 1_000_000n,
  currentTimeNanos: Effect.succeed(BigInt(ms) * 1_000_000n),
  monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
  monotonicTimeNanos: real.monotonicTimeNanos,
  sleep: (duration) => real.sleep(duration),
})

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
    server = await start(
      { captchaEnabled: false, loyaltyJobs: false },
      { env: { ...fake.env, RATE_LIMIT_SCALE: "100" } },
    )
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
  const runCashback = (weekStart: string, atMs?: number) =>
    server.run(
      Effect.gen(function* () {
        const run = (yield* Loyalty).runCashback(weekStart).pipe(Effect.result)
        if (atMs === undefined) return yield* run
        return yield* Clock.clockWith((real) => Effect.provideService(run, Clock.Clock, clockAt(real, atMs)))
      }).pipe(Effect.orDie),
    )
  /**
   * Moves wallet calls (by transaction id) to `at`, as if made then: their rows and ledger postings,
   * and with `rounds` the rounds they opened.
   */
  const backdate = async (
    at: string,
    calls: ReadonlyArray<{ readonly transactionId: string; readonly roundId?: string }>,
    rounds = false,
  ) => {
    const ids = calls.map((c) => c.transactionId)
    const list = ids.map((_, i) => `$${i + 2}`).join(", ")
    await server.query(
      `UPDATE ledger_transactions SET created_at = $1::timestamptz
       WHERE id IN (SELECT ledger_tx FROM game_transactions WHERE transaction_id IN (${list}))`,
      [at, ...ids],
    )
    await server.query(
      `UPDATE game_transactions SET created_at = $1::timestamptz WHERE transaction_id IN (${list})`,
      [at, ...ids],
    )
    if (rounds)
      await server.query(`UPDATE game_rounds SET created_at = $1::timestamptz WHERE round_id IN (${list})`, [
        at,
        ...calls.map((c) => c.roundId ?? ""),
      ])
  }
  /** A wallet call moved to `at`; a bet with the round it opens. */
  const callAt = async (
    op: "bet" | "win" | "rollback",
    body: { readonly transactionId: string; readonly roundId: string },
    at: string,
  ) => {
    expect((await walletCall(server.url, op, body)).status).toBe(200)
    await backdate(at, [body], op === "bet")
  }
  /** A win's or rollback's body on the player's round. */
  const followUp = (
    p: { userId: string; token: string },
    roundId: string,
    extra: Record<string, unknown>,
  ) => ({
    sessionToken: p.token,
    playerId: p.userId,
    currency: "EUR",
    transactionId: randomUUID(),
    roundId,
    ...extra,
  })
  /** `count` lost bets of `amount` on the slot, each its own round, moved to `at` (now when absent). */
  const lostBets = async (
    p: { userId: string; token: string },
    count: number,
    amount: string,
    at?: string,
  ) => {
    const bodies = []
    for (let i = 0; i < count; i++) {
      const body = betBody(slot, p, amount)
      expect((await walletCall(server.url, "bet", body)).status).toBe(200)
      bodies.push(body)
    }
    if (at !== undefined) await backdate(at, bodies, true)
  }
  const cashbacksOf = (userId: string) =>
    server.query<{
      week_start: string
      level: number
      cashback_bps: number
      net_loss: string
      amount: string
    }>(
      `SELECT to_char(week_start, 'YYYY-MM-DD') AS week_start, level, cashback_bps, net_loss::text AS net_loss,
              amount::text AS amount
       FROM loyalty_cashbacks WHERE user_id = $1::uuid ORDER BY week_start`,
      [userId],
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
    // Their wallet calls, rounds and game postings belong to a finished week (two weeks back), from
    // before the accrual: Silver is reached in that week.
    const week = mondayWeeksAgo(2)
    await server.query(
      `UPDATE ledger_transactions SET created_at = $3::timestamptz
       WHERE kind LIKE 'game.%' AND id IN (
         SELECT e.transaction_id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
         WHERE a.user_id IN ($1::uuid, $2::uuid))`,
      [loser.userId, winner.userId, `${week}T12:00:00Z`],
    )
    for (const table of ["game_rounds", "game_transactions"])
      await server.query(
        `UPDATE ${table} SET created_at = $3::timestamptz WHERE user_id IN ($1::uuid, $2::uuid)`,
        [loser.userId, winner.userId, `${week}T12:00:00Z`],
      )
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

  it("a round counts in the week it started, with its rollback and win: a Sunday-night bet refunded on Monday earns nothing", async () => {
    const week = mondayWeeksAgo(3)
    const p = await fundedPlayer(server, fake, "loyalty-late-rollback", 120_000n, slot)
    // Wednesday: 20 lost bets of 50.00 EUR: Silver (1,000 points) and 1,000.00 EUR lost that week.
    await lostBets(p, 20, "5000", dayOfWeek(week, 2, "12:00"))
    await accrue()
    // Sunday 23:50: 50.00 EUR, rolled back on Monday 00:10.
    const refunded = betBody(slot, p, "5000")
    await callAt("bet", refunded, dayOfWeek(week, 6, "23:50"))
    await callAt(
      "rollback",
      followUp(p, refunded.roundId, { refTransactionId: refunded.transactionId }),
      dayOfWeek(week, 7, "00:10"),
    )
    // Sunday 23:55: 50.00 EUR, 20.00 EUR won on Monday 00:05: 30.00 EUR lost in that round.
    const late = betBody(slot, p, "5000")
    await callAt("bet", late, dayOfWeek(week, 6, "23:55"))
    await callAt(
      "win",
      followUp(p, late.roundId, { gameId: slot.launchId, amount: "2000", roundClosed: true }),
      dayOfWeek(week, 7, "00:05"),
    )
    await accrue()

    const paid = await runCashback(week)
    expect(paid).toMatchObject({ _tag: "Success", success: { weekStart: week, payments: 1 } })
    // 1,000.00 + 30.00 EUR lost in the week's rounds × 2 % = 20.60 EUR; the refunded bet is no loss.
    expect(await cashbacksOf(p.userId)).toEqual([
      { week_start: week, level: 2, cashback_bps: 200, net_loss: "103000", amount: "2060" },
    ])
    // The Monday's refund and win belong to last week's rounds: the next week pays nothing for them.
    await runCashback(mondayWeeksAgo(2))
    expect((await cashbacksOf(p.userId)).length).toBe(1)
    expect((await walletOf(server, p.userId)).cash).toBe(19_060n)
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("the cashback is paid at the level held at the week's end, not at a later one", async () => {
    const week = mondayWeeksAgo(4)
    const wednesday = dayOfWeek(week, 2, "12:00")
    // Silver in the week (1,000 points, 1,000.00 EUR lost), Gold only after it (4,000 points more).
    const silver = await fundedPlayer(server, fake, "loyalty-later-gold", 500_000n, slot)
    await lostBets(silver, 20, "5000", wednesday)
    // Bronze in the week (500 points, 500.00 EUR lost), Silver only after it.
    const bronze = await fundedPlayer(server, fake, "loyalty-later-silver", 100_000n, slot)
    await lostBets(bronze, 10, "5000", wednesday)
    await accrue()
    await lostBets(silver, 80, "5000")
    await lostBets(bronze, 10, "5000")
    await accrue()
    expect((await levelOf(silver.player.browser)).name).toBe("Gold")
    expect((await levelOf(bronze.player.browser)).name).toBe("Silver")

    const paid = await runCashback(week)
    expect(paid).toMatchObject({ _tag: "Success", success: { weekStart: week, payments: 1 } })
    // Silver's 2 % of 1,000.00 EUR = 20.00 EUR, not Gold's 5 %; Bronze's week earns nothing.
    expect(await cashbacksOf(silver.userId)).toEqual([
      { week_start: week, level: 2, cashback_bps: 200, net_loss: "100000", amount: "2000" },
    ])
    expect(await cashbacksOf(bronze.userId)).toEqual([])
  })

  it("a week is paid 48 hours after it ends, not before: late rollbacks and wins come first", async () => {
    const week = mondayWeeksAgo(6)
    const end = Date.parse(`${week}T00:00:00Z`) + 7 * DAY
    const early = await runCashback(week, end + 47 * HOUR)
    expect(early).toMatchObject({ _tag: "Failure", failure: { _tag: "CashbackRefused", weekStart: week } })
    expect(early._tag === "Failure" ? early.failure.message : "").toContain("48 hours")
    const due = await runCashback(week, end + 48 * HOUR)
    expect(due).toMatchObject({ _tag: "Success", success: { weekStart: week, payments: 0 } })
  })
})
