/**
 * Frames follow the host the player typed, in local sandbox mode (server/security/frameHosts.ts,
 * lib/hosts.ts): the casino with the studio's sandbox beside it (published on 127.0.0.1, as
 * PUBLIC_URL says), asked under another Host header. The CSP's frame-src lists the studio on the
 * host asked for when that is loopback or a private LAN address, and never a made-up name; the
 * catalogue's art follows the same way; the studio's page lets the casino on that host frame it.
 * Production follows nothing.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { followingAncestors, hostnameOfHost, isLocalHostname } from "../../lib/hosts.ts"
import { makeFrameHosts, rewriteOrigins } from "../../server/security/frameHosts.ts"
import { raw } from "./edge-support.ts"
import { describeOn, type TestServer } from "./harness.ts"

const directive = (csp: string, name: string): ReadonlyArray<string> =>
  (csp.split(";").find((d) => d.trim().startsWith(`${name} `)) ?? "").trim().split(/\s+/).slice(1)

describe("the hosts a frame may follow", () => {
  it("loopback and private LAN addresses only; a Host header is parsed strictly", () => {
    for (const h of [
      "localhost",
      "127.0.0.1",
      "127.8.9.10",
      "::1",
      "10.1.2.3",
      "172.20.0.5",
      "192.168.1.20",
      "fd00::2",
    ])
      expect(isLocalHostname(h), h).toBe(true)
    for (const h of [
      "evil.example",
      "8.8.8.8",
      "172.32.0.1",
      "192.0.2.2",
      "localhost.evil.example",
      "2001:db8::1",
    ])
      expect(isLocalHostname(h), h).toBe(false)
    expect(hostnameOfHost("127.0.0.1:8080")).toBe("127.0.0.1")
    expect(hostnameOfHost("[::1]:8080")).toBe("[::1]")
    expect(hostnameOfHost("evil.example/path")).toBeUndefined()
    expect(hostnameOfHost("user@127.0.0.1")).toBeUndefined()
    expect(hostnameOfHost(undefined)).toBeUndefined()
  })

  it("the studio's ancestors: the configured casino, and on the Host asked for only when it is local", () => {
    const configured = ["http://localhost:8080", "http://127.0.0.1:8080"]
    expect(followingAncestors(configured, "192.168.1.20:8083")).toEqual([
      "http://localhost:8080",
      "http://192.168.1.20:8080",
      "http://127.0.0.1:8080",
    ])
    expect(followingAncestors(configured, "evil.example:8083")).toEqual(configured)
    // A CSP source cannot name an IPv6 address: not followed.
    expect(followingAncestors(configured, "[fd00::2]:8083")).toEqual(configured)
    // A production casino (https, a real name) is never followed.
    expect(followingAncestors(["https://casino.example"], "127.0.0.1:8083")).toEqual([
      "https://casino.example",
    ])
  })

  it("production follows nothing; the configured public hostname is followed outside it", () => {
    const config = {
      publicUrl: "http://casino.lan:8080",
      allowedOrigins: ["http://casino.lan:8080"],
      frameOrigins: ["http://casino.lan:8083"],
    }
    expect(makeFrameHosts({ ...config, nodeEnv: "production" }).forHost("127.0.0.1:8080").origins).toEqual([
      "http://casino.lan:8083",
    ])
    const local = makeFrameHosts({ ...config, nodeEnv: "development" })
    expect(local.forHost("127.0.0.1:8080").origins).toEqual([
      "http://casino.lan:8083",
      "http://127.0.0.1:8083",
    ])
    expect(local.forHost("casino.lan:8080").rewrites).toEqual([])
    expect(local.forHost("other.lan:8080").origins).toEqual(["http://casino.lan:8083"])
    expect(local.forHost("[::1]:8080").origins).toEqual(["http://casino.lan:8083"])
  })

  it("rewrites an origin only where a URL starts with it", () => {
    const rewrites = [["http://localhost:8083", "http://127.0.0.1:8083"]] as const
    expect(
      rewriteOrigins(
        '{"url":"http://localhost:8083/studio/play/a","other":"http://localhost:80830/x","text":"see http://localhost:8083/"}',
        rewrites,
      ),
    ).toBe(
      '{"url":"http://127.0.0.1:8083/studio/play/a","other":"http://localhost:80830/x","text":"see http://localhost:8083/"}',
    )
  })
})

describeOn("postgres", "frames follow the host the player typed", ({ start }) => {
  let server: TestServer
  let studio: URL
  let casinoPort: string
  beforeAll(async () => {
    server = await start({}, { parties: ["studio"] })
    const party = server.parties.get("studio")
    if (party === undefined) throw new Error("no studio party")
    studio = new URL(party.publicUrl)
    casinoPort = new URL(server.url).port
    // The casino reads the studio's games list in the background.
    for (let i = 0; i < 300; i++) {
      const res = await raw(server.url, "/game-aggregator-service/api/v1/games-and-categories/EUR")
      if ((JSON.parse(res.body.toString()) as { games: ReadonlyArray<unknown> }).games.length > 0) break
      await new Promise((r) => setTimeout(r, 100))
    }
  }, 120_000)
  afterAll(() => server?.close())

  const cspFor = async (host: string): Promise<string> => {
    const res = await raw(server.url, "/", { headers: { host } })
    return String(res.headers["content-security-policy"] ?? "")
  }

  it("Host 127.0.0.1: the studio's origin on 127.0.0.1 may be framed", async () => {
    expect(studio.hostname).toBe("127.0.0.1")
    const frameSrc = directive(await cspFor(`127.0.0.1:${casinoPort}`), "frame-src")
    expect(frameSrc).toContain(`http://127.0.0.1:${studio.port}`)
  })

  it("Host localhost or a LAN address: the studio on that host too, and the catalogue's art follows", async () => {
    for (const host of ["localhost", "192.168.1.20"]) {
      const frameSrc = directive(await cspFor(`${host}:${casinoPort}`), "frame-src")
      expect(frameSrc).toContain(`http://${host}:${studio.port}`)
      expect(frameSrc).toContain(`http://127.0.0.1:${studio.port}`)
      const res = await raw(server.url, "/game-aggregator-service/api/v1/games-and-categories/EUR", {
        headers: { host: `${host}:${casinoPort}` },
      })
      const games = (JSON.parse(res.body.toString()) as { games: ReadonlyArray<{ image: string }> }).games
      expect(games[0]?.image.startsWith(`http://${host}:${studio.port}/studio/art/`)).toBe(true)
    }
  })

  it("Host evil.example: not reflected in the CSP, nor in the answers", async () => {
    const csp = await cspFor(`evil.example:${casinoPort}`)
    expect(csp).not.toContain("evil.example")
    expect(directive(csp, "frame-src")).toEqual(["'self'", "https:", `http://127.0.0.1:${studio.port}`])
    const res = await raw(server.url, "/game-aggregator-service/api/v1/games-and-categories/EUR", {
      headers: { host: `evil.example:${casinoPort}` },
    })
    expect(res.body.toString()).not.toContain("evil.example")
  })

  it("the studio's page lets the casino on the host asked for frame it, never a made-up one", async () => {
    const page = async (host: string) => {
      const res = await raw(studio.origin, "/studio/play/aaaaaaaaaaaaaaaaaaaaaaaa", {
        headers: { host: `${host}:${studio.port}` },
      })
      return directive(String(res.headers["content-security-policy"] ?? ""), "frame-ancestors")
    }
    expect(await page("localhost")).toContain(`http://localhost:${casinoPort}`)
    expect(await page("192.168.1.20")).toContain(`http://192.168.1.20:${casinoPort}`)
    const evil = await page("evil.example")
    expect(evil.join(" ")).not.toContain("evil.example")
    expect(evil).toContain(`http://127.0.0.1:${casinoPort}`)
  })
})
