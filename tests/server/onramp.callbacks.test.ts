/**
 * The casino's receiver of the widgets' order-status callbacks (POST /api/crypto/onramp/:widget/callback)
 * on the real server, PGlite and PostgreSQL: a genuine callback of each family is recorded once, its
 * replay answered as a duplicate without a second row; forged, stale, unsigned and unknown-widget
 * callbacks are refused with 4xx.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import type { OrderEvent } from "../../server/crypto/onramp/family.ts"
import { onrampAdapters, widgetCredentials } from "../../server/crypto/onramp/index.ts"
import { buyCryptoWidgets } from "../../server/crypto/widgets.ts"
import { onrampFamilies } from "../../services/onramp-rules.ts"
import { describeBackends, type TestServer } from "./harness.ts"

describeBackends("onramp callbacks", ({ start }) => {
  let t: TestServer
  beforeAll(async () => {
    t = await start({ captchaEnabled: false })
  })
  afterAll(async () => {
    await t?.close()
  })

  const event = (eventId: string): OrderEvent => ({
    eventId,
    orderId: crypto.randomUUID(),
    status: "completed",
    currency: "USDT",
    address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
    cryptoAmount: "95500000",
    txHash: `0x${"ab".repeat(32)}`,
  })

  const post = (widget: string, headers: Readonly<Record<string, string>>, body: string) =>
    fetch(`${t.url}/api/crypto/onramp/${widget}/callback`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body,
    })

  const now = () => Math.floor(Date.now() / 1000)

  it.each(onrampFamilies)(
    "%s: recorded once; the replay is a duplicate; forged and stale refused",
    async (family) => {
      const creds = widgetCredentials(t.config, family)
      if (creds === undefined) throw new Error("the sandbox widgets are on in tests")
      const path = `/api/crypto/onramp/${family}/callback`
      const e = event(`${family}-evt-1`)
      const signed = onrampAdapters[family].signCallback(creds, e, now(), path)
      const first = await post(family, signed.headers, signed.body)
      expect(first.status).toBe(200)
      expect(await first.json()).toEqual({ received: true, duplicate: false })
      const again = await post(family, signed.headers, signed.body)
      expect(await again.json()).toEqual({ received: true, duplicate: true })
      const rows = await t.query<{ order_id: string; tx_hash: string; crypto_amount: string }>(
        "SELECT order_id, tx_hash, crypto_amount::text AS crypto_amount FROM onramp_callbacks WHERE widget = $1 AND event_id = $2",
        [family, e.eventId],
      )
      expect(rows).toEqual([{ order_id: e.orderId, tx_hash: e.txHash, crypto_amount: "95500000" }])

      const forged = onrampAdapters[family].signCallback(
        { ...creds, webhookSecret: "attacker-secret-0123456789" },
        event(`${family}-evt-2`),
        now(),
        path,
      )
      const refused = await post(family, forged.headers, forged.body)
      expect(refused.status).toBe(401)
      expect(await refused.json()).toEqual({ error: "forged" })
      const old = onrampAdapters[family].signCallback(creds, event(`${family}-evt-3`), now() - 3600, path)
      const stale = await post(family, old.headers, old.body)
      expect(stale.status).toBe(401)
      expect(await stale.json()).toEqual({ error: "stale" })
      const count = await t.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM onramp_callbacks WHERE widget = $1",
        [family],
      )
      expect(count[0]?.n).toBe("1")
    },
  )

  it("mounts the sandbox on-ramp in the casino server: the widget's frame page, its form post past the edge", async () => {
    const address = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
    const widget = buyCryptoWidgets(t.config, "BTC", address)[0]
    expect(widget?.id).toBe("banxa")
    const page = await fetch(widget?.url ?? "")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-security-policy")).toContain(`frame-ancestors 'self' ${t.url}`)
    expect(await page.text()).toContain("Buy BTC")
    // A browser's form post from the frame carries the site's Origin: the edge lets it through to the
    // sandbox, which answers the form (422: no amount) or, without a faucet for BTC yet, 503.
    const post = await fetch(`${t.url}/sandbox-onramp/banxa/buy${new URL(widget?.url ?? "").search}`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: t.url, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ orderId: crypto.randomUUID(), amount: "" }).toString(),
    })
    expect([422, 503]).toContain(post.status)
    expect(post.headers.get("content-type")).toContain("text/html")
  })

  it("refuses an unsigned callback and an unknown widget", async () => {
    const unsigned = await post(
      "moonpay",
      {},
      JSON.stringify({ type: "transaction_updated", data: event("x") }),
    )
    expect(unsigned.status).toBe(401)
    expect((await post("nobody", {}, "{}")).status).toBe(404)
  })
})
