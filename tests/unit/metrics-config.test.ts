/**
 * METRICS_ALLOW: who may read `GET /metrics`. Loopback by default on a developer's machine; in
 * production unset (or blank) is nobody, which the start banner says — an empty list is NOBODY,
 * unlike BACKOFFICE_ALLOW's. The list is checked at start like BACKOFFICE_ALLOW's (one parser).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { ConfigError, loadConfig } from "../../server/config.ts"
import { METRICS_CLOSED_NOTE, startBanner } from "../../server/security/production.ts"

const dataDir = mkdtempSync(join(tmpdir(), "casino-metrics-config-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env })

/** A production configuration with nothing refused. */
const production = (env: Record<string, string> = {}) =>
  load({
    NODE_ENV: "production",
    DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
    PUBLIC_URL: "https://casino.example",
    BACKOFFICE_ALLOW: "203.0.113.0/24",
    SMTP_URL: "smtp://mailer:secret@mail.casino.example:587",
    CAPTCHA_SECRET: "c".repeat(40),
    OPERATOR_SECRETS: JSON.stringify({ ana: "a".repeat(40) }),
    BACKOFFICE_TOTP_KEY: "b".repeat(40),
    ...env,
  })

describe("METRICS_ALLOW", () => {
  it("defaults to loopback outside production", () => {
    expect(load({}).metricsAllow).toEqual(["127.0.0.0/8", "::1"])
    expect(load({ NODE_ENV: "test", METRICS_ALLOW: "  " }).metricsAllow).toEqual(["127.0.0.0/8", "::1"])
  })

  it("in production, unset or blank is nobody, and the banner says so", () => {
    const closed = production()
    expect(closed.metricsAllow).toEqual([])
    expect(production({ METRICS_ALLOW: "" }).metricsAllow).toEqual([])
    expect(startBanner(closed, "http://127.0.0.1:8080")).toContain(METRICS_CLOSED_NOTE)
    expect(METRICS_CLOSED_NOTE).toBe(
      "METRICS_ALLOW is empty: GET /metrics answers nobody (404); list the addresses or networks of your Prometheus server to read it",
    )
  })

  it("reads the list of addresses and networks (production too, then no banner note)", () => {
    expect(load({ METRICS_ALLOW: " 10.0.0.0/8, 192.0.2.7 ,2001:db8::/32" }).metricsAllow).toEqual([
      "10.0.0.0/8",
      "192.0.2.7",
      "2001:db8::/32",
    ])
    const open = production({ METRICS_ALLOW: "10.20.0.0/16" })
    expect(open.metricsAllow).toEqual(["10.20.0.0/16"])
    expect(startBanner(open, "http://127.0.0.1:8080")).not.toContain(METRICS_CLOSED_NOTE)
    expect(startBanner(load({}), "http://127.0.0.1:8080")).not.toContain(METRICS_CLOSED_NOTE)
  })

  it("refuses what is not an address or a network, naming the variable", () => {
    expect(() => load({ METRICS_ALLOW: "10.0.0.0/99" })).toThrow(ConfigError)
    expect(() => load({ METRICS_ALLOW: "prometheus.internal" })).toThrow(
      'METRICS_ALLOW="prometheus.internal" is invalid: expected comma-separated IP addresses or CIDR networks',
    )
    // `any` is BACKOFFICE_ALLOW's word only: metrics are opened by listing networks.
    expect(() => load({ METRICS_ALLOW: "any" })).toThrow(ConfigError)
  })
})
