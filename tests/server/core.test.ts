/**
 * The server core against both backends: geo, CDN files and icons, static app and SPA fallback,
 * OpenAPI and docs, 501 capabilities, the Origin check, 400 for client mistakes, the error logger
 * (202 + stored, 413, 429 + Retry-After) and live edits of restricted-countries.json.
 */

import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, Schema } from "effect"
import { HttpServerRequest } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { writeCdnFiles } from "../../server/cdn/files.ts"
import { AppConfig, ConfigError, loadConfig } from "../../server/config.ts"
import { Geo } from "../../server/geo/Geo.ts"
import { RateLimiter } from "../../server/security/RateLimiter.ts"
import { notBuiltEndpoints } from "../../server/static/endpoints.ts"
import {
  CdnFiles,
  CountryCodes,
  Currencies,
  currencyIconPath,
  RecommendedGames,
  RestrictedCountries,
  SiteConfig,
} from "../../services/cdn.ts"
import { gameById } from "../../services/games/catalogue.ts"
import { newPlayer } from "./account-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"

const CDN = "/files"

/** A raw request through node:http: keeps the path exactly as written (fetch would normalise `..`)
 * and may set headers fetch forbids, such as Host. */
const rawRequest = (
  base: string,
  path: string,
  options: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? "GET",
        headers: options.headers ?? {},
      },
      (res) => {
        let body = ""
        res.setEncoding("utf8")
        res.on("data", (c: string) => {
          body += c
        })
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on("error", reject)
    if (options.body !== undefined) req.write(options.body)
    req.end()
  })

const rawGet = (base: string, path: string) => rawRequest(base, path)

const report = (message = "boom") => ({
  user: { name: "Ada Lovelace", userId: "u-1" },
  error: { name: "TypeError", message, stack: "TypeError: boom\n    at x (app.js:1:1)" },
  browser: { userAgent: "Mozilla/5.0 test", language: "en", url: "http://127.0.0.1/profile" },
})

