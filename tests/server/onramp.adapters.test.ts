/**
 * The widget families' protocols (protocols/onramp/): each family's hosted URL and its parameters, the
 * signatures computed independently here from the protocol's description, the provider's side
 * reading the launch back (altered → refused), and every family's callback check: genuine accepted,
 * altered body / wrong secret forged, old timestamp stale, unsigned refused. And buyCryptoWidgets.
 */
import { createHash, createHmac } from "node:crypto"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { isTestKey } from "../../protocols/keys.ts"
import { banxaAuthorization, verifyBanxaAuthorization } from "../../protocols/onramp/banxa.ts"
import type { OrderEvent, WidgetCredentials } from "../../protocols/onramp/family.ts"
import { onrampAdapters } from "../../protocols/onramp/index.ts"
import { sandboxWidgetCredentials } from "../../providers/onramp-sandbox/credentials.ts"
import { loadConfig } from "../../server/config.ts"
import { banxaCheckoutIframe, buyCryptoWidgets } from "../../server/crypto/widgets.ts"
import { onrampFamilies } from "../../services/onramp-rules.ts"
import { testOnrampSecret, testWidgetsEnv } from "./crypto-support.ts"

const creds: WidgetCredentials = {
  baseUrl: "https://widget.example/buy",
  apiKey: "pk_test_123",
  secretKey: "sk_test_0123456789abcdef",
  webhookSecret: "whsec_0123456789abcdef",
}
const address = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"
const now = 1_800_000_000

const event: OrderEvent = {
  eventId: "evt-1",
  orderId: "9a3e7c4e-8a51-4c1b-9a37-0f1f5d7e2b10",
  status: "completed",
  currency: "BTC",
  address,
  cryptoAmount: "79166",
  txHash: "0xabc",
}

describe("launch URLs", () => {
  it("MoonPay: the hosted page, its parameters, and signature = base64 HMAC-SHA256(secret, query from '?')", () => {
    const url = onrampAdapters.moonpay.launchUrl(creds, {
      currency: "DOG",
      address: "DXyz",
      fiatAmountEur: "50",
    })
    const [base, query = ""] = url.split("?")
    expect(base).toBe(creds.baseUrl)
    const at = query.lastIndexOf("&signature=")
    const signed = `?${query.slice(0, at)}`
    const expected = createHmac("sha256", creds.secretKey).update(signed).digest("base64")
    expect(decodeURIComponent(query.slice(at + 11))).toBe(expected)
    const q = new URL(url).searchParams
    expect(Object.fromEntries(q)).toMatchObject({
      apiKey: creds.apiKey,
      currencyCode: "doge",
      walletAddress: "DXyz",
      baseCurrencyCode: "eur",
      baseCurrencyAmount: "50",
    })
  })

  it("Mercuryo: widget_id, network, address and signature = hex SHA-512(address + secret)", () => {
    const q = new URL(onrampAdapters.mercuryo.launchUrl(creds, { currency: "USDT", address: "0xAbC" }))
      .searchParams
    expect(Object.fromEntries(q)).toEqual({
      widget_id: creds.apiKey,
      type: "buy",
      currency: "USDT",
      network: "ETHEREUM",
      address: "0xAbC",
      fiat_currency: "EUR",
      signature: createHash("sha512").update(`0xAbC${creds.secretKey}`).digest("hex"),
    })
  })

  it("Banxa and Transak: their documented query parameters (unsigned by their protocols)", () => {
    const b = new URL(onrampAdapters.banxa.launchUrl(creds, { currency: "USDT", address: "0xAbC" }))
    expect(Object.fromEntries(b.searchParams)).toEqual({
      coinType: "USDT",
      blockchain: "ETH",
      walletAddress: "0xAbC",
      fiatType: "EUR",
    })
    const t = new URL(
      onrampAdapters.transak.launchUrl(creds, { currency: "LTC", address: "ltc1q", fiatAmountEur: "75" }),
    )
    expect(Object.fromEntries(t.searchParams)).toEqual({
      apiKey: creds.apiKey,
      cryptoCurrencyCode: "LTC",
      network: "litecoin",
      walletAddress: "ltc1q",
      disableWalletAddressForm: "true",
      fiatCurrency: "EUR",
      defaultFiatAmount: "75",
    })
  })

  it.each(onrampFamilies)("%s: the provider reads its own launch back", (family) => {
    const url = new URL(
      onrampAdapters[family].launchUrl(creds, { currency: "ETH", address: "0xAbC", fiatAmountEur: "120.5" }),
    )
    expect(onrampAdapters[family].readLaunch(creds, url)).toEqual({
      ok: true,
      launch: { currency: "ETH", address: "0xAbC", fiatAmountEur: "120.5" },
    })
  })

  it("signed families refuse an altered address or another key's signature", () => {
    for (const family of ["moonpay", "mercuryo"] as const) {
      const url = onrampAdapters[family].launchUrl(creds, { currency: "BTC", address })
      const altered = new URL(url.replace(address, "bc1qattacker"))
      expect(onrampAdapters[family].readLaunch(creds, altered)).toEqual({ ok: false, reason: "forged" })
      const otherSecret = { ...creds, secretKey: "sk_other_0123456789abcdef" }
      expect(onrampAdapters[family].readLaunch(otherSecret, new URL(url))).toEqual({
        ok: false,
        reason: "forged",
      })
    }
    const transak = new URL(onrampAdapters.transak.launchUrl(creds, { currency: "BTC", address }))
    expect(onrampAdapters.transak.readLaunch({ ...creds, apiKey: "pk_other" }, transak)).toEqual({
      ok: false,
      reason: "unknown-key",
    })
  })
})

