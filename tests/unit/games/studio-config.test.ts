/**
 * The game studio's own configuration (providers/game-studio/config.ts) and its keys
 * (credentials.ts): `test_` keys and the Sandbox mark in its test environment (on by default outside
 * production), live keys otherwise; a secret generated once into its data folder; a bad variable
 * named in the error. And the casino's side: test keys refused in production.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { isTestKey } from "../../../protocols/keys.ts"
import { loadStudioConfig } from "../../../providers/game-studio/config.ts"
import { studioCredentials } from "../../../providers/game-studio/credentials.ts"
import { loadConfig } from "../../../server/config.ts"

const secret = "a-studio-secret-of-at-least-32-characters"
const dirs: Array<string> = []
const dataDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), "casino-studio-config-"))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

describe("game studio configuration", () => {
  it("is a sandbox outside production: its keys begin with test_; in production they are live", () => {
    const local = loadStudioConfig({ STUDIO_SECRET: secret })
    expect(local.sandbox).toBe(true)
    const test = studioCredentials(local.secret, { sandbox: local.sandbox })
    expect(isTestKey(test.casinoKey) && isTestKey(test.walletSecret)).toBe(true)
    const live = loadStudioConfig({ STUDIO_SECRET: secret, NODE_ENV: "production" })
    expect(live.sandbox).toBe(false)
    const keys = studioCredentials(live.secret, { sandbox: live.sandbox })
    expect(isTestKey(keys.casinoKey) || isTestKey(keys.walletSecret)).toBe(false)
    // The same derivation, only the prefix differs; the two keys differ from each other.
    expect(test.casinoKey).toBe(`test_${keys.casinoKey}`)
    expect(keys.casinoKey).not.toBe(keys.walletSecret)
    expect(loadStudioConfig({ STUDIO_SECRET: secret, STUDIO_SANDBOX: "off" }).sandbox).toBe(false)
  })

  it("reads its own variables, with the defaults documented", () => {
    const config = loadStudioConfig({
      STUDIO_SECRET: secret,
      STUDIO_PORT: "9100",
      STUDIO_PUBLIC_URL: "https://games.example/",
      STUDIO_DATABASE_URL: "postgres://db.example/casino",
      STUDIO_FRAME_ANCESTORS: "https://casino.example, http://localhost:8080",
      STUDIO_WALLET_URL: "https://casino.example/api/games/wallet/studio/",
    })
    expect(config).toMatchObject({
      port: 9100,
      publicUrl: "https://games.example",
      databaseUrl: "postgres://db.example/casino",
      schema: "game_studio",
      frameAncestors: ["https://casino.example", "http://localhost:8080"],
      walletUrl: "https://casino.example/api/games/wallet/studio",
      betTimeoutMs: 8_000,
      retryTimeoutMs: 10_000,
    })
    expect(loadStudioConfig({ STUDIO_SECRET: secret })).toMatchObject({
      port: 8083,
      publicUrl: "http://localhost:8083",
      databaseUrl: undefined,
      frameAncestors: [],
    })
  })

  it("generates its secret once into its data folder when none is set", async () => {
    const dir = await dataDir()
    const first = loadStudioConfig({ STUDIO_DATA_DIR: dir })
    expect(first.secret).toMatch(/^[0-9a-f]{64}$/)
    expect((await readFile(join(dir, "secret"), "utf8")).trim()).toBe(first.secret)
    expect(loadStudioConfig({ STUDIO_DATA_DIR: dir }).secret).toBe(first.secret)
  })

  it("names the variable of a bad value, and writes nothing then", async () => {
    const dir = await dataDir()
    const bad = (env: Record<string, string>, name: string) =>
      expect(() => loadStudioConfig({ STUDIO_DATA_DIR: dir, ...env })).toThrow(name)
    bad({ STUDIO_SECRET: "short" }, "STUDIO_SECRET")
    bad({ STUDIO_PORT: "70000" }, "STUDIO_PORT")
    bad({ STUDIO_PUBLIC_URL: "ftp://x" }, "STUDIO_PUBLIC_URL")
    bad({ STUDIO_DATABASE_URL: "mysql://x" }, "STUDIO_DATABASE_URL")
    bad({ STUDIO_FRAME_ANCESTORS: "casino.example" }, "STUDIO_FRAME_ANCESTORS")
    bad({ STUDIO_SANDBOX: "maybe" }, "STUDIO_SANDBOX")
    bad({ STUDIO_LOG_LEVEL: "loud" }, "STUDIO_LOG_LEVEL")
    await expect(readFile(join(dir, "secret"), "utf8")).rejects.toThrow()
  })

  it("the casino refuses a provider's test keys in production", async () => {
    // What production needs besides (tests/server/production.test.ts refuses each one missing).
    const productionBasics = {
      PUBLIC_URL: "https://casino.example",
      CAPTCHA_SECRET: "c".repeat(32),
      OPERATOR_SECRETS: JSON.stringify({ ana: "a".repeat(32) }),
      BACKOFFICE_TOTP_KEY: "b".repeat(32),
      BACKOFFICE_ALLOW: "203.0.113.0/24",
      SMTP_URL: "smtp://mail.casino.example:587",
      DATABASE_URL: "embedded",
    }
    const casinoDir = await dataDir()
    const providers = (key: string) =>
      JSON.stringify([
        {
          code: "studio",
          launchUrl: "https://games.example/studio/api/launch",
          casinoKey: key,
          walletSecret: key,
        },
      ])
    const keys = studioCredentials(secret, { sandbox: true })
    expect(() =>
      loadConfig({
        ...productionBasics,
        NODE_ENV: "production",
        DATA_DIR: casinoDir,
        GAME_PROVIDERS: providers(keys.casinoKey),
      }),
    ).toThrow("GAME_PROVIDERS")
    const live = studioCredentials(secret, { sandbox: false })
    expect(
      loadConfig({ NODE_ENV: "test", DATA_DIR: casinoDir, GAME_PROVIDERS: providers(keys.casinoKey) })
        .gameProviders,
    ).toHaveLength(1)
    expect(
      loadConfig({
        ...productionBasics,
        NODE_ENV: "production",
        DATA_DIR: casinoDir,
        GAME_PROVIDERS: providers(live.casinoKey),
      }).gameProviders,
    ).toHaveLength(1)
  })
})
