/**
 * The casino's own ledger check (server/ledger/checkJob.ts), what the "ledger check failed" alert
 * reads: after a round, `/metrics` says clean with no problems; once an account's balance no longer
 * equals the sum of its entries (put there by hand), the next round says so, with the count.
 * Backend: PostgreSQL only (`describeOn`): what is tested is the export; the check's SQL itself runs
 * on both databases in the ledger suites.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { ledgerCheckRound } from "../../server/ledger/checkJob.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { scrape, seriesValue } from "./metrics-support.ts"
import { Browser, register, uniqueEmail } from "./users-support.ts"

const gauge = async (server: TestServer, name: string): Promise<number | undefined> =>
  seriesValue((await scrape(server)).text, name)

describeOn("postgres", "the ledger check job", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
  })
  afterAll(() => server?.close())

  it("exports a clean check, then the drift it finds", async () => {
    expect((await register(new Browser(server), uniqueEmail("ledgercheck"))).status).toBe(200)
    await server.run(ledgerCheckRound)
    expect(await gauge(server, "ledger_check_clean")).toBe(1)
    expect(await gauge(server, "ledger_check_problems")).toBe(0)
    expect(await gauge(server, "ledger_check_last_run_timestamp_seconds")).toBeGreaterThan(1_700_000_000)

    const [account] = await server.query<{ id: string }>("SELECT id::text AS id FROM ledger_accounts LIMIT 1")
    expect(account).toBeDefined()
    await server.query("UPDATE ledger_accounts SET balance = balance + 1 WHERE id = $1", [account?.id])
    await server.run(ledgerCheckRound)
    expect(await gauge(server, "ledger_check_clean")).toBe(0)
    expect(await gauge(server, "ledger_check_problems")).toBeGreaterThanOrEqual(1)
    await server.query("UPDATE ledger_accounts SET balance = balance - 1 WHERE id = $1", [account?.id])
  })
})
