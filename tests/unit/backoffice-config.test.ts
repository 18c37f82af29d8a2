/**
 * The back office's variables: defaults, BACKOFFICE_ALLOW's list checked at start (or `any`, the
 * explicit open value), the key's length, BACKOFFICE_URL (a host of its own); DATABASE_URL=embedded.
 */
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

describe("explicit opt-ins", () => {
  it("BACKOFFICE_ALLOW=any is the open back office the guard knows (no list), and is recorded as chosen", () => {
    const config = load({ BACKOFFICE_ALLOW: " Any " })
    expect(config.backofficeAllow).toEqual([])
    expect(config.optedIn).toEqual(["BACKOFFICE_ALLOW=any"])
    expect(load({}).optedIn).toEqual([])
    expect(() => load({ BACKOFFICE_ALLOW: "any,10.0.0.0/8" })).toThrow(
      'BACKOFFICE_ALLOW="any,10.0.0.0/8" is invalid: expected comma-separated IP addresses or CIDR networks, or any',
    )
  })

  it("DATABASE_URL=embedded is the embedded PGlite, as when unset, and is recorded as chosen", () => {
    const config = load({ DATABASE_URL: "embedded" })
    expect(config.databaseUrl).toBeUndefined()
    expect(config.optedIn).toEqual(["DATABASE_URL=embedded"])
    expect(load({ DATABASE_URL: "postgres://db.example/casino" }).databaseUrl).toBe(
      "postgres://db.example/casino",
    )
    expect(() => load({ DATABASE_URL: "mysql://db.example/casino" })).toThrow(
      'DATABASE_URL="mysql://db.example/casino" is invalid: expected a postgres:// or postgresql:// URL, or embedded',
    )
  })
})

describe("BACKOFFICE_URL", () => {
  it("unset: the back office shares the player app's origin", () => {
    expect(load({}).backofficeUrl).toBeUndefined()
  })

  it("keeps the origin of a host of its own", () => {
    expect(
      load({ PUBLIC_URL: "https://casino.example", BACKOFFICE_URL: "https://Admin.Casino.example/" })
        .backofficeUrl,
    ).toBe("https://admin.casino.example")
    expect(load({ BACKOFFICE_URL: "http://127.0.0.1:9090" }).backofficeUrl).toBe("http://127.0.0.1:9090")
  })

  it("refuses what is not an origin, and the player app's own host", () => {
    const expected =
      "an origin of its own such as https://admin.casino.example (not PUBLIC_URL's or ALLOWED_ORIGINS' host, no path)"
    for (const [env, value] of [
      [{ BACKOFFICE_URL: "admin.casino.example" }, "admin.casino.example"],
      [
        { BACKOFFICE_URL: "https://admin.casino.example/backoffice" },
        "https://admin.casino.example/backoffice",
      ],
      [
        { PUBLIC_URL: "https://casino.example", BACKOFFICE_URL: "https://casino.example" },
        "https://casino.example",
      ],
      [
        {
          PUBLIC_URL: "https://casino.example",
          ALLOWED_ORIGINS: "https://casino.example,https://www.casino.example",
          BACKOFFICE_URL: "https://www.casino.example",
        },
        "https://www.casino.example",
      ],
    ] as const)
      expect(() => load(env), value).toThrow(
        `BACKOFFICE_URL=${JSON.stringify(value)} is invalid: expected ${expected}`,
      )
  })
})
