/**
 * The sandbox on-ramp alone, through plain HTTP, as the player's frame uses it (GET the purchase
 * page, POST its form), on PGlite and PostgreSQL, paying through a TEST double of the chains'
 * faucet API: below the tier's threshold no verification, above it verification required; bad
 * input answered by a 4xx page with its message; a replayed order sends once; forged links
 * refused; a currency without a price refused; a chain that is down fails the order without
 * sending; the casino told by a callback signed by the widget's family.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { onrampAdapters } from "../../protocols/onramp/index.ts"
import { sandboxWidgetCredentials } from "../../providers/onramp-sandbox/credentials.ts"
import { subunitsOf } from "../../providers/onramp-sandbox/PricesRepo.ts"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import { parseDecimal } from "../../services/money-rules.ts"
import { onrampQuote, onrampTiers } from "../../services/onramp-rules.ts"
import {
  casinoOrigins,
  describeOnrampBackends,
  eventually,
  type FaucetDouble,
  type OnrampTest,
  type Receiver,
  startFaucetDouble,
  startOnramp,
  startReceiver,
} from "./onramp-harness.ts"

const btcAddress = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
const ethAddress = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94"
const dogeAddress = "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC"

const unescapeHtml = (s: string) => s.replaceAll("&amp;", "&")

describeOnrampBackends("onramp sandbox", (backend) => {
  let t: OnrampTest
  let receiver: Receiver
  let faucet: FaucetDouble
  beforeAll(async () => {
    // The casino's side of the callbacks: a receiver that records what the provider posts.
    receiver = await startReceiver()
    faucet = await startFaucetDouble()
    t = await startOnramp(backend, {
      ONRAMP_SANDBOX_CALLBACK_URL: `${receiver.url}/api/crypto/onramp/{widget}/callback`,
      ONRAMP_SANDBOX_CHAINS_URL: faucet.url,
    })
    // Dogecoin without a price: the sandbox does not sell it.
    await t.query("DELETE FROM onramp_sandbox_prices WHERE currency = 'DOG'")
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await faucet?.close()
    await receiver?.close()
  })

  const widgetUrl = (
    id: "banxa" | "mercuryo" | "moonpay" | "transak",
    currency: CryptoCurrency,
    address: string,
  ) => t.widgetUrl(id, currency, address)

  /** GET the purchase page; the form's action and the order id minted for it. */
  const open = async (url: string) => {
    const res = await fetch(url)
    const html = await res.text()
    const action = /<form id="buy" method="post" action="([^"]+)"/.exec(html)?.[1]
    const orderId = /name="orderId" value="([^"]+)"/.exec(html)?.[1]
    return { res, html, action: action === undefined ? undefined : unescapeHtml(action), orderId }
  }

  const buy = (action: string, values: Record<string, string>) =>
    fetch(`${t.url}${action}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(values).toString(),
    })

  const expectedAmount = async (
    currency: CryptoCurrency,
    eurCents: bigint,
    tier: keyof typeof onrampTiers,
  ) => {
    // Its own price, not a casino's rate.
    const [price] = await t.query<{ eur_rate: string }>(
      "SELECT eur_rate::text AS eur_rate FROM onramp_sandbox_prices WHERE currency = $1",
      [currency],
    )
    const q = onrampQuote(
      eurCents,
      onrampTiers[tier],
      parseDecimal(price?.eur_rate ?? "") ?? 0n,
      subunitsOf[currency],
    )
    if (q === null) throw new Error("no quote")
    return q
  }

  it("serves the purchase page: its own CSP, framed by the casino only, labelled fields, tier and address", async () => {
    const { res, html, action, orderId } = await open(widgetUrl("banxa", "BTC", btcAddress))
    expect(res.status).toBe(200)
    const csp = res.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain(`frame-ancestors 'self' ${casinoOrigins.join(" ")}`)
    expect(html).toContain('<span class="badge">SANDBOX</span>')
    expect(html).toContain(btcAddress)
    expect(html).toContain("Fee 5 % · about 15 min")
    expect(html).toContain("Identity verification above 200 EUR")
    for (const id of ["f-amount", "f-fullName", "f-birthDate", "f-documentNumber"])
      expect(html).toContain(`<label for="${id}">`)
    expect(action).toMatch(/^\/sandbox-onramp\/banxa\/buy\?/)
    expect(orderId).toMatch(/^[0-9a-f-]{36}$/)
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/)
  })

  it("below the threshold: no verification; the bought amount is sent once to the address and the order shows the hash", async () => {
    const before = faucet.sends.length
    const { action, orderId } = await open(widgetUrl("banxa", "BTC", btcAddress))
    if (action === undefined || orderId === undefined) throw new Error("no form")
    const res = await buy(action, { orderId, amount: "50" })
    expect(res.status).toBe(303)
    const location = res.headers.get("location") ?? ""
    expect(location).toContain(`/sandbox-onramp/banxa/orders/${orderId}`)
    const q = await expectedAmount("BTC", 5000n, "standard")
    expect(q.feeEurCents).toBe(250n)
    expect(faucet.sends.length).toBe(before + 1)
    const send = faucet.sends.at(-1)
    expect(send).toMatchObject({ currency: "BTC", to: btcAddress, amount: q.cryptoAmount })
    const page = await (await fetch(`${t.url}${location}`)).text()
    expect(page).toContain(`data-status="sent"`)
    expect(page).toContain(send?.txHash ?? "none")
    expect(page).toContain("Buy more BTC")
    const [row] = await t.query<{ status: string; tx_hash: string; verified_name: string | null }>(
      "SELECT status, tx_hash, verified_name FROM onramp_sandbox_orders WHERE id = $1",
      [orderId],
    )
    expect(row).toEqual({ status: "sent", tx_hash: send?.txHash, verified_name: null })

    // The same form posted again (a double click, a reload): the same order, nothing sent twice.
    const replay = await buy(action, { orderId, amount: "50" })
    expect(replay.status).toBe(303)
    expect(replay.headers.get("location")).toContain("replay=1")
    expect(faucet.sends.length).toBe(before + 1)
    const replayPage = await (await fetch(`${t.url}${replay.headers.get("location") ?? ""}`)).text()
    expect(replayPage).toContain("nothing was bought twice")
    // The same order id with other details is refused.
    const other = await buy(action, { orderId, amount: "60" })
    expect(other.status).toBe(409)
    expect(await other.text()).toContain("already placed with other details")
    expect(faucet.sends.length).toBe(before + 1)

    // The provider told the casino, signed by Banxa's scheme over the callback's path.
    const callback = await eventually(async () => receiver.received.find((r) => r.body.includes(orderId)))
    expect(callback.path).toBe("/api/crypto/onramp/banxa/callback")
    const creds = sandboxWidgetCredentials(t.config.secret, "banxa", t.config.publicUrl)
    const headers = Object.fromEntries(
      Object.entries(callback.headers).filter((e): e is [string, string] => typeof e[1] === "string"),
    )
    expect(
      onrampAdapters.banxa.verifyCallback(
        creds,
        { headers, body: callback.body, path: "/api/crypto/onramp/banxa/callback" },
        Math.floor(Date.now() / 1000),
        300,
      ),
    ).toMatchObject({
      ok: true,
      event: { orderId, status: "completed", txHash: send?.txHash, cryptoAmount: q.cryptoAmount.toString() },
    })
    // The player's orders are listed on the purchase page.
    const again = await open(widgetUrl("banxa", "BTC", btcAddress))
    expect(again.html).toContain("50.00 EUR")
    expect(again.html).toContain(send?.txHash.slice(0, 10) ?? "none")
  })

  it("above the tier's threshold: verification is required, checked, then the purchase goes through", async () => {
    const before = faucet.sends.length
    // MoonPay's tier asks above 100 EUR.
    const { action, orderId } = await open(widgetUrl("moonpay", "ETH", ethAddress))
    if (action === undefined || orderId === undefined) throw new Error("no form")
    const missing = await buy(action, { orderId, amount: "150" })
    expect(missing.status).toBe(422)
    const html = await missing.text()
    expect(html).toContain("Please correct the highlighted fields.")
    expect(html).toMatch(/id="f-fullName"[^>]*aria-invalid="true"[^>]*autofocus/)
    expect(html).toContain("Enter your full name as on your document")
    expect(html).toContain(`value="${orderId}"`)
    const young = new Date()
    young.setUTCFullYear(young.getUTCFullYear() - 17)
    const underage = await buy(action, {
      orderId,
      amount: "150",
      fullName: "Ada Lovelace",
      birthDate: young.toISOString().slice(0, 10),
      documentNumber: "X1234567",
    })
    expect(underage.status).toBe(422)
    expect(await underage.text()).toContain("You must be 18 or older to buy crypto")
    const rejected = await buy(action, {
      orderId,
      amount: "150",
      fullName: "Ada Lovelace",
      birthDate: "1990-12-10",
      documentNumber: "REJECT000",
    })
    expect(rejected.status).toBe(422)
    expect(await rejected.text()).toContain("This document could not be verified")
    expect(faucet.sends.length).toBe(before)

    const ok = await buy(action, {
      orderId,
      amount: "150",
      fullName: "Ada Lovelace",
      birthDate: "1990-12-10",
      documentNumber: "X1234567",
    })
    expect(ok.status).toBe(303)
    const q = await expectedAmount("ETH", 15000n, "saver")
    expect(q.feeEurCents).toBe(675n)
    expect(faucet.sends.at(-1)).toMatchObject({ currency: "ETH", to: ethAddress, amount: q.cryptoAmount })
    const [row] = await t.query<{ verified_name: string }>(
      "SELECT verified_name FROM onramp_sandbox_orders WHERE id = $1",
      [orderId],
    )
    expect(row?.verified_name).toBe("Ada Lovelace")

    // The same 150 EUR in the other tier (threshold 200) needs no verification.
    const mercuryo = await open(widgetUrl("mercuryo", "USDT", ethAddress))
    if (mercuryo.action === undefined || mercuryo.orderId === undefined) throw new Error("no form")
    const plain = await buy(mercuryo.action, { orderId: mercuryo.orderId, amount: "150" })
    expect(plain.status).toBe(303)
    expect(faucet.sends.at(-1)).toMatchObject({ currency: "USDT", to: ethAddress })
  })

  it("the same order posted five times at once is sent once", async () => {
    const before = faucet.sends.length
    const { action, orderId } = await open(
      widgetUrl("mercuryo", "LTC", "ltc1qcr8te4kr609gcawutmrza0j4xv80jy8zxxxxxx"),
    )
    if (action === undefined || orderId === undefined) throw new Error("no form")
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => buy(action, { orderId, amount: "33.33" })),
    )
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303, 303, 303])
    expect(answers.filter((a) => !(a.headers.get("location") ?? "").includes("replay=1")).length).toBe(1)
    expect(faucet.sends.length).toBe(before + 1)
    const rows = await t.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM onramp_sandbox_orders WHERE id = $1",
      [orderId],
    )
    expect(rows[0]?.n).toBe("1")
  })

  it("bad amounts answer the form again (422) with the message, and send nothing", async () => {
    const before = faucet.sends.length
    const { action, orderId } = await open(
      widgetUrl("transak", "LTC", "ltc1qtestaddress0000000000000000000000000"),
    )
    if (action === undefined || orderId === undefined) throw new Error("no form")
    for (const [amount, text] of [
      ["", "Enter an amount in EUR"],
      ["abc", "Enter an amount in EUR"],
      ["19.99", "The minimum purchase is 20.00 EUR"],
      ["5000.01", "The maximum purchase is 5000.00 EUR"],
    ] as const) {
      const res = await buy(action, { orderId, amount })
      expect(res.status).toBe(422)
      const html = await res.text()
      expect(html).toContain(text)
      expect(html).toMatch(/id="f-amount"[^>]*aria-invalid="true"/)
    }
    const badOrder = await buy(action, { orderId: "not-a-uuid", amount: "50" })
    expect(badOrder.status).toBe(422)
    expect(await badOrder.text()).toContain("This purchase form has expired")
    expect(faucet.sends.length).toBe(before)
  })

  it("refuses forged or altered links, unknown widgets and orders", async () => {
    const moonpay = widgetUrl("moonpay", "BTC", btcAddress)
    const altered = moonpay.replace(
      encodeURIComponent(btcAddress),
      "bc1qattackerattackerattackerattacker0000",
    )
    expect((await fetch(altered)).status).toBe(403)
    const mercuryo = new URL(widgetUrl("mercuryo", "BTC", btcAddress))
    mercuryo.searchParams.set("address", "bc1qattackerattackerattackerattacker0000")
    const res = await fetch(mercuryo)
    expect(res.status).toBe(403)
    expect(await res.text()).toContain("its signature does not match")
    const transak = new URL(widgetUrl("transak", "BTC", btcAddress))
    transak.searchParams.set("apiKey", "pk_someone_else")
    expect((await fetch(transak)).status).toBe(403)
    const banxa = new URL(widgetUrl("banxa", "BTC", btcAddress))
    banxa.searchParams.set("coinType", "XRP")
    expect((await fetch(banxa)).status).toBe(400)
    expect((await fetch(`${t.url}/sandbox-onramp/nobody?x=1`)).status).toBe(404)
    expect((await fetch(`${t.url}/sandbox-onramp/banxa/orders/${crypto.randomUUID()}`)).status).toBe(404)
    expect((await fetch(`${t.url}/sandbox-onramp/banxa/orders/%00`)).status).toBe(404)
    // A signed link with a bad address for its currency is refused at purchase.
    const page = await open(widgetUrl("banxa", "ETH", "not-an-address"))
    if (page.action === undefined || page.orderId === undefined) throw new Error("no form")
    const bad = await buy(page.action, { orderId: page.orderId, amount: "50" })
    expect(bad.status).toBe(422)
    expect(await bad.text()).toContain("not valid for its currency")
  })

  it("a currency without a price is not sold; a chain that is down fails the order without sending", async () => {
    const doge = await open(widgetUrl("banxa", "DOG", dogeAddress))
    expect(doge.res.status).toBe(200)
    expect(doge.html).toContain("Buying DOGE is not available in this sandbox right now.")
    expect(doge.action).toBeUndefined()
    const forced = await buy(
      `/sandbox-onramp/banxa/buy${new URL(widgetUrl("banxa", "DOG", dogeAddress)).search}`,
      {
        orderId: crypto.randomUUID(),
        amount: "50",
      },
    )
    expect(forced.status).toBe(503)

    const before = faucet.sends.length
    const { action, orderId } = await open(widgetUrl("banxa", "BTC", btcAddress))
    if (action === undefined || orderId === undefined) throw new Error("no form")
    faucet.state.down = true
    try {
      const res = await buy(action, { orderId, amount: "40" })
      expect(res.status).toBe(303)
      const page = await (await fetch(`${t.url}${res.headers.get("location") ?? ""}`)).text()
      expect(page).toContain("The purchase failed")
      expect(page).toContain("nothing was sent")
    } finally {
      faucet.state.down = false
    }
    expect(faucet.sends.length).toBe(before)
    // Failed is final: the same order is not sent later.
    const replay = await buy(action, { orderId, amount: "40" })
    expect(replay.status).toBe(303)
    expect(faucet.sends.length).toBe(before)
  })

  it("quotes as JSON for the page's script", async () => {
    const res = await fetch(`${t.url}/sandbox-onramp/moonpay/quote?currency=BTC&amount=100`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      quote: {
        pay: "100.00 EUR",
        fee: "− 4.50 EUR",
        rate: "1 BTC = 60000 EUR",
        get: "0.00159166 BTC",
        verificationRequired: false,
      },
    })
    const above = (await (
      await fetch(`${t.url}/sandbox-onramp/moonpay/quote?currency=BTC&amount=100.01`)
    ).json()) as {
      quote: { verificationRequired: boolean }
    }
    expect(above.quote.verificationRequired).toBe(true)
    expect((await fetch(`${t.url}/sandbox-onramp/moonpay/quote?currency=BTC&amount=1`)).status).toBe(422)
    expect((await fetch(`${t.url}/sandbox-onramp/moonpay/quote?currency=XRP&amount=50`)).status).toBe(400)
  })
})
