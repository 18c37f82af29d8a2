/**
 * The first admin's bootstrap endpoint (`POST /api/operator/v1/backoffice/operators`, Bearer
 * operator secret; what `npm run operator -- operators add` without a token calls on a held PGlite)
 * on PostgreSQL: BACKOFFICE_ALLOW first, then the secret; only an admin, and only while no active
 * admin exists (409 `BootstrapClosed` after, nothing written); audited as the bootstrap, with the
 * secret's name and the address. Addresses vary by X-Forwarded-For (TRUST_PROXY 1).
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { describeOn, type TestServer } from "./harness.ts"

const SECRET = "bootstrap tests operator secret, long enough"
const PATH = "/api/operator/v1/backoffice/operators"

describeOn("postgres", "first-admin bootstrap", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({
      captchaEnabled: false,
      backofficeAllow: ["10.20.0.0/16"],
      trustProxy: { _tag: "Hops", hops: 1 },
      operatorSecrets: [{ name: "ops-lead", secret: SECRET }],
    })
  })
  afterAll(() => server?.close())

  const bootstrap = async (ip: string, body: unknown, secret = SECRET) => {
    const res = await fetch(server.url + PATH, {
      method: "POST",
      headers: {
        authorization: `Bearer ${secret}`,
        "content-type": "application/json",
        "x-forwarded-for": ip,
      },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }
  const operators = async () =>
    (await server.query<{ n: number }>("SELECT count(*)::int AS n FROM backoffice_operators"))[0]?.n
  const audits = async () =>
    (await server.query<{ n: number }>("SELECT count(*)::int AS n FROM operator_audit"))[0]?.n

  it("refuses an address outside BACKOFFICE_ALLOW (403), even with the secret, and writes nothing", async () => {
    const before = [await operators(), await audits()]
    const reply = await bootstrap("203.0.113.7", { email: "eve@boot.example", name: "Eve", role: "admin" })
    expect(reply.status).toBe(403)
    expect(reply.body.error).toBe("ForbiddenAddress")
    expect([await operators(), await audits()]).toEqual(before)
  })

  it("refuses a wrong secret (401) and a role other than admin (400)", async () => {
    const before = [await operators(), await audits()]
    const wrong = await bootstrap("10.20.1.2", { email: "x@boot.example", name: "X", role: "admin" }, "nope")
    expect(wrong.status).toBe(401)
    const kyc = await bootstrap("10.20.1.2", { email: "kim@boot.example", name: "Kim", role: "kyc" })
    expect(kyc.status).toBe(400)
    expect(kyc.body).toEqual({
      error: "BadInput",
      message: "The bootstrap makes the first admin only: the role must be admin.",
    })
    expect([await operators(), await audits()]).toEqual(before)
  })

  it("makes the first admin, audited as the bootstrap with the secret's name and the address", async () => {
    const reply = await bootstrap("10.20.1.2", { email: "ada@boot.example", name: "Ada", role: "admin" })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    const { operator, initialPassword } = reply.body as {
      operator: { id: string; role: string; mustChangePassword: boolean }
      initialPassword: string
    }
    expect(operator.role).toBe("admin")
    expect(operator.mustChangePassword).toBe(true)
    expect(initialPassword).toMatch(/^[A-Za-z0-9_-]{24}$/)
    const rows = await server.query<Record<string, unknown>>(
      "SELECT actor, action, subject, operator_id, operator_email, ip FROM operator_audit ORDER BY id DESC LIMIT 1",
    )
    expect(rows).toEqual([
      {
        actor: "bootstrap (operator secret ops-lead)",
        action: "operators.bootstrap",
        subject: operator.id,
        operator_id: null,
        operator_email: null,
        ip: "10.20.1.2",
      },
    ])
  })

  it("answers 409 BootstrapClosed once an active admin exists, and writes nothing", async () => {
    const before = [await operators(), await audits()]
    const reply = await bootstrap("10.20.1.3", { email: "mallory@boot.example", name: "M", role: "admin" })
    expect(reply.status).toBe(409)
    expect(reply.body).toEqual({
      error: "BootstrapClosed",
      message: "An active admin exists: the bootstrap is closed. An admin adds operators in the back office.",
    })
    expect([await operators(), await audits()]).toEqual(before)
  })

  it("opens again only when no admin is active (every admin disabled)", async () => {
    await server.query("UPDATE backoffice_operators SET disabled = true WHERE role = 'admin'")
    const reply = await bootstrap("10.20.1.4", { email: "bea@boot.example", name: "Bea", role: "admin" })
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(
      (await bootstrap("10.20.1.4", { email: "cy@boot.example", name: "Cy", role: "admin" })).status,
    ).toBe(409)
  })
})
