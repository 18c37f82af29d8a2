/**
 * Crypto deposit addresses on both backends: the published derivation vectors, the endpoint's
 * answer per currency (same player same address, ETH and USDT share one, distinct players
 * distinct, valid for the chain), its 4xx answers, and a network without an xpub offering none.
 */
import { BIP32Factory } from "bip32"
import { mnemonicToSeedSync } from "bip39"
import { Effect } from "effect"
import * as ecc from "tiny-secp256k1"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testXpubs } from "../../providers/chains/testKeys.ts"
import { loadConfig } from "../../server/config.ts"
import { deriveAddress } from "../../server/crypto/derive.ts"
import { Watcher } from "../../server/crypto/Watcher.ts"
import { publicTestXpubs } from "../../server/security/publicTestKeys.ts"
import { isValidAddress } from "../../services/crypto-rules.ts"
import { newPlayer } from "./account-support.ts"
import { testWidgetsEnv, testXpubEnv } from "./crypto-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { PROFILE } from "./money-support.ts"
import { Browser } from "./users-support.ts"

const MNEMONIC =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
const DEPOSIT = `${PROFILE}/profile/crypto/deposit`

describe("address derivation", () => {
  it("matches the published BIP84 / BIP44 vectors of the test mnemonic", () => {
    expect(deriveAddress("bitcoin", testXpubs.bitcoin, 0)).toBe("bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu")
    expect(deriveAddress("bitcoin", testXpubs.bitcoin, 1)).toBe("bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g")
    expect(deriveAddress("ethereum", testXpubs.ethereum, 0)).toBe(
      "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
    )
    // What wallets and BIP39 tools print for the phrase (m/84'/2'/0'/0/0, m/44'/3'/0'/0/0); a second,
    // library-free derivation checks random keys too: tests/property/crypto-derivation.property.test.ts.
    expect(deriveAddress("litecoin", testXpubs.litecoin, 0)).toBe(
      "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh",
    )
    expect(deriveAddress("dogecoin", testXpubs.dogecoin, 0)).toBe("DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC")
  })

  it("the test xpubs are the test mnemonic's accounts, and every chain's address is valid for it", () => {
    const root = BIP32Factory(ecc).fromSeed(mnemonicToSeedSync(MNEMONIC))
    expect(root.derivePath("m/84'/0'/0'").neutered().toBase58()).toBe(testXpubs.bitcoin)
    expect(root.derivePath("m/84'/2'/0'").neutered().toBase58()).toBe(testXpubs.litecoin)
    expect(root.derivePath("m/44'/3'/0'").neutered().toBase58()).toBe(testXpubs.dogecoin)
    expect(root.derivePath("m/44'/60'/0'").neutered().toBase58()).toBe(testXpubs.ethereum)
    for (let i = 0; i < 5; i++) {
      expect(isValidAddress("BTC", deriveAddress("bitcoin", testXpubs.bitcoin, i))).toBe(true)
      expect(deriveAddress("litecoin", testXpubs.litecoin, i)).toMatch(/^ltc1q/)
      expect(isValidAddress("LTC", deriveAddress("litecoin", testXpubs.litecoin, i))).toBe(true)
      expect(deriveAddress("dogecoin", testXpubs.dogecoin, i)).toMatch(/^D/)
      expect(isValidAddress("DOG", deriveAddress("dogecoin", testXpubs.dogecoin, i))).toBe(true)
      expect(isValidAddress("ETH", deriveAddress("ethereum", testXpubs.ethereum, i))).toBe(true)
    }
  })

  it("production refuses the public test xpubs (known to the casino by their public halves only)", () => {
    expect([...publicTestXpubs].sort()).toEqual(Object.values(testXpubs).sort())
    const base = {
      NODE_ENV: "production",
      PUBLIC_URL: "https://casino.example",
      CAPTCHA_SECRET: "x".repeat(32),
      OPERATOR_SECRET: "y".repeat(32),
      BACKOFFICE_TOTP_KEY: "b".repeat(32),
      BACKOFFICE_ALLOW: "203.0.113.0/24",
      SMTP_URL: "smtp://mail.casino.example:587",
      DATABASE_URL: "embedded",
    }
    // Unset: no deposits offered on any chain, which is a configuration, not a danger.
    const unset = loadConfig(base)
    expect(unset.crypto.xpubs).toEqual({})
    const withTest = {
      ...base,
      CRYPTO_XPUB_BTC: testXpubs.bitcoin,
      CRYPTO_XPUB_LTC: testXpubs.litecoin,
      CRYPTO_XPUB_DOGE: testXpubs.dogecoin,
      CRYPTO_XPUB_ETH: testXpubs.ethereum,
    }
    expect(() => loadConfig(withTest)).toThrow(/CRYPTO_XPUB_\*: the public test mnemonic's account xpub/)
    expect(() => loadConfig({ ...base, CRYPTO_XPUB_DOGE: testXpubs.dogecoin })).toThrow(/test mnemonic/)
    // Other keys (here: the test mnemonic's accounts 1) are accepted; an xprv or garbage is refused.
    const root = BIP32Factory(ecc).fromSeed(mnemonicToSeedSync(MNEMONIC))
    const own = {
      ...base,
      CRYPTO_XPUB_BTC: root.derivePath("m/84'/0'/1'").neutered().toBase58(),
      CRYPTO_XPUB_LTC: root.derivePath("m/84'/2'/1'").neutered().toBase58(),
      CRYPTO_XPUB_DOGE: root.derivePath("m/44'/3'/1'").neutered().toBase58(),
      CRYPTO_XPUB_ETH: root.derivePath("m/44'/60'/1'").neutered().toBase58(),
    }
    expect(loadConfig(own).crypto.xpubs.bitcoin).toBe(own.CRYPTO_XPUB_BTC)
    expect(() => loadConfig({ ...own, CRYPTO_XPUB_ETH: root.derivePath("m/44'/60'/1'").toBase58() })).toThrow(
      /CRYPTO_XPUB_ETH/,
    )
    expect(() => loadConfig({ ...own, CRYPTO_XPUB_BTC: "xpub-nope" })).toThrow(/CRYPTO_XPUB_BTC/)
  })
})

describeBackends("crypto: deposit addresses", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start(
      { captchaEnabled: false },
      { env: { ...testXpubEnv, ...testWidgetsEnv(), CRYPTO_WATCHER: "off" } },
    )
  })
  afterAll(() => server?.close())

  it("answers the player's own address, the same every time; ETH and USDT share it; players differ", async () => {
    const a = await newPlayer(server, "crypto-a")
    const b = await newPlayer(server, "crypto-b")
    const seen = new Map<string, string>()
    for (const currency of ["BTC", "LTC", "DOG", "ETH", "USDT"]) {
      const first = await a.browser.post(DEPOSIT, { currency })
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      const again = await a.browser.post(DEPOSIT, { currency })
      expect(again.body).toEqual(first.body)
      const body = first.body as {
        address: string
        network: string
        confirmations: number
        minDeposit: string
      }
      expect(isValidAddress(currency, body.address)).toBe(true)
      expect(body.confirmations).toBeGreaterThanOrEqual(1)
      expect(BigInt(body.minDeposit)).toBeGreaterThan(0n)
      const other = await b.browser.post(DEPOSIT, { currency })
      expect((other.body as { address: string }).address).not.toBe(body.address)
      seen.set(currency, body.address)
    }
    expect(seen.get("USDT")).toBe(seen.get("ETH"))
    const usdt = await a.browser.post(DEPOSIT, { currency: "USDT" })
    expect(usdt.body).toMatchObject({
      network: "ethereum",
      chainId: server.config.crypto.evmChainId,
      tokenContract: server.config.crypto.usdtContract,
    })
    const btc = (await a.browser.post(DEPOSIT, { currency: "BTC" })).body as {
      chainId: unknown
      tokenContract: unknown
      widgets: Array<{ feeBps: number; url: string }>
      banxaCheckoutIframe: string
    }
    expect(btc.chainId).toBeNull()
    expect(btc.tokenContract).toBeNull()
    expect(btc.widgets.map((w) => w.feeBps)).toEqual([500, 500, 450, 450])
    expect(btc.banxaCheckoutIframe).toBe(btc.widgets[0]?.url)
    const rows = await server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM crypto_addresses WHERE network = 'ethereum'",
    )
    expect(rows[0]?.n).toBe(2)
  })

  it("concurrent first requests of one player give one address", async () => {
    const p = await newPlayer(server, "crypto-race")
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => p.browser.post(DEPOSIT, { currency: "DOG" })),
    )
    const addresses = new Set(replies.map((r) => (r.body as { address: string }).address))
    expect(replies.every((r) => r.status === 200)).toBe(true)
    expect(addresses.size).toBe(1)
  })

  it("refuses a visitor, a fiat or unknown currency, a malformed body and a self-excluded player", async () => {
    const visitor = new Browser(server)
    expect((await visitor.post(DEPOSIT, { currency: "BTC" })).status).toBe(401)
    const p = await newPlayer(server, "crypto-refused")
    const fiat = await p.browser.post(DEPOSIT, { currency: "EUR" })
    expect(fiat.status).toBe(400)
    expect(fiat.body).toMatchObject({ _tag: "CurrencyNotSupported" })
    expect((await p.browser.post(DEPOSIT, { currency: "XYZ" })).body).toMatchObject({
      _tag: "CurrencyNotSupported",
    })
    expect((await p.browser.post(DEPOSIT, { currency: 7 })).status).toBe(400)
    expect((await p.browser.post(DEPOSIT, {})).status).toBe(400)
    await server.query(
      `UPDATE users SET self_exclusion_until = now() + interval '7 days', self_exclusion_kind = 'self',
         self_exclusion_period = '7d' WHERE lower(email) = lower($1)`,
      [p.email],
    )
    // A self-excluded player's session ends (sessions refuse them); PaymentsBlocked guards the rest.
    const blocked = await p.browser.post(DEPOSIT, { currency: "BTC" })
    expect(["Unauthenticated", "PaymentsBlocked"]).toContain((blocked.body as { _tag: string })._tag)
    expect(
      (
        await server.query(
          "SELECT 1 FROM crypto_addresses a JOIN users u ON u.id = a.user_id WHERE lower(u.email) = lower($1)",
          [p.email],
        )
      ).length,
    ).toBe(0)
  })

  it("history: the player's transfers only, withdrawals empty, visitors refused", async () => {
    const p = await newPlayer(server, "crypto-history")
    expect((await p.browser.get(`${PROFILE}/profile/crypto/deposit`)).body).toEqual([])
    expect((await p.browser.get(`${PROFILE}/profile/crypto/withdraw`)).body).toEqual([])
    expect((await p.browser.get(`${PROFILE}/profile/crypto/other`)).status).toBe(400)
    expect((await new Browser(server).get(`${PROFILE}/profile/crypto/deposit`)).status).toBe(401)
  })
})

