/** The sandbox's merchant API: Bearer keys, validation (400, never 500), idempotent references, gateway rules. */
import { readFile, stat } from "node:fs/promises"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import {
  customer,
  describeSandboxBackends,
  initiation,
  merchantPost,
  type SandboxTest,
  startSandbox,
  testSecret,
} from "./payment-sandbox-harness.ts"

const notify = "http://127.0.0.1:9/api/payments/webhooks/brpay"

describeSandboxBackends("payment sandbox merchant API", (backend) => {
  let t: SandboxTest
  beforeAll(async () => {
    t = await startSandbox(backend, {
      env: {
        PAYMENT_SANDBOX_GATEWAY_RULES: "brpay:down;paypound:country=US;ems:max-eur=500;ems:min-eur=10",
      },
    })
  })
  afterAll(() => t?.close())

  it("creates a hosted-card payment: 201 with the page address, stored as created", async () => {
    const body = initiation(notify)
    const res = await merchantPost(t, "/card/payweb/payments", "payweb", body)
    expect(res.status).toBe(201)
    const id = String(res.body.paymentId)
    expect(res.body.redirectUrl).toBe(`${t.config.publicUrl}/sandbox-pay/card/payweb/pay/${id}`)
    const rows = await t.query<{
      status: string
      amount: string
      family: string
      customer: { country: string }
    }>("SELECT status, amount::text AS amount, family, customer FROM sandbox_payments WHERE id = $1", [id])
    expect(rows).toEqual([
      {
        status: "created",
        amount: "3000",
        family: "hosted-card",
        customer: expect.objectContaining({ country: "MT" }),
      },
    ])
  })

  it("refuses a missing or wrong key (401), and another gateway's key", async () => {
    const body = initiation(notify)
    expect((await merchantPost(t, "/card/payweb/payments", "payweb", body, "")).status).toBe(401)
    expect((await merchantPost(t, "/card/payweb/payments", "payweb", body, "nope")).status).toBe(401)
    expect((await merchantPost(t, "/card/payweb/payments", "payweb", body, t.apiKey("ikajo"))).status).toBe(
      401,
    )
    expect((await merchantPost(t, "/skrill/sessions", "skrill", body, t.apiKey("jeton"))).status).toBe(401)
  })

  it("answers 400 JSON for bad bodies, never 500", async () => {
    const bad: ReadonlyArray<unknown> = [
      "not json",
      "[]",
      "null",
      {},
      initiation(notify, { amount: "30.00" }),
      initiation(notify, { amount: "0" }),
      initiation(notify, { amount: 3000 }),
      initiation(notify, { amount: "1".repeat(16) }),
      initiation(notify, { currency: "eur" }),
      initiation(notify, { notifyUrl: "ftp://x" }),
      initiation(notify, { returnUrl: "javascript:alert(1)" }),
      initiation(notify, { reference: "" }),
      initiation(notify, { customer: { ...customer(), country: "Malta" } }),
      initiation(notify, { customer: "x" }),
    ]
    for (const body of bad) {
      const res = await merchantPost(t, "/card/payweb/payments", "payweb", body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error).toBe("bad_request")
    }
    const jeton = await merchantPost(t, "/jeton/payments", "jeton", initiation(notify, { method: "PAYPAL" }))
    expect(jeton.status).toBe(400)
  })

  it("answers a retried reference with the same payment, and 409 when its data differ", async () => {
    const body = initiation(notify)
    const first = await merchantPost(t, "/card/payweb/payments", "payweb", body)
    const again = await merchantPost(t, "/card/payweb/payments", "payweb", body)
    expect(again.status).toBe(201)
    expect(again.body.paymentId).toBe(first.body.paymentId)
    const other = await merchantPost(t, "/card/payweb/payments", "payweb", { ...body, amount: "3001" })
    expect(other.status).toBe(409)
    // The same reference on another gateway is another payment (the casino's cascade).
    const cascade = await merchantPost(t, "/card/ikajo/payments", "ikajo", body)
    expect(cascade.status).toBe(201)
    expect(cascade.body.paymentId).not.toBe(first.body.paymentId)
  })

  it("answers each e-wallet family in its own shape", async () => {
    const skrill = await merchantPost(
      t,
      "/skrill/sessions",
      "skrill",
      initiation(notify, { paymentMethods: "WLT" }),
    )
    expect(skrill.status).toBe(201)
    expect(skrill.body.redirectUrl).toBe(
      `${t.config.publicUrl}/sandbox-pay/skrill/app/${skrill.body.sessionId}`,
    )
    const checkout = await merchantPost(
      t,
      "/jeton/payments",
      "jeton",
      initiation(notify, { method: "CHECKOUT" }),
    )
    expect(checkout.status).toBe(201)
    expect(checkout.body.checkoutUrl).toBe(
      `${t.config.publicUrl}/sandbox-pay/jeton/pay/${checkout.body.paymentId}`,
    )
    expect(checkout.body.qr).toBeNull()
    const qr = await merchantPost(t, "/jeton/payments", "jeton", initiation(notify, { method: "QR" }))
    expect(typeof qr.body.qr).toBe("string")
    expect(String(qr.body.qr)).toContain(String(qr.body.paymentId))
    const mifinity = await merchantPost(t, "/mifinity/init-iframe", "mifinity", initiation(notify))
    expect(mifinity.status).toBe(201)
    expect(mifinity.body.initializationToken).toMatch(/^[A-Za-z0-9_-]{20,}$/)
  })

  it("refuses initiation by the environment's rules: down 503, country and amount 422", async () => {
    const down = await merchantPost(t, "/card/brpay/payments", "brpay", initiation(notify))
    expect(down).toEqual({ status: 503, body: { error: "unavailable", message: expect.any(String) } })
    const us = await merchantPost(
      t,
      "/card/paypound/payments",
      "paypound",
      initiation(notify, { customer: customer("US") }),
    )
    expect(us.status).toBe(422)
    expect(us.body.error).toBe("refused")
    expect((await merchantPost(t, "/card/paypound/payments", "paypound", initiation(notify))).status).toBe(
      201,
    )
    expect(
      (await merchantPost(t, "/card/ems/payments", "ems", initiation(notify, { amount: "50001" }))).status,
    ).toBe(422)
    expect(
      (await merchantPost(t, "/card/ems/payments", "ems", initiation(notify, { amount: "50000" }))).status,
    ).toBe(201)
    expect(
      (await merchantPost(t, "/card/ems/payments", "ems", initiation(notify, { amount: "999" }))).status,
    ).toBe(422)
    // 600 USD ≈ 552 EUR at the sandbox's rate: over the 500 EUR bound.
    expect(
      (
        await merchantPost(
          t,
          "/card/ems/payments",
          "ems",
          initiation(notify, { amount: "60000", currency: "USD" }),
        )
      ).status,
    ).toBe(422)
    expect(
      (
        await merchantPost(
          t,
          "/card/ems/payments",
          "ems",
          initiation(notify, { amount: "50000", currency: "USD" }),
        )
      ).status,
    ).toBe(201)
    // A currency the sandbox does not take.
    expect(
      (await merchantPost(t, "/card/payweb/payments", "payweb", initiation(notify, { currency: "XAU" })))
        .status,
    ).toBe(422)
    const refused = await t.query("SELECT 1 FROM sandbox_payments WHERE gateway = 'brpay'")
    expect(refused).toEqual([])
  })

  it("changes a gateway's rule at runtime through the control endpoint (authenticated)", async () => {
    const put = (code: string, rule: unknown, key: string) =>
      fetch(`${t.url}/sandbox-pay/control/gateways/${code}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ rule }),
      })
    expect((await put("kluwp", "down", "wrong")).status).toBe(401)
    expect((await put("kluwp", "sideways", t.secret)).status).toBe(400)
    expect((await put("kluwp", 5, t.secret)).status).toBe(400)
    const down = await put("kluwp", "down", t.secret)
    expect(down.status).toBe(200)
    expect(await down.json()).toEqual({ gateway: "kluwp", rule: "down" })
    expect((await merchantPost(t, "/card/kluwp/payments", "kluwp", initiation(notify))).status).toBe(503)
    // "up" overrides even the environment's rule.
    expect((await put("brpay", "up", t.secret)).status).toBe(200)
    expect((await merchantPost(t, "/card/brpay/payments", "brpay", initiation(notify))).status).toBe(201)
    // Only its own secret: a merchant's key does not control it.
    expect((await put("kluwp", "up", t.apiKey("kluwp"))).status).toBe(401)
    const several = await put("kluwp", "country=US,GB;max-eur=100", t.secret)
    expect(await several.json()).toEqual({ gateway: "kluwp", rule: "country=US,GB;max-eur=100" })
    expect(
      (
        await merchantPost(
          t,
          "/card/kluwp/payments",
          "kluwp",
          initiation(notify, { customer: customer("GB") }),
        )
      ).status,
    ).toBe(422)
    expect((await merchantPost(t, "/card/kluwp/payments", "kluwp", initiation(notify))).status).toBe(201)
  })

  it("reports a payment's status to the controller only", async () => {
    const created = await merchantPost(t, "/card/payweb/payments", "payweb", initiation(notify))
    const url = `${t.url}/sandbox-pay/control/payments/${created.body.paymentId}`
    expect((await fetch(url)).status).toBe(401)
    const res = await fetch(url, { headers: { authorization: `Bearer ${t.secret}` } })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({
      status: "created",
      amount: "3000",
      currency: "EUR",
      webhooks: [],
    })
    const unknown = await fetch(`${t.url}/sandbox-pay/control/payments/not-a-uuid`, {
      headers: { authorization: `Bearer ${t.secret}` },
    })
    expect(unknown.status).toBe(404)
  })
})

describeSandboxBackends("payment sandbox secret", (backend) => {
  it("is generated once into its data folder when PAYMENT_SANDBOX_SECRET is unset; its keys derive from it and begin with test_", async () => {
    const t = await startSandbox(backend, { env: { PAYMENT_SANDBOX_SECRET: "" } })
    try {
      const file = join(t.config.dataDir, "secret")
      const stored = (await readFile(file, "utf8")).trim()
      expect(stored).toMatch(/^[0-9a-f]{64}$/)
      expect(t.config.secret).toBe(stored)
      expect((await stat(file)).mode & 0o777).toBe(0o600)
      const { sandboxCredentials } = await import("../../providers/payment-sandbox/credentials.ts")
      const keys = sandboxCredentials(stored, "payweb")
      expect(keys.apiKey).toMatch(/^test_[0-9a-f]{64}$/)
      expect(keys.webhookSecret).toMatch(/^test_[0-9a-f]{64}$/)
      expect(keys.webhookSecret).not.toBe(keys.apiKey)
      const res = await merchantPost(t, "/card/payweb/payments", "payweb", initiation(notify), keys.apiKey)
      expect(res.status).toBe(201)
      // Keys of another secret (the harness's usual one) are refused.
      expect(
        (
          await merchantPost(
            t,
            "/card/payweb/payments",
            "payweb",
            initiation(notify),
            sandboxCredentials(testSecret, "payweb").apiKey,
          )
        ).status,
      ).toBe(401)
    } finally {
      await t.close()
    }
  })
})
