/**
 * `GET /metrics` (server/metrics/): the Prometheus text from loopback (METRICS_ALLOW's default
 * outside production), requests counted by route TEMPLATE (never a raw path or id), the histogram,
 * the process metrics and the open event streams; 404 — what an unknown path gets — for an address
 * outside the list (faked through one trusted proxy hop, as the BACKOFFICE_ALLOW tests do) and for
 * everyone when the list is empty (production's default).
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP edges).
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import { describeOn, type TestServer } from "./harness.ts"
import { scrape, seriesValue } from "./metrics-support.ts"
import { Browser, PROFILE, register, USER, uniqueEmail } from "./users-support.ts"

describeOn("postgres", "GET /metrics", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    // One proxy hop trusted: a test can come from any address through X-Forwarded-For.
    server = await start({}, { env: { TRUST_PROXY: "1" } })
  })
  afterAll(() => server?.close())

  it("answers loopback with the exposition format and the series' types", async () => {
    const { status, contentType, text } = await scrape(server)
    expect(status).toBe(200)
    expect(contentType).toBe("text/plain; version=0.0.4; charset=utf-8")
    expect(text).toContain("# TYPE http_requests_total counter")
    expect(text).toContain("# TYPE http_request_duration_seconds histogram")
    expect(text).toContain("# TYPE sse_streams_open gauge")
    expect(text).toContain("# TYPE background_job_runs_total counter")
    expect(text).toContain("# TYPE background_job_last_success_timestamp_seconds gauge")
    expect(text).toContain("# TYPE ledger_check_clean gauge")
    // Node's process metrics, from the casino's own registry.
    expect(text).toContain("# TYPE process_cpu_seconds_total counter")
    expect(text).toContain("# TYPE nodejs_eventloop_lag_seconds gauge")
  })

  it("counts a spec route under its template, with the status it answered, and times it", async () => {
    const series =
      'http_requests_total{method="POST",route="/user-service/api/v1/isAuthenticated",status="200"}'
    const before = seriesValue((await scrape(server)).text, series) ?? 0
    const res = await fetch(`${server.url}${USER}/isAuthenticated`, { method: "POST" })
    expect(res.status).toBe(200)
    const { text } = await scrape(server)
    expect(seriesValue(text, series)).toBe(before + 1)
    expect(text).toMatch(
      /^http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/user-service\/api\/v1\/isAuthenticated"\} \d+$/m,
    )
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="POST",route="\/user-service\/api\/v1\/isAuthenticated"\} \d+$/m,
    )
  })

  it("labels a path with a parameter by its template: the id appears nowhere", async () => {
    const id = randomUUID()
    const res = await fetch(`${server.url}${PROFILE}/profile/session/${id}`, { method: "DELETE" })
    expect(res.status).toBe(401)
    const { text } = await scrape(server)
    expect(
      seriesValue(
        text,
        'http_requests_total{method="DELETE",route="/profile-service/api/v1/profile/session/:id",status="401"}',
      ),
    ).toBeGreaterThanOrEqual(1)
    expect(text).not.toContain(id)
  })

  it("puts what no route takes under route=unmatched, and the apps' catch-all under *", async () => {
    const junk = `no-such-${randomUUID()}`
    expect((await fetch(`${server.url}${USER}/${junk}`, { method: "POST" })).status).toBe(404)
    expect((await fetch(`${server.url}/${junk}`, { headers: { accept: "application/json" } })).status).toBe(
      404,
    )
    const { text } = await scrape(server)
    expect(
      seriesValue(text, 'http_requests_total{method="POST",route="unmatched",status="404"}'),
    ).toBeGreaterThanOrEqual(1)
    expect(
      seriesValue(text, 'http_requests_total{method="GET",route="*",status="404"}'),
    ).toBeGreaterThanOrEqual(1)
    expect(text).not.toContain(junk)
  })

  it("counts an open event stream while it is open", async () => {
    const series = "sse_streams_open"
    const browser = new Browser(server)
    expect((await register(browser, uniqueEmail("metrics"))).status).toBe(200)
    const before = seriesValue((await scrape(server)).text, series) ?? Number.NaN
    const stream = await browser.pushStream()
    expect(seriesValue((await scrape(server)).text, series)).toBe(before + 1)
    await stream.close()
    await expect.poll(async () => seriesValue((await scrape(server)).text, series)).toBe(before)
  })

  it("answers 404 to an address outside METRICS_ALLOW, as for a path that does not exist", async () => {
    const outside = await scrape(server, { "x-forwarded-for": "203.0.113.9", accept: "application/json" })
    expect(outside.status).toBe(404)
    expect(outside.text).not.toContain("http_requests_total")
    const unknown = await fetch(`${server.url}/metrics-${randomUUID()}`, {
      headers: { accept: "application/json" },
    })
    expect(outside.text).toBe(await unknown.text())
    // The list is loopback, 127.0.0.0/8 included: an address in it, through the proxy, may read.
    expect((await scrape(server, { "x-forwarded-for": "127.0.0.9" })).status).toBe(200)
    // Not advertised: another method is a plain 404, not a 405 naming GET.
    expect((await fetch(`${server.url}/metrics`, { method: "POST" })).status).toBe(404)
  })
})

describeOn("postgres", "GET /metrics with an empty METRICS_ALLOW", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ metricsAllow: [] })
  })
  afterAll(() => server?.close())

  it("answers nobody, loopback included (empty is nobody, unlike BACKOFFICE_ALLOW)", async () => {
    const { status, text } = await scrape(server, { accept: "application/json" })
    expect(status).toBe(404)
    expect(text).not.toContain("# TYPE")
  })
})
