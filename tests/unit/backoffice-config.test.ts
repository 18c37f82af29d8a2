/** The back office's variables: defaults, BACKOFFICE_ALLOW's list checked at start, the key's length. */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { ConfigError, loadConfig } from "../../server/config.ts"

const dataDir = mkdtempSync(join(tmpdir(), "casino-bo-config-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env })

describe("back-office configuration", () => {
  it("defaults: every address, 30 minutes idle, 12 hours, a generated key kept in DATA_DIR", () => {
    const config = load({})
    expect(config.backofficeAllow).toEqual([])
    expect(config.backofficeIdleMinutes).toBe(30)
    expect(config.backofficeSessionHours).toBe(12)
    expect(config.backofficeTotpKey).toMatch(/^[0-9a-f]{64}$/)
    expect(load({}).backofficeTotpKey).toBe(config.backofficeTotpKey)
  })

  it("reads the allow-list of addresses and networks", () => {
    expect(load({ BACKOFFICE_ALLOW: " 10.0.0.0/8, 192.0.2.7 ,2001:db8::/32" }).backofficeAllow).toEqual([
      "10.0.0.0/8",
      "192.0.2.7",
      "2001:db8::/32",
    ])
  })

  it("refuses what is not an address or a network, and a short key", () => {
    expect(() => load({ BACKOFFICE_ALLOW: "10.0.0.0/8,office" })).toThrow(ConfigError)
    expect(() => load({ BACKOFFICE_ALLOW: "10.0.0.0/99" })).toThrow(ConfigError)
    expect(() => load({ BACKOFFICE_TOTP_KEY: "short" })).toThrow(ConfigError)
    expect(load({ BACKOFFICE_TOTP_KEY: "k".repeat(32) }).backofficeTotpKey).toBe("k".repeat(32))
  })
})
