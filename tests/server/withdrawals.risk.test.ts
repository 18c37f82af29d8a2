/**
 * The back office's withdrawals queue and the player's risk context, on PGlite and PostgreSQL: a
 * player with completed, failed and crypto deposits in three currencies, a paid BTC withdrawal, a
 * rejected and a waiting bank withdrawal, an active bonus with wagering left (and an ended one), and
 * sessions from two countries in the last 30 days (one older elsewhere). Every figure asserted is a
 * literal: totals per currency in minor units, counts, the bonus's wagering, the countries with their
 * latest time, the account's age and verification.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Ledger } from "../../server/ledger/Ledger.ts"
import { riskContextView, Withdrawals } from "../../server/withdrawals/Withdrawals.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { addWallet, BTC_ADDRESS, bankWithdraw, cryptoWithdraw, newCashier } from "./withdrawals-support.ts"

const DAY = 86_400_000

/** A time `days` ago, to the millisecond (what timestamptz keeps and a Date reads back). */
const daysAgo = (days: number) => new Date(Date.now() - days * DAY)

/** Credits the player's wallet (house → player, one posting) and answers its ledger transaction. */
const credit = (server: TestServer, userId: string, amount: bigint, currency: string) =>
  server.run(
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const player = yield* ledger.playerAccount(userId, currency)
      if (player === undefined) return yield* Effect.die(new Error(`no ${currency} wallet`))
      const house = yield* ledger.systemAccountId("house", "test-funding", currency)
      const posted = yield* ledger.post({
        kind: "test.deposit",
        idempotencyKey: `test-deposit:${randomUUID()}`,
        entries: [
          { accountId: house, currency, amount: -amount },
          { accountId: player.id, currency, amount },
        ],
      })
      return posted.transactionId
    }).pipe(Effect.orDie),
  )

/** A fiat deposit as a completed one is stored: credited by the ledger, with its transaction. */
const completedDeposit = async (server: TestServer, userId: string, amount: bigint, currency: string) => {
  const tx = await credit(server, userId, amount, currency)
  await server.query(
    `INSERT INTO deposits (user_id, method, provider, amount, currency, amount_eur_cents, status,
                           ledger_transaction_id, completed_at)
     VALUES ($1, 'card', 'paystudio', $2::numeric, $3, $2::numeric, 'completed', $4, now())`,
    [userId, amount.toString(), currency, tx],
  )
}

const cryptoDeposit = async (
  server: TestServer,
  userId: string,
  amount: bigint,
  status: "credited" | "pending",
) => {
  const tx = status === "credited" ? await credit(server, userId, amount, "BTC") : null
  await server.query(
    `INSERT INTO crypto_deposits (user_id, network, currency, tx_hash, output_index, address, amount,
                                  block_height, block_hash, confirmations, required_confirmations,
                                  status, ledger_transaction_id, credited_at)
     VALUES ($1, 'bitcoin', 'BTC', $2, 0, $3, $4::numeric, 100, $5, 3, 3, $6, $7,
             CASE WHEN $6 = 'credited' THEN now() END)`,
    [userId, randomUUID().replaceAll("-", ""), BTC_ADDRESS, amount.toString(), "b".repeat(64), status, tx],
  )
}

const session = (server: TestServer, userId: string, country: string, lastSeenAt: Date) =>
  server.query(
    `INSERT INTO sessions (token_hash, user_id, expires_at, last_seen_at, ip, country)
     VALUES ($1, $2, now() + interval '30 days', $3::timestamptz, '192.0.2.1', $4)`,
    [randomUUID(), userId, lastSeenAt.toISOString(), country],
  )

const bonus = (
  server: TestServer,
  userId: string,
  b: { status: "active" | "completed"; amount: number; required: number; wagered: string },
) =>
  server.query(
    `INSERT INTO player_bonuses (user_id, promotion_id, currency, status, amount, percent,
                                 wagering_required, wagered, max_bet, expires_at, ended_at, ended_amount)
     VALUES ($1, 'welcome-1', 'EUR', $2, $3, 125, $4, $5::numeric, 500, '2030-01-31T00:00:00Z',
             CASE WHEN $2 = 'active' THEN NULL ELSE now() END, CASE WHEN $2 = 'active' THEN NULL ELSE 0 END)`,
    [userId, b.status, b.amount, b.required, b.wagered],
  )

