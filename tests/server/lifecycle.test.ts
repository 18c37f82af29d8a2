/**
 * Liveness, readiness and the drain a rolling deploy relies on (server/static/health.ts,
 * server/lifecycle/Lifecycle.ts, RunningServer.drain — what SIGTERM runs):
 * - `/health` is 200 while the process answers, its database up or not; `/ready` is 503 while the
 *   database does not answer and 200 again once it does, without a restart;
 * - a drain turns `/ready` to 503 at once, closes each connection after its answer, tells open
 *   event streams to reconnect (`retry:`) and ends them, then stops accepting.
 * Backend: PostgreSQL only (`describeOn`): losing the database is done to a real PostgreSQL
 * (connections refused and terminated), which the embedded database cannot be made to do.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { adminSql } from "../support/templates.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { Browser, register, uniqueEmail } from "./users-support.ts"

const getJson = async (server: TestServer, path: string) => {
  const res = await fetch(`${server.url}${path}`)
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describeOn("postgres", "liveness and readiness", ({ start }) => {
  let server: TestServer
  let database: string
  beforeAll(async () => {
    server = await start()
    database = new URL(server.config.databaseUrl ?? "").pathname.slice(1)
  })
  afterAll(async () => {
    await adminSql(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`).catch(() => undefined)
    await server?.close()
  })

  it("both answer 200 while the database answers", async () => {
    expect(await getJson(server, "/health")).toMatchObject({
      status: 200,
      body: { status: "ok", database: "ok", draining: false },
    })
    expect(await getJson(server, "/ready")).toEqual({
      status: 200,
      body: { status: "ready", database: "ok" },
    })
  })

  it("a lost database: not ready (503) but alive (200); ready again once it is back, no restart", async () => {
    await adminSql(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`)
    await adminSql(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}' AND pid <> pg_backend_pid()`,
    )
    await expect.poll(async () => (await getJson(server, "/ready")).status, { timeout: 20_000 }).toBe(503)
    expect((await getJson(server, "/ready")).body).toEqual({ status: "not-ready", database: "unavailable" })
    expect(await getJson(server, "/health")).toMatchObject({
      status: 200,
      body: { status: "ok", database: "unavailable" },
    })
    await adminSql(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`)
    await expect.poll(async () => (await getJson(server, "/ready")).status, { timeout: 20_000 }).toBe(200)
  })
})

describeOn("postgres", "the drain on SIGTERM", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start()
  })
  afterAll(() => server?.close())

  it("readiness 503 at once, connections closed after their answer, streams told to reconnect and ended", async () => {
    const browser = new Browser(server)
    expect((await register(browser, uniqueEmail("drain"))).status).toBe(200)
    const stream = await browser.pushStream()
    const before = await fetch(`${server.url}/health`)
    expect(before.headers.get("connection")).not.toBe("close")

    // The settle time is long enough to look inside it; the drain runs meanwhile.
    const drained = server.drain(3_000)
    expect(await getJson(server, "/ready")).toEqual({ status: 503, body: { status: "draining" } })
    const during = await fetch(`${server.url}/health`)
    expect(during.status).toBe(200)
    expect(during.headers.get("connection")).toBe("close")
    expect(((await during.json()) as { draining: boolean }).draining).toBe(true)
    // The stream's last words: reconnect in 500 ms (EventSource's own field), then its end.
    const said = await stream.until("retry: 500")
    expect(said).toContain("retry: 500\n\n")
    expect(await stream.ended()).toBe(true)

    await drained
    await expect(fetch(`${server.url}/health`)).rejects.toThrow()
  })
})
