/**
 * Bad input on every back-office endpoint, walked from the contract (`BackofficeApi`): signed in as
 * an admin (every permission), each endpoint gets malformed JSON, bodies of the wrong shape, garbage
 * path parameters and query strings. Every answer is a 4xx with a JSON body — never a 5xx — and the
 * database is unchanged afterwards, so a client mistake loses nothing and changes nothing.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { HttpApi } from "effect/http-api"
import { afterAll, beforeAll, expect, it } from "vitest"
import { defaultRateLimits, scaleRateLimits } from "../../server/config.ts"
import { accessOf } from "../../services/backoffice/access.ts"
import { BackofficeApi } from "../../services/backoffice/api.ts"
import { createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import type { Browser } from "./users-support.ts"

interface Endpoint {
  readonly key: string
  readonly method: string
  readonly path: string
  readonly takesBody: boolean
}

const endpoints: ReadonlyArray<Endpoint> = (() => {
  const found: Array<Endpoint> = []
  HttpApi.reflect(BackofficeApi, {
    onGroup: () => undefined,
    onEndpoint: ({ group, endpoint }) => {
      if (accessOf(endpoint.annotations)?.kind === "public") return
      // Without a body, path parameters or a query there is no input to get wrong (logout, me).
      if (endpoint.payload.size === 0 && endpoint.params === undefined && endpoint.query === undefined) return
      found.push({
        key: `${group.identifier}.${endpoint.identifier}`,
        method: endpoint.method,
        path: endpoint.path,
        takesBody: endpoint.payload.size > 0,
      })
    },
  })
  return found
})()

/** Path parameters no id looks like. */
const badParams = ["not-an-id", "%00", "..%2F..%2Fetc", "x".repeat(300), "1e309", "%F0%9F%8E%B0"]

const withParam = (path: string, value: string) => path.replace(/:(\w+)\??/g, value)

/** Query strings of the wrong shape for any query this API has. */
const badQueries = [
  "limit=abc&before=-1",
  "from=yesterday&to=2026-13-45",
  "q=%00&page=-3&size=1e9",
  "status=%27%3B+DROP+TABLE",
]

/** Bodies of the wrong shape: JSON, but not what any endpoint takes. */
const badBodies: ReadonlyArray<unknown> = [
  [],
  "text",
  42,
  null,
  { amount: 1.5, currency: 7, reason: ["x"], role: "root", disabled: "yes", id: {} },
  { reason: "x".repeat(100_000) },
]

describeOn("postgres", "back-office bad input", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  let admin: Browser

  const fingerprint = async () =>
    (
      await server.query<Record<string, unknown>>(`
        SELECT (SELECT count(*)::int FROM operator_audit) AS audit,
               (SELECT count(*)::int FROM ledger_entries) AS entries,
               (SELECT string_agg(id::text || role || disabled::text, ',' ORDER BY id) FROM backoffice_operators) AS operators
      `)
    )[0]

  beforeAll(async () => {
    server = await start({
      captchaEnabled: false,
      backofficeClock: clock.read,
      rateLimits: scaleRateLimits(defaultRateLimits, 1000),
    })
    await createOperator(server, {
      email: "admin@input.example",
      role: "admin",
      password: "correct horse battery staple",
    })
    admin = await signIn(server, clock, "admin@input.example", "correct horse battery staple")
  })
  afterAll(() => server?.close())

  const send = async (method: string, path: string, body: string | undefined) => {
    const headers: Record<string, string> = {
      origin: server.url,
      cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    }
    if (body !== undefined) headers["content-type"] = "application/json"
    const res = await fetch(server.url + path, { method, headers, ...(body === undefined ? {} : { body }) })
    const text = await res.text()
    return { status: res.status, type: res.headers.get("content-type") ?? "", text }
  }

  it("knows the endpoints it walks", () => {
    expect(endpoints.length).toBeGreaterThanOrEqual(3)
  })

  for (const endpoint of endpoints) {
    it(`${endpoint.method} ${endpoint.path} (${endpoint.key}): a 4xx for every bad input, nothing changed`, async () => {
      const before = await fingerprint()
      const answers: Array<{
        readonly what: string
        readonly status: number
        readonly type: string
        readonly text: string
      }> = []
      const hasParams = endpoint.path.includes(":")
      const paths = hasParams ? badParams.map((p) => withParam(endpoint.path, p)) : [endpoint.path]
      for (const path of paths) {
        if (endpoint.takesBody) {
          answers.push({
            what: `${path} malformed JSON`,
            ...(await send(endpoint.method, path, '{"amount": 1,')),
          })
          for (const body of badBodies)
            answers.push({
              what: `${path} ${JSON.stringify(body).slice(0, 40)}`,
              ...(await send(endpoint.method, path, JSON.stringify(body))),
            })
        } else {
          for (const query of badQueries)
            answers.push({
              what: `${path}?${query}`,
              ...(await send(endpoint.method, `${path}?${query}`, undefined)),
            })
        }
      }
      for (const answer of answers) {
        // Some bad queries are simply ignored by endpoints without them: 2xx is fine there, a 5xx never.
        expect(answer.status, `${answer.what}: ${answer.text.slice(0, 200)}`).toBeLessThan(500)
        if (answer.status >= 400) expect(answer.type, answer.what).toContain("json")
        if (endpoint.takesBody || hasParams)
          expect(answer.status, `${answer.what}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400)
      }
      expect(await fingerprint()).toEqual(before)
    })
  }
})
