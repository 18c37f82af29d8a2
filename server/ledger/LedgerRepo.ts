/**
 * The SQL of the ledger (tables of migration 0010): accounts, transactions and their entries. Only
 * `Ledger` (Ledger.ts) calls the writing functions, inside one SQL transaction per posting. Every
 * function fails only with `SqlError`. Amounts cross the boundary as decimal strings (numeric(38,0)
 * read as text), never as JavaScript numbers.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

/**
 * A player's own accounts: never negative, locked first. Cash is withdrawable; bonus money is not;
 * free-spin winnings wait for a deposit to unlock them (docs/bonuses.md).
 */
export type PlayerKind = "player_cash" | "player_bonus" | "player_free_spins"
export type SystemKind = "gateway_clearing" | "house" | "jackpot_pool" | "pending_withdrawal"
export type AccountKind = PlayerKind | SystemKind

export const isPlayerKind = (kind: AccountKind): kind is PlayerKind =>
  kind === "player_cash" || kind === "player_bonus" || kind === "player_free_spins"

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
  /** The player's bonus account in a currency, opened on first use. */
  readonly bonusAccount: (userId: string, currency: string) => Sql<AccountRow>
  /** The player's free-spin winnings account (docs/bonuses.md, "The free-spin wallet"). */
  readonly freeSpinsAccount: (userId: string, currency: string) => Sql<AccountRow>
  /** The system account of (kind, code, currency), created on first use. */
  readonly systemAccount: (kind: SystemKind, code: string, currency: string) => Sql<AccountRow>
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
  /**
   * The accounts of a posting in ONE round trip: the player accounts among `ids` locked
   * `FOR UPDATE` in ascending id order, the system accounts read WITHOUT a lock (their kind and
   * currency never change; their balance is taken last, by `addToBalance`).
   */
  readonly lockPlayersReadSystem: (ids: ReadonlyArray<string>) => Sql<ReadonlyArray<AccountRow>>
  /**
   * ONE statement: the transaction row under its key, its entries, and the `playerDeltas` added to
   * the (already locked) player accounts. When the key exists nothing is written: undefined.
   */
  readonly insertPosting: (p: {
    readonly kind: string
    readonly idempotencyKey: string
    readonly fingerprint: string
    readonly metadata: Readonly<Record<string, unknown>>
    readonly entries: ReadonlyArray<EntryInsert>
    readonly playerDeltas: ReadonlyArray<readonly [string, bigint]>
  }) => Sql<{ readonly id: string; readonly balances: ReadonlyArray<readonly [string, string]> } | undefined>
  /**
   * ONE statement for many postings: their transaction rows, their entries and the `playerDeltas`
   * (summed per player account, already locked). Answers the ids of the rows inserted, by key;
   * a key that exists already inserts nothing for that posting (the caller must then roll back:
   * the player deltas were written for every posting).
   */
  readonly insertPostings: (p: {
    readonly postings: ReadonlyArray<{
      readonly kind: string
      readonly idempotencyKey: string
      readonly fingerprint: string
      readonly metadata: Readonly<Record<string, unknown>>
      readonly entries: ReadonlyArray<EntryInsert>
    }>
    readonly playerDeltas: ReadonlyArray<readonly [string, bigint]>
  }) => Sql<ReadonlyMap<string, string>>
  /**
   * The id of the system account (created when missing) and whether THIS call created it — in a
   * transaction that may still roll back, so such an id must not be cached yet.
   */
  readonly ensureSystemAccount: (
    kind: SystemKind,
    code: string,
    currency: string,
  ) => Sql<{ readonly id: string; readonly created: boolean }>
  /**
   * Locks the accounts `FOR UPDATE` in the ledger's global order — players by id, then system
   * accounts by id — and reads them (for a caller that must decide on a balance, e.g. a jackpot
   * paying out its whole pool, before it posts in the same transaction).
   */
  readonly lockInOrder: (ids: ReadonlyArray<string>) => Sql<ReadonlyArray<AccountRow>>
  /** Whether the caller already runs inside an SQL transaction (of this client). */
  readonly inTransaction: Effect.Effect<boolean>
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

  /** The player's bonus or free-spins account, opened on first use (cash is opened with the wallet). */
  const ownAccount = (kind: "player_bonus" | "player_free_spins", userId: string, currency: string) =>
    Effect.gen(function* () {
      // The partial unique indexes differ by kind, so each needs its own conflict target.
      yield* kind === "player_bonus"
        ? sql`
            INSERT INTO ledger_accounts (kind, user_id, currency) VALUES ('player_bonus', ${userId}, ${currency})
            ON CONFLICT (user_id, currency) WHERE kind = 'player_bonus' DO NOTHING
          `
        : sql`
            INSERT INTO ledger_accounts (kind, user_id, currency) VALUES ('player_free_spins', ${userId}, ${currency})
            ON CONFLICT (user_id, currency) WHERE kind = 'player_free_spins' DO NOTHING
          `
      const rows = yield* sql<AccountRow>`
        SELECT ${columns} FROM ledger_accounts
        WHERE kind = ${kind} AND user_id = ${userId} AND currency = ${currency}
      `
      const row = rows[0]
      if (row === undefined)
        return yield* Effect.die(new Error(`no ${kind} account for ${userId} ${currency}`))
      return row
    })
  const bonusAccount = (userId: string, currency: string) => ownAccount("player_bonus", userId, currency)
  const freeSpinsAccount = (userId: string, currency: string) =>
    ownAccount("player_free_spins", userId, currency)

  const systemAccount = (kind: SystemKind, code: string, currency: string) =>
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

  const lockInOrder = (ids: ReadonlyArray<string>) =>
    sql<AccountRow>`
      SELECT ${columns} FROM ledger_accounts
      WHERE id IN ${sql.in([...ids])}
      ORDER BY (user_id IS NULL), id
      FOR UPDATE
    `

  const lockPlayersReadSystem = (ids: ReadonlyArray<string>) => {
    const list = ids.map((_, i) => `$${i + 1}::uuid`).join(", ")
    return sql.unsafe<AccountRow>(
      `WITH players AS (
         SELECT ${accountColumns} FROM ledger_accounts
         WHERE id IN (${list}) AND user_id IS NOT NULL ORDER BY id FOR UPDATE
       )
       SELECT * FROM players
       UNION ALL
       SELECT ${accountColumns} FROM ledger_accounts WHERE id IN (${list}) AND user_id IS NULL`,
      [...ids],
    )
  }

  const insertPosting: LedgerRepoShape["insertPosting"] = (p) => {
    const params: Array<string> = [p.kind, p.idempotencyKey, p.fingerprint, JSON.stringify(p.metadata)]
    const param = (value: string) => {
      params.push(value)
      return `$${params.length}`
    }
    const entries = p.entries
      .map(
        (e) =>
          `(${param(e.accountId)}::uuid, ${param(e.currency)}::text, ${param(e.amount.toString())}::numeric)`,
      )
      .join(", ")
    const players =
      p.playerDeltas.length === 0
        ? ""
        : `, players AS (
             UPDATE ledger_accounts a SET balance = a.balance + v.delta
             FROM t, (VALUES ${p.playerDeltas
               .map(([id, delta]) => `(${param(id)}::uuid, ${param(delta.toString())}::numeric)`)
               .join(", ")}) AS v (id, delta)
             WHERE a.id = v.id
             RETURNING a.id, a.balance
           )`
    return sql
      .unsafe<{ readonly id: string; readonly account: string | null; readonly balance: string | null }>(
        `WITH t AS (
           INSERT INTO ledger_transactions (kind, idempotency_key, fingerprint, metadata)
           VALUES ($1, $2, $3, $4::jsonb)
           ON CONFLICT (idempotency_key) DO NOTHING
           RETURNING id
         ), entries AS (
           INSERT INTO ledger_entries (transaction_id, account_id, currency, amount)
           SELECT t.id, v.account_id, v.currency, v.amount
           FROM t, (VALUES ${entries}) AS v (account_id, currency, amount)
         )${players}
         SELECT t.id::text AS id, NULL::text AS account, NULL::text AS balance FROM t
         ${p.playerDeltas.length === 0 ? "" : "UNION ALL SELECT t.id::text, players.id::text, players.balance::text FROM t, players"}`,
        params,
      )
      .pipe(
        Effect.map((rows) => {
          const id = rows[0]?.id
          if (id === undefined) return undefined
          const balances = rows.flatMap((r) =>
            r.account === null || r.balance === null ? [] : [[r.account, r.balance] as const],
          )
          return { id, balances }
        }),
      )
  }

  // JSON in, one parameter per table: the statement's text is the same for any batch size, so the
  // server plans it once, and PGlite and postgres.js bind it alike.
  const insertPostings: LedgerRepoShape["insertPostings"] = ({ postings, playerDeltas }) =>
    sql<{ readonly id: string; readonly key: string }>`
      WITH tx_in AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(
          postings.map((p) => ({ k: p.idempotencyKey, kind: p.kind, fp: p.fingerprint, meta: p.metadata })),
        )}::jsonb) AS x (k text, kind text, fp text, meta jsonb)
      ), entry_in AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(
          postings.flatMap((p) =>
            p.entries.map((e) => ({
              k: p.idempotencyKey,
              a: e.accountId,
              c: e.currency,
              m: e.amount.toString(),
            })),
          ),
        )}::jsonb) AS x (k text, a uuid, c text, m numeric)
      ), player_in AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(
          playerDeltas.map(([a, d]) => ({ a, d: d.toString() })),
        )}::jsonb) AS x (a uuid, d numeric)
      ), t AS (
        INSERT INTO ledger_transactions (kind, idempotency_key, fingerprint, metadata)
        SELECT kind, k, fp, meta FROM tx_in ORDER BY k
        ON CONFLICT (idempotency_key) DO NOTHING
        RETURNING id, idempotency_key
      ), entries AS (
        INSERT INTO ledger_entries (transaction_id, account_id, currency, amount)
        SELECT t.id, entry_in.a, entry_in.c, entry_in.m FROM entry_in JOIN t ON t.idempotency_key = entry_in.k
      ), players AS (
        UPDATE ledger_accounts a SET balance = a.balance + player_in.d FROM player_in WHERE a.id = player_in.a
      )
      SELECT t.id::text AS id, t.idempotency_key AS key FROM t
    `.pipe(Effect.map((rows) => new Map(rows.map((r) => [r.key, r.id] as const))))

  const ensureSystemAccount: LedgerRepoShape["ensureSystemAccount"] = (kind, code, currency) =>
    Effect.gen(function* () {
      const created = yield* sql<{ readonly id: string }>`
        INSERT INTO ledger_accounts (kind, code, currency) VALUES (${kind}, ${code}, ${currency})
        ON CONFLICT (kind, code, currency) WHERE kind <> 'player_cash' DO NOTHING
        RETURNING id::text AS id
      `
      if (created[0] !== undefined) return { id: created[0].id, created: true }
      const row = yield* systemAccount(kind, code, currency)
      return { id: row.id, created: false }
    })

  return {
    ensureSystemAccount,
    lockPlayersReadSystem,
    lockInOrder,
    insertPosting,
    insertPostings,
    inTransaction: Effect.serviceOption(sql.transactionService).pipe(Effect.map((o) => o._tag === "Some")),
    transaction: sql.withTransaction,
    playerAccount,
    systemAccount,
    bonusAccount,
    freeSpinsAccount,
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