describeBackends("server core", ({ start }) => {
  let server: TestServer
  let staticDir: string
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(server.url + path, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
    })

  beforeAll(async () => {
    staticDir = await mkdtemp(join(tmpdir(), "casino-static-"))
    await mkdir(join(staticDir, "assets"))
    await writeFile(
      join(staticDir, "index.html"),
      '<!doctype html><html><head><meta name="cdn-base" content="/cdn" /><link rel="preload" as="fetch" crossorigin="anonymous" href="/cdn/site-config.json" /><link rel="preload" as="fetch" crossorigin="anonymous" href="/ip-service/api/v1/user/currentIp" /><title>Casino</title></head><body><div id="root"></div><script type="module" src="/assets/app-3f2a.js"></script></body></html>',
    )
    await writeFile(join(staticDir, "assets", "app-3f2a.js"), "console.log('app')\n")
    server = await start(
      {
        captchaEnabled: false,
        rateLimits: {
          signinPerIp: { max: 20, windowSeconds: 900 },
          signinPerEmail: { max: 5, windowSeconds: 900 },
          registerPerIp: { max: 10, windowSeconds: 3600 },
          forgotPerIp: { max: 10, windowSeconds: 3600 },
          forgotPerEmail: { max: 3, windowSeconds: 3600 },
          resendPerUser: { max: 3, windowSeconds: 3600 },
          errorLogPerIp: { max: 3, windowSeconds: 120 },
          documentUploadPerUser: { max: 20, windowSeconds: 3600 },
          couponPerIp: { max: 60, windowSeconds: 600 },
          chatConversationsPerIp: { max: 10, windowSeconds: 3600 },
          chatMessagesPerIp: { max: 60, windowSeconds: 600 },
        },
      },
      { env: { TRUST_PROXY: "true", CDN_BASE_PATH: CDN, STATIC_DIR: staticDir } },
    )
  })
  afterAll(async () => {
    await server?.close()
    await rm(staticDir, { recursive: true, force: true })
  })

  it("currentIp: loopback is the default country; X-Forwarded-For is used behind a trusted proxy", async () => {
    const local = await fetch(`${server.url}/ip-service/api/v1/user/currentIp`)
    expect(local.status).toBe(200)
    expect(await local.json()).toEqual({ country: "Malta", isoCode: "MT" })
    // One trusted hop: the right-most entry is the address our proxy saw.
    const us = await fetch(`${server.url}/ip-service/api/v1/user/currentIp`, {
      headers: { "x-forwarded-for": "10.0.0.1, 8.8.8.8" },
    })
    expect(await us.json()).toEqual({ country: "United States", isoCode: "US" })
    const gb = await fetch(`${server.url}/ip-service/api/v1/user/currentIp`, {
      headers: { "x-forwarded-for": "81.2.69.142" },
    })
    expect(await gb.json()).toEqual({ country: "United Kingdom", isoCode: "GB" })
    const mapped = await fetch(`${server.url}/ip-service/api/v1/user/currentIp`, {
      headers: { "x-forwarded-for": "::ffff:192.168.1.20" },
    })
    expect(await mapped.json()).toEqual({ country: "Malta", isoCode: "MT" })
  })

  it("X-Forwarded-For is ignored unless TRUST_PROXY is on", async () => {
    const request = HttpServerRequest.fromWeb(
      new Request("http://127.0.0.1/ip-service/api/v1/user/currentIp", {
        headers: { "x-forwarded-for": "8.8.8.8" },
      }),
    )
    const [trusted, untrusted] = await server.run(
      Effect.gen(function* () {
        const config = yield* AppConfig
        const trustedIp = (yield* Geo).clientIp(request)
        const untrustedIp = yield* Effect.gen(function* () {
          return (yield* Geo).clientIp(request)
        }).pipe(
          Effect.provide(Layer.fresh(Geo.layer)),
          Effect.provideService(AppConfig, { ...config, trustProxy: { _tag: "None" } }),
        )
        return [trustedIp, untrustedIp] as const
      }),
    )
    expect(trusted).toBe("8.8.8.8")
    expect(untrusted).not.toBe("8.8.8.8")
  })

  it("CDN files decode with the contract's schemas", async () => {
    const get = async (name: string) => {
      const res = await fetch(`${server.url}${CDN}/${name}`)
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toMatch(/^application\/json/)
      return res.json()
    }
    const countries = Schema.decodeUnknownSync(CountryCodes)(await get(CdnFiles.countryCodes))
    expect(countries.length).toBeGreaterThan(230)
    expect(countries).toContainEqual({ name: "Malta", code: "MT", dialingCode: "356" })
    expect(countries).toContainEqual({ name: "Brazil", code: "BR", dialingCode: "55" })
    const currencies = Schema.decodeUnknownSync(Currencies)(await get(CdnFiles.currencies))
    const byCode = new Map(currencies.map((c) => [c.code, c]))
    expect(byCode.get("EUR")).toMatchObject({ type: "FIAT", fiat: true, subunits_to_unit: "100" })
    expect(byCode.get("BTC")).toMatchObject({ type: "CRYPTO", fiat: false, subunits_to_unit: "100000000" })
    expect(byCode.get("ETH")?.subunits_to_unit).toBe("1000000000000000000")
    expect(byCode.get("USDT")?.subunits_to_unit).toBe("1000000")
    expect(byCode.get("DOG")?.subunits_to_unit).toBe("100000000")
    expect(byCode.get("LTC")?.subunits_to_unit).toBe("100000000")
    for (const code of ["USD", "CAD", "NOK", "BRL"]) expect(byCode.get(code)?.type).toBe("FIAT")
    expect(Schema.decodeUnknownSync(RestrictedCountries)(await get(CdnFiles.restrictedCountries))).toEqual([
      { code: "US" },
      { code: "GB" },
    ])
    // A curated pick of the catalogue: every kind and every jackpot title, each a real game.
    const recommended = Schema.decodeUnknownSync(RecommendedGames)(await get(CdnFiles.recommendedGames))
    expect(new Set(recommended.map((g) => gameById(g.id)?.kind)).size).toBe(6)
    expect(recommended.every((g) => gameById(g.id)?.name === g.name)).toBe(true)
    const site = Schema.decodeUnknownSync(SiteConfig)(await get(CdnFiles.siteConfig))
    expect(site).toMatchObject({
      productName: server.config.productName,
      supportEmail: server.config.supportEmail,
      blockedEmailDomains: ["blocked-one.example", "blocked-two.example"],
      defaultCurrency: "EUR",
      languages: ["en"],
    })
    const tutorial = await fetch(server.url + site.tutorialVideoUrl)
    expect(tutorial.status).toBe(200)
    expect(tutorial.headers.get("content-type")).toMatch(/^text\/html/)
    expect(await tutorial.text()).toContain("How to register")
  })

  it("the database holds the seeded reference data with exact subunits", async () => {
    const rows = await server.query<{ code: string; subunits: string }>(
      "SELECT code, subunits_to_unit::text AS subunits FROM currencies WHERE code = ANY($1) ORDER BY code",
      [["ETH", "EUR"]],
    )
    expect(rows).toEqual([
      { code: "ETH", subunits: "1000000000000000000" },
      { code: "EUR", subunits: "100" },
    ])
  })

  it("every currency has an SVG icon served as image/svg+xml", async () => {
    const currencies = Schema.decodeUnknownSync(Currencies)(
      await (await fetch(`${server.url}${CDN}/${CdnFiles.currencies}`)).json(),
    )
    for (const c of currencies) {
      const res = await fetch(`${server.url}${CDN}/${currencyIconPath(c.type, c.code)}`)
      expect(res.status, c.code).toBe(200)
      expect(res.headers.get("content-type")).toBe("image/svg+xml")
      const svg = await res.text()
      expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)
      expect(svg).toContain(`(${c.code})`)
    }
    const missing = await fetch(`${server.url}${CDN}/images/crypto/NOPE.svg`)
    expect(missing.status).toBe(404)
  })

  it("path traversal out of the CDN folder and the app is refused", async () => {
    for (const path of [
      `${CDN}/../../../../etc/passwd`,
      `${CDN}/%2e%2e/%2e%2e/%2e%2e/etc/passwd`,
      `${CDN}/..%2f..%2f..%2f..%2fetc%2fpasswd`,
      `${CDN}/images/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd`,
      `${CDN}/%00site-config.json`,
      "/..%2f..%2f..%2f..%2fetc%2fpasswd",
      `${CDN}/..%5c..%5cetc%5cpasswd`,
    ]) {
      const res = await rawGet(server.url, path)
      expect([403, 404], path).toContain(res.status)
      expect(res.body, path).not.toContain("root:")
    }
    const forbidden = await rawGet(server.url, `${CDN}/images/..%2f..%2f..%2fetc%2fpasswd`)
    expect(forbidden.status).toBe(403)
    expect(JSON.parse(forbidden.body)).toMatchObject({ error: "ForbiddenPath" })
  })

  it("serves the app: client routes fall back to index.html with the CDN base; assets are cached", async () => {
    for (const route of ["/", "/terms", "/profile/verification", "/some/client/route"]) {
      const res = await fetch(server.url + route, { headers: { accept: "text/html,application/xhtml+xml" } })
      expect(res.status, route).toBe(200)
      expect(res.headers.get("content-type")).toMatch(/^text\/html/)
      expect(res.headers.get("cache-control")).toBe("no-cache")
      const html = await res.text()
      expect(html).toContain(`<meta name="cdn-base" content="${CDN}" />`)
      // The boot's preloads follow the CDN base; the API's stays where it is.
      expect(html).toContain(`href="${CDN}/site-config.json"`)
      expect(html).toContain('href="/ip-service/api/v1/user/currentIp"')
      expect(html).toContain('<div id="root"></div>')
    }
    const asset = await fetch(`${server.url}/assets/app-3f2a.js`)
    expect(asset.status).toBe(200)
    expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/)
    expect(asset.headers.get("cache-control")).toContain("immutable")
    expect(await asset.text()).toContain("console.log('app')")
    const csp = asset.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("frame-ancestors 'self'")
    expect(csp).toContain("'wasm-unsafe-eval'")
    expect(asset.headers.get("x-content-type-options")).toBe("nosniff")
    expect(asset.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin")
    // Not HTML, not a file: 404 JSON. API prefixes never fall back to the app.
    const missing = await fetch(`${server.url}/missing.js`, { headers: { accept: "*/*" } })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ error: "NotFound" })
    const api = await fetch(`${server.url}/user-service/api/v1/nothing-here`, {
      headers: { accept: "text/html" },
    })
    expect(api.status).toBe(404)
    expect(await api.json()).toMatchObject({ error: "NotFound" })
    const apiPost = await post("/api/nothing-here", "{}")
    expect(apiPost.status).toBe(404)
    expect(await apiPost.json()).toMatchObject({ error: "NotFound" })
  })

  it("/openapi.json lists the contract's paths and /docs renders without outside scripts", async () => {
    const res = await fetch(`${server.url}/openapi.json`)
    expect(res.status).toBe(200)
    const spec = (await res.json()) as { openapi: string; paths: Record<string, unknown> }
    expect(spec.openapi).toMatch(/^3\./)
    for (const path of [
      "/user-service/api/v1/signin",
      "/user-service/api/v1/registration",
      "/user-service/api/v1/forgot-password",
      "/user-service/api/v1/account/reset-password",
      "/ip-service/api/v1/user/currentIp",
      "/profile-service/api/v1/profile",
      "/profile-service/api/v1/profile/currency",
      "/api/error-logger",
    ]) {
      expect(Object.keys(spec.paths), path).toContain(path)
    }
    const docs = await fetch(`${server.url}/docs`)
    expect(docs.status).toBe(200)
    expect(docs.headers.get("content-type")).toMatch(/^text\/html/)
    const html = await docs.text()
    expect(html).toContain("<html")
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/i)
    expect(html).not.toMatch(/<link[^>]+href=["']https?:/i)
  })

  it("capabilities not built yet answer 501 with the capability's name", async () => {
    // Every spec call is served now (the loyalty level was the last): the table is empty.
    const cases: ReadonlyArray<readonly [string, string, string]> = notBuiltEndpoints.map(
      (row) => [row.method, row.path, row.capability] as const,
    )
    expect(cases).toEqual([])
    for (const [method, path, capability] of cases) {
      const res = await fetch(server.url + path, {
        method,
        ...(method === "GET" ? {} : { body: "{}", headers: { "content-type": "application/json" } }),
      })
      expect(res.status, `${method} ${path}`).toBe(501)
      const body = (await res.json()) as Record<string, unknown>
      expect(body, `${method} ${path}`).toMatchObject({ error: "NotImplemented", capability })
      expect(typeof body.message).toBe("string")
    }
    // The profile capability is served (here: no session → 401), none of its calls is 501.
    for (const [method, path] of [
      ["GET", "/profile-service/api/v1/profile"],
      ["PUT", "/profile-service/api/v1/profile"],
      ["GET", "/profile-service/api/v1/profile/currency"],
      ["GET", "/profile-service/api/v1/profile/session"],
      ["PUT", "/profile-service/api/v1/profile/self-exclude"],
      ["GET", "/profile-service/api/v1/profile/id-verification"],
      ["GET", "/profile-service/api/v1/profile/favoriteGame"],
      ["GET", "/profile-service/api/v1/history/bet"],
      ["POST", "/game-aggregator-service/api/v1/game"],
      ["GET", "/profile-service/api/v1/profile/promotion"],
      ["GET", "/profile-service/api/v1/profile/promotion-eligible"],
      ["PUT", "/profile-service/api/v1/profile/redeem-promotion-coupon"],
      ["GET", "/profile-service/api/v1/profile/loyalty-level"],
    ] as const) {
      const res = await fetch(server.url + path, {
        method,
        ...(method === "GET" ? {} : { body: "{}", headers: { "content-type": "application/json" } }),
      })
      expect(res.status, `${method} ${path}`).not.toBe(501)
      expect([400, 401], `${method} ${path}`).toContain(res.status)
    }
  })

  it("writes from another origin are refused with 403 ForbiddenOrigin", async () => {
    const body = JSON.stringify(report())
    const ip = { "x-forwarded-for": "198.51.100.10" }
    const evil = await post("/api/error-logger", body, { ...ip, origin: "https://evil.example" })
    expect(evil.status).toBe(403)
    expect(await evil.json()).toMatchObject({ error: "ForbiddenOrigin" })
    const crossSite = await post("/api/error-logger", body, { ...ip, "sec-fetch-site": "cross-site" })
    expect(crossSite.status).toBe(403)
    expect(await crossSite.json()).toMatchObject({ error: "ForbiddenOrigin" })
    const signout = await fetch(`${server.url}/user-service/api/v1/signout`, {
      method: "DELETE",
      headers: { origin: "http://localhost.evil.example" },
    })
    expect(signout.status).toBe(403)
    const own = await post("/api/error-logger", body, { ...ip, origin: new URL(server.url).origin })
    expect(own.status).toBe(202)
    // Same origin by another name: the Origin names the host the request was sent to.
    const port = new URL(server.url).port
    const byName = await rawRequest(server.url, "/api/error-logger", {
      method: "POST",
      body,
      headers: {
        ...ip,
        "content-type": "application/json",
        origin: `http://localhost:${port}`,
        host: `localhost:${port}`,
      },
    })
    expect(byName.status).toBe(202)
    const otherPort = await post("/api/error-logger", body, { ...ip, origin: "http://127.0.0.1:1" })
    expect(otherPort.status).toBe(403)
    const nullOrigin = await post("/api/error-logger", body, { ...ip, origin: "null" })
    expect(nullOrigin.status).toBe(403)
    const sameOrigin = await post("/api/error-logger", body, { ...ip, "sec-fetch-site": "same-origin" })
    expect(sameOrigin.status).toBe(202)
    // Reads are not subject to the check.
    const read = await fetch(`${server.url}/ip-service/api/v1/user/currentIp`, {
      headers: { origin: "https://evil.example" },
    })
    expect(read.status).toBe(200)
  })

  it("client mistakes are 400 with a JSON body, never 500", async () => {
    const ip = { "x-forwarded-for": "198.51.100.20" }
    const malformed = await post("/api/error-logger", "{not json", ip)
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toMatchObject({ error: "BadRequest", kind: "Payload" })
    const wrongShape = await post("/api/error-logger", JSON.stringify({ user: null, error: { name: 1 } }), ip)
    expect(wrongShape.status).toBe(400)
    const body = (await wrongShape.json()) as { error: string; message: string }
    expect(body.error).toBe("BadRequest")
    expect(body.message.length).toBeGreaterThan(0)
    const text = await fetch(`${server.url}/api/error-logger`, {
      method: "POST",
      body: "hello",
      headers: { "content-type": "text/plain", ...ip },
    })
    expect(text.status).toBe(415)
    expect(await text.json()).toMatchObject({ error: "UnsupportedMediaType" })
    const signin = await post("/user-service/api/v1/signin", "[1,2", ip)
    expect(signin.status).toBe(400)
    expect(await signin.json()).toMatchObject({ error: "BadRequest" })
  })

  it("error logger: the report belongs to the session's player, never to the user id the browser claims", async () => {
    const player = await newPlayer(server, "errlog")
    const users = await server.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [player.email])
    const someoneElse = await newPlayer(server, "errlog-other")
    const [other] = await server.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [
      someoneElse.email,
    ])
    const claimed = { ...report("claimed-report"), user: { name: "Not Me", userId: other?.id ?? "" } }
    expect((await player.browser.post("/api/error-logger", claimed)).status).toBe(202)
    // A visitor (no session) claiming the same player: stored as nobody's.
    const visitor = await post("/api/error-logger", JSON.stringify(claimed), {
      "x-forwarded-for": "203.0.113.9",
    })
    expect(visitor.status).toBe(202)
    const rows = await server.query<{ user_id: string | null; report: Record<string, unknown> }>(
      "SELECT user_id, report FROM error_reports WHERE report->'error'->>'message' = 'claimed-report' ORDER BY id",
    )
    expect(rows.map((r) => r.user_id)).toEqual([users[0]?.id, null])
    // The browser's own record is not kept beside it.
    for (const row of rows) expect(row.report).not.toHaveProperty("user")
  })

  it("error logger: 202 and stored, 413 above 64 KiB, 429 with Retry-After past the per-IP limit", async () => {
    const ip = "203.0.113.7"
    const ok = await post("/api/error-logger", JSON.stringify(report("stored-report-1")), {
      "x-forwarded-for": ip,
      "user-agent": "core-test-agent",
    })
    expect(ok.status).toBe(202)
    const rows = await server.query<{
      ip: string
      user_agent: string
      report: { error: { message: string } }
    }>("SELECT ip, user_agent, report FROM error_reports WHERE report->'error'->>'message' = $1", [
      "stored-report-1",
    ])
    expect(rows).toHaveLength(1)
    expect(rows[0]?.ip).toBe(ip)
    expect(rows[0]?.user_agent).toBe("core-test-agent")
    expect(rows[0]?.report.error.message).toBe("stored-report-1")

    const huge = JSON.stringify({ ...report(), padding: "x".repeat(70 * 1024) })
    const tooLarge = await post("/api/error-logger", huge, { "x-forwarded-for": "203.0.113.8" })
    expect(tooLarge.status).toBe(413)
    expect(await tooLarge.json()).toMatchObject({ error: "PayloadTooLarge" })

    // errorLogPerIp is { max: 3 } in this suite: two more pass, the fourth is refused.
    for (let i = 0; i < 2; i++) {
      const res = await post("/api/error-logger", JSON.stringify(report()), { "x-forwarded-for": ip })
      expect(res.status).toBe(202)
    }
    const limited = await post("/api/error-logger", JSON.stringify(report()), { "x-forwarded-for": ip })
    expect(limited.status).toBe(429)
    const retryAfter = Number(limited.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(120)
    const body = (await limited.json()) as { _tag: string; retryAfterSeconds: number }
    expect(body._tag).toBe("RateLimited")
    expect(body.retryAfterSeconds).toBe(retryAfter)
    // Another IP is not affected.
    const other = await post("/api/error-logger", JSON.stringify(report()), {
      "x-forwarded-for": "203.0.113.9",
    })
    expect(other.status).toBe(202)
  })

  it("the rate limiter counts atomically across concurrent requests", async () => {
    const key = `test:concurrency:${Math.random()}`
    const outcomes = await server.run(
      Effect.gen(function* () {
        const limiter = yield* RateLimiter
        return yield* Effect.all(
          Array.from({ length: 25 }, () =>
            Effect.result(limiter.consume(key, { max: 10, windowSeconds: 300 })),
          ),
          { concurrency: 25 },
        )
      }),
    )
    const passed = outcomes.filter((o) => o._tag === "Success").length
    expect(passed).toBe(10)
    const failures = outcomes.flatMap((o) => (o._tag === "Failure" ? [o.failure] : []))
    expect(failures).toHaveLength(15)
    for (const f of failures) {
      expect(f._tag).toBe("RateLimited")
      expect(f.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect(f.retryAfterSeconds).toBeLessThanOrEqual(300)
    }
    const rows = await server.query<{ hits: number }>("SELECT hits FROM rate_limit_counters WHERE key = $1", [
      key,
    ])
    expect(rows).toEqual([{ hits: 25 }])
  })

  it("restricted-countries.json edits apply without a restart and are never overwritten", async () => {
    const file = join(server.config.cdnDir, CdnFiles.restrictedCountries)
    const isRestricted = (code: string) =>
      server.run(
        Effect.gen(function* () {
          return yield* (yield* Geo).isRestricted(code)
        }),
      )
    expect(await isRestricted("US")).toBe(true)
    expect(await isRestricted("gb")).toBe(true)
    expect(await isRestricted("DE")).toBe(false)
    await writeFile(file, JSON.stringify([{ code: "DE" }, { code: "FR" }]))
    expect(await isRestricted("DE")).toBe(true)
    expect(await isRestricted("US")).toBe(false)
    const served = await fetch(`${server.url}${CDN}/${CdnFiles.restrictedCountries}`)
    expect(await served.json()).toEqual([{ code: "DE" }, { code: "FR" }])
    // An invalid edit keeps the last good list.
    await writeFile(file, "[{ this is not json")
    expect(await isRestricted("DE")).toBe(true)
    // Writing the defaults again (as a restart does) keeps the operator's file.
    await writeFile(file, JSON.stringify([{ code: "NL" }]))
    await server.run(
      Effect.gen(function* () {
        return yield* writeCdnFiles(yield* AppConfig)
      }),
    )
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual([{ code: "NL" }])
    expect(await isRestricted("NL")).toBe(true)
  })
})

