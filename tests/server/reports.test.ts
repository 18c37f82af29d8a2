/**
 * The back office's figures (server/reports/, docs/reports.md) on both backends, from money moved
 * through the real services: card deposits completed by the provider's signed webhook (one naming
 * the first-deposit bonus), real-money launches, and the game provider's signed wallet calls (bets,
 * wins, a rollback). Then: the GGR report with literal figures; its totals against the house's
 * accounts, whose balances `npm run ledger:check` (server/ledger/check.ts) proves equal to their
 * entries; the CSV of those rows as a literal string; the dashboard's periods and daily series.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type GgrRow, Reports } from "../../server/reports/Reports.ts"
import type { Game } from "../../services/game-service.ts"
import type { Player } from "./account-support.ts"
import { gameOfKind } from "./bonuses-support.ts"
import { type FakeGameProvider, launchReal, startFakeGameProvider, walletCall } from "./games-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import {
  balanceOf,
  type FakeProvider,
  ledgerReport,
  newCompletePlayer,
  PROFILE,
  sendWebhook,
  startFakeProvider,
  userIdOf,
  webhookBody,
} from "./money-support.ts"

const DAY_MS = 86_400_000

describeBackends("reports: GGR, NGR, CSV and the dashboard from the ledger", ({ start }) => {
  let server: TestServer
  let games: FakeGameProvider
  let payments: FakeProvider
  let slot: Game
  let dice: Game
  let startedAt: Date
  beforeAll(async () => {
    games = await startFakeGameProvider()
    payments = await startFakeProvider()
    server = await start(
      { captchaEnabled: false },
      { env: { ...games.env, PAYMENT_GATEWAYS: payments.gatewaysEnv, RATE_LIMIT_SCALE: "100" } },
    )
    startedAt = new Date()
    slot = await gameOfKind(server, "slot")
    dice = await gameOfKind(server, "dice")
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await games?.close()
    await payments?.close()
  })

  const run = <A, E>(effect: Effect.Effect<A, E, Reports>) =>
    server.run(effect.pipe(Effect.provide(Reports.layer)))

  /** A card deposit completed by the provider's signed webhook. */
  const deposit = async (player: Player, amount: string, promotionCoupon?: string) => {
    const res = await player.browser.post(`${PROFILE}/profile/paystudio/deposit`, {
      amount,
      currency: "EUR",
      language: "en",
      ...(promotionCoupon === undefined ? {} : { promotionCoupon }),
    })
    expect(res.status).toBe(200)
    const { depositId } = res.body as { depositId: string }
    const body = webhookBody({ reference: depositId, amount, currency: "EUR" })
    expect((await sendWebhook(server.url, "paystudio", payments.webhookSecret, body)).status).toBe(200)
  }

  /** A signed-in player with a live real-money session of `game`. */
  const seated = async (tag: string, game: Game, depositCents: string, coupon?: string) => {
    const player = await newCompletePlayer(server, tag)
    const userId = await userIdOf(server, player.email)
    await deposit(player, depositCents, coupon)
    const token = await launchReal(games, player, game)
    return { userId, token, game }
  }

  type Seat = Awaited<ReturnType<typeof seated>>
  const call = (seat: Seat, roundId: string, extra: Record<string, unknown>) => ({
    sessionToken: seat.token,
    playerId: seat.userId,
    currency: "EUR",
    transactionId: randomUUID(),
    roundId,
    gameId: seat.game.launchId,
    ...extra,
  })
  const bet = async (seat: Seat, roundId: string, amount: string) => {
    const body = call(seat, roundId, { amount })
    expect((await walletCall(server.url, "bet", body)).status).toBe(200)
    return body.transactionId
  }
  const win = async (seat: Seat, roundId: string, amount: string) =>
    expect(
      (await walletCall(server.url, "win", call(seat, roundId, { amount, roundClosed: true }))).status,
    ).toBe(200)

  it("reports GGR and NGR by day × game that reconcile to the ledger, as CSV, and on the dashboard", async () => {
    // Ann: 50.00 EUR, no bonus; on the slot: 3.00 bet won 4.50, 2.00 bet lost, 1.00 bet rolled back.
    const ann = await seated("reports-ann", slot, "5000")
    const r1 = randomUUID()
    await bet(ann, r1, "300")
    await win(ann, r1, "450")
    const r2 = randomUUID()
    await bet(ann, r2, "200")
    await win(ann, r2, "0")
    const r3 = randomUUID()
    const refunded = await bet(ann, r3, "100")
    const rollback = call(ann, r3, { refTransactionId: refunded })
    expect((await walletCall(server.url, "rollback", rollback)).status).toBe(200)
    expect(await balanceOf(server, ann.userId)).toBe(String(5000 - 300 + 450 - 200))

    // Bob: 30.00 EUR naming the first-deposit offer (37.50 EUR of bonus money); on dice: 4.00 bet
    // (cash first) won 1.00.
    const bob = await seated("reports-bob", dice, "3000", "welcome1")
    const r4 = randomUUID()
    await bet(bob, r4, "400")
    await win(bob, r4, "100")
    expect(await balanceOf(server, bob.userId)).toBe(String(3000 - 400 + 100))

    const now = new Date()
    const day = now.toISOString().slice(0, 10)
    const rows = await run(
      Effect.gen(function* () {
        const reports = yield* Reports
        return yield* reports.ggr({
          from: new Date(startedAt.getTime() - DAY_MS),
          to: new Date(now.getTime() + DAY_MS),
        })
      }),
    )

    // (a) The figures, literally.
    const gameRow = (
      game: Game,
      f: Omit<GgrRow, "day" | "gameId" | "provider" | "integration" | "currency">,
    ) =>
      ({
        day,
        gameId: game.id,
        provider: game.provider,
        integration: "studio",
        currency: "EUR",
        ...f,
      }) as GgrRow
    const expected: Array<GgrRow> = [
      gameRow(slot, { bets: 500n, refunds: 100n, wins: 450n, ggr: 50n, bonusCost: 0n, ngr: 50n, rounds: 2 }),
      gameRow(dice, { bets: 400n, refunds: 0n, wins: 100n, ggr: 300n, bonusCost: 0n, ngr: 300n, rounds: 1 }),
    ].sort((a, b) => (a.gameId ?? "").localeCompare(b.gameId ?? ""))
    expected.push({
      day,
      gameId: null,
      provider: null,
      integration: null,
      currency: "EUR",
      bets: 0n,
      refunds: 0n,
      wins: 0n,
      ggr: 0n,
      bonusCost: 3750n,
      ngr: -3750n,
      rounds: 0,
    })
    expect(rows).toEqual(expected)

    // (b) Reconciled: every posting sums to 0 and every balance is the sum of its entries (the
    // ledger check), so the players' side the report counts is the house's side with the other
    // sign. GGR = what the house's game account and the jackpot pools hold (their only other
    // movement, the pools' seeding, is between them); bonus cost = what the bonus account paid.
    const check = await ledgerReport(server)
    expect(check.clean).toBe(true)
    const [house] = await server.query<{ games: string; pools: string; bonus: string }>(
      `SELECT coalesce(sum(balance) FILTER (WHERE kind = 'house' AND code = 'games'), 0)::text AS games,
              coalesce(sum(balance) FILTER (WHERE kind = 'jackpot_pool'), 0)::text AS pools,
              coalesce(sum(balance) FILTER (WHERE kind = 'house' AND code IN ('bonus', 'cashback')), 0)::text AS bonus
       FROM ledger_accounts WHERE currency = 'EUR'`,
    )
    const total = (f: (r: GgrRow) => bigint) => rows.reduce((s, r) => s + f(r), 0n)
    expect(total((r) => r.ggr)).toBe(350n)
    expect(total((r) => r.ggr)).toBe(BigInt(house?.games ?? "x") + BigInt(house?.pools ?? "x"))
    expect(total((r) => r.bonusCost)).toBe(-BigInt(house?.bonus ?? "x"))
    expect(total((r) => r.ngr)).toBe(-3400n)
    expect(total((r) => r.ngr)).toBe(
      BigInt(house?.games ?? "x") + BigInt(house?.pools ?? "x") + BigInt(house?.bonus ?? "x"),
    )
    // The currency filter keeps the same EUR rows; another currency has none.
    const usd = await run(
      Effect.gen(function* () {
        const reports = yield* Reports
        return yield* reports.ggr({
          from: new Date(startedAt.getTime() - DAY_MS),
          to: new Date(now.getTime() + DAY_MS),
          currency: "USD",
        })
      }),
    )
    expect(usd).toEqual([])

    // (c) The CSV of these rows.
    const csv = await run(
      Effect.gen(function* () {
        const reports = yield* Reports
        return yield* reports.ggrCsv(rows)
      }),
    )
    const line = (g: Game, figures: string) => `${day},${g.id},${g.provider},studio,EUR,${figures}\r\n`
    const gameLines = [
      [slot.id, line(slot, "5.00,1.00,4.50,0.50,0.00,0.50,2")],
      [dice.id, line(dice, "4.00,0.00,1.00,3.00,0.00,3.00,1")],
    ]
      .sort(([a = ""], [b = ""]) => a.localeCompare(b))
      .map(([, l]) => l)
    expect(csv).toBe(
      "day,game,provider,integration,currency,bets,refunds,wins,ggr,bonus_cost,ngr,rounds\r\n" +
        gameLines.join("") +
        `${day},,,,EUR,0.00,0.00,0.00,0.00,37.50,-37.50,0\r\n`,
    )

    // The dashboard: today's figures, the same over 7 and 30 days, and 30 zero-filled EUR days.
    const board = await run(
      Effect.gen(function* () {
        const reports = yield* Reports
        return yield* reports.dashboard(now)
      }),
    )
    const todays = {
      deposits: [{ currency: "EUR", amount: 8000n, count: 2 }],
      withdrawals: [],
      games: [{ currency: "EUR", bets: 900n, wins: 550n, ggr: 350n, bonusCost: 3750n, ngr: -3400n }],
      newPlayers: 2,
      firstDeposits: 2,
    }
    expect(board.today).toMatchObject(todays)
    expect(board.today.from.toISOString()).toBe(`${day}T00:00:00.000Z`)
    expect(board.last7Days).toMatchObject(todays)
    expect(board.last30Days).toMatchObject(todays)
    expect(board.last30Days.to.getTime() - board.last30Days.from.getTime()).toBe(30 * DAY_MS)
    expect(board.daily).toHaveLength(30)
    expect(board.daily.at(-1)).toEqual({ day, currency: "EUR", ggr: 350n, deposits: 8000n })
    expect(board.daily.slice(0, -1).every((p) => p.ggr === 0n && p.deposits === 0n)).toBe(true)
  })

  it("refuses a reversed or over-long window", async () => {
    const refused = await run(
      Effect.gen(function* () {
        const reports = yield* Reports
        const now = new Date()
        const reversed = yield* Effect.flip(reports.ggr({ from: now, to: now }))
        const long = yield* Effect.flip(
          reports.ggr({ from: new Date(now.getTime() - 400 * DAY_MS), to: now }),
        )
        return [reversed._tag, long._tag]
      }),
    )
    expect(refused).toEqual(["ReportRangeRefused", "ReportRangeRefused"])
  })
})
