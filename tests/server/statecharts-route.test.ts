/**
 * `/statecharts` (the product owners' visualizer) is a tool of the team's, not the players': with
 * NODE_ENV=production it answers 404 unless the operator sets STATECHARTS=on. Elsewhere it is on.
 * The static handler is called directly (no database needed).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loadConfig } from "../../server/config.ts"
import { makeEndpointIndex } from "../../server/static/endpoints.ts"
import { makeStaticHandler } from "../../server/static/http.ts"

let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "casino-statecharts-"))
  await writeFile(join(dir, "index.html"), "<!doctype html><title>Casino</title>")
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const configWith = (env: Record<string, string>) =>
  loadConfig({
    DATA_DIR: dir,
    STATIC_DIR: dir,
    PUBLIC_URL: "https://casino.example",
    CAPTCHA_SECRET: "x".repeat(32),
    OPERATOR_SECRET: "y".repeat(32),
    BACKOFFICE_TOTP_KEY: "b".repeat(32),
    // What production needs besides (tests/server/production.test.ts refuses each one missing).
    BACKOFFICE_ALLOW: "203.0.113.0/24",
    SMTP_URL: "smtp://mail.casino.example:587",
    DATABASE_URL: "embedded",
    ...env,
  })

const statusOf = async (env: Record<string, string>, path: string): Promise<number> => {
  const handler = makeStaticHandler(configWith(env), makeEndpointIndex([]))
  const request = HttpServerRequest.fromWeb(
    new Request(`http://127.0.0.1${path}`, { headers: { accept: "text/html" } }),
  )
  const response = await Effect.runPromise(handler(request))
  return HttpServerResponse.isHttpServerResponse(response) ? response.status : 0
}

describe("/statecharts", () => {
  it("is 404 in production unless STATECHARTS=on", async () => {
    expect(await statusOf({ NODE_ENV: "production" }, "/statecharts")).toBe(404)
    expect(await statusOf({ NODE_ENV: "production" }, "/statecharts/login")).toBe(404)
    expect(await statusOf({ NODE_ENV: "production", STATECHARTS: "off" }, "/statecharts")).toBe(404)
    expect(await statusOf({ NODE_ENV: "production", STATECHARTS: "on" }, "/statecharts")).toBe(200)
  })

  it("is served outside production unless STATECHARTS=off; the casino's pages are not affected", async () => {
    expect(await statusOf({ NODE_ENV: "development" }, "/statecharts")).toBe(200)
    expect(await statusOf({ NODE_ENV: "development", STATECHARTS: "off" }, "/statecharts")).toBe(404)
    expect(await statusOf({ NODE_ENV: "production" }, "/profile")).toBe(200)
    expect(await statusOf({ NODE_ENV: "production" }, "/statechartsx")).toBe(200)
  })

  it("refuses a value that is neither on nor off", () => {
    expect(() => configWith({ STATECHARTS: "maybe" })).toThrow(/STATECHARTS/)
  })
})
