/**
 * The casino and the payment sandbox beside it (the composition root's `payments` party: its own
 * port and storage, every gateway pointed at it through PAYMENT_GATEWAYS with its test_ keys),
 * through the REAL servers: a player starts a deposit, the test opens the page the answer names
 * (on the sandbox's own origin) and submits its forms exactly as the page's script does (same-origin
 * `fetch`, urlencoded, Accept JSON, to the form's action read from the HTML), and then waits for the
 * sandbox's dispatcher to deliver the signed webhook and the ledger to credit. Nothing here signs or
 * posts a webhook itself.
 */
import { spawnSync } from "node:child_process"
import { tmpdir } from "node:os"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PaymentsHandle } from "../../compose/parties/payments.ts"
import { sandboxEndpoints } from "../../providers/payment-sandbox/server.ts"
import { loadConfig } from "../../server/config.ts"
import { describeBackends, queryThrough, type TestServer } from "./harness.ts"
import { ledgerReport, newCompletePlayer, PROFILE } from "./money-support.ts"
import type { Browser } from "./users-support.ts"

interface DepositAnswer {
  readonly depositId: string
  readonly redirectUrl: string | null
  readonly qr: string | null
  readonly initializationToken: string | null
}

interface FiatRow {
  readonly id: string
  readonly status: string
  readonly reason: string | null
  readonly provider: string
  readonly method: string
  readonly amount: string
}

interface Fund {
  readonly currency: string
  readonly balance: string
}

const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, "0")

/** Polls `probe` until it returns a value (bounded: 300 × 100 ms); the dispatcher runs on its own fiber. */
const until = async <A>(what: string, probe: () => Promise<A | undefined>): Promise<A> => {
  for (let i = 0; i < 300; i++) {
    const got = await probe()
    if (got !== undefined) return got
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`gave up waiting for ${what}`)
}

/** The `action` of the page's form with this id, resolved against the page's URL. */
const formAction = (html: string, pageUrl: string, formId: string): string => {
  const match = new RegExp(`<form id="${formId}" method="post" action="([^"]+)"`).exec(html)
  if (match?.[1] === undefined) throw new Error(`no form #${formId} in the page`)
  return new URL(match[1].replaceAll("&amp;", "&"), pageUrl).toString()
}

