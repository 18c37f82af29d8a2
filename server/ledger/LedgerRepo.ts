/**
 * The SQL of the ledger (tables of migration 0010): accounts, transactions and their entries. Only
 * `Ledger` (Ledger.ts) calls the writing functions, inside one SQL transaction per posting. Every
 * function fails only with `SqlError`. Amounts cross the boundary as decimal strings (numeric(38,0)
 * read as text), never as JavaScript numbers.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export type AccountKind = "player_cash" | "gateway_clearing" | "house"

export interface AccountRow {
  readonly id: string
  readonly kind: AccountKind
  readonly userId: string | null
  readonly code: string | null
  readonly currency: string
  readonly balance: string
}

export interface TransactionRow {
  readonly id: string
  readonly kind: string
  readonly fingerprint: string
  readonly createdAt: Date
}

export interface EntryInsert {
  readonly accountId: string
  readonly currency: string
  readonly amount: bigint
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface LedgerRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  readonly playerAccount: (userId: string, currency: string) => Sql<AccountRow | undefined>
  /** The system account of (kind, code, currency), created on first use. */
  readonly systemAccount: (
    kind: Exclude<AccountKind, "player_cash">,
    code: string,
    currency: string,
  ) => Sql<AccountRow>
  readonly findTransaction: (idempotencyKey: string) => Sql<TransactionRow | undefined>
  /** Locks the accounts (`FOR UPDATE`) in ascending id order — the one order every posting uses. */
  readonly lockAccounts: (ids: ReadonlyArray<string>) => Sql<ReadonlyArray<AccountRow>>
  /** Inserts the transaction; undefined when its idempotency key exists already. */
  readonly insertTransaction: (t: {
    readonly kind: string
    readonly idempotencyKey: string
    readonly fingerprint: string
    readonly metadata: Readonly<Record<string, unknown>>
  }) => Sql<TransactionRow | undefined>
  readonly insertEntries: (transactionId: string, entries: ReadonlyArray<EntryInsert>) => Sql<void>
  /** Adds `delta` to the balance and returns the new balance. */
  readonly addToBalance: (accountId: string, delta: bigint) => Sql<string>
}

const accountColumns = `id::text AS id, kind, user_id::text AS "userId", code, currency, balance::text AS balance`

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(accountColumns)

  const playerAccount = (userId: string, currency: string) =>
    sql<AccountRow>`
      SELECT ${columns} FROM ledger_accounts
      WHERE kind = 'player_cash' AND user_id = ${userId} AND currency = ${currency}
    `.pipe(Effect.map((rows) => rows[0]))

  const systemAccount = (kind: Exclude<AccountKind, "player_cash">, code: string, currency: string) =>
    Effect.gen(function* () {
      yield* sql`
        INSERT INTO ledger_accounts (kind, code, currency) VALUES (${kind}, ${code}, ${currency})
        ON CONFLICT (kind, code, currency) WHERE kind <> 'player_cash' DO NOTHING
      `
      const rows = yield* sql<AccountRow>`
        SELECT ${columns} FROM ledger_accounts WHERE kind = ${kind} AND code = ${code} AND currency = ${currency}
      `
      const row = rows[0]
      if (row === undefined)
        return yield* Effect.die(new Error(`ledger account ${kind}/${code}/${currency} vanished`))
      return row
    })

  const findTransaction = (idempotencyKey: string) =>
    sql<TransactionRow>`
      SELECT id::text AS id, kind, fingerprint, created_at AS "createdAt"
      FROM ledger_transactions WHERE idempotency_key = ${idempotencyKey}
    `.pipe(Effect.map((rows) => rows[0]))

  const lockAccounts = (ids: ReadonlyArray<string>) =>
    sql<AccountRow>`
      SELECT ${columns} FROM ledger_accounts
      WHERE id IN ${sql.in([...ids])}
      ORDER BY id
      FOR UPDATE
    `

  const insertTransaction = (t: {
    readonly kind: string
    readonly idempotencyKey: string
    readonly fingerprint: string
    readonly metadata: Readonly<Record<string, unknown>>
  }) =>
    sql<TransactionRow>`
      INSERT INTO ledger_transactions (kind, idempotency_key, fingerprint, metadata)
      VALUES (${t.kind}, ${t.idempotencyKey}, ${t.fingerprint}, ${JSON.stringify(t.metadata)}::jsonb)
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id::text AS id, kind, fingerprint, created_at AS "createdAt"
    `.pipe(Effect.map((rows) => rows[0]))

  const insertEntries = (transactionId: string, entries: ReadonlyArray<EntryInsert>) =>
    Effect.forEach(
      entries,
      (e) =>
        sql`
          INSERT INTO ledger_entries (transaction_id, account_id, currency, amount)
          VALUES (${transactionId}, ${e.accountId}, ${e.currency}, ${e.amount.toString()}::numeric)
        `,
      { discard: true },
    )

  const addToBalance = (accountId: string, delta: bigint) =>
    sql<{ readonly balance: string }>`
      UPDATE ledger_accounts SET balance = balance + ${delta.toString()}::numeric
      WHERE id = ${accountId}
      RETURNING balance::text AS balance
    `.pipe(
      Effect.flatMap((rows) =>
        rows[0] === undefined
          ? Effect.die(new Error(`ledger account ${accountId} vanished`))
          : Effect.succeed(rows[0].balance),
      ),
    )

  return {
    transaction: sql.withTransaction,
    playerAccount,
    systemAccount,
    findTransaction,
    lockAccounts,
    insertTransaction,
    insertEntries,
    addToBalance,
  } satisfies LedgerRepoShape
})

export class LedgerRepo extends Context.Service<LedgerRepo, LedgerRepoShape>()("casino/server/LedgerRepo") {
  static readonly layer = Layer.effect(LedgerRepo, make)
}
