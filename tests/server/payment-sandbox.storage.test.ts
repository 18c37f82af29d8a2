/**
 * The payment sandbox keeps its own storage: alone (its own server, its own migrations) its tables
 * are in its own schema `payment_sandbox` on PostgreSQL, or in its own PGlite folder; beside the
 * casino (the `payments` party) the casino's database has none of them, and the casino's migration
 * 0060 removes the ones older casino databases still hold.
 */
import { readFile, stat } from "node:fs/promises"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { PaymentsHandle } from "../../compose/parties/payments.ts"
import { splitStatements } from "../../lib/db/migrate.ts"
import { migrationsDir as casinoMigrations } from "../../server/db/migrate.ts"
import { describeBackends, queryThrough, type TestServer } from "./harness.ts"
import { describeSandboxBackends, type SandboxTest, startSandbox } from "./payment-sandbox-harness.ts"

const sandboxTables = [
  "sandbox_gateway_rules",
  "sandbox_payments",
  "sandbox_payouts",
  "sandbox_webhook_outbox",
]

const tablesQuery = `SELECT current_schema() AS schema, table_name FROM information_schema.tables
  WHERE table_schema = current_schema() AND table_name LIKE 'sandbox%' ORDER BY table_name`

describeSandboxBackends("payment sandbox storage, alone", (backend) => {
  let t: SandboxTest
  beforeAll(async () => {
    t = await startSandbox(backend)
  })
  afterAll(() => t?.close())

  it("starts alone on its own storage, migrated by its own migrations", async () => {
    const rows = await t.query<{ schema: string; table_name: string }>(tablesQuery)
    expect(rows.map((r) => r.table_name)).toEqual(sandboxTables)
    expect(new Set(rows.map((r) => r.schema))).toEqual(
      new Set([backend === "postgres" ? "payment_sandbox" : "public"]),
    )
    const applied = await t.query<{ migration_id: number; name: string }>(
      "SELECT migration_id, name FROM schema_migrations ORDER BY migration_id",
    )
    expect(applied).toEqual([{ migration_id: 1, name: "sandbox" }])
    // Nothing of a casino here.
    expect(
      await t.query("SELECT 1 FROM information_schema.tables WHERE table_name IN ('users', 'deposits')"),
    ).toEqual([])
    if (backend === "pglite") expect((await stat(join(t.config.dataDir, "pglite"))).isDirectory()).toBe(true)
  })
})

describeBackends("payment sandbox storage, beside the casino", ({ backend, start }) => {
  let server: TestServer
  let sandbox: PaymentsHandle
  beforeAll(async () => {
    server = await start({ captchaEnabled: false }, { parties: ["payments"] })
    sandbox = server.parties.get("payments")?.handle as PaymentsHandle
  })
  afterAll(() => server?.close())

  it("the casino's database has no sandbox_* table; the sandbox's storage has them all", async () => {
    expect(await server.query(tablesQuery)).toEqual([])
    const theirs = await queryThrough(sandbox.server.run)<{ schema: string; table_name: string }>(tablesQuery)
    expect(theirs.map((r) => r.table_name)).toEqual(sandboxTables)
    if (backend === "postgres") {
      // One database, two schemas: the casino's own, the sandbox's `payment_sandbox`.
      expect(server.config.databaseUrl).toBe(sandbox.config.databaseUrl)
      expect(new Set(theirs.map((r) => r.schema))).toEqual(new Set(["payment_sandbox"]))
    } else {
      expect(sandbox.config.dataDir).toBe(join(server.dataDir, "payments"))
    }
  })

  it("migration 0060 drops the sandbox tables an older casino database still has", async () => {
    await server.query("CREATE TABLE sandbox_settings (key text PRIMARY KEY, value text NOT NULL)")
    await server.query("CREATE TABLE sandbox_payments (id uuid PRIMARY KEY)")
    await server.query(
      "CREATE TABLE sandbox_webhook_outbox (id uuid PRIMARY KEY, payment_id uuid REFERENCES sandbox_payments (id))",
    )
    const sql = await readFile(join(casinoMigrations, "0060_payment_sandbox_apart.sql"), "utf8")
    for (const statement of splitStatements(sql)) await server.query(statement)
    expect(await server.query(tablesQuery)).toEqual([])
    const applied = await server.query<{ migration_id: number }>(
      "SELECT migration_id FROM schema_migrations WHERE migration_id = 60",
    )
    expect(applied).toEqual([{ migration_id: 60 }])
  })
})
