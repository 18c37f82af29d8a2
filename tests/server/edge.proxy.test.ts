/**
 * TRUST_PROXY: the client IP is the address our trusted proxy saw, never the client-written left
 * end of X-Forwarded-For. The resolver's rules (hop count, trusted networks, IPv6, IPv4-mapped,
 * ports, several headers, empty and malformed entries), then the real server: a spoofed left-most
 * entry changes neither the country (currentIp, the registration block) nor the per-IP rate-limit
 * bucket, with one hop (the e2e setting), two hops and trusted networks.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConfigError, loadConfig } from "../../server/config.ts"
import { makeClientIpResolver, normalizeIp, parseTrustProxy } from "../../server/security/proxy.ts"
import { jsonOf, raw } from "./edge-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { Browser, register, uniqueEmail } from "./users-support.ts"

const GB = "81.2.69.142" // United Kingdom, restricted by default
const NL = "193.0.6.139" // Netherlands, not restricted
const US = "8.8.8.8"
const CZ6 = "2001:67c:2e8:22::c100:68b" // Czechia, IPv6

describe("TRUST_PROXY parsing", () => {
  it("reads none, hop counts and networks, and names the variable on a bad value", () => {
    expect(parseTrustProxy(undefined)).toEqual({ _tag: "None" })
    for (const v of ["", "false", "no", "OFF", "0"]) expect(parseTrustProxy(v), v).toEqual({ _tag: "None" })
    for (const v of ["true", "yes", "on", "1"])
      expect(parseTrustProxy(v), v).toEqual({ _tag: "Hops", hops: 1 })
    expect(parseTrustProxy("3")).toEqual({ _tag: "Hops", hops: 3 })
    expect(parseTrustProxy(" 10.0.0.0/8, 127.0.0.1 ,fd00::/8,loopback")).toEqual({
      _tag: "Networks",
      networks: ["10.0.0.0/8", "127.0.0.1", "fd00::/8", "loopback"],
    })
    for (const bad of ["maybe", "10.0.0.0/33", "300.1.1.1", "99", "10.0.0.0/8,nope"]) {
      expect(parseTrustProxy(bad), bad).toHaveProperty("error")
      expect(() => loadConfig({ TRUST_PROXY: bad, CAPTCHA_SECRET: "x".repeat(32) }), bad).toThrow(ConfigError)
      expect(() => loadConfig({ TRUST_PROXY: bad, CAPTCHA_SECRET: "x".repeat(32) }), bad).toThrow(
        /TRUST_PROXY/,
      )
    }
    expect(loadConfig({ TRUST_PROXY: "2", CAPTCHA_SECRET: "x".repeat(32) }).trustProxy).toEqual({
      _tag: "Hops",
      hops: 2,
    })
  })

  it("normalises addresses: ports, brackets, quotes, zones, IPv4-mapped; garbage is empty", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["1.2.3.4", "1.2.3.4"],
      [" 1.2.3.4:5678 ", "1.2.3.4"],
      ["::ffff:1.2.3.4", "1.2.3.4"],
      ["[::ffff:1.2.3.4]:80", "1.2.3.4"],
      ["2001:DB8::1", "2001:db8::1"],
      ["[2001:db8::1]:443", "2001:db8::1"],
      ['"[2001:db8::1]:443"', "2001:db8::1"],
      ["fe80::1%eth0", "fe80::1"],
      ["unknown", ""],
      ["_hidden", ""],
      ["1.2.3", ""],
      ["[2001:db8::1", ""],
      ["[2001:db8::1]x", ""],
      ["1.2.3.4:99999999", ""],
      ["", ""],
    ]
    for (const [input, expected] of cases) expect(normalizeIp(input), input).toBe(expected)
  })
})

describe("client IP resolution", () => {
  const peer = "10.0.0.2"

  it("without trust: the socket peer, whatever the header says", () => {
    const resolve = makeClientIpResolver({ _tag: "None" })
    expect(resolve(peer, `${GB}, ${NL}`)).toBe(peer)
    expect(resolve("::ffff:10.0.0.2", undefined)).toBe(peer)
  })

  it("one hop: the right-most entry (what our proxy saw); the client's own entries to its left are ignored", () => {
    const resolve = makeClientIpResolver({ _tag: "Hops", hops: 1 })
    expect(resolve(peer, NL)).toBe(NL)
    expect(resolve(peer, `${GB}, ${NL}`)).toBe(NL)
    expect(resolve(peer, `${GB}, 1.1.1.1, ${NL}`)).toBe(NL)
    // Node joins several X-Forwarded-For headers with ", ": still the right-most.
    expect(resolve(peer, `${GB}, ${NL}`)).toBe(resolve(peer, [GB, NL].join(", ")))
    // No header, an empty one, only commas: the peer.
    expect(resolve(peer, undefined)).toBe(peer)
    expect(resolve(peer, "")).toBe(peer)
    expect(resolve(peer, " , ,")).toBe(peer)
    // Empty entries are skipped, ports and IPv6 forms are read.
    expect(resolve(peer, `${GB},, ${NL}:4711 ,`)).toBe(NL)
    expect(resolve(peer, `${GB}, [${CZ6}]:443`)).toBe(CZ6)
    expect(resolve(peer, `${GB}, ::ffff:${NL}`)).toBe(NL)
    // A malformed right-most entry: the proxy that sent it, not anything further left.
    expect(resolve(peer, `${GB}, unknown`)).toBe(peer)
  })

  it("n hops: skips n-1 right-most entries and takes the next; a short header gives its left-most", () => {
    const two = makeClientIpResolver({ _tag: "Hops", hops: 2 })
    expect(two(peer, `${GB}, ${NL}, 10.0.0.7`)).toBe(NL)
    expect(two(peer, `${NL}, 10.0.0.7`)).toBe(NL)
    expect(two(peer, "10.0.0.7")).toBe("10.0.0.7")
    expect(two(peer, `${GB}, garbage, 10.0.0.7`)).toBe("10.0.0.7")
    const three = makeClientIpResolver({ _tag: "Hops", hops: 3 })
    expect(three(peer, `${GB}, ${NL}, 10.0.0.8, 10.0.0.7`)).toBe(NL)
  })

  it("networks: walks left from the peer while the hop is trusted; the first untrusted address is the client", () => {
    const resolve = makeClientIpResolver({ _tag: "Networks", networks: ["10.0.0.0/8", "fd00::/8"] })
    expect(resolve(peer, `${GB}, ${NL}`)).toBe(NL)
    expect(resolve(peer, `${GB}, 10.9.9.9`)).toBe(GB)
    expect(resolve(peer, `${GB}, ${NL}, 10.9.9.9, 10.1.1.1`)).toBe(NL)
    // IPv6 proxies, and an IPv4-mapped peer matched against the IPv4 network.
    expect(resolve("fd00::5", `${GB}, fd12::1`)).toBe(GB)
    expect(resolve("::ffff:10.0.0.2", NL)).toBe(NL)
    // An untrusted peer (a client talking to us directly): the header is not believed at all.
    expect(resolve(NL, `${GB}, 10.9.9.9`)).toBe(NL)
    expect(resolve("203.0.113.1", GB)).toBe("203.0.113.1")
    // All trusted: the left-most address there is.
    expect(resolve(peer, "10.3.3.3, 10.2.2.2")).toBe("10.3.3.3")
    // A trusted hop that passed on garbage is the client.
    expect(resolve(peer, `${GB}, nonsense, 10.9.9.9`)).toBe("10.9.9.9")
    // Names proxy-addr knows.
    expect(makeClientIpResolver({ _tag: "Networks", networks: ["loopback"] })("127.0.0.1", NL)).toBe(NL)
    // A peer we do not know (no socket) is not trusted.
    expect(resolve("", GB)).toBe("")
  })
})

/** The country the server sees for a request sent with these X-Forwarded-For header(s). */
const countryOf = async (server: TestServer, xff: string | ReadonlyArray<string>) => {
  const res = await raw(server.url, "/ip-service/api/v1/user/currentIp", {
    headers: { "x-forwarded-for": typeof xff === "string" ? xff : [...xff] },
  })
  expect(res.status).toBe(200)
  return (jsonOf(res) as { isoCode: string }).isoCode
}