describeBackends("crypto: a network without an xpub", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    // Only Bitcoin's and Ethereum's account keys: Litecoin and Dogecoin deposits are not offered.
    server = await start(
      { captchaEnabled: false },
      // No watcher loop: Bitcoin's default explorer is the public one, not to be asked from a test.
      {
        env: {
          CRYPTO_XPUB_BTC: testXpubs.bitcoin,
          CRYPTO_XPUB_ETH: testXpubs.ethereum,
          CRYPTO_WATCHER: "off",
        },
      },
    )
  })
  afterAll(() => server?.close())

  it("offers no deposit address on it, with the reason; the other networks still answer", async () => {
    const p = await newPlayer(server, "crypto-no-xpub")
    for (const [currency, shown] of [
      ["DOG", "DOGE"],
      ["LTC", "LTC"],
    ] as const) {
      const res = await p.browser.post(DEPOSIT, { currency })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({
        _tag: "CurrencyNotSupported",
        currency,
        message: `${shown} deposits are not available right now.`,
      })
    }
    const btc = await p.browser.post(DEPOSIT, { currency: "BTC" })
    expect(btc.status).toBe(200)
    expect(btc.body).toMatchObject({ network: "bitcoin", widgets: [], banxaCheckoutIframe: null })
    expect((await p.browser.post(DEPOSIT, { currency: "USDT" })).status).toBe(200)
    const rows = await server.query<{ network: string }>(
      "SELECT network FROM crypto_addresses a JOIN users u ON u.id = a.user_id WHERE lower(u.email) = lower($1) ORDER BY network",
      [p.email],
    )
    expect(rows.map((r) => r.network)).toEqual(["bitcoin", "ethereum"])
    // Nor is it watched: nothing of the casino's can arrive there (no EVM_RPC_URL: no EVM chain either).
    expect(await server.run(Effect.map(Effect.service(Watcher), (w) => w.networks))).toEqual(["bitcoin"])
  })
})