describeBackends("withdrawals: the queue and the player's risk context", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
  }, 120_000)
  afterAll(async () => {
    await server?.close()
  })

  const withdrawals = <A>(f: (w: Withdrawals["Service"]) => Effect.Effect<A, unknown>) =>
    server.run(
      Effect.gen(function* () {
        return yield* f(yield* Withdrawals)
      }).pipe(Effect.orDie),
    )

  it("answers deposits against paid withdrawals, the bonus, the countries, the age and KYC", async () => {
    const p = await newCashier(server, "risk", { eur: 0n })
    await addWallet(p, "USD")
    await addWallet(p, "BTC")
    await completedDeposit(server, p.userId, 5_000n, "EUR")
    await completedDeposit(server, p.userId, 2_500n, "EUR")
    await completedDeposit(server, p.userId, 1_000n, "USD")
    // Not money in: a deposit that failed, and a crypto transfer still confirming.
    await server.query(
      `INSERT INTO deposits (user_id, method, provider, amount, currency, amount_eur_cents, status)
       VALUES ($1, 'card', 'paystudio', 9999, 'EUR', 9999, 'failed')`,
      [p.userId],
    )
    await cryptoDeposit(server, p.userId, 100_000n, "credited")
    await cryptoDeposit(server, p.userId, 7_777n, "pending")

    // Money out: a BTC withdrawal paid by hand; a bank one rejected, another waiting.
    const btc = (await cryptoWithdraw(p, "40000", "BTC", BTC_ADDRESS)).body as { id: string }
    await withdrawals((w) => w.approve(btc.id, "officer"))
    await withdrawals((w) => w.markSent(btc.id, "officer", "e".repeat(64)))
    await withdrawals((w) => w.markPaid(btc.id, "officer"))
    const rejected = (await bankWithdraw(p, "1000")).body as { id: string }
    await withdrawals((w) => w.reject(rejected.id, "officer", "Name does not match"))
    const waiting = (await bankWithdraw(p, "2000")).body as { id: string }

    // After the withdrawals (a request would ask to forfeit it): an active bonus, one ended before.
    await bonus(server, p.userId, { status: "completed", amount: 800, required: 8_000, wagered: "8000" })
    await bonus(server, p.userId, { status: "active", amount: 2_500, required: 25_000, wagered: "1234.56" })

    // The sessions are exactly these: two in DE, one in FR within 30 days, one in GB before.
    await server.query("DELETE FROM sessions WHERE user_id = $1", [p.userId])
    const de = daysAgo(2)
    const fr = daysAgo(1)
    await session(server, p.userId, "DE", daysAgo(5))
    await session(server, p.userId, "DE", de)
    await session(server, p.userId, "FR", fr)
    await session(server, p.userId, "GB", daysAgo(40))
    await server.query("UPDATE users SET created_at = now() - interval '45 days 1 hour' WHERE id = $1", [
      p.userId,
    ])

    const context = await withdrawals((w) => w.riskContext(p.userId))
    expect(context).toBeDefined()
    if (context === undefined) return
    expect(context.totals).toEqual([
      { currency: "BTC", deposited: 100_000n, deposits: 1, withdrawn: 40_000n, withdrawals: 1 },
      { currency: "EUR", deposited: 7_500n, deposits: 2, withdrawn: 0n, withdrawals: 0 },
      { currency: "USD", deposited: 1_000n, deposits: 1, withdrawn: 0n, withdrawals: 0 },
    ])
    expect(context.bonus.active).toBe(true)
    expect(context.bonus.wageringOpen).toBe(true)
    expect(context.bonus.bonuses).toHaveLength(1)
    expect(context.bonus.bonuses[0]).toMatchObject({
      name: "Welcome bonus",
      currency: "EUR",
      amount: 2_500n,
      balance: 0n,
      wageringRequired: 25_000n,
      wagered: 1_234n,
      expiresAt: new Date("2030-01-31T00:00:00Z"),
    })
    expect(context.countries).toEqual([
      { country: "FR", sessions: 1, lastSeenAt: fr },
      { country: "DE", sessions: 2, lastSeenAt: de },
    ])
    expect(context.accountAgeDays).toBe(45)
    expect(context.email).toBe(p.email)
    expect(context.kyc).toEqual({ id: "APPROVED", bill: "APPROVED", verified: true })

    // The JSON-facing shape: amounts as strings of minor units.
    const view = riskContextView(context)
    expect(view.totals[0]).toEqual({
      currency: "BTC",
      deposited: "100000",
      deposits: 1,
      withdrawn: "40000",
      withdrawals: 1,
    })
    expect(view.bonus.bonuses[0]?.wagered).toBe("1234")
    expect(view.countries[1]).toEqual({ country: "DE", sessions: 2, lastSeenAt: de.toISOString() })
    expect(JSON.parse(JSON.stringify(view))).toEqual(view)

    // The queue: only the waiting withdrawal needs a decision.
    const queue = await withdrawals((w) => w.queue(100))
    expect(queue.map((w) => [w.id, w.email, w.amount, w.currency, w.method, w.destination])).toEqual([
      [waiting.id, p.email, "2000", "EUR", "bank", "payee@example.com"],
    ])
    expect(queue[0]?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(await withdrawals((w) => w.pendingCount())).toBe(1)
  })

  it("answers nothing for an unknown player, and an empty context for a new one", async () => {
    expect(await withdrawals((w) => w.riskContext("00000000-0000-4000-8000-000000000000"))).toBeUndefined()
    const p = await newCashier(server, "risk-new", { eur: 0n, verified: false })
    const context = await withdrawals((w) => w.riskContext(p.userId))
    expect(context?.totals).toEqual([])
    expect(context?.bonus).toEqual({ active: false, wageringOpen: false, bonuses: [] })
    expect(context?.accountAgeDays).toBe(0)
    expect(context?.kyc).toEqual({ id: "NONE", bill: "NONE", verified: false })
  })
})