describe("callbacks", () => {
  const path = "/api/crypto/onramp/callback"
  const headersOf = (h: Readonly<Record<string, string>>) => ({ ...h })

  it.each(onrampFamilies)(
    "%s: genuine accepted; altered, wrongly keyed, old or unsigned refused",
    (family) => {
      const adapter = onrampAdapters[family]
      const signed = adapter.signCallback(creds, event, now, path)
      const request = { headers: headersOf(signed.headers), body: signed.body, path }
      expect(adapter.verifyCallback(creds, request, now + 10, 300)).toEqual({ ok: true, event })
      // The body altered after signing (another amount).
      const altered =
        family === "transak"
          ? signed.body.slice(0, -10) + signed.body.slice(-9)
          : signed.body.replace("79166", "99999")
      expect(adapter.verifyCallback(creds, { ...request, body: altered }, now, 300)).toMatchObject({
        ok: false,
      })
      expect(adapter.verifyCallback(creds, { ...request, body: altered }, now, 300)).not.toEqual({
        ok: true,
        event,
      })
      // Signed with another secret.
      const forged = adapter.signCallback(
        { ...creds, webhookSecret: "whsec_attacker_0123456" },
        event,
        now,
        path,
      )
      expect(
        adapter.verifyCallback(
          creds,
          { headers: headersOf(forged.headers), body: forged.body, path },
          now,
          300,
        ),
      ).toEqual({ ok: false, reason: "forged" })
      // A genuine callback replayed after the tolerance.
      expect(adapter.verifyCallback(creds, request, now + 301, 300)).toEqual({ ok: false, reason: "stale" })
      // No signature at all.
      const bare = family === "transak" ? JSON.stringify({ data: event }) : signed.body
      expect(adapter.verifyCallback(creds, { headers: {}, body: bare, path }, now, 300)).toEqual({
        ok: false,
        reason: "unsigned",
      })
    },
  )

  it("Banxa: a callback signed for another path is forged; a re-signed timestamp cannot be forged", () => {
    const signed = onrampAdapters.banxa.signCallback(creds, event, now, path)
    expect(
      onrampAdapters.banxa.verifyCallback(
        creds,
        { headers: signed.headers, body: signed.body, path: "/other" },
        now,
        300,
      ),
    ).toEqual({ ok: false, reason: "forged" })
    const auth = signed.headers.authorization ?? ""
    const moved = auth.replace(/:(\d+)$/, `:${now + 1000}`)
    expect(
      onrampAdapters.banxa.verifyCallback(
        creds,
        { headers: { authorization: moved }, body: signed.body, path },
        now + 1000,
        300,
      ),
    ).toEqual({ ok: false, reason: "forged" })
  })

  it("Banxa's API authorization: HMAC over method, path, nonce and body", () => {
    const body = JSON.stringify({ account_reference: "player-1" })
    const value = banxaAuthorization(creds.apiKey, creds.secretKey, "POST", "/api/orders", now, body)
    const expected = createHmac("sha256", creds.secretKey)
      .update(`POST\n/api/orders\n${now}\n${body}`)
      .digest("hex")
    expect(value).toBe(`Bearer ${creds.apiKey}:${expected}:${now}`)
    const req = { method: "POST", path: "/api/orders", body }
    expect(verifyBanxaAuthorization(creds.apiKey, creds.secretKey, value, req, now, 300)).toBe("ok")
    expect(
      verifyBanxaAuthorization(creds.apiKey, creds.secretKey, value, { ...req, body: "{}" }, now, 300),
    ).toBe("forged")
    expect(verifyBanxaAuthorization(creds.apiKey, creds.secretKey, value, req, now + 301, 300)).toBe("stale")
    expect(verifyBanxaAuthorization(creds.apiKey, creds.secretKey, undefined, req, now, 300)).toBe("unsigned")
  })
})

