/**
 * The ledger's invariants (check.ts) checked by the casino itself, once per cluster every
 * LEDGER_CHECK_MINUTES (60; 0: never): the result is exported at /metrics for the "ledger check
 * failed" alert (docs/monitoring/alerts.yml), and a failure is logged with its first findings.
 */
import { Duration, Effect, Layer } from "effect"
import { AppConfig } from "../config.ts"
import { Jobs } from "../lifecycle/Jobs.ts"
import { observeLedgerCheck } from "../metrics/registry.ts"
import { checkLedger, formatLedgerReport } from "./check.ts"

const problemsOf = (report: Effect.Success<typeof checkLedger>): number =>
  report.unbalancedTransactions.length +
  report.emptyTransactions.length +
  report.currencyMismatches.length +
  report.balanceDrift.length +
  report.negativePlayerBalances.length

/** One check: the gauges set, a failure logged. */
export const ledgerCheckRound = checkLedger.pipe(
  Effect.tap((report) =>
    Effect.gen(function* () {
      observeLedgerCheck(report.clean, problemsOf(report))
      if (!report.clean) yield* Effect.logError(`ledger check failed:\n${formatLedgerReport(report)}`)
    }),
  ),
)

export const ledgerCheckJob = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (config.ledgerCheckMinutes === 0) return
    const jobs = yield* Jobs
    yield* jobs.every("ledger.check", ledgerCheckRound, Duration.minutes(config.ledgerCheckMinutes), {
      firstAfter: Duration.minutes(1),
    })
  }),
)
