/**
 * Withdrawals under concurrency, on both backends. Per player, four withdrawals that together exceed
 * the balance are sent at the same instant: exactly one succeeds, the others answer NotEnoughMoney,
 * and no balance goes negative. Concurrent approve and reject of one withdrawal: exactly one wins,
 * one audit row. Then ledger:check finds no drift.
 *
 * - PostgreSQL: TWO servers on one database (each its own pool), the calls split between them, so
 *   the row locks (the player's, the balances') really are contended across connections and
 *   processes' pools; ledger:check also runs as the script, a second process.
 * - PGlite: one server (PGlite is one in-process session: a second server cannot open the same data
 *   folder, and the pool is one connection, so transactions run one after the other). The race is
 *   then between requests queued on that connection: it still proves that the balance is checked
 *   and debited in ONE transaction (a check in one and the debit in another would let two pass).
 *   ledger:check runs as the function only (the script would open the server's data folder).
 */
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, expect, it } from "vitest"
import { makeServer, type RunningServer } from "../../server/app.ts"
import { BO } from "./backoffice-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport } from "./money-support.ts"
import { bearerCall, operatorToken } from "./operator-token.ts"
import { balance, newCashier, PROFILE, pendingBalance } from "./withdrawals-support.ts"

const root = fileURLToPath(new URL("../../", import.meta.url))

describeBackends("withdrawals: concurrency", ({ backend, start }) => {
  const postgres = backend === "postgres"
  let a: TestServer
  let b: RunningServer | undefined
  let bDir: string | undefined
  beforeAll(async () => {
    a = await start({ captchaEnabled: false }, { parties: ["payments"] })
    if (!postgres) return
    bDir = await mkdtemp(join(tmpdir(), "casino-test-b-"))
    // B's chain watcher stays off: its own sandbox chains are not the ones A's cursors follow.
    b = await makeServer({
      ...a.config,
      port: 0,
      dataDir: bDir,
      crypto: { ...a.config.crypto, watcherEnabled: false },
    })
  }, 60_000)
  afterAll(async () => {
    await b?.close()
    await a?.close()
    if (bDir !== undefined) await rm(bDir, { recursive: true, force: true })
  })
  /** Where the i-th of simultaneous calls goes: alternately a and b on PostgreSQL, a on PGlite. */
  const base = (i: number) => (i % 2 === 1 && b !== undefined ? b.url : a.url)

  it("withdrawals that together exceed the balance: exactly one succeeds, on either server", async () => {
    const pendingBefore = await pendingBalance(a)
    const players = await Promise.all(
      Array.from({ length: 6 }, (_, i) => newCashier(a, `wc-${i}`, { eur: 10_000n })),
    )
    const results = await Promise.all(
      players.map(async (p) => {
        // The same session; on PostgreSQL half of the calls to server b (the page's origin is a's
        // PUBLIC_URL).
        const cookie = [...p.browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
        const post = (url: string, email: string) =>
          fetch(`${url}${PROFILE}/profile/bank/withdraw`, {
            method: "POST",
            headers: { origin: a.url, cookie, "content-type": "application/json" },
            body: JSON.stringify({ amount: "6000", currency: "EUR", email }),
          }).then((r) => r.status)
        const statuses = await Promise.all(
          ["one", "two", "three", "four"].map((who, i) => post(base(i), `${who}@example.com`)),
        )
        return { p, statuses }
      }),
    )
    for (const { p, statuses } of results) {
      expect(statuses.filter((s) => s === 200)).toHaveLength(1)
      expect(statuses.filter((s) => s === 409)).toHaveLength(3)
      expect(await balance(a, p.userId)).toBe(4_000n)
    }
    expect(await pendingBalance(a)).toBe(pendingBefore + 6n * 6_000n)
  }, 120_000)

  it("approve and reject of one withdrawal at the same instant: exactly one wins", async () => {
    // The token is in the shared database: either server accepts it.
    const { token } = await operatorToken(a, { role: "payments" })
    const p = await newCashier(a, "wc-race", { eur: 10_000n })
    const res = await p.browser.post(`${PROFILE}/profile/bank/withdraw`, {
      amount: "5000",
      currency: "EUR",
      email: "fail@example.com",
    })
    const id = (res.body as { id: string }).id
    const call = (url: string, action: string, body?: unknown) =>
      bearerCall(url, token, "POST", `${BO}/withdrawals/${id}/${action}`, body).then((r) => r.status)
    const statuses = await Promise.all([
      call(base(0), "approve"),
      call(base(1), "reject", { reason: "race" }),
      call(base(3), "approve"),
      call(base(2), "reject", { reason: "race" }),
    ])
    expect(statuses.filter((s) => s === 200)).toHaveLength(1)
    expect(statuses.filter((s) => s === 409)).toHaveLength(3)
    const audit = await a.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM operator_audit WHERE subject = $1",
      [id],
    )
    expect(audit[0]?.n).toBe(1)
  }, 60_000)

  it("ledger:check is clean (the function; on PostgreSQL the script too)", async () => {
    const report = await ledgerReport(a)
    expect(report.clean).toBe(true)
    if (!postgres) return
    const url = a.config.databaseUrl ?? ""
    const run = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        join(root, "node_modules/.bin/node"),
        [join(root, "scripts/ledger-check.ts"), "--json"],
        { cwd: root, env: { ...process.env, DATABASE_URL: url }, timeout: 60_000 },
        (error, stdout) => resolve({ code: error === null ? 0 : Number(error.code ?? -1), stdout }),
      )
    })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ clean: true })
  }, 60_000)
})