describe("configuration", () => {
  it("refuses CAPTCHA=off in production and names bad variables", () => {
    expect(() =>
      loadConfig({ NODE_ENV: "production", CAPTCHA: "off", CAPTCHA_SECRET: "x".repeat(32) }),
    ).toThrow(ConfigError)
    expect(() => loadConfig({ PORT: "eighty", CAPTCHA_SECRET: "x".repeat(32) })).toThrow(/PORT/)
    expect(() => loadConfig({ TRUST_PROXY: "maybe", CAPTCHA_SECRET: "x".repeat(32) })).toThrow(/TRUST_PROXY/)
    expect(() =>
      loadConfig({ RATE_LIMITS: '{"nope":{"max":1,"windowSeconds":1}}', CAPTCHA_SECRET: "x".repeat(32) }),
    ).toThrow(/RATE_LIMITS/)
  })

  it("has the documented defaults and derives origins, limits and the captcha secret", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "casino-config-"))
    try {
      const config = loadConfig({ DATA_DIR: dataDir })
      expect(config).toMatchObject({
        port: 8080,
        host: "0.0.0.0",
        databaseUrl: undefined,
        publicUrl: "http://localhost:8080",
        allowedOrigins: ["http://localhost:8080"],
        defaultCountry: "MT",
        cdnBasePath: "/cdn",
        cdnDir: join(dataDir, "cdn"),
        captchaEnabled: true,
        cookieSecure: false,
        sessionTtlHours: 720,
        blockedEmailDomains: ["blocked-one.example", "blocked-two.example"],
      })
      expect(config.rateLimits.signinPerEmail).toEqual({ max: 5, windowSeconds: 900 })
      // The captcha secret is generated once and kept in the data folder.
      expect(config.captchaSecret).toMatch(/^[0-9a-f]{64}$/)
      expect(loadConfig({ DATA_DIR: dataDir }).captchaSecret).toBe(config.captchaSecret)
      const production = loadConfig({
        DATA_DIR: dataDir,
        PUBLIC_URL: "https://casino.example/",
        NODE_ENV: "production",
        CAPTCHA_SECRET: "c".repeat(32),
        OPERATOR_SECRETS: JSON.stringify({ ana: "a".repeat(32) }),
        BACKOFFICE_TOTP_KEY: "b".repeat(32),
        BACKOFFICE_ALLOW: "203.0.113.0/24",
        SMTP_URL: "smtp://mail.casino.example:587",
        DATABASE_URL: "embedded",
      })
      expect(production.publicUrl).toBe("https://casino.example")
      expect(production.allowedOrigins).toEqual(["https://casino.example"])
      expect(production.cookieSecure).toBe(true)
      // A scale above 1 is a developer's machine's (production refuses it).
      const scaled = loadConfig({
        DATA_DIR: dataDir,
        RATE_LIMIT_SCALE: "2",
        RATE_LIMITS: '{"signinPerIp":{"max":7,"windowSeconds":60}}',
      })
      expect(scaled.rateLimits.signinPerIp).toEqual({ max: 14, windowSeconds: 60 })
      expect(scaled.rateLimits.forgotPerEmail).toEqual({ max: 6, windowSeconds: 3600 })
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
