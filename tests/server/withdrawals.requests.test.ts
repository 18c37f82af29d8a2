/**
 * Money out, the requests against the real server on PGlite and PostgreSQL: withdrawable,
 * every check of the withdraw calls with its status and message (the statechart's own messages,
 * services/cashout-rules.ts), the order the server checks them in (the spec's four, then the
 * server's limits), the per-request maximum in a second fiat and in crypto currencies at their
 * rates, the daily cap across requests, the rate limit with Retry-After (counting accepted
 * requests), and what a request does to money (one posting: cash → pending_withdrawal) — then
 * ledger:check is clean.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Withdrawals } from "../../server/withdrawals/Withdrawals.ts"
import { CashoutMessages } from "../../services/cashout-rules.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport } from "./money-support.ts"
import {
  addWallet,
  BTC_ADDRESS,
  balance,
  bankWithdraw,
  cryptoWithdraw,
  ETH_ADDRESS,
  fund,
  newCashier,
  PROFILE,
  pendingBalance,
  skrillWithdraw,
  verify,
  withdrawable,
} from "./withdrawals-support.ts"

const VERIFY = "Your identification and address has to be verified before cashout"

describeBackends("withdrawals: requests", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    // A daily cap of 500 EUR keeps the cap test short; the per-request max stays the default 400.
    // The file's players all register from 127.0.0.1: more registrations per IP than the default 10.
    server = await start(
      { captchaEnabled: false },
      {
        env: {
          WITHDRAW_DAILY_EUR: "500",
          RATE_LIMITS: JSON.stringify({ registerPerIp: { max: 100, windowSeconds: 3600 } }),
        },
      },
    )
  }, 120_000)
  afterAll(async () => {
    await server?.close()
  })

  it("withdrawable is the cash balance of the default wallet (or the one asked); 401 signed out", async () => {
    const p = await newCashier(server, "wd-withdrawable", { eur: 12_345n })
    const res = await withdrawable(p)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ currency: "EUR", withdrawable: "12345" })
    await addWallet(p, "ETH")
    expect((await withdrawable(p, "ETH")).body).toEqual({ currency: "ETH", withdrawable: "0" })
    expect((await withdrawable(p, "XXX")).status).toBe(400)
    p.browser.cookies.clear()
    expect((await withdrawable(p)).status).toBe(401)
  })

  it("the rate-limit call answers minWithdraw, maxWithdraw and dailyLimit in minor units", async () => {
    const p = await newCashier(server, "wd-limits", { eur: 0n })
    const eur = await p.browser.get(`${PROFILE}/rate/limit/EUR`)
    expect(eur.body).toEqual({
      currency: "EUR",
      minWithdraw: "1000",
      maxWithdraw: "40000",
      dailyLimit: "50000",
    })
    // USD at the seed rate 0.92 EUR: 400 EUR is 434.78 USD, rounded down.
    const usd = await p.browser.get(`${PROFILE}/rate/limit/USD`)
    expect(usd.body).toMatchObject({ currency: "USD", maxWithdraw: "43478" })
  })

  it("a request moves the amount to the pending account at once and starts the timeline", async () => {
    const p = await newCashier(server, "wd-ok", { eur: 10_000n })
    const pendingBefore = await pendingBalance(server)
    const res = await bankWithdraw(p, "2500", "bank-owner@example.com")
    expect(res.status).toBe(200)
    const w = res.body as {
      id: string
      status: string
      amount: string
      destination: string
      timeline: unknown[]
    }
    expect(w).toMatchObject({
      status: "requested",
      amount: "2500",
      method: "bank",
      destination: "bank-owner@example.com",
    })
    expect(w.timeline).toEqual([{ status: "requested", at: expect.any(String), note: null }])
    expect(await balance(server, p.userId)).toBe(7_500n)
    expect(await pendingBalance(server)).toBe(pendingBefore + 2_500n)
    expect((await withdrawable(p)).body).toEqual({ currency: "EUR", withdrawable: "7500" })
    const postings = await server.query<{ kind: string; key: string }>(
      "SELECT kind, idempotency_key AS key FROM ledger_transactions WHERE idempotency_key = $1",
      [`withdrawal:${w.id}`],
    )
    expect(postings).toEqual([{ kind: "withdrawal", key: `withdrawal:${w.id}` }])
    // The player's list and the fiat history show it; the Skrill tab pays to the account's own e-mail.
    const skrill = await skrillWithdraw(p, "1000")
    expect(skrill.status).toBe(200)
    expect(skrill.body).toMatchObject({ method: "skrill", destination: p.email })
    const list = await p.browser.get(`${PROFILE}/profile/withdrawals`)
    expect((list.body as Array<{ id: string }>).map((x) => x.id)).toContain(w.id)
    const fiat = await p.browser.get(`${PROFILE}/profile/fiat/withdraw`)
    expect(fiat.status).toBe(200)
    expect(fiat.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: w.id, provider: "bank", status: "pending" })]),
    )
  })

  it("refuses each failing check with its status and message", async () => {
    const p = await newCashier(server, "wd-checks", { eur: 5_000n })
    const below = await bankWithdraw(p, "999")
    expect(below.status).toBe(422)
    expect(below.body).toMatchObject({
      _tag: "WithdrawAmountOutOfRange",
      message: "A cashout must be between 10.00 and 400.00 EUR",
      minimum: "1000",
      maximum: "40000",
    })
    const poor = await bankWithdraw(p, "6000")
    expect(poor.status).toBe(409)
    expect(poor.body).toMatchObject({
      _tag: "NotEnoughMoney",
      // The spec's check 3, in the statechart's words.
      message: "You do not have enough money to cash out this amount",
      withdrawable: "5000",
    })
    expect((poor.body as { message: string }).message).toBe(CashoutMessages.notEnoughMoney)
    // Above the maximum (and above the balance): the balance is the spec's check, it comes first.
    expect((await bankWithdraw(p, "40001")).body).toMatchObject({ _tag: "NotEnoughMoney" })
    await fund(server, p.userId, 40_000n)
    expect((await bankWithdraw(p, "40001")).body).toMatchObject({
      _tag: "WithdrawAmountOutOfRange",
      message: CashoutMessages.outOfRange("10.00", "400.00", "EUR"),
    })
    const noWallet = await bankWithdraw(p, "2000", "payee@example.com", "USD")
    expect(noWallet.status).toBe(404)
    expect(noWallet.body).toMatchObject({ _tag: "WalletNotFound" })
    const cryptoAsFiat = await cryptoWithdraw(p, "2000", "EUR", ETH_ADDRESS)
    expect(cryptoAsFiat.status).toBe(400)
    expect(cryptoAsFiat.body).toMatchObject({ _tag: "CurrencyNotSupported" })
    const badEmail = await bankWithdraw(p, "2000", "not-an-email")
    expect(badEmail.status).toBe(400)
    const badAmount = await p.browser.post(`${PROFILE}/profile/bank/withdraw`, {
      amount: "10.5",
      currency: "EUR",
      email: "a@b.example",
    })
    expect(badAmount.status).toBe(400)
    // Nothing above moved money.
    expect(await balance(server, p.userId)).toBe(45_000n)

    const unverified = await newCashier(server, "wd-unverified", { verified: false, eur: 5_000n })
    await verify(server, unverified.userId, ["ID"])
    const refused = await bankWithdraw(unverified, "2000")
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ _tag: "VerificationRequired", message: VERIFY })
    expect(VERIFY).toBe(CashoutMessages.notVerified)
  })

  it("checks crypto addresses per chain with checksums", async () => {
    const p = await newCashier(server, "wd-address", { eur: 0n })
    await addWallet(p, "ETH")
    await addWallet(p, "BTC")
    // ETH's seed minimum is 10 EUR at 3000 EUR/ETH; 0.01 ETH = 30 EUR.
    await fund(server, p.userId, 10n ** 16n, "ETH")
    await fund(server, p.userId, 100_000n, "BTC")
    const wrongChecksum = ETH_ADDRESS.replace("EcaEda94", "ecaEda94")
    const bad = await cryptoWithdraw(p, (10n ** 16n).toString(), "ETH", wrongChecksum)
    expect(bad.status).toBe(422)
    expect(bad.body).toMatchObject({
      _tag: "InvalidAddress",
      message: CashoutMessages.invalidAddress("ETH"),
    })
    expect((await cryptoWithdraw(p, "100000", "BTC", ETH_ADDRESS)).body).toMatchObject({
      _tag: "InvalidAddress",
    })
    expect((await cryptoWithdraw(p, "100000", "BTC", `${BTC_ADDRESS.slice(0, -1)}v`)).status).toBe(422)
    const ok = await cryptoWithdraw(p, (10n ** 16n).toString(), "ETH", ETH_ADDRESS)
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({
      method: "crypto",
      currency: "ETH",
      destination: ETH_ADDRESS,
      status: "requested",
    })
    const btc = await cryptoWithdraw(p, "100000", "BTC", BTC_ADDRESS)
    expect(btc.status).toBe(200)
    expect(await balance(server, p.userId, "ETH")).toBe(0n)
  })

  it("checks in the spec's order (amount, verification, withdrawable, address missing), then maximum, daily cap, address", async () => {
    // Unverified, nothing on the ETH wallet, a blank address, and then too much: each refusal is the
    // first failing check in docs/withdrawals.md's order, as the statechart would show it.
    const p = await newCashier(server, "wd-order", { verified: false, eur: 0n })
    await addWallet(p, "ETH")
    const limits = (await p.browser.get(`${PROFILE}/rate/limit/ETH`)).body as {
      minWithdraw: string
      maxWithdraw: string
    }
    const min = BigInt(limits.minWithdraw)
    const max = BigInt(limits.maxWithdraw)
    const send = async (amount: bigint, address: string) =>
      (await cryptoWithdraw(p, amount.toString(), "ETH", address)).body as { _tag?: string; message?: string }
    // 1. below minWithdraw, whatever else fails.
    expect(await send(min - 1n, "   ")).toMatchObject({ _tag: "WithdrawAmountOutOfRange" })
    // 2. not verified — even above the maximum (a server limit, checked after the spec's four).
    expect(await send(max + 1n, "   ")).toMatchObject({
      _tag: "VerificationRequired",
      message: CashoutMessages.notVerified,
    })
    await verify(server, p.userId)
    // 3. not enough withdrawable.
    expect(await send(max + 1n, "   ")).toMatchObject({
      _tag: "NotEnoughMoney",
      message: CashoutMessages.notEnoughMoney,
    })
    await fund(server, p.userId, 10n ** 18n, "ETH")
    // 4. the address is missing (blank): '*' + 'required' in the statechart.
    expect(await send(max + 1n, "   ")).toMatchObject({
      _tag: "InvalidAddress",
      message: CashoutMessages.required,
    })
    // Then the server's limits: the maximum before the address's checksum …
    const wrongChecksum = ETH_ADDRESS.replace("EcaEda94", "ecaEda94")
    expect(await send(max + 1n, wrongChecksum)).toMatchObject({
      _tag: "WithdrawAmountOutOfRange",
      maximum: max.toString(),
    })
    expect(await send(max, wrongChecksum)).toMatchObject({
      _tag: "InvalidAddress",
      message: CashoutMessages.invalidAddress("ETH"),
    })
    // … and the daily cap (500 EUR here) before it too: 400 EUR taken, the next 400 is over the cap.
    expect((await cryptoWithdraw(p, max.toString(), "ETH", ETH_ADDRESS)).status).toBe(200)
    expect(await send(max, wrongChecksum)).toMatchObject({ _tag: "WithdrawDailyLimitReached" })
    // The maximum comes before the daily cap.
    expect(await send(max + 1n, wrongChecksum)).toMatchObject({
      _tag: "WithdrawAmountOutOfRange",
      maximum: max.toString(),
    })
    expect(await balance(server, p.userId, "ETH")).toBe(10n ** 18n - max)
  })

  it("the per-request maximum holds in a second fiat and in crypto, each at its rate", async () => {
    // WITHDRAW_MAX_EUR (400) at the seed rates, rounded down to the minor unit:
    // USD 0.92 → 434.78; BTC 60000 → 0.00666666 (satoshi); USDT 0.92 → 434.782608 (6 decimals).
    const cases = [
      { currency: "USD", max: 43_478n, method: "bank" as const },
      { currency: "BTC", max: 666_666n, method: "crypto" as const, address: BTC_ADDRESS },
      { currency: "USDT", max: 434_782_608n, method: "crypto" as const, address: ETH_ADDRESS },
    ]
    for (const c of cases) {
      // A player per currency: the daily cap (500 EUR) counts across currencies.
      const p = await newCashier(server, `wd-max-${c.currency.toLowerCase()}`, { eur: 0n })
      await addWallet(p, c.currency)
      await fund(server, p.userId, c.max * 2n, c.currency)
      const limits = (await p.browser.get(`${PROFILE}/rate/limit/${c.currency}`)).body as {
        minWithdraw: string
        maxWithdraw: string
      }
      // What the cashout form is told is what the server holds to.
      expect(limits.maxWithdraw).toBe(c.max.toString())
      const ask = (amount: bigint) =>
        c.method === "bank"
          ? bankWithdraw(p, amount.toString(), "payee@example.com", c.currency)
          : cryptoWithdraw(p, amount.toString(), c.currency, c.address ?? "")
      const over = await ask(c.max + 1n)
      expect(over.status, c.currency).toBe(422)
      expect(over.body).toMatchObject({
        _tag: "WithdrawAmountOutOfRange",
        currency: c.currency,
        minimum: limits.minWithdraw,
        maximum: c.max.toString(),
      })
      const exact = await ask(c.max)
      expect(exact.status, c.currency).toBe(200)
      expect(await balance(server, p.userId, c.currency)).toBe(c.max)
    }
  })

  it("caps the EUR value requested per UTC day across requests", async () => {
    const p = await newCashier(server, "wd-daily", { eur: 100_000n })
    expect((await bankWithdraw(p, "40000")).status).toBe(200)
    const over = await bankWithdraw(p, "10001")
    expect(over.status).toBe(422)
    expect(over.body).toMatchObject({
      _tag: "WithdrawDailyLimitReached",
      remaining: "10000",
      message: "This is above your daily cashout limit. You may cash out up to 100.00 EUR today.",
    })
    expect((await bankWithdraw(p, "10000")).status).toBe(200)
    const none = await bankWithdraw(p, "1000")
    expect(none.body).toMatchObject({
      _tag: "WithdrawDailyLimitReached",
      remaining: "0",
      message: CashoutMessages.dailyLimit("0.00", "EUR"),
    })
    expect(await balance(server, p.userId)).toBe(50_000n)
  })

  it("rate-limits accepted withdraw requests per player with Retry-After; refused ones are not counted", async () => {
    const p = await newCashier(server, "wd-rate", { eur: 0n })
    await addWallet(p, "ETH")
    await fund(server, p.userId, 10n ** 18n, "ETH")
    const limits = (await p.browser.get(`${PROFILE}/rate/limit/ETH`)).body as {
      minWithdraw: string
      maxWithdraw: string
    }
    const min = limits.minWithdraw
    const half = (BigInt(limits.maxWithdraw) / 2n).toString() // 200 EUR
    const limit = server.config.withdrawRequestLimit.max
    // Refused requests write nothing, their count included.
    for (let i = 0; i < limit + 2; i++)
      expect((await cryptoWithdraw(p, "1", "ETH", ETH_ADDRESS)).status).toBe(422)
    // Accepted: 200 EUR, then 10 EUR each (about 290 EUR of the 500 EUR daily cap with the default 10).
    expect((await cryptoWithdraw(p, half, "ETH", ETH_ADDRESS)).status).toBe(200)
    for (let i = 1; i < limit; i++)
      expect((await cryptoWithdraw(p, min, "ETH", ETH_ADDRESS)).status).toBe(200)
    const limited = await cryptoWithdraw(p, min, "ETH", ETH_ADDRESS)
    expect(limited.status).toBe(429)
    const seconds = Number(limited.headers.get("retry-after"))
    expect(seconds).toBeGreaterThan(0)
    expect(limited.body).toMatchObject({
      _tag: "RateLimited",
      retryAfterSeconds: seconds,
      message: CashoutMessages.rateLimited(seconds),
    })
    // The spec's checks still answer first; the rate limit comes before the address's checksum.
    expect((await cryptoWithdraw(p, "1", "ETH", ETH_ADDRESS)).body).toMatchObject({
      _tag: "WithdrawAmountOutOfRange",
    })
    const wrongChecksum = ETH_ADDRESS.replace("EcaEda94", "ecaEda94")
    expect((await cryptoWithdraw(p, min, "ETH", wrongChecksum)).body).toMatchObject({ _tag: "RateLimited" })
    // The daily cap comes before the rate limit: 300 EUR more is over what is left today (~210 EUR).
    const threeQuarters = ((BigInt(limits.maxWithdraw) * 3n) / 4n).toString()
    expect((await cryptoWithdraw(p, threeQuarters, "ETH", ETH_ADDRESS)).body).toMatchObject({
      _tag: "WithdrawDailyLimitReached",
    })
    expect(await balance(server, p.userId, "ETH")).toBe(
      10n ** 18n - BigInt(half) - BigInt(limit - 1) * BigInt(min),
    )
  })

  it("refuses a self-excluded player (defence in depth: their session no longer resolves)", async () => {
    const p = await newCashier(server, "wd-excluded", { eur: 5_000n })
    await server.query(
      "UPDATE users SET self_exclusion_until = now() + interval '1 day', self_exclusion_kind = 'timeout' WHERE id = $1",
      [p.userId],
    )
    const exit = await server.run(
      Effect.gen(function* () {
        const withdrawals = yield* Withdrawals
        return yield* withdrawals.request({
          userId: p.userId,
          method: "bank",
          currency: "EUR",
          amount: 2_000n,
          destination: "payee@example.com",
          forfeitBonus: false,
        })
      }).pipe(Effect.result),
    )
    expect(exit._tag).toBe("Failure")
    if (exit._tag === "Failure") expect(exit.failure._tag).toBe("PaymentsBlocked")
    expect((await bankWithdraw(p, "2000")).status).toBe(401)
  })

  it("leaves the ledger consistent (ledger:check)", async () => {
    const report = await ledgerReport(server)
    expect(report.clean).toBe(true)
  })
})
