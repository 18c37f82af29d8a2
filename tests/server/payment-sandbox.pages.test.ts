/**
 * The payer's pages through plain HTTP, as a browser without script would use them (GET the page,
 * POST its form), for each test card and each e-wallet; the page's JSON mode for the 3-D Secure
 * step; the final decision's webhook, verified with the protocol's signature scheme.
 */
import { createHmac, timingSafeEqual } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import {
  describeSandboxBackends,
  eventually,
  initiation,
  merchantPost,
  type Receiver,
  type SandboxTest,
  startReceiver,
  startSandbox,
} from "./payment-sandbox-harness.ts"

const returnUrl = "http://casino.example/api/payments/return?deposit=42"
const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, "0")

/** The doc's verification: t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>, at most 300 s old. */
const verify = (header: string | undefined, body: string, secret: string): boolean => {
  const parts = Object.fromEntries((header ?? "").split(",").map((kv) => kv.split("=") as [string, string]))
  const t = Number(parts.t)
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300 || parts.v1 === undefined) return false
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest()
  const given = Buffer.from(parts.v1, "hex")
  return given.length === expected.length && timingSafeEqual(given, expected)
}

const form = (values: Record<string, string>) => new URLSearchParams(values).toString()

describeSandboxBackends("payment sandbox pages", (backend) => {
  let t: SandboxTest
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
    t = await startSandbox(backend)
  })
  afterAll(async () => {
    await t?.close()
    await receiver?.close()
  })

  const post = (path: string, values: Record<string, string>, json = false) =>
    fetch(`${t.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        ...(json ? { accept: "application/json" } : {}),
      },
      body: form(values),
    })

  const newCardPayment = async (code = "payweb") => {
    const res = await merchantPost(t, `/card/${code}/payments`, code, initiation(receiver.url, { returnUrl }))
    expect(res.status).toBe(201)
    const id = String(res.body.paymentId)
    return { id, page: new URL(String(res.body.redirectUrl)).pathname }
  }

  const webhookOf = (paymentId: string) =>
    eventually(async () => receiver.received.find((w) => JSON.parse(w.body).paymentId === paymentId))

  const card = (number: string) => ({
    holder: "Ada Lovelace",
    number,
    expiry: `12/${nextYear}`,
    cvc: "123",
    action: "pay",
  })

  it("serves the card page with its own strict CSP, labelled fields and the test cards", async () => {
    const { page } = await newCardPayment()
    const res = await fetch(`${t.url}${page}`)
    expect(res.status).toBe(200)
    const csp = res.headers.get("content-security-policy") ?? ""
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toBeDefined()
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toContain("unsafe-inline")
    const html = await res.text()
    expect(html).toContain(`<script nonce="${nonce}">`)
    for (const name of ["holder", "number", "expiry", "cvc"])
      expect(html).toContain(`<label for="card-${name}">`)
    expect(html).toContain('role="alert"')
    expect(html).toContain("4242 4242 4242 4242")
    expect(html).toContain("30.00 EUR")
  })

  const sandboxMark =
    '<aside class="sandbox-mark" aria-label="Sandbox: a test environment, no real money moves">Sandbox</aside>'

  it("marks every page it serves as the sandbox, framed only by its configured ancestors", async () => {
    const { page } = await newCardPayment()
    const res = await fetch(`${t.url}${page}`)
    expect(res.headers.get("content-security-policy")).toContain(
      "frame-ancestors 'self' http://casino.example;",
    )
    const pages: Array<string> = [await res.text()]
    // The 3-D Secure step, as a plain form post answers it.
    pages.push(await (await post(page, { ...card("4000 0000 0000 3220"), action: "pay" })).text())
    pages.push((await walletFlow("skrill", {})).html)
    pages.push((await walletFlow("jeton", { method: "CHECKOUT" })).html)
    pages.push((await walletFlow("mifinity", {})).html)
    const qr = await merchantPost(t, "/jeton/payments", "jeton", initiation(receiver.url, { method: "QR" }))
    pages.push(await (await fetch(String(qr.body.checkoutUrl))).text())
    pages.push(await (await fetch(`${t.url}/sandbox-pay/card/payweb/pay/nope`)).text())
    expect(pages[1]).toContain("3-D Secure check")
    for (const html of pages) {
      expect(html).toContain(sandboxMark)
      expect(html).toContain(".sandbox-mark{position:fixed;")
    }
  })

  it("answers an address it does not serve with JSON: 404, or 405 with Allow", async () => {
    const unknown = await fetch(`${t.url}/sandbox-pay/nothing/here`, { headers: { accept: "text/html" } })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: "not_found" })
    const wrongMethod = await fetch(`${t.url}/sandbox-pay/skrill/sessions`)
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get("allow")).toBe("POST")
    const deleted = await fetch(`${t.url}/sandbox-pay/card/paystudio/pay/x`, { method: "DELETE" })
    expect(deleted.status).toBe(405)
    expect(deleted.headers.get("allow")).toBe("GET, POST")
  })

  const cases: ReadonlyArray<[string, string, string, string | null]> = [
    ["4242 4242 4242 4242", "approved", "payment.completed", null],
    ["4000 0000 0000 0002", "declined", "payment.failed", "Card declined"],
    ["4000 0000 0000 9995", "declined", "payment.failed", "Insufficient funds"],
    ["4000 0000 0000 0119", "failed", "payment.failed", "Processing error"],
  ]
  for (const [number, status, type, reason] of cases) {
    it(`card ${number}: ${status}${reason === null ? "" : ` (${reason})`}, back to returnUrl, signed webhook`, async () => {
      const { id, page } = await newCardPayment()
      const res = await post(page, card(number))
      expect(res.status).toBe(303)
      expect(res.headers.get("location")).toBe(returnUrl)
      const [row] = await t.query<{ status: string; reason: string | null; card_last4: string }>(
        "SELECT status, reason, card_last4 FROM sandbox_payments WHERE id = $1",
        [id],
      )
      expect(row).toEqual({ status, reason, card_last4: number.slice(-4) })
      const hook = await webhookOf(id)
      expect(
        verify(hook.headers["x-sandbox-signature"] as string, hook.body, t.webhookSecret("payweb")),
      ).toBe(true)
      expect(verify(hook.headers["x-sandbox-signature"] as string, hook.body, t.webhookSecret("ikajo"))).toBe(
        false,
      )
      expect(
        verify(hook.headers["x-sandbox-signature"] as string, `${hook.body} `, t.webhookSecret("payweb")),
      ).toBe(false)
      const event = JSON.parse(hook.body)
      expect(event).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type,
        paymentId: id,
        reference: expect.any(String),
        amount: "3000",
        currency: "EUR",
        reason,
        createdAt: expect.any(String),
      })
      // A decision is final: a second submit is refused and changes nothing.
      const again = await post(page, card("4242424242424242"))
      expect(again.status).toBe(409)
      expect(await again.text()).toContain("a decision is final")
      const [after] = await t.query<{ status: string }>("SELECT status FROM sandbox_payments WHERE id = $1", [
        id,
      ])
      expect(after?.status).toBe(status)
    })
  }

  it("card 4000 0000 0000 3220: the 3-D Secure step on the same page; 1234 approves", async () => {
    const { id, page } = await newCardPayment()
    const step = await post(page, card("4000000000003220"))
    expect(step.status).toBe(200)
    const html = await step.text()
    expect(html).toMatch(/<section data-step="challenge" aria-labelledby/)
    expect(html).toContain(`action="${page}/3ds"`)
    const empty = await post(`${page}/3ds`, { code: "", action: "verify" })
    expect(empty.status).toBe(422)
    const done = await post(`${page}/3ds`, { code: "1234", action: "verify" })
    expect(done.status).toBe(303)
    expect(JSON.parse((await webhookOf(id)).body)).toMatchObject({ type: "payment.completed", reason: null })
  })

  it("3-D Secure in the page's JSON mode: a wrong code declines it", async () => {
    const { id, page } = await newCardPayment()
    const step = await post(page, card("4000000000003220"), true)
    expect(await step.json()).toEqual({ outcome: "step", step: "challenge", fill: { last4: "3220" } })
    const done = await post(`${page}/3ds`, { code: "9999", action: "verify" }, true)
    expect(done.status).toBe(200)
    expect(await done.json()).toEqual({
      outcome: "done",
      message: expect.stringContaining("3-D Secure"),
      redirect: returnUrl,
    })
    expect(JSON.parse((await webhookOf(id)).body)).toMatchObject({
      type: "payment.failed",
      reason: "3-D Secure authentication failed",
    })
  })

  it("refuses invalid card details with every field's message and decides nothing", async () => {
    const { id, page } = await newCardPayment()
    const res = await post(
      page,
      { holder: "", number: "4242 4242 4242 4241", expiry: "01/20", cvc: "12", action: "pay" },
      true,
    )
    expect(res.status).toBe(422)
    const body = (await res.json()) as { errors: Record<string, string> }
    expect(Object.keys(body.errors).sort()).toEqual(["cvc", "expiry", "holder", "number"])
    const html = await (await post(page, { ...card("1234"), action: "pay" })).text()
    expect(html).toContain('aria-invalid="true"')
    expect(html).toContain("This card number is not valid.")
    const unknown = await post(page, card("5555 5555 5555 4444"), true)
    expect(((await unknown.json()) as { errors: Record<string, string> }).errors.number).toContain(
      "test cards",
    )
    const [row] = await t.query<{ status: string }>("SELECT status FROM sandbox_payments WHERE id = $1", [id])
    expect(row?.status).toBe("created")
  })

  it("cancel on the card page: cancelled, webhook payment.failed", async () => {
    const { id, page } = await newCardPayment()
    expect((await post(page, { action: "cancel" })).status).toBe(303)
    expect(JSON.parse((await webhookOf(id)).body)).toMatchObject({
      type: "payment.failed",
      reason: "Cancelled by the payer",
    })
  })

  it("an unknown or mismatched page address is a 404 page", async () => {
    const { id } = await newCardPayment()
    expect((await fetch(`${t.url}/sandbox-pay/card/ikajo/pay/${id}`)).status).toBe(404)
    expect((await fetch(`${t.url}/sandbox-pay/card/payweb/pay/nope`)).status).toBe(404)
    expect((await fetch(`${t.url}/sandbox-pay/skrill/app/${id}`)).status).toBe(404)
    expect((await fetch(`${t.url}/sandbox-pay/mifinity/widget?token=nope`)).status).toBe(404)
  })

  const walletFlow = async (family: "skrill" | "jeton" | "mifinity", extra: Record<string, unknown>) => {
    const path = { skrill: "/skrill/sessions", jeton: "/jeton/payments", mifinity: "/mifinity/init-iframe" }[
      family
    ]
    const res = await merchantPost(t, path, family, initiation(receiver.url, { returnUrl, ...extra }))
    expect(res.status).toBe(201)
    const pageUrl =
      family === "skrill"
        ? String(res.body.redirectUrl)
        : family === "jeton"
          ? String(res.body.checkoutUrl)
          : `${t.url}/sandbox-pay/mifinity/widget?token=${res.body.initializationToken}`
    const page = await fetch(pageUrl)
    expect(page.status).toBe(200)
    const html = await page.text()
    const id = /\/sandbox-pay\/wallet\/([0-9a-f-]{36})\//.exec(html)?.[1] ?? ""
    expect(id).not.toBe("")
    return { id, html }
  }

  for (const [family, extra] of [
    ["skrill", { paymentMethods: "WLT" }],
    ["jeton", { method: "CHECKOUT" }],
    ["jeton", { method: "JETON_CASH" }],
    ["mifinity", {}],
  ] as const) {
    it(`${family}${"method" in extra ? ` ${extra.method}` : ""}: sign in, approve → completed`, async () => {
      const { id, html } = await walletFlow(family, extra)
      expect(html).toContain('<label for="sign-in-email">')
      // Approving before signing in is refused.
      expect((await post(`/sandbox-pay/wallet/${id}/decide`, { action: "approve" })).status).toBe(422)
      const badSignIn = await post(`/sandbox-pay/wallet/${id}/sign-in`, { email: "nope", password: "" }, true)
      expect(badSignIn.status).toBe(422)
      const signIn = await post(`/sandbox-pay/wallet/${id}/sign-in`, {
        email: "payer@wallet.example",
        password: "x",
      })
      expect(signIn.status).toBe(200)
      expect(await signIn.text()).toContain("payer@wallet.example")
      const approve = await post(`/sandbox-pay/wallet/${id}/decide`, { action: "approve" })
      expect(approve.status).toBe(303)
      expect(approve.headers.get("location")).toBe(returnUrl)
      const hook = await webhookOf(id)
      expect(verify(hook.headers["x-sandbox-signature"] as string, hook.body, t.webhookSecret(family))).toBe(
        true,
      )
      expect(JSON.parse(hook.body)).toMatchObject({ type: "payment.completed", paymentId: id })
      expect((await post(`/sandbox-pay/wallet/${id}/decide`, { action: "cancel" })).status).toBe(409)
    })
  }

  it("skrill: cancel → cancelled; a 'declined…' wallet → Insufficient funds", async () => {
    const a = await walletFlow("skrill", {})
    expect((await post(`/sandbox-pay/wallet/${a.id}/decide`, { action: "cancel" })).status).toBe(303)
    expect(JSON.parse((await webhookOf(a.id)).body)).toMatchObject({
      type: "payment.failed",
      reason: "Cancelled by the payer",
    })
    const b = await walletFlow("skrill", {})
    await post(`/sandbox-pay/wallet/${b.id}/sign-in`, { email: "declined@wallet.example", password: "x" })
    expect((await post(`/sandbox-pay/wallet/${b.id}/decide`, { action: "approve" })).status).toBe(303)
    expect(JSON.parse((await webhookOf(b.id)).body)).toMatchObject({
      type: "payment.failed",
      reason: "Insufficient funds",
    })
  })

  it("jeton QR: the page shows the QR text and 'I paid in the app' approves", async () => {
    const res = await merchantPost(
      t,
      "/jeton/payments",
      "jeton",
      initiation(receiver.url, { returnUrl, method: "QR" }),
    )
    const qr = String(res.body.qr)
    const html = await (await fetch(String(res.body.checkoutUrl))).text()
    expect(html).toContain(qr)
    expect(html).toContain("I paid in the app")
    expect(html).not.toContain("sign-in-email")
    const id = String(res.body.paymentId)
    const approve = await post(`/sandbox-pay/wallet/${id}/decide`, { action: "approve" }, true)
    expect(await approve.json()).toMatchObject({ outcome: "done", redirect: returnUrl })
    expect(JSON.parse((await webhookOf(id)).body)).toMatchObject({ type: "payment.completed" })
  })
})