describe("buyCryptoWidgets", () => {
  const dataDir = join(tmpdir(), "casino-onramp-adapters-test")
  const sandbox = "http://127.0.0.1:8082"
  const config = (env: Record<string, string> = {}) =>
    loadConfig({
      PUBLIC_URL: "https://casino.example",
      DATA_DIR: dataDir,
      CAPTCHA_SECRET: "captcha-test-secret-0123456789",
      NODE_ENV: "test",
      ...env,
    })

  it("offers the four widgets configured (a sandbox's here) in the spec's two tiers, each opening its page for the address", () => {
    const widgets = buyCryptoWidgets(config(testWidgetsEnv(sandbox)), "BTC", address)
    expect(widgets.map((w) => [w.id, w.feeBps, w.etaMinutes, w.verificationAboveEur])).toEqual([
      ["banxa", 500, 15, 200],
      ["mercuryo", 500, 15, 200],
      ["moonpay", 450, 20, 100],
      ["transak", 450, 20, 100],
    ])
    for (const w of widgets) {
      expect(w.url.startsWith(`${sandbox}/sandbox-onramp/${w.id}?`)).toBe(true)
      expect(w.url).toContain(encodeURIComponent(address))
      const creds = sandboxWidgetCredentials(testOnrampSecret, w.id as "banxa", sandbox)
      expect(onrampAdapters[w.id as "banxa"].readLaunch(creds, new URL(w.url)).ok).toBe(true)
    }
    expect(banxaCheckoutIframe(widgets)).toBe(widgets[0]?.url)
  })

  it("offers nothing without configured widgets; a configured widget opens its real page", () => {
    expect(buyCryptoWidgets(config(), "BTC", address)).toEqual([])
    expect(banxaCheckoutIframe([])).toBeNull()
    const real = JSON.stringify([
      {
        id: "moonpay",
        baseUrl: "https://buy.moonpay.com",
        apiKey: creds.apiKey,
        secretKey: creds.secretKey,
        webhookSecret: creds.webhookSecret,
      },
    ])
    const widgets = buyCryptoWidgets(config({ ONRAMP_WIDGETS: real }), "ETH", "0xAbC")
    expect(widgets.map((w) => w.id)).toEqual(["moonpay"])
    expect(widgets[0]?.url.startsWith("https://buy.moonpay.com?apiKey=pk_test_123&")).toBe(true)
    expect(() => config({ ONRAMP_WIDGETS: '[{"id":"moonpay","baseUrl":"http://x"}]' })).toThrow(
      /ONRAMP_WIDGETS/,
    )
  })

  it("the sandbox's keys are test keys, refused in production with its plain-http pages", () => {
    for (const id of onrampFamilies) {
      const k = sandboxWidgetCredentials(testOnrampSecret, id, sandbox)
      expect(isTestKey(k.secretKey) && isTestKey(k.webhookSecret)).toBe(true)
      // MoonPay's and Transak's public keys look like those providers' own test keys.
      expect(k.apiKey).toMatch(id === "moonpay" || id === "transak" ? /^pk_test_/ : /^test_/)
    }
    const production = {
      NODE_ENV: "production",
      PUBLIC_URL: "https://casino.example",
      OPERATOR_SECRETS: JSON.stringify({ ana: "a".repeat(32) }),
      BACKOFFICE_TOTP_KEY: "b".repeat(32),
      BACKOFFICE_ALLOW: "203.0.113.0/24",
      SMTP_URL: "smtp://mail.casino.example:587",
      DATABASE_URL: "embedded",
    }
    expect(() => config({ ...production, ...testWidgetsEnv(sandbox) })).toThrow(
      /ONRAMP_WIDGETS: widget banxa is served over plain http/,
    )
    expect(() => config({ ...production, ...testWidgetsEnv("https://onramp.example") })).toThrow(
      /ONRAMP_WIDGETS: widget banxa has a sandbox's test key/,
    )
    const live = JSON.stringify([
      {
        id: "banxa",
        baseUrl: "https://casino.banxa.com",
        apiKey: "casino-live",
        secretKey: "live-secret-0123456789",
        webhookSecret: "live-webhook-0123456789",
      },
    ])
    expect(config({ ...production, ONRAMP_WIDGETS: live }).onrampWidgets.map((w) => w.id)).toEqual(["banxa"])
  })
})
