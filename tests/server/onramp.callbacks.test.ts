/**
 * The casino's receiver of the widgets' order-status callbacks (POST /api/crypto/onramp/:widget/callback)
 * on the real server, on PostgreSQL: a genuine callback of each family is recorded once, its
 * replay answered as a duplicate without a second row; forged, stale, unsigned and unknown-widget
 * callbacks are refused with 4xx.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { type OrderEvent, onrampAdapters } from "../../protocols/onramp/index.ts"
import { widgetCredentials } from "../../server/crypto/onramp/index.ts"
import { onrampFamilies } from "../../services/onramp-rules.ts"
import { testWidgetsEnv } from "./crypto-support.ts"
import { describeOn, type TestServer } from "./harness.ts"

describeOn("postgres", "onramp callbacks", ({ start }) => {
  let t: TestServer
  beforeAll(async () => {
    // The four widgets configured with an on-ramp sandbox's keys (as the composition gives them).
    t = await start({ captchaEnabled: false }, { env: testWidgetsEnv() })
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
      if (creds === undefined) throw new Error("the widgets are configured in this test")
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
