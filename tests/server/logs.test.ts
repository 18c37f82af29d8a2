/**
 * The casino's logs as a log shipper reads them (LOG_FORMAT=json, the production default): a real
 * server process at LOG_LEVEL=Debug, its output read line by line.
 * - every line is one JSON object; every request's line carries its request id — the proxy's
 *   `X-Request-Id` when it sent one (and the answer carries it back), a new one otherwise;
 * - a request's line names the route's template, never the id or token a path carries;
 * - what a client sends in secret never reaches the log: passwords, a card number, the session
 *   cookie, a bearer token, an unsubscribe link's token.
 * Backend: PostgreSQL only (`describeOn`): what is logged does not depend on the database.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type ServerProcess, startServerProcess } from "../support/server.ts"
import { createDatabase, type TestDatabase } from "../support/templates.ts"
import { describeOn } from "./harness.ts"

const PASSWORD = "correct horse battery 7261"
const WRONG_PASSWORD = "wrong horse battery 9917"
const CARD = "4242424242424242"
const BEARER = "cas_0123456789abcdef0123456789abcdef"
const UNSUBSCRIBE = "8c1f5a52-9d3b-4c55-9a8e-2f0d3e4b5a61"

describeOn("postgres", "logs: JSON lines with request ids, no secrets", () => {
  let database: TestDatabase
  let dataDir: string
  let server: ServerProcess
  beforeAll(async () => {
    database = await createDatabase("casino_logs", { migrated: true })
    dataDir = await mkdtemp(join(tmpdir(), "casino-logs-"))
    server = await startServerProcess({
      dataDir,
      databaseUrl: database.url,
      env: { LOG_FORMAT: "json", LOG_LEVEL: "Debug", CAPTCHA: "off" },
    })
  })
  afterAll(async () => {
    await server?.stop()
    await database?.drop()
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
  })

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, ...headers },
      body: JSON.stringify(body),
    })

  it("writes one JSON object per line, request ids on every request line, and none of the secrets", async () => {
    const email = `logs.${Date.now()}@example.com`
    const registered = await post("/user-service/api/v1/registration", {
      email,
      password: PASSWORD,
      fullName: "Log Reader",
      terms: true,
      language: "en",
      currency: "EUR",
      captcha: "",
    })
    expect(registered.status).toBe(200)
    const cookie = (registered.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
    const session = cookie.split("=")[1] ?? ""
    expect(session.length).toBeGreaterThan(10)
    // A wrong password, a card number where a name goes, the session, a bearer token, a link's token.
    expect(
      (await post("/user-service/api/v1/signin", { email, password: WRONG_PASSWORD, captcha: "" })).status,
    ).toBe(401)
    await post("/user-service/api/v1/registration", {
      email: `x${email}`,
      password: PASSWORD,
      fullName: CARD,
    })
    const traced = await fetch(`${server.url}/profile-service/api/v1/profile`, {
      headers: { cookie, "x-request-id": "proxy-req-4711" },
    })
    expect(traced.status).toBe(200)
    expect(traced.headers.get("x-request-id")).toBe("proxy-req-4711")
    const own = await fetch(`${server.url}/api/backoffice/v1/players`, {
      headers: { authorization: `Bearer ${BEARER}` },
    })
    expect(own.status).toBe(401)
    expect(own.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    await fetch(`${server.url}/profile-service/api/v1/profile/unsubscribe/${UNSUBSCRIBE}`)
    // A request id that could forge a log line is not taken: a new one is made.
    const forged = await fetch(`${server.url}/health`, { headers: { "x-request-id": 'a" level=ERROR' } })
    expect(forged.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)

    await expect
      .poll(() => server.output().includes("/profile-service/api/v1/profile/unsubscribe/:id"), {
        timeout: 10_000,
      })
      .toBe(true)
    const lines = server
      .output()
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("casino: "))
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as { message?: unknown; annotations?: Record<string, unknown> }
      } catch {
        throw new Error(`not one JSON object: ${line}`)
      }
    })
    const requestLines = parsed.filter((l) => /^(GET|POST|PUT|PATCH|DELETE) \//.test(String(l.message)))
    expect(requestLines.length).toBeGreaterThanOrEqual(6)
    for (const l of requestLines)
      expect(l.annotations?.requestId, String(l.message)).toEqual(expect.any(String))
    const profileLine = requestLines.find((l) =>
      String(l.message).startsWith("GET /profile-service/api/v1/profile "),
    )
    expect(profileLine?.annotations?.requestId).toBe("proxy-req-4711")
    const text = server.output()
    for (const secret of [PASSWORD, WRONG_PASSWORD, CARD, session, BEARER, UNSUBSCRIBE])
      expect(text.includes(secret), `the log holds ${secret.slice(0, 6)}…`).toBe(false)
  })
})
