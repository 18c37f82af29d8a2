/**
 * The ledger's invariants, checked on a whole database (`npm run ledger:check`, and the tests):
 *   1. every transaction's entries sum to 0 per currency (and every transaction has entries);
 *   2. every entry is in its account's currency;
 *   3. every account's stored balance equals the sum of its entries;
 *   4. no player balance is negative.
 * Read-only, one REPEATABLE READ snapshot so a busy database is judged at one instant.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export interface LedgerReport {
  readonly accounts: number
  readonly transactions: number
  readonly entries: number
  readonly unbalancedTransactions: ReadonlyArray<{
    readonly transactionId: string
    readonly currency: string
    readonly sum: string
  }>
  readonly emptyTransactions: ReadonlyArray<string>
  readonly currencyMismatches: ReadonlyArray<{ readonly entryId: string; readonly accountId: string }>
  readonly balanceDrift: ReadonlyArray<{
    readonly accountId: string
    readonly balance: string
    readonly entriesSum: string
  }>
  readonly negativePlayerBalances: ReadonlyArray<{ readonly accountId: string; readonly balance: string }>
  readonly clean: boolean
}

const LIMIT = 100

export const checkLedger = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`
      const [counts] = yield* sql<{ accounts: string; transactions: string; entries: string }>`
        SELECT (SELECT count(*) FROM ledger_accounts)::text AS accounts,
               (SELECT count(*) FROM ledger_transactions)::text AS transactions,
               (SELECT count(*) FROM ledger_entries)::text AS entries
      `
      const unbalanced = yield* sql<{ transactionId: string; currency: string; sum: string }>`
        SELECT transaction_id::text AS "transactionId", currency, sum(amount)::text AS sum
        FROM ledger_entries GROUP BY transaction_id, currency HAVING sum(amount) <> 0
        ORDER BY 1 LIMIT ${LIMIT}
      `
      const empty = yield* sql<{ id: string }>`
        SELECT t.id::text AS id FROM ledger_transactions t
        WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.transaction_id = t.id)
        ORDER BY 1 LIMIT ${LIMIT}
      `
      const mismatches = yield* sql<{ entryId: string; accountId: string }>`
        SELECT e.id::text AS "entryId", e.account_id::text AS "accountId"
        FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
        WHERE e.currency <> a.currency ORDER BY e.id LIMIT ${LIMIT}
      `
      const drift = yield* sql<{ accountId: string; balance: string; entriesSum: string }>`
        SELECT a.id::text AS "accountId", a.balance::text AS balance, coalesce(s.total, 0)::text AS "entriesSum"
        FROM ledger_accounts a
        LEFT JOIN (SELECT account_id, sum(amount) AS total FROM ledger_entries GROUP BY account_id) s
          ON s.account_id = a.id
        WHERE a.balance <> coalesce(s.total, 0)
        ORDER BY 1 LIMIT ${LIMIT}
      `
      const negative = yield* sql<{ accountId: string; balance: string }>`
        SELECT id::text AS "accountId", balance::text AS balance FROM ledger_accounts
        WHERE user_id IS NOT NULL AND balance < 0 ORDER BY 1 LIMIT ${LIMIT}
      `
      const report: LedgerReport = {
        accounts: Number(counts?.accounts ?? 0),
        transactions: Number(counts?.transactions ?? 0),
        entries: Number(counts?.entries ?? 0),
        unbalancedTransactions: unbalanced,
        emptyTransactions: empty.map((r) => r.id),
        currencyMismatches: mismatches,
        balanceDrift: drift,
        negativePlayerBalances: negative,
        clean:
          unbalanced.length === 0 &&
          empty.length === 0 &&
          mismatches.length === 0 &&
          drift.length === 0 &&
          negative.length === 0,
      }
      return report
    }),
  )
}).pipe(Effect.withSpan("ledger.check"))

/** The report as text for a terminal. */
export const formatLedgerReport = (r: LedgerReport): string => {
  const lines = [
    `ledger: ${r.accounts} accounts, ${r.transactions} transactions, ${r.entries} entries`,
    `  transactions not summing to 0 per currency: ${r.unbalancedTransactions.length}`,
    ...r.unbalancedTransactions.map((u) => `    ${u.transactionId} ${u.currency} sums to ${u.sum}`),
    `  transactions without entries: ${r.emptyTransactions.length}`,
    ...r.emptyTransactions.map((id) => `    ${id}`),
    `  entries in another currency than their account: ${r.currencyMismatches.length}`,
    ...r.currencyMismatches.map((m) => `    entry ${m.entryId} on account ${m.accountId}`),
    `  accounts whose balance differs from the sum of their entries: ${r.balanceDrift.length}`,
    ...r.balanceDrift.map((d) => `    ${d.accountId} balance ${d.balance} entries ${d.entriesSum}`),
    `  negative player balances: ${r.negativePlayerBalances.length}`,
    ...r.negativePlayerBalances.map((n) => `    ${n.accountId} ${n.balance}`),
    r.clean ? "OK: no drift" : "DRIFT: the ledger's invariants do not hold",
  ]
  return `${lines.join("\n")}\n`
}
