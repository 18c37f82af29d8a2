/**
 * The back office on a host of its own (BACKOFFICE_URL): the edge routes by the Host header. The
 * player's host answers 404 for /backoffice and /api/backoffice; the back office's host serves only
 * those (and /health), its pages with a strict CSP of their own (no chat vendor, never framed);
 * writes to the back-office API are taken only from BACKOFFICE_URL's origin; the operator's cookie
 * is host-only. Without BACKOFFICE_URL everything stays on one origin, as before, and the back
 * office's pages still carry its own CSP. The requests go to 127.0.0.1 with the Host header of the
 * name asked for, as a reverse proxy passes it.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */

import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Secret, TOTP } from "otpauth"
import { afterAll, beforeAll, expect, it } from "vitest"
import { BO, createOperator, TestClock } from "./backoffice-support.ts"
import { jsonOf, type RawReply, raw } from "./edge-support.ts"
import { describeOn, type TestServer } from "./harness.ts"

const ADMIN_HOST = "admin.casino.example"
const ADMIN_ORIGIN = "https://admin.casino.example"
const PASSWORD = "correct horse battery staple"

const playerHtml = "<!doctype html><title>Casino</title>"
const backofficeHtml = "<!doctype html><title>Back office</title>"

/** The back office's policy, as docs/backoffice.md states it. */
const STRICT_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"

let builds: string
beforeAll(async () => {
  builds = await mkdtemp(join(tmpdir(), "casino-hosts-"))
  await mkdir(join(builds, "app"), { recursive: true })
  await mkdir(join(builds, "backoffice"), { recursive: true })
  await writeFile(join(builds, "app", "index.html"), playerHtml)
  await writeFile(join(builds, "backoffice", "index.html"), backofficeHtml)
})
afterAll(() => rm(builds, { recursive: true, force: true }))

const chatwoot = {
  CHAT_PROVIDER: "chatwoot",
  CHATWOOT_BASE_URL: "https://chat.vendor.example",
  CHATWOOT_WEBSITE_TOKEN: "tok_123",
}

const page = { accept: "text/html" }

const cspOf = (reply: RawReply): string => String(reply.headers["content-security-policy"] ?? "")

/** The `name=value` of a Set-Cookie line. */
const cookiePair = (reply: RawReply, name: string): { pair: string; line: string } => {
  const line = (reply.headers["set-cookie"] ?? []).find((c) => c.startsWith(`${name}=`))
  if (line === undefined) throw new Error(`no ${name} cookie: ${reply.status} ${reply.body.toString()}`)
  return { pair: line.split(";")[0] ?? "", line }
}

