/**
 * The casino offers exactly the gateways PAYMENT_GATEWAYS configures (nothing falls back to a
 * sandbox): the card cascade lists only configured card gateways, a deposit to a gateway without an
 * entry is refused cleanly (502 GatewayUnavailable, no deposit row, no provider called — never a
 * 500), its webhooks are unknown, and the payout rails without an entry pay nothing: an approved
 * withdrawal waits, its callbacks are refused.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { loadConfig } from "../../server/config.ts"
import { FiatPayouts } from "../../server/payments/payouts.ts"
import { BO } from "./backoffice-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import {
  type FakeProvider,
  gatewaysEnvFor,
  newCompletePlayer,
  PROFILE,
  sendWebhook,
  startFakeProvider,
  webhookBody,
} from "./money-support.ts"
import { operatorToken } from "./operator-token.ts"
import { bankWithdraw, newCashier, statusOf } from "./withdrawals-support.ts"

const notOffered = "This payment provider is not available to you."

describeBackends("money: only the configured gateways", ({ start }) => {
  let server: TestServer
  let fake: FakeProvider
  beforeAll(async () => {
    fake = await startFakeProvider()
    const some = gatewaysEnvFor(fake.url, fake.apiKey, fake.webhookSecret, ["paystudio", "ems", "jeton"])
    server = await start({ captchaEnabled: false }, { env: { PAYMENT_GATEWAYS: some } })
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it("lists only the configured card gateways, in cascade order", async () => {
    const p = await newCompletePlayer(server, "gw-list")
    const res = await p.browser.get(`${PROFILE}/profile/payment/gateways`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual(["paystudio", "ems"])
  })

  it("refuses a deposit to a gateway without an entry: 502 GatewayUnavailable, nothing started", async () => {
    const p = await newCompletePlayer(server, "gw-refused")
    const before = fake.requests.length
    for (const [path, gateway, extra] of [
      ["payweb/deposit", "payweb", {}],
      ["skrill/deposit", "skrill", {}],
      ["mifinity/deposit", "mifinity", {}],
    ] as const) {
      const res = await p.browser.post(`${PROFILE}/profile/${path}`, {
        amount: "3000",
        currency: "EUR",
        language: "en",
        ...extra,
      })
      expect(res.status, path).toBe(502)
      expect(res.body, path).toMatchObject({ _tag: "GatewayUnavailable", gateway, message: notOffered })
    }
    expect(fake.requests.length).toBe(before)
    expect((await p.browser.get(`${PROFILE}/profile/fiat/deposit`)).body).toEqual([])
    // A configured one still works.
    const jeton = await p.browser.post(`${PROFILE}/profile/jeton/Checkout/deposit`, {
      amount: "3000",
      currency: "EUR",
      language: "en",
      email: p.email,
    })
    expect(jeton.status).toBe(200)
  })

  it("a webhook for a gateway without an entry is unknown (404), even well signed", async () => {
    const body = webhookBody({ reference: crypto.randomUUID(), amount: "3000", currency: "EUR" })
    const res = await sendWebhook(server.url, "skrill", fake.webhookSecret, body)
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ error: "UnknownProvider" })
  })
})

describeBackends("money: no gateway configured at all", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
  })
  afterAll(() => server?.close())

  it("offers no card gateway and refuses every deposit cleanly (never a 500)", async () => {
    const p = await newCompletePlayer(server, "gw-none")
    expect((await p.browser.get(`${PROFILE}/profile/payment/gateways`)).body).toEqual([])
    for (const path of ["paystudio/deposit", "skrill/deposit", "mifinity/deposit", "jeton/cash/deposit"]) {
      const res = await p.browser.post(`${PROFILE}/profile/${path}`, {
        amount: "3000",
        currency: "EUR",
        language: "en",
      })
      expect(res.status, path).toBe(502)
      expect(res.body, path).toMatchObject({ _tag: "GatewayUnavailable", message: notOffered })
    }
  })

  it("a bank payout without its rail: the withdrawal is approved and waits; its callbacks are unknown", async () => {
    const reason = await server.run(
      Effect.map(FiatPayouts, (f) => [f.unavailable("bank"), f.webhookSecret("bank")]),
    )
    expect(reason).toEqual([
      `the bank payout rail is not configured (no PAYMENT_GATEWAYS entry of code "bank")`,
      undefined,
    ])
    const p = await newCashier(server, "gw-bank", { eur: 10_000n })
    const requested = await bankWithdraw(p, "2000")
    expect(requested.status).toBe(200)
    const id = (requested.body as { id: string }).id
    const payments = await operatorToken(server, { role: "payments" })
    const approved = await payments.call("POST", `${BO}/withdrawals/${id}/approve`)
    expect(approved.status).toBe(200)
    expect(await statusOf(server, id)).toBe("approved")
    const callback = await fetch(`${server.url}/api/payments/payouts/bank`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-sandbox-signature": "t=1,v1=00" },
      body: "{}",
    })
    expect(callback.status).toBe(404)
  })
})

it("PAYMENT_GATEWAYS: the bank rail and MiFinity's widget page by configuration; test keys never in production", () => {
  const base = { CAPTCHA_SECRET: "x".repeat(32), DATA_DIR: "/nonexistent-gateways-config-test" }
  const entry = (code: string, family: string, extra: Record<string, string> = {}) => ({
    code,
    family,
    baseUrl: "https://pay.example/api/",
    merchantId: code,
    apiKey: "live-key",
    webhookSecret: "live-webhook-secret",
    ...extra,
  })
  const config = loadConfig({
    ...base,
    PAYMENT_GATEWAYS: JSON.stringify([
      entry("mifinity", "mifinity"),
      entry("bank", "bank"),
      entry("skrill", "skrill"),
    ]),
  })
  expect(config.paymentGateways.map((g) => [g.code, g.baseUrl, g.widgetUrl])).toEqual([
    ["mifinity", "https://pay.example/api", "https://pay.example/api/mifinity/widget"],
    ["bank", "https://pay.example/api", undefined],
    ["skrill", "https://pay.example/api", undefined],
  ])
  const widget = loadConfig({
    ...base,
    PAYMENT_GATEWAYS: JSON.stringify([
      entry("mifinity", "mifinity", { widgetUrl: "https://widget.example/w" }),
    ]),
  })
  expect(widget.paymentGateways[0]?.widgetUrl).toBe("https://widget.example/w")
  const bad =
    (gateways: ReadonlyArray<unknown>, env: Record<string, string> = {}) =>
    () =>
      loadConfig({ ...base, ...env, PAYMENT_GATEWAYS: JSON.stringify(gateways) })
  expect(bad([entry("skrill", "skrill"), entry("skrill", "skrill")])).toThrow(/PAYMENT_GATEWAYS/)
  expect(bad([entry("wire", "bank")])).toThrow(/PAYMENT_GATEWAYS/)
  expect(bad([entry("bank", "skrill")])).toThrow(/PAYMENT_GATEWAYS/)
  expect(bad([entry("bank", "bank", { widgetUrl: "ftp://x" })])).toThrow(/PAYMENT_GATEWAYS/)
  const testKeys = [
    entry("skrill", "skrill", { apiKey: "test_0123", webhookSecret: "test_0123456789abcdef" }),
  ]
  expect(bad(testKeys, { NODE_ENV: "production", CAPTCHA: "on" })).toThrow(/test key/)
  expect(bad(testKeys)).not.toThrow()
})