describeBackends("money + sandbox through the real servers", ({ start }) => {
  let server: TestServer
  let sandbox: PaymentsHandle
  let sandboxUrl: string
  beforeAll(async () => {
    server = await start({ captchaEnabled: false }, { parties: ["payments"] })
    const party = server.parties.get("payments")
    if (party === undefined) throw new Error("the payments party did not start")
    sandbox = party.handle as PaymentsHandle
    sandboxUrl = party.publicUrl
  })
  afterAll(async () => {
    await server?.close()
  })

  /** What the page's script does on submit: a same-origin fetch of the form, answered in JSON. */
  const submit = async (action: string, values: Record<string, string>) => {
    const res = await fetch(action, {
      method: "POST",
      headers: {
        accept: "application/json",
        "content-type": "application/x-www-form-urlencoded;charset=UTF-8",
        origin: new URL(action).origin,
        "sec-fetch-site": "same-origin",
      },
      body: new URLSearchParams(values).toString(),
    })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }

  /** Opens the page a deposit answered, as the payment frame does; checks it is the sandbox's document. */
  const openPage = async (url: string) => {
    expect(url.startsWith(`${sandboxUrl}/sandbox-pay/`)).toBe(true)
    const res = await fetch(url, { headers: { "sec-fetch-dest": "iframe", "sec-fetch-site": "cross-site" } })
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toContain("text/html")
    const csp = res.headers.get("content-security-policy") ?? ""
    // The page's own policy, not the app's: its inline script runs by nonce.
    expect(csp).toMatch(/script-src 'nonce-[^']+'/)
    // Framed by the casino's origin (and its loopback twin), no other.
    expect(csp).toContain(`frame-ancestors 'self' ${new URL(server.config.publicUrl).origin}`)
    // Not no-referrer: browsers would then post the pages' forms (no script) with `Origin: null`
    // (tests/e2e/sandbox-pages.spec.ts shows it in Chromium).
    expect(res.headers.get("referrer-policy")).toBe("same-origin")
    return res.text()
  }

  const deposit = async (b: Browser, path: string, payload: Record<string, unknown>) => {
    const res = await b.post(`${PROFILE}/profile/${path}`, { language: "en", ...payload })
    return res
  }

  const fiat = async (b: Browser): Promise<ReadonlyArray<FiatRow>> => {
    const res = await b.get(`${PROFILE}/profile/fiat/deposit`)
    expect(res.status).toBe(200)
    return res.body as ReadonlyArray<FiatRow>
  }

  const balance = async (b: Browser, currency = "EUR"): Promise<string | undefined> => {
    const res = await b.get(`${PROFILE}/profile/currency`)
    expect(res.status).toBe(200)
    return (res.body as ReadonlyArray<Fund>).find((f) => f.currency === currency)?.balance
  }

  /** Waits until the deposit's status is final (anything but initiated / pending). */
  const settled = (b: Browser, depositId: string) =>
    until(`deposit ${depositId} to settle`, async () => {
      const row = (await fiat(b)).find((r) => r.id === depositId)
      return row !== undefined && row.status !== "initiated" && row.status !== "pending" ? row : undefined
    })

  const creditedTo = (b: Browser, expected: string) =>
    until(`balance ${expected}`, async () => ((await balance(b)) === expected ? expected : undefined))

  const card = (number: string) => ({
    holder: "Ada Lovelace",
    number,
    expiry: `12/${nextYear}`,
    cvc: "123",
    action: "pay",
  })

  const setRule = (code: string, rule: string) =>
    fetch(`${sandbox.server.url}/sandbox-pay/control/gateways/${code}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${sandbox.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ rule }),
    })

  it("card 4242…: the page's form approves, the dispatcher's webhook credits exactly the amount", async () => {
    const p = await newCompletePlayer(server, "sbx-card")
    expect(await balance(p.browser)).toBe("0")
    const res = await deposit(p.browser, "paystudio/deposit", { amount: "3000", currency: "EUR" })
    expect(res.status).toBe(200)
    const answer = res.body as DepositAnswer
    expect(answer.redirectUrl).toMatch(/\/sandbox-pay\/card\/paystudio\/pay\/[0-9a-f-]+$/)
    const pageUrl = answer.redirectUrl ?? ""
    const html = await openPage(pageUrl)
    expect(html).toContain("30.00 EUR")
    const done = await submit(formAction(html, pageUrl, "card"), card("4242 4242 4242 4242"))
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ outcome: "done" })
    const returnUrl = String(done.body.redirect)
    expect(returnUrl).toBe(`${server.config.publicUrl}/api/payments/return?deposit=${answer.depositId}`)
    // The frame's one navigation: the casino's return page (it credits nothing itself).
    const back = await fetch(returnUrl)
    expect(back.status).toBe(200)
    expect(await back.text()).toContain("Payment received")

    expect(await creditedTo(p.browser, "3000")).toBe("3000")
    const row = await settled(p.browser, answer.depositId)
    expect(row).toMatchObject({ status: "completed", provider: "paystudio", method: "card", amount: "3000" })
    // A second submit is refused by the provider: a decision is final once; still 30.00.
    const again = await submit(formAction(html, pageUrl, "card"), card("4242 4242 4242 4242"))
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ outcome: "decided" })
    expect(await balance(p.browser)).toBe("3000")
  })

  it("a declined card fails the deposit with the provider's reason and credits nothing", async () => {
    const p = await newCompletePlayer(server, "sbx-declined")
    const res = await deposit(p.browser, "paystudio/deposit", { amount: "5000", currency: "EUR" })
    expect(res.status).toBe(200)
    const answer = res.body as DepositAnswer
    const pageUrl = answer.redirectUrl ?? ""
    const html = await openPage(pageUrl)
    const done = await submit(formAction(html, pageUrl, "card"), card("4000 0000 0000 0002"))
    expect(done.body).toMatchObject({ outcome: "done" })
    expect(String(done.body.message)).toContain("Card declined")
    const row = await settled(p.browser, answer.depositId)
    expect(row).toMatchObject({ status: "failed", reason: "Card declined" })
    expect(await balance(p.browser)).toBe("0")
  })

  it("a gateway set down through the control endpoint: 502 GatewayUnavailable, the next one works", async () => {
    const p = await newCompletePlayer(server, "sbx-down")
    const down = await setRule("paystudio", "down")
    expect(down.status).toBe(200)
    expect(await down.json()).toEqual({ gateway: "paystudio", rule: "down" })
    try {
      const refused = await deposit(p.browser, "paystudio/deposit", { amount: "3000", currency: "EUR" })
      expect(refused.status).toBe(502)
      expect(refused.body).toMatchObject({ _tag: "GatewayUnavailable", gateway: "paystudio" })
      const [failed] = await fiat(p.browser)
      expect(failed).toMatchObject({ status: "failed", provider: "paystudio" })
      // The cascade's next gateway.
      const next = await deposit(p.browser, "payweb/deposit", { amount: "3000", currency: "EUR" })
      expect(next.status).toBe(200)
      expect((next.body as DepositAnswer).redirectUrl).toContain("/sandbox-pay/card/payweb/pay/")
    } finally {
      expect((await setRule("paystudio", "up")).status).toBe(200)
    }
  })

  /** Sign in, then approve, on an e-wallet page (Skrill, Jeton checkout, MiFinity's widget). */
  const walletApprove = async (pageUrl: string, email = "payer@wallet.example") => {
    const html = await openPage(pageUrl)
    const signedIn = await submit(formAction(html, pageUrl, "sign-in"), {
      email,
      password: "secret",
      action: "sign-in",
    })
    expect(signedIn.body).toMatchObject({ outcome: "step", step: "approve" })
    return submit(formAction(html, pageUrl, "approve"), { action: "approve" })
  }

  it("Skrill: approved on its page, credited", async () => {
    const p = await newCompletePlayer(server, "sbx-skrill")
    const res = await deposit(p.browser, "skrill/deposit", { amount: "4000", currency: "EUR" })
    expect(res.status).toBe(200)
    const answer = res.body as DepositAnswer
    expect(answer.redirectUrl).toContain("/sandbox-pay/skrill/app/")
    const done = await walletApprove(answer.redirectUrl ?? "")
    expect(done.body).toMatchObject({ outcome: "done" })
    expect(await creditedTo(p.browser, "4000")).toBe("4000")
    expect(await settled(p.browser, answer.depositId)).toMatchObject({
      status: "completed",
      method: "skrill",
    })
  })

  it("Jeton checkout: approved on its page, credited; Jeton QR: paid in the app", async () => {
    const p = await newCompletePlayer(server, "sbx-jeton")
    const res = await deposit(p.browser, "jeton/Checkout/deposit", {
      amount: "2500",
      currency: "EUR",
      email: p.email,
    })
    expect(res.status).toBe(200)
    const answer = res.body as DepositAnswer
    expect(answer.redirectUrl).toContain("/sandbox-pay/jeton/pay/")
    expect(answer.qr).toBeNull()
    expect((await walletApprove(answer.redirectUrl ?? "")).body).toMatchObject({ outcome: "done" })
    expect(await creditedTo(p.browser, "2500")).toBe("2500")
    expect(await settled(p.browser, answer.depositId)).toMatchObject({ status: "completed", method: "jeton" })

    const qr = await deposit(p.browser, "jeton/QR/deposit", {
      amount: "1500",
      currency: "EUR",
      email: p.email,
    })
    expect(qr.status).toBe(200)
    const qrAnswer = qr.body as DepositAnswer
    expect(qrAnswer.qr).toBe(qrAnswer.redirectUrl)
    const qrUrl = qrAnswer.redirectUrl ?? ""
    const html = await openPage(qrUrl)
    expect((await submit(formAction(html, qrUrl, "qr"), { action: "approve" })).body).toMatchObject({
      outcome: "done",
    })
    expect(await creditedTo(p.browser, "4000")).toBe("4000")
  })

  it("MiFinity: its widget (addressed by the initialization token) approves, credited", async () => {
    const p = await newCompletePlayer(server, "sbx-mifinity")
    const res = await deposit(p.browser, "mifinity/deposit", { amount: "6000", currency: "EUR" })
    expect(res.status).toBe(200)
    const answer = res.body as DepositAnswer
    expect(answer.initializationToken).not.toBeNull()
    expect(answer.redirectUrl).toBe(
      `${sandboxUrl}/sandbox-pay/mifinity/widget?token=${encodeURIComponent(answer.initializationToken ?? "")}`,
    )
    expect((await walletApprove(answer.redirectUrl ?? "")).body).toMatchObject({ outcome: "done" })
    expect(await creditedTo(p.browser, "6000")).toBe("6000")
    expect(await settled(p.browser, answer.depositId)).toMatchObject({
      status: "completed",
      method: "mifinity",
    })
  })

  it("an e-wallet payer without money: declined, failed, nothing credited", async () => {
    const p = await newCompletePlayer(server, "sbx-poor")
    const res = await deposit(p.browser, "skrill/deposit", { amount: "4000", currency: "EUR" })
    const answer = res.body as DepositAnswer
    const done = await walletApprove(answer.redirectUrl ?? "", "declined@wallet.example")
    expect(done.body).toMatchObject({ outcome: "done" })
    expect(await settled(p.browser, answer.depositId)).toMatchObject({
      status: "failed",
      reason: "Insufficient funds",
    })
    expect(await balance(p.browser)).toBe("0")
  })

  it("the casino serves nothing of the sandbox: its addresses are the sandbox's own origin", async () => {
    expect(new URL(sandboxUrl).origin).not.toBe(new URL(server.config.publicUrl).origin)
    // The casino no longer answers the sandbox's merchant API itself.
    const old = await fetch(`${server.url}/sandbox-pay/card/paystudio/payments`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: "{}",
    })
    expect(old.status).toBeGreaterThanOrEqual(400)
    expect(await old.text()).not.toContain("bad_request")
  })

  it("every path of the sandbox's endpoint index is really routed (the index and the routes agree)", async () => {
    for (const e of sandboxEndpoints) {
      const path = e.path
        .replaceAll(":code", "paystudio")
        .replaceAll(":id", "00000000-0000-0000-0000-000000000000")
      const res = await fetch(`${sandbox.server.url}${path}`, {
        method: e.method,
        headers: { "content-type": "application/json" },
        ...(e.method === "GET" ? {} : { body: "{}" }),
      })
      // A routed path answers its own refusal (401, 400, its HTML 404 page…), not the fallback's.
      const body = await res.text()
      expect(res.status, `${e.method} ${e.path}`).not.toBe(405)
      expect(body, `${e.method} ${e.path}`).not.toContain("No such address.")
    }
  })

  it("every webhook was delivered once acknowledged, and ledger:check is clean", async () => {
    const pending = await queryThrough(sandbox.server.run)<{ n: string }>(
      "SELECT count(*)::text AS n FROM sandbox_webhook_outbox WHERE delivered_at IS NULL",
    )
    expect(pending[0]?.n).toBe("0")
    const report = await ledgerReport(server)
    expect(report.clean).toBe(true)
    // The operator's command too, where another process may open the database (PostgreSQL).
    if (server.config.databaseUrl !== undefined) {
      const run = spawnSync(process.execPath, ["scripts/ledger-check.ts", "--json"], {
        cwd: fileURLToPath(new URL("../..", import.meta.url)),
        env: { ...process.env, DATABASE_URL: server.config.databaseUrl },
        encoding: "utf8",
      })
      expect(run.status, run.stderr).toBe(0)
      expect(JSON.parse(run.stdout)).toMatchObject({ clean: true })
    }
  })
})

describe("INTERNAL_URL default (where the providers' webhooks reach the casino)", () => {
  it("is loopback for a wildcard HOST, else the address the server listens on", () => {
    const env = { DATA_DIR: tmpdir(), CAPTCHA_SECRET: "x".repeat(32), PORT: "8123" }
    expect(loadConfig({ ...env }).internalUrl).toBe("http://127.0.0.1:8123")
    expect(loadConfig({ ...env, HOST: "::" }).internalUrl).toBe("http://127.0.0.1:8123")
    expect(loadConfig({ ...env, HOST: "10.1.2.3" }).internalUrl).toBe("http://10.1.2.3:8123")
    expect(loadConfig({ ...env, HOST: "::1" }).internalUrl).toBe("http://[::1]:8123")
    expect(loadConfig({ ...env, HOST: "10.1.2.3", INTERNAL_URL: "http://casino:8080/" }).internalUrl).toBe(
      "http://casino:8080",
    )
  })
})