describeOn("postgres", "the back office on its own host (BACKOFFICE_URL)", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  /** The player's origin: PUBLIC_URL, 127.0.0.1 and the server's port. */
  let playerOrigin: string
  beforeAll(async () => {
    server = await start(
      {
        captchaEnabled: false,
        backofficeClock: clock.read,
        staticDir: join(builds, "app"),
        backofficeStaticDir: join(builds, "backoffice"),
      },
      { env: { BACKOFFICE_URL: ADMIN_ORIGIN, ...chatwoot } },
    )
    playerOrigin = new URL(server.url).origin
  }, 120_000)
  afterAll(() => server?.close())

  const onAdmin = (path: string, headers: Record<string, string> = {}, method = "GET", body?: string) =>
    raw(server.url, path, {
      method,
      headers: { host: ADMIN_HOST, ...headers },
      ...(body === undefined ? {} : { body }),
    })

  it("the player's host answers 404 for the back office and its API, whatever it is asked", async () => {
    for (const host of [new URL(server.url).host, "casino.example"]) {
      for (const path of [
        "/backoffice",
        "/backoffice/",
        "/backoffice/players",
        "/api/backoffice/openapi.json",
      ]) {
        const res = await raw(server.url, path, { headers: { host, ...page } })
        expect(res.status, `${host}${path}`).toBe(404)
        expect(jsonOf(res), `${host}${path}`).toEqual({
          error: "NotFound",
          message: "There is nothing at this address.",
        })
      }
      expect((await raw(server.url, `${BO}/me`, { headers: { host } })).status).toBe(404)
      const login = await raw(server.url, `${BO}/login`, {
        method: "POST",
        headers: { host, origin: playerOrigin, "content-type": "application/json" },
        body: JSON.stringify({ email: "ana@ops.example", password: PASSWORD }),
      })
      expect(login.status, host).toBe(404)
    }
    // The player's app itself is where it was.
    const home = await raw(server.url, "/", { headers: page })
    expect(home.status).toBe(200)
    expect(home.body.toString()).toBe(playerHtml)
  })

  it("the back office's host serves the back office and nothing of the player app", async () => {
    for (const path of ["/backoffice", "/backoffice/", "/backoffice/players"]) {
      const res = await onAdmin(path, page)
      expect(res.status, path).toBe(200)
      expect(res.body.toString(), path).toBe(backofficeHtml)
    }
    // Its root leads to the app (built for /backoffice/).
    const root = await onAdmin("/", page)
    expect(root.status).toBe(308)
    expect(root.headers.location).toBe("/backoffice/")
    expect((await onAdmin(`${BO}/me`)).status).toBe(401)
    for (const path of [
      "/profile",
      "/index.html",
      "/assets/index-p1.js",
      "/cdn/site-config.json",
      "/user-service/api/v1/users/me",
      "/openapi.json",
      "/docs",
      "/statecharts",
    ]) {
      const res = await onAdmin(path, page)
      expect(res.status, path).toBe(404)
    }
    const register = await onAdmin(
      "/user-service/api/v1/users/register",
      { origin: ADMIN_ORIGIN, "content-type": "application/json" },
      "POST",
      "{}",
    )
    expect(register.status).toBe(404)
    // A load balancer's checks answer on either host.
    expect((await onAdmin("/health")).status).toBe(200)
    expect((await onAdmin("/ready")).status).toBe(200)
  })

  it("its pages carry the back office's strict CSP, without the chat vendor's origin", async () => {
    const res = await onAdmin("/backoffice/", page)
    expect(cspOf(res)).toBe(STRICT_CSP)
    expect(cspOf(await onAdmin(`${BO}/me`))).toBe(STRICT_CSP)
    expect(cspOf(await onAdmin("/profile", page))).toBe(STRICT_CSP)
    // The player's pages keep theirs, the vendor's script admitted.
    const player = await raw(server.url, "/", { headers: page })
    expect(cspOf(player)).toContain("script-src 'self' 'wasm-unsafe-eval' https://chat.vendor.example")
  })

  it("an operator signs in on the back office's host; the cookie is host-only and useless on the player's", async () => {
    await createOperator(server, { email: "ana@ops.example", role: "admin", password: PASSWORD })
    const json = { origin: ADMIN_ORIGIN, "content-type": "application/json" }
    const first = await onAdmin(
      `${BO}/login`,
      json,
      "POST",
      JSON.stringify({ email: "ana@ops.example", password: PASSWORD }),
    )
    expect(first.status).toBe(200)
    const enrol = jsonOf(first) as { step: string; secret: string }
    expect(enrol.step).toBe("enrol")
    const secret = Secret.fromBase32(enrol.secret)
    clock.advance(30_000)
    const pending = cookiePair(first, "bo_session")
    const second = await onAdmin(
      `${BO}/login/totp`,
      { ...json, cookie: pending.pair },
      "POST",
      JSON.stringify({ code: TOTP.generate({ secret, timestamp: clock.now }) }),
    )
    expect(second.status).toBe(200)
    const session = cookiePair(second, "bo_session")
    expect(session.line).not.toMatch(/domain=/i)
    expect(session.line).toMatch(/; Path=\/api\/backoffice(;|$)/)
    const me = await onAdmin(`${BO}/me`, { cookie: session.pair })
    expect(me.status).toBe(200)
    expect((jsonOf(me) as { role: string }).role).toBe("admin")
    expect((await raw(server.url, `${BO}/me`, { headers: { cookie: session.pair } })).status).toBe(404)
  })

  it("a write to the back-office API is taken only from BACKOFFICE_URL's origin", async () => {
    const login = JSON.stringify({ email: "ana@ops.example", password: PASSWORD })
    for (const origin of [playerOrigin, "https://casino.example", "https://evil.example"]) {
      const res = await onAdmin(`${BO}/login`, { origin, "content-type": "application/json" }, "POST", login)
      expect(res.status, origin).toBe(403)
      expect((jsonOf(res) as { error: string }).error, origin).toBe("ForbiddenOrigin")
    }
    // A browser's cross-site request without Origin, likewise; a client that says nothing (the CLI) passes.
    const crossSite = await onAdmin(
      `${BO}/login`,
      { "sec-fetch-site": "cross-site", "content-type": "application/json" },
      "POST",
      login,
    )
    expect(crossSite.status).toBe(403)
    const cli = await onAdmin(`${BO}/login`, { "content-type": "application/json" }, "POST", login)
    expect(cli.status).toBe(200)
  })
})

describeOn("postgres", "the back office on the player's origin (no BACKOFFICE_URL)", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start(
      { staticDir: join(builds, "app"), backofficeStaticDir: join(builds, "backoffice") },
      { env: chatwoot },
    )
  }, 120_000)
  afterAll(() => server?.close())

  it("is served on the same origin as before, its pages with its own strict CSP", async () => {
    const res = await raw(server.url, "/backoffice/players", { headers: page })
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe(backofficeHtml)
    expect(cspOf(res)).toBe(STRICT_CSP)
    expect((await raw(server.url, `${BO}/me`)).status).toBe(401)
    const player = await raw(server.url, "/", { headers: page })
    expect(player.body.toString()).toBe(playerHtml)
    expect(cspOf(player)).toContain("https://chat.vendor.example")
  })

  it("any host reaches it, as before", async () => {
    const res = await raw(server.url, "/backoffice/", { headers: { host: ADMIN_HOST, ...page } })
    expect(res.status).toBe(200)
    expect(res.body.toString()).toBe(backofficeHtml)
  })
})
