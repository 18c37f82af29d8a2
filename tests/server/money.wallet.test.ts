/**
 * Money in, the wallet side, on both backends: wallets (add, default, errors), rates and minimums
 * (seeded, operator change with audit), the card gateways offered (US exclusion), analytics events,
 * the ledger (posting, replay, conflicting replay, no overdraft, balanced entries) and ledger:check.
 */
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ledger } from "../../server/ledger/Ledger.ts"
import { Rates } from "../../server/wallet/Rates.ts"
import { newPlayer, put } from "./account-support.ts"
import { describeBackends, startTestServer, type TestServer } from "./harness.ts"
import { balanceOf, gatewaysEnvFor, ledgerReport, PROFILE, userIdOf } from "./money-support.ts"
import { Browser } from "./users-support.ts"

const run = promisify(execFile)

describeBackends("money: wallets, rates, gateways, analytics, ledger", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    // Every gateway configured (nothing here calls one).
    server = await start(
      { captchaEnabled: false },
      { env: { PAYMENT_GATEWAYS: gatewaysEnvFor("http://127.0.0.1:9") } },
    )
  })
  afterAll(() => server?.close())

  it("adds a wallet, refuses an existing, unknown or disabled currency, and needs a session", async () => {
    const p = await newPlayer(server, "wallet-add")
    const added = await p.browser.post(`${PROFILE}/profile/currency`, { currency: "USD" })
    expect(added.status).toBe(200)
    expect(added.body).toEqual([
      { currency: "EUR", default: true, balance: "0", bonusBalance: "0", freeSpinWallet: null },
      { currency: "USD", default: false, balance: "0", bonusBalance: "0", freeSpinWallet: null },
    ])
    const again = await p.browser.post(`${PROFILE}/profile/currency`, { currency: "USD" })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ _tag: "WalletExists", currency: "USD" })
    const unknown = await p.browser.post(`${PROFILE}/profile/currency`, { currency: "XYZ" })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ _tag: "CurrencyNotSupported" })
    await server.query("UPDATE currencies SET enabled = false WHERE code = 'NOK'")
    const disabled = await p.browser.post(`${PROFILE}/profile/currency`, { currency: "NOK" })
    await server.query("UPDATE currencies SET enabled = true WHERE code = 'NOK'")
    expect(disabled.status).toBe(400)
    const bad = await p.browser.post(`${PROFILE}/profile/currency`, { currency: "eur!" })
    expect(bad.status).toBe(400)
    const anonymous = await new Browser(server).post(`${PROFILE}/profile/currency`, { currency: "USD" })
    expect(anonymous.status).toBe(401)
    // Each wallet is its own ledger account (same id).
    const accounts = await server.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM wallets w JOIN ledger_accounts a ON a.id = w.id AND a.kind = 'player_cash'
       WHERE w.user_id = (SELECT id FROM users WHERE email = $1)`,
      [p.email],
    )
    expect(accounts[0]?.n).toBe("2")
  })

  it("sets the default wallet; an absent wallet is WalletNotFound", async () => {
    const p = await newPlayer(server, "wallet-default")
    await p.browser.post(`${PROFILE}/profile/currency`, { currency: "BTC" })
    const set = await put(p.browser, `${PROFILE}/profile/currency`, { currency: "BTC" })
    expect(set.status).toBe(200)
    expect(set.body).toEqual([
      { currency: "BTC", default: true, balance: "0", bonusBalance: "0", freeSpinWallet: null },
      { currency: "EUR", default: false, balance: "0", bonusBalance: "0", freeSpinWallet: null },
    ])
    const missing = await put(p.browser, `${PROFILE}/profile/currency`, { currency: "JPY" })
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ _tag: "WalletNotFound", currency: "JPY" })
  })

  it("answers seeded minimums and rates for every currency; unknown is CurrencyNotSupported", async () => {
    const anyone = new Browser(server)
    const eur = await anyone.get(`${PROFILE}/rate/deposit/EUR`)
    expect(eur.body).toEqual({ currency: "EUR", minPromotion: "2000", minDeposit: "1000", eurRate: "1" })
    const usd = await anyone.get(`${PROFILE}/rate/deposit/USD`)
    // 10 EUR at 0.92 EUR/USD, rounded up to the cent: 10.87 USD.
    expect(usd.body).toEqual({ currency: "USD", minPromotion: "2174", minDeposit: "1087", eurRate: "0.92" })
    const btc = await anyone.get(`${PROFILE}/rate/limit/BTC`)
    // 10 EUR, 400 EUR a request and 2,000 EUR a day at 60,000 EUR/BTC, in satoshi (limits rounded down).
    expect(btc.body).toEqual({
      currency: "BTC",
      minWithdraw: "16667",
      maxWithdraw: "666666",
      dailyLimit: "3333333",
    })
    const currencies = await server.query<{ code: string }>("SELECT code FROM currencies")
    for (const { code } of currencies) {
      expect((await anyone.get(`${PROFILE}/rate/deposit/${code}`)).status).toBe(200)
    }
    const unknown = await anyone.get(`${PROFILE}/rate/deposit/XYZ`)
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ _tag: "CurrencyNotSupported", currency: "XYZ" })
    expect((await anyone.get(`${PROFILE}/rate/limit/nope`)).status).toBe(400)
  })

  it("lets an operator change a rate through the service, audited", async () => {
    const after = await server.run(
      Effect.gen(function* () {
        const rates = yield* Rates
        return yield* rates.set({ currency: "CAD", eurRate: "0.7", minDeposit: 1500n, actor: "test:ops" })
      }),
    )
    expect(after.minDeposit).toBe(1500n)
    const view = await new Browser(server).get(`${PROFILE}/rate/deposit/CAD`)
    expect(view.body).toMatchObject({ eurRate: "0.7", minDeposit: "1500" })
    const audit = await server.query<{ actor: string; subject: string }>(
      "SELECT actor, subject FROM operator_audit WHERE action = 'rates.set' ORDER BY id DESC LIMIT 1",
    )
    expect(audit[0]).toEqual({ actor: "test:ops", subject: "CAD" })
    const refused = await server.run(
      Effect.gen(function* () {
        const rates = yield* Rates
        return yield* rates.set({ currency: "CAD", eurRate: "-1", actor: "x" }).pipe(Effect.flip)
      }),
    )
    expect(refused.reason).toBe("InvalidRate")
  })

  it("lists the card gateways in cascade order; needs a session", async () => {
    const p = await newPlayer(server, "gateways")
    const res = await p.browser.get(`${PROFILE}/profile/payment/gateways`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(["paystudio", "payweb", "brpay", "ikajo", "ems"])
    expect((await new Browser(server).get(`${PROFILE}/profile/payment/gateways`)).status).toBe(401)
  })

  it("starts with no deposits; the history needs a session; withdrawals are empty", async () => {
    const p = await newPlayer(server, "history-empty")
    expect((await p.browser.get(`${PROFILE}/profile/payment/total-deposits`)).body).toEqual({ deposits: [] })
    expect((await p.browser.get(`${PROFILE}/profile/fiat/deposit`)).body).toEqual([])
    expect((await p.browser.get(`${PROFILE}/profile/fiat/withdraw`)).body).toEqual([])
    expect((await p.browser.get(`${PROFILE}/profile/fiat/other`)).status).toBe(400)
    expect((await p.browser.get(`${PROFILE}/profile/fiat/deposit?from=2024-13-01`)).status).toBe(200)
    expect((await new Browser(server).get(`${PROFILE}/profile/fiat/deposit`)).status).toBe(401)
    expect((await new Browser(server).get(`${PROFILE}/profile/payment/total-deposits`)).status).toBe(401)
  })

  it("stores analytics events with the session's player; refuses bad events", async () => {
    const p = await newPlayer(server, "analytics")
    const ok = await p.browser.post("/api/analytics/events", {
      name: "deposit_method_click",
      properties: { method: "card", currency: "EUR" },
    })
    expect(ok.status).toBe(204)
    const anon = await new Browser(server).post("/api/analytics/events", {
      name: "deposit_method_click",
      properties: { method: "skrill" },
    })
    expect(anon.status).toBe(204)
    const rows = await server.query<{ user_id: string | null; properties: Record<string, string> }>(
      "SELECT user_id::text AS user_id, properties FROM analytics_events ORDER BY id",
    )
    expect(rows.map((r) => r.properties.method)).toEqual(["card", "skrill"])
    expect(rows[0]?.user_id).toBe(await userIdOf(server, p.email))
    expect(rows[1]?.user_id).toBeNull()
    const bad = await p.browser.post("/api/analytics/events", { name: "page_view", properties: {} })
    expect(bad.status).toBe(400)
  })

  it("posts balanced transactions, replays by key, refuses a conflicting replay and an overdraft", async () => {
    const p = await newPlayer(server, "ledger")
    const userId = await userIdOf(server, p.email)
    const result = await server.run(
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const player = yield* ledger.playerAccount(userId, "EUR")
        if (player === undefined) return yield* Effect.die(new Error("no account"))
        const house = yield* ledger.systemAccount("house", "test", "EUR")
        const posting = {
          kind: "adjustment",
          idempotencyKey: `test:${userId}:1`,
          entries: [
            { accountId: house.id, currency: "EUR", amount: -2500n },
            { accountId: player.id, currency: "EUR", amount: 2500n },
          ],
        }
        const first = yield* ledger.post(posting)
        const replay = yield* ledger.post({ ...posting, metadata: { note: "retry" } })
        const conflict = yield* ledger
          .post({
            ...posting,
            entries: [
              { accountId: house.id, currency: "EUR", amount: -9999n },
              { accountId: player.id, currency: "EUR", amount: 9999n },
            ],
          })
          .pipe(Effect.flip)
        const overdraft = yield* ledger
          .post({
            kind: "adjustment",
            idempotencyKey: `test:${userId}:2`,
            entries: [
              { accountId: player.id, currency: "EUR", amount: -2501n },
              { accountId: house.id, currency: "EUR", amount: 2501n },
            ],
          })
          .pipe(Effect.flip)
        const unbalanced = yield* ledger
          .post({
            kind: "adjustment",
            idempotencyKey: `test:${userId}:3`,
            entries: [
              { accountId: player.id, currency: "EUR", amount: 5n },
              { accountId: house.id, currency: "EUR", amount: -4n },
            ],
          })
          .pipe(Effect.flip)
        return { first, replay, conflict, overdraft, unbalanced, playerId: player.id }
      }),
    )
    expect(result.first.replayed).toBe(false)
    expect(result.first.balances.get(result.playerId)).toBe(2500n)
    expect(result.replay).toMatchObject({ replayed: true, transactionId: result.first.transactionId })
    expect(result.conflict._tag).toBe("LedgerConflict")
    expect(result.overdraft._tag).toBe("InsufficientFunds")
    expect(result.unbalanced._tag).toBe("InvalidPosting")
    expect(await balanceOf(server, userId)).toBe("2500")
    const fund = await p.browser.get(`${PROFILE}/profile/currency`)
    expect(fund.body).toEqual([
      { currency: "EUR", default: true, balance: "2500", bonusBalance: "0", freeSpinWallet: null },
    ])
    // The table's CHECK holds even against SQL that bypasses the ledger.
    await expect(
      server.query("UPDATE ledger_accounts SET balance = -1 WHERE id = $1", [result.playerId]),
    ).rejects.toThrow()
    const report = await ledgerReport(server)
    expect(report.clean).toBe(true)
    expect(report.transactions).toBeGreaterThanOrEqual(1)
  })

  it("books a batch in order: an overdraft refused alone, system rows summed, a taken key aborting it all", async () => {
    const a = await newPlayer(server, "batch-a")
    const b = await newPlayer(server, "batch-b")
    const aId = await userIdOf(server, a.email)
    const bId = await userIdOf(server, b.email)
    const result = await server.run(
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const pa = yield* ledger.playerAccount(aId, "EUR")
        const pb = yield* ledger.playerAccount(bId, "EUR")
        if (pa === undefined || pb === undefined) return yield* Effect.die(new Error("no account"))
        const house = yield* ledger.systemAccount("house", "batch-test", "EUR")
        const move = (key: string, player: string, amount: bigint) => ({
          kind: "adjustment",
          idempotencyKey: `batch-test:${key}`,
          entries: [
            { accountId: player, currency: "EUR", amount },
            { accountId: house.id, currency: "EUR", amount: -amount },
          ],
        })
        // a: +1000, −600, −600 (refused: 400 left), −400; b: +50, −50.
        const batch = yield* ledger.postMany(
          [
            move("a1", pa.id, 1000n),
            move("b1", pb.id, 50n),
            move("a2", pa.id, -600n),
            move("a3", pa.id, -600n),
            move("a4", pa.id, -400n),
            move("b2", pb.id, -50n),
          ],
          { lock: [pa.id, pb.id] },
        )
        const houseAfter = yield* ledger.systemAccount("house", "batch-test", "EUR")
        // A key posted before aborts the whole batch; its transaction rolls back, the fresh posting too.
        const aborted = yield* ledger
          .postMany([move("a5", pa.id, 7n), move("a1", pa.id, 1000n)])
          .pipe(Effect.flip)
        return { batch, house: houseAfter.balance, aborted, pa: pa.id, pb: pb.id }
      }),
    )
    expect(result.batch.outcomes.map((o) => (o._tag === "Posted" ? "posted" : o.error._tag))).toEqual([
      "posted",
      "posted",
      "posted",
      "InsufficientFunds",
      "posted",
      "posted",
    ])
    const balanceAfter = (k: number, account: string) => {
      const o = result.batch.outcomes[k]
      return o?._tag === "Posted" ? o.balances.get(account) : undefined
    }
    expect([balanceAfter(0, result.pa), balanceAfter(2, result.pa), balanceAfter(4, result.pa)]).toEqual([
      1000n,
      400n,
      0n,
    ])
    expect(result.batch.balances.get(result.pa)).toBe(0n)
    expect(result.batch.balances.get(result.pb)).toBe(0n)
    expect(result.house).toBe("0")
    expect(result.aborted._tag).toBe("LedgerBatchAborted")
    expect(await balanceOf(server, aId)).toBe("0")
    const keys = await server.query<{ key: string }>(
      "SELECT idempotency_key AS key FROM ledger_transactions WHERE idempotency_key LIKE 'batch-test:%' ORDER BY 1",
    )
    expect(keys.map((k) => k.key)).toEqual([
      "batch-test:a1",
      "batch-test:a2",
      "batch-test:a4",
      "batch-test:b1",
      "batch-test:b2",
    ])
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("ledger:check finds drift", async () => {
    const p = await newPlayer(server, "drift")
    const userId = await userIdOf(server, p.email)
    await server.query(
      "UPDATE ledger_accounts SET balance = balance + 7 WHERE kind = 'player_cash' AND user_id = $1",
      [userId],
    )
    const report = await ledgerReport(server)
    expect(report.clean).toBe(false)
    expect(report.balanceDrift.map((d) => d.entriesSum)).toContain("0")
    await server.query(
      "UPDATE ledger_accounts SET balance = balance - 7 WHERE kind = 'player_cash' AND user_id = $1",
      [userId],
    )
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("npm run ledger:check prints the report and exits 0 clean, 1 on drift (PostgreSQL: a second process)", async (ctx) => {
    const url = server.config.databaseUrl
    // The embedded database is one process's while the server runs: the command is tested on PostgreSQL.
    if (url === undefined) return ctx.skip()
    const env = { ...process.env, DATABASE_URL: url }
    const clean = await run(process.execPath, ["scripts/ledger-check.ts"], { env })
    expect(clean.stdout).toContain("OK: no drift")
    const p = await newPlayer(server, "cli-drift")
    const userId = await userIdOf(server, p.email)
    await server.query(
      "UPDATE ledger_accounts SET balance = balance + 3 WHERE kind = 'player_cash' AND user_id = $1",
      [userId],
    )
    const drift = await run(process.execPath, ["scripts/ledger-check.ts"], { env }).then(
      () => ({ code: 0, stdout: "" }),
      (e: { code: number; stdout: string }) => ({ code: e.code, stdout: e.stdout }),
    )
    await server.query(
      "UPDATE ledger_accounts SET balance = balance - 3 WHERE kind = 'player_cash' AND user_id = $1",
      [userId],
    )
    expect(drift.code).toBe(1)
    expect(drift.stdout).toContain("DRIFT")
  })
})

describe("money: US visitors", () => {
  it("hides the US-excluded gateway from a visitor whose IP is in the US", async () => {
    const server = await startTestServer(
      { captchaEnabled: false },
      { env: { TRUST_PROXY: "true", PAYMENT_GATEWAYS: gatewaysEnvFor("http://127.0.0.1:9") } },
    )
    try {
      const p = await newPlayer(server, "us")
      // The same session from a US address (8.8.8.8 resolves to the US).
      const fromUs = new Browser(server, "8.8.8.8")
      for (const [k, v] of p.browser.cookies) fromUs.cookies.set(k, v)
      expect((await p.browser.get(`${PROFILE}/profile/payment/gateways`)).body).toEqual([
        "paystudio",
        "payweb",
        "brpay",
        "ikajo",
        "ems",
      ])
      const res = await fromUs.get(`${PROFILE}/profile/payment/gateways`)
      expect(res.body).toEqual(["paystudio", "payweb", "ikajo", "ems"])
    } finally {
      await server.close()
    }
  })
})