const errorReport = () =>
  JSON.stringify({
    user: null,
    error: { name: "Error", message: "edge proxy test" },
    browser: { userAgent: "edge-test", language: "en", url: "http://127.0.0.1/" },
  })

/**
 * Sends error reports whose X-Forwarded-For has a different left-most address each time: a
 * client rotating addresses. Returns the statuses; the per-IP limit must still count them as one.
 */
const rotatingReports = async (server: TestServer, count: number, xffFor: (i: number) => string) => {
  const statuses: Array<number> = []
  for (let i = 0; i < count; i++) {
    const res = await raw(server.url, "/api/error-logger", {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": xffFor(i) },
      body: errorReport(),
    })
    statuses.push(res.status)
  }
  return statuses
}

const limits = (errorLogMax: number) => ({
  signinPerIp: { max: 20, windowSeconds: 900 },
  signinPerEmail: { max: 5, windowSeconds: 900 },
  registerPerIp: { max: 50, windowSeconds: 3600 },
  forgotPerIp: { max: 10, windowSeconds: 3600 },
  forgotPerEmail: { max: 3, windowSeconds: 3600 },
  resendPerUser: { max: 3, windowSeconds: 3600 },
  errorLogPerIp: { max: errorLogMax, windowSeconds: 600 },
  documentUploadPerUser: { max: 20, windowSeconds: 3600 },
  couponPerIp: { max: 60, windowSeconds: 600 },
  chatConversationsPerIp: { max: 10, windowSeconds: 3600 },
  chatMessagesPerIp: { max: 60, windowSeconds: 600 },
})

