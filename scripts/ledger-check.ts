/**
 * `npm run ledger:check`: proves the ledger's invariants on a database (server/ledger/check.ts) and
 * prints a report. DATABASE_URL, else the embedded PGlite in DATA_DIR (default .data) — which only
 * one process may open: stop the server first (or use PostgreSQL). Exit 0 clean, 1 drift, 2 setup.
 */
import { Effect, Layer, References } from "effect"
import { makeDbLayer } from "../lib/db/client.ts"
import { loadConfig } from "../server/config.ts"
import { checkLedger, formatLedgerReport } from "../server/ledger/check.ts"

const main = async (): Promise<number> => {
  const config = loadConfig({ ...process.env, CAPTCHA_SECRET: process.env.CAPTCHA_SECRET ?? "x".repeat(32) })
  const json = process.argv.includes("--json")
  const quiet = Layer.succeed(References.MinimumLogLevel, "Warn")
  const report = await Effect.runPromise(
    checkLedger.pipe(Effect.provide(makeDbLayer(config)), Effect.provide(quiet), Effect.scoped),
  )
  process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : formatLedgerReport(report))
  return report.clean ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`ledger:check: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(2)
  },
)
