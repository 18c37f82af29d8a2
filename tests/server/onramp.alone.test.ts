/**
 * The sandbox on-ramp party ALONE (providers/onramp-sandbox/server.ts), no casino, no chains, on
 * PGlite and PostgreSQL: its configuration from its own ONRAMP_SANDBOX_* variables; its storage its
 * own (a PGlite in its data folder; on a shared PostgreSQL its tables and migrations in schema
 * onramp_sandbox, nothing in public); its secret generated into its folder when unset; its own
 * prices; without chains to pay through, a purchase fails with its message and nothing is charged.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadOnrampSandboxConfig } from "../../providers/onramp-sandbox/config.ts"
import { describeOnrampBackends, type OnrampTest, startOnramp } from "./onramp-harness.ts"

const btcAddress = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"

describe("configuration", () => {
  it("reads its own ONRAMP_SANDBOX_* variables and names a bad one", () => {
    const base = { ONRAMP_SANDBOX_SECRET: "s".repeat(32) }
    expect(loadOnrampSandboxConfig(base)).toMatchObject({
      port: 8082,
      schema: "onramp_sandbox",
      dataDir: ".data/onramp",
      callbackUrl: undefined,
      chainsUrl: undefined,
    })
    expect(() => loadOnrampSandboxConfig({ ONRAMP_SANDBOX_SECRET: "short" })).toThrow(/ONRAMP_SANDBOX_SECRET/)
    expect(() =>
      loadOnrampSandboxConfig({
        ...base,
        ONRAMP_SANDBOX_CALLBACK_URL: "http://casino/api/crypto/onramp/banxa/callback",
      }),
    ).toThrow(/ONRAMP_SANDBOX_CALLBACK_URL/)
    expect(() => loadOnrampSandboxConfig({ ...base, ONRAMP_SANDBOX_CHAINS_URL: "chains:8084" })).toThrow(
      /ONRAMP_SANDBOX_CHAINS_URL/,
    )
    expect(() => loadOnrampSandboxConfig({ ...base, ONRAMP_SANDBOX_PRICES: "BTC=free" })).toThrow(
      /ONRAMP_SANDBOX_PRICES/,
    )
    expect(() => loadOnrampSandboxConfig({ ...base, ONRAMP_SANDBOX_DATABASE_URL: "mysql://x" })).toThrow(
      /ONRAMP_SANDBOX_DATABASE_URL/,
    )
  })
})

describeOnrampBackends("onramp sandbox alone", (backend) => {
  let t: OnrampTest
  beforeAll(async () => {
    // No secret given (generated into its folder), no chains, a price of its own for BTC.
    t = await startOnramp(backend, { ONRAMP_SANDBOX_SECRET: "", ONRAMP_SANDBOX_PRICES: "BTC=61000" })
  }, 60_000)
  afterAll(() => t?.close())

  it("keeps its storage and its secret to itself", async () => {
    expect(readFileSync(join(t.dataDir, "secret"), "utf8").trim()).toBe(t.config.secret)
    expect(t.config.secret).toMatch(/^[0-9a-f]{64}$/)
    if (backend === "pglite") {
      expect(existsSync(join(t.dataDir, "pglite", "PG_VERSION"))).toBe(true)
    } else {
      const tables = await t.query<{ schema: string; name: string }>(
        `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
         WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY table_name`,
      )
      expect(tables).toEqual([
        { schema: "onramp_sandbox", name: "onramp_sandbox_orders" },
        { schema: "onramp_sandbox", name: "onramp_sandbox_prices" },
        { schema: "onramp_sandbox", name: "schema_migrations" },
      ])
    }
  })

  it("quotes at its own prices", async () => {
    const res = await fetch(`${t.url}/sandbox-onramp/banxa/quote?currency=BTC&amount=100`)
    expect(((await res.json()) as { quote: { rate: string } }).quote.rate).toBe("1 BTC = 61000 EUR")
    const eth = await fetch(`${t.url}/sandbox-onramp/banxa/quote?currency=ETH&amount=100`)
    expect(((await eth.json()) as { quote: { rate: string } }).quote.rate).toBe("1 ETH = 3000 EUR")
  })

  it("without chains to pay through, a purchase fails with its message and nothing is charged", async () => {
    const page = await (await fetch(t.widgetUrl("banxa", "BTC", btcAddress))).text()
    expect(page).toContain('<span class="badge">SANDBOX</span>')
    const action = /<form id="buy" method="post" action="([^"]+)"/.exec(page)?.[1]?.replaceAll("&amp;", "&")
    const orderId = /name="orderId" value="([^"]+)"/.exec(page)?.[1]
    if (action === undefined || orderId === undefined) throw new Error("no form")
    const res = await fetch(`${t.url}${action}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ orderId, amount: "50" }).toString(),
    })
    expect(res.status).toBe(303)
    const order = await (await fetch(`${t.url}${res.headers.get("location") ?? ""}`)).text()
    expect(order).toContain("The purchase failed")
    expect(order).toContain("The chain could not be reached: nothing was sent and you were not charged.")
    expect(
      await t.query("SELECT status, tx_hash FROM onramp_sandbox_orders WHERE id = $1", [orderId]),
    ).toEqual([{ status: "failed", tx_hash: null }])
  })
})