describeOn("postgres", "TRUST_PROXY on the real server", ({ start }) => {
  describe("one hop (TRUST_PROXY=true, as the e2e server runs)", () => {
    let server: TestServer
    beforeAll(async () => {
      server = await start({ captchaEnabled: false, rateLimits: limits(3) }, { env: { TRUST_PROXY: "true" } })
    })
    afterAll(() => server?.close())

    it("a single X-Forwarded-For value is the client (the e2e visitor from a restricted country)", async () => {
      expect(await countryOf(server, GB)).toBe("GB")
      expect(await countryOf(server, NL)).toBe("NL")
      expect(await countryOf(server, `[${CZ6}]:443`)).toBe("CZ")
    })

    it("a spoofed left-most entry changes neither the country nor the block", async () => {
      // The client wrote GB, our proxy saw NL: NL. And the other way round: a real GB visitor
      // cannot pass for NL.
      expect(await countryOf(server, `${GB}, ${NL}`)).toBe("NL")
      expect(await countryOf(server, `${NL}, ${GB}`)).toBe("GB")
      expect(await countryOf(server, [NL, GB])).toBe("GB")
      expect(await countryOf(server, `${US}, ${NL}, ${GB}`)).toBe("GB")
      const fromGb = await register(new Browser(server, `${NL}, ${GB}`), uniqueEmail("spoof-gb"))
      expect(fromGb.status).toBe(403)
      expect(fromGb.body).toMatchObject({ _tag: "CountryRestricted", isoCode: "GB" })
      const fromNl = await register(new Browser(server, `${GB}, ${NL}`), uniqueEmail("spoof-nl"))
      expect(fromNl.status).toBe(200)
    })

    it("rotating the left-most entry does not escape the per-IP rate limit", async () => {
      const proxySaw = "203.0.113.61"
      const statuses = await rotatingReports(server, 5, (i) => `198.51.100.${i + 1}, ${proxySaw}`)
      expect(statuses).toEqual([202, 202, 202, 429, 429])
      const rows = await server.query<{ ip: string }>(
        "SELECT DISTINCT ip FROM error_reports WHERE report->'error'->>'message' = 'edge proxy test'",
      )
      expect(rows).toEqual([{ ip: proxySaw }])
      // The bucket is the proxy-seen address: another one is not limited.
      expect(await rotatingReports(server, 1, () => `${proxySaw}, 203.0.113.62`)).toEqual([202])
    })
  })

  describe("two hops (TRUST_PROXY=2)", () => {
    let server: TestServer
    beforeAll(async () => {
      server = await start({ captchaEnabled: false, rateLimits: limits(2) }, { env: { TRUST_PROXY: "2" } })
    })
    afterAll(() => server?.close())

    it("takes the second entry from the right; entries further left are ignored", async () => {
      expect(await countryOf(server, `${GB}, ${NL}, 10.0.0.7`)).toBe("NL")
      expect(await countryOf(server, `${NL}, ${GB}, 10.0.0.7`)).toBe("GB")
      const statuses = await rotatingReports(server, 4, (i) => `198.51.100.${i + 1}, 203.0.113.71, 10.0.0.7`)
      expect(statuses).toEqual([202, 202, 429, 429])
    })
  })

  describe("trusted networks (TRUST_PROXY=127.0.0.0/8,10.0.0.0/8)", () => {
    let server: TestServer
    let untrusted: TestServer
    beforeAll(async () => {
      ;[server, untrusted] = await Promise.all([
        start(
          { captchaEnabled: false, rateLimits: limits(2) },
          { env: { TRUST_PROXY: "127.0.0.0/8,10.0.0.0/8" } },
        ),
        // The tests connect from 127.0.0.1, which this one does not trust.
        start({ captchaEnabled: false }, { env: { TRUST_PROXY: "10.0.0.0/8" } }),
      ])
    })
    afterAll(async () => {
      await Promise.all([server?.close(), untrusted?.close()])
    })

    it("the first address outside the trusted networks is the client; spoofing further left changes nothing", async () => {
      expect(await countryOf(server, NL)).toBe("NL")
      expect(await countryOf(server, `${GB}, ${NL}`)).toBe("NL")
      expect(await countryOf(server, `${NL}, ${GB}, 10.1.2.3`)).toBe("GB")
      expect(await countryOf(server, [`${NL}, ${GB}`, "10.1.2.3"])).toBe("GB")
      const fromGb = await register(new Browser(server, `${NL}, ${GB}, 10.1.2.3`), uniqueEmail("net-gb"))
      expect(fromGb.status).toBe(403)
      const statuses = await rotatingReports(server, 4, (i) => `198.51.100.${i + 1}, 203.0.113.81, 10.1.2.3`)
      expect(statuses).toEqual([202, 202, 429, 429])
    })

    it("a peer outside the trusted networks: X-Forwarded-For is not believed at all", async () => {
      // Loopback is the default country (MT), whatever the header claims.
      expect(await countryOf(untrusted, GB)).toBe("MT")
      expect(await countryOf(untrusted, `${GB}, 10.1.2.3`)).toBe("MT")
    })
  })
})
