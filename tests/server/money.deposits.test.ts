/**
 * Deposits end to end on both backends, against a small fake provider that speaks
 * docs/payments-protocol.md (PAYMENT_GATEWAYS points every gateway at it): the deposit calls of every method and
 * their refusals, the provider's refusal (502 for the cascade), signed webhooks (valid, forged,
 * stale, replayed, conflicting, mismatching), the credit through the ledger, the push stream, the
 * history and its authorisation, expiry, and the return page.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Deposits } from "../../server/payments/Deposits.ts"
import { newPlayer, put } from "./account-support.ts"
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
import { Browser } from "./users-support.ts"

interface DepositAnswer {
  readonly depositId: string
  readonly redirectUrl: string | null
  readonly qr: string | null
  readonly initializationToken: string | null
}

describeBackends("money: deposits and webhooks", ({ start }) => {
  let server: TestServer
  let fake: FakeProvider
  beforeAll(async () => {
    fake = await startFakeProvider()
    server = await start({ captchaEnabled: false }, { env: { PAYMENT_GATEWAYS: fake.gatewaysEnv } })
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  const deposit = (b: Browser, gateway: string, amount: string, currency = "EUR") =>
    b.post(`${PROFILE}/profile/${gateway}/deposit`, { amount, currency, language: "en" })

  it("starts a card deposit with the provider, credits only on its signed webhook, once", async () => {
    const p = await newCompletePlayer(server, "card")
    const userId = await userIdOf(server, p.email)
    const res = await deposit(p.browser, "paystudio", "3000")
    expect(res.status).toBe(200)
    const answer = res.body as DepositAnswer
    expect(answer.redirectUrl).toMatch(/^http:\/\/fake\/card\/paystudio\/pay\//)
    const sent = fake.requests.find((r) => r.body.reference === answer.depositId)
    expect(sent?.path).toBe("/card/paystudio/payments")
    expect(sent?.authorization).toBe(`Bearer ${fake.apiKey}`)
    expect(sent?.body).toMatchObject({
      amount: "3000",
      currency: "EUR",
      notifyUrl: `${server.config.internalUrl}/api/payments/webhooks/paystudio`,
      returnUrl: `${server.config.publicUrl}/api/payments/return?deposit=${answer.depositId}`,
      customer: { email: p.email, firstName: "Ada", country: "MT", phone: "+35621234567" },
    })
    // Nothing credited on initiation (nor by the browser's return page).
    const returned = await p.browser.get(`/api/payments/return?deposit=${answer.depositId}`)
    expect(returned.status).toBe(200)
    expect(String(returned.body)).toContain("Payment received")
    expect(await balanceOf(server, userId)).toBe("0")
    const history = await p.browser.get(`${PROFILE}/profile/fiat/deposit`)
    expect(history.body).toMatchObject([
      { id: answer.depositId, status: "initiated", method: "card", provider: "paystudio" },
    ])

    // The push stream, open before the webhook.
    const stream = await p.browser.pushStream()

    const body = webhookBody({ reference: answer.depositId, amount: "3000", currency: "EUR" })
    const ok = await sendWebhook(server.url, "paystudio", fake.webhookSecret, body)
    expect(ok).toEqual({ status: 200, body: { received: true } })
    expect(await balanceOf(server, userId)).toBe("3000")

    const pushed = await stream.until("event: balance")
    await stream.close()
    expect(pushed).toContain(`"depositId":"${answer.depositId}","status":"completed"`)
    expect(pushed).toContain(`event: balance\ndata: {"type":"balance","currency":"EUR","balance":"3000"}`)

    // Replays answer the same and credit nothing more; the same id with another body is 409.
    expect(await sendWebhook(server.url, "paystudio", fake.webhookSecret, body)).toEqual(ok)
    const changed = body.replace('"createdAt":"', '"createdAt":"x')
    expect((await sendWebhook(server.url, "paystudio", fake.webhookSecret, changed)).status).toBe(409)
    // Another event id completing the same deposit: the ledger key deposit:<id> credits once.
    const other = webhookBody({ reference: answer.depositId, amount: "3000", currency: "EUR" })
    expect((await sendWebhook(server.url, "paystudio", fake.webhookSecret, other)).status).toBe(200)
    expect(await balanceOf(server, userId)).toBe("3000")

    const fund = await p.browser.get(`${PROFILE}/profile/currency`)
    expect(fund.body).toEqual([
      { currency: "EUR", default: true, balance: "3000", bonusBalance: "0", freeSpinWallet: null },
    ])
    const totals = await p.browser.get(`${PROFILE}/profile/payment/total-deposits`)
    expect(totals.body).toMatchObject({
      deposits: [{ id: answer.depositId, amount: "3000", amountInEur: "3000" }],
    })
    const after = await p.browser.get(`${PROFILE}/profile/fiat/deposit`)
    expect(after.body).toMatchObject([{ id: answer.depositId, status: "completed" }])
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("refuses forged, stale, unsigned and unreadable webhooks, and amounts that differ", async () => {
    const p = await newCompletePlayer(server, "forged")
    const userId = await userIdOf(server, p.email)
    const res = await deposit(p.browser, "payweb", "2000")
    const { depositId } = res.body as DepositAnswer
    const body = webhookBody({ reference: depositId, amount: "2000", currency: "EUR" })
    expect((await sendWebhook(server.url, "payweb", "not-the-secret-at-all", body)).status).toBe(401)
    const stale = Math.floor(Date.now() / 1000) - 301
    expect((await sendWebhook(server.url, "payweb", fake.webhookSecret, body, stale)).status).toBe(401)
    expect((await sendWebhook(server.url, "payweb", fake.webhookSecret, body, undefined, "")).status).toBe(
      401,
    )
    expect((await sendWebhook(server.url, "payweb", fake.webhookSecret, "{not json")).status).toBe(400)
    expect((await sendWebhook(server.url, "nosuch", fake.webhookSecret, body)).status).toBe(404)
    // Signed by payweb's secret but sent as another provider's event for payweb's deposit.
    expect((await sendWebhook(server.url, "ikajo", fake.webhookSecret, body)).status).toBe(422)
    const more = webhookBody({ reference: depositId, amount: "200000", currency: "EUR" })
    expect((await sendWebhook(server.url, "payweb", fake.webhookSecret, more)).status).toBe(422)
    const otherCurrency = webhookBody({ reference: depositId, amount: "2000", currency: "USD" })
    expect((await sendWebhook(server.url, "payweb", fake.webhookSecret, otherCurrency)).status).toBe(422)
    expect(await balanceOf(server, userId)).toBe("0")
    // A failed event marks it failed, with the provider's reason.
    const failed = webhookBody({
      reference: depositId,
      amount: "2000",
      currency: "EUR",
      type: "payment.failed",
      reason: "Card declined",
    })
    expect((await sendWebhook(server.url, "payweb", fake.webhookSecret, failed)).status).toBe(200)
    const history = await p.browser.get(`${PROFILE}/profile/fiat/deposit`)
    expect(history.body).toMatchObject([{ id: depositId, status: "failed", reason: "Card declined" }])
  })

  it("answers 502 GatewayUnavailable when the provider refuses, and marks the deposit failed", async () => {
    const p = await newCompletePlayer(server, "down")
    fake.down.add("brpay")
    const res = await deposit(p.browser, "brpay", "3000")
    fake.down.delete("brpay")
    expect(res.status).toBe(502)
    expect(res.body).toMatchObject({ _tag: "GatewayUnavailable", gateway: "brpay" })
    const history = await p.browser.get(`${PROFILE}/profile/fiat/deposit`)
    expect(history.body).toMatchObject([{ provider: "brpay", status: "failed", reason: "brpay is down" }])
    // A gateway that is not in the cascade is not offered at all.
    const notOffered = await deposit(p.browser, "kluwp", "3000")
    expect(notOffered.status).toBe(502)
  })

  it("starts e-wallet deposits: Skrill, Jeton checkout / QR / cash, MiFinity's widget token", async () => {
    const p = await newCompletePlayer(server, "ewallet")
    const skrill = await p.browser.post(`${PROFILE}/profile/skrill/deposit`, {
      amount: "3000",
      currency: "EUR",
      language: "en",
    })
    expect(skrill.status).toBe(200)
    expect((skrill.body as DepositAnswer).redirectUrl).toMatch(/skrill\/app/)
    const qr = await p.browser.post(`${PROFILE}/profile/jeton/QR/deposit`, {
      email: p.email,
      amount: "3000",
      currency: "EUR",
      language: "en",
    })
    expect(qr.status).toBe(200)
    expect((qr.body as DepositAnswer).qr).toMatch(/^jeton:/)
    const cash = await p.browser.post(`${PROFILE}/profile/jeton/cash/deposit`, {
      amount: "3000",
      currency: "EUR",
      language: "en",
    })
    expect(cash.status).toBe(200)
    const jetonCash = fake.requests.find((r) => r.body.reference === (cash.body as DepositAnswer).depositId)
    expect(jetonCash?.body.method).toBe("JETON_CASH")
    const mifinity = await deposit(p.browser, "mifinity", "3000")
    expect(mifinity.status).toBe(200)
    const m = mifinity.body as DepositAnswer
    expect(m.initializationToken).toMatch(/^tok_/)
    // The widget page of the gateway's entry: widgetUrl, by default `${baseUrl}/mifinity/widget`.
    expect(m.redirectUrl).toBe(`${fake.url}/mifinity/widget?token=${m.initializationToken}`)
    const history = (await p.browser.get(`${PROFILE}/profile/fiat/deposit`)).body as ReadonlyArray<{
      method: string
    }>
    expect(history.map((h) => h.method).sort()).toEqual(["jeton", "jeton-cash", "mifinity", "skrill"])
  })

  it("refuses a deposit below the minimum, without a wallet, in crypto, with an incomplete profile, over the limit, signed out", async () => {
    const p = await newCompletePlayer(server, "refusals")
    const below = await deposit(p.browser, "paystudio", "999")
    expect(below.status).toBe(422)
    expect(below.body).toMatchObject({ _tag: "DepositBelowMinimum", minimum: "1000", currency: "EUR" })
    const noWallet = await deposit(p.browser, "paystudio", "3000", "USD")
    expect(noWallet.status).toBe(404)
    expect(noWallet.body).toMatchObject({ _tag: "WalletNotFound" })
    const crypto = await deposit(p.browser, "paystudio", "3000", "BTC")
    expect(crypto.status).toBe(400)
    expect(crypto.body).toMatchObject({ _tag: "CurrencyNotSupported" })
    expect((await deposit(p.browser, "paystudio", "-5")).status).toBe(400)
    expect((await deposit(p.browser, "paystudio", "30.00")).status).toBe(400)
    expect((await deposit(p.browser, "nosuchgateway", "3000")).status).toBe(400)
    const bare = await newPlayer(server, "bare")
    const incomplete = await deposit(bare.browser, "paystudio", "3000")
    expect(incomplete.status).toBe(409)
    expect(incomplete.body).toMatchObject({
      _tag: "ProfileIncomplete",
      fields: ["address", "zipCode", "country", "city", "state", "phone"],
    })
    const limited = await put(p.browser, `${PROFILE}/profile/responsible-gaming`, {
      depositLimits: { daily: "5000" },
    })
    expect(limited.status).toBe(200)
    const over = await deposit(p.browser, "paystudio", "6000")
    expect(over.status).toBe(422)
    expect(over.body).toMatchObject({ _tag: "DepositLimitExceeded", remaining: "5000" })
    // In-flight deposits count: two starts of 30 EUR cannot both pass a 50 EUR limit.
    expect((await deposit(p.browser, "paystudio", "3000")).status).toBe(200)
    const second = await deposit(p.browser, "paystudio", "3000")
    expect(second.status).toBe(422)
    expect(second.body).toMatchObject({ remaining: "2000" })
    expect((await deposit(new Browser(server), "paystudio", "3000")).status).toBe(401)
  })

  it("never shows one player's deposits to another", async () => {
    const a = await newCompletePlayer(server, "owner")
    const b = await newCompletePlayer(server, "other")
    const res = await deposit(a.browser, "paystudio", "3000")
    expect(res.status).toBe(200)
    expect((await b.browser.get(`${PROFILE}/profile/fiat/deposit`)).body).toEqual([])
    expect((await b.browser.get(`${PROFILE}/profile/payment/total-deposits`)).body).toEqual({ deposits: [] })
  })

  it("expires deposits left initiated; a late completed webhook still credits", async () => {
    const p = await newCompletePlayer(server, "expiry")
    const userId = await userIdOf(server, p.email)
    const { depositId } = (await deposit(p.browser, "payweb", "1500")).body as DepositAnswer
    await server.query("UPDATE deposits SET created_at = now() - interval '61 minutes' WHERE id = $1", [
      depositId,
    ])
    const expired = await server.run(Effect.flatMap(Deposits, (d) => d.expireStale))
    expect(expired).toBeGreaterThanOrEqual(1)
    expect((await p.browser.get(`${PROFILE}/profile/fiat/deposit`)).body).toMatchObject([
      { id: depositId, status: "expired" },
    ])
    const late = webhookBody({ reference: depositId, amount: "1500", currency: "EUR" })
    expect((await sendWebhook(server.url, "payweb", fake.webhookSecret, late)).status).toBe(200)
    expect(await balanceOf(server, userId)).toBe("1500")
  })

  it("stores a decline reason and answers it; expires a deposit left pending at the provider", async () => {
    const p = await newCompletePlayer(server, "declined")
    const rowOf = async (id: string) =>
      ((await p.browser.get(`${PROFILE}/profile/fiat/deposit`)).body as ReadonlyArray<{ id: string }>).find(
        (row) => row.id === id,
      )
    const declined = ((await deposit(p.browser, "payweb", "2500")).body as DepositAnswer).depositId
    const failed = webhookBody({
      type: "payment.failed",
      reference: declined,
      amount: "2500",
      currency: "EUR",
      reason: "Insufficient funds",
    })
    expect((await sendWebhook(server.url, "payweb", fake.webhookSecret, failed)).status).toBe(200)
    expect(await rowOf(declined)).toMatchObject({ status: "failed", reason: "Insufficient funds" })

    // A payment the provider reported pending and never finished.
    const waiting = ((await deposit(p.browser, "payweb", "1600")).body as DepositAnswer).depositId
    const pending = () =>
      webhookBody({ type: "payment.pending", reference: waiting, amount: "1600", currency: "EUR" })
    expect((await sendWebhook(server.url, "payweb", fake.webhookSecret, pending())).status).toBe(200)
    expect(await rowOf(waiting)).toMatchObject({ status: "pending" })
    await server.query("UPDATE deposits SET created_at = now() - interval '61 minutes' WHERE id = $1", [
      waiting,
    ])
    expect(await server.run(Effect.flatMap(Deposits, (d) => d.expireStale))).toBeGreaterThanOrEqual(1)
    expect(await rowOf(waiting)).toMatchObject({ status: "expired" })
    // A pending arriving later does not revive it; the declined one stays declined.
    expect((await sendWebhook(server.url, "payweb", fake.webhookSecret, pending())).status).toBe(200)
    expect(await rowOf(waiting)).toMatchObject({ status: "expired" })
    expect(await rowOf(declined)).toMatchObject({ status: "failed", reason: "Insufficient funds" })
  })

  it("GET /api/events needs a session", async () => {
    const res = await fetch(`${server.url}/api/events`)
    expect(res.status).toBe(401)
  })
})
