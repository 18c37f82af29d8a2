/**
 * The SQL of crypto deposits and the watcher's state (migration 0040): observed transfers, the
 * per-network cursor and recent block hashes, operator alerts. Fails only with `SqlError`; amounts
 * are read as text and handled as bigint.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { CryptoTransferStatus, Network } from "../../services/crypto-service.ts"
import type { BlockRef, ObservedTransfer } from "./chain.ts"

export interface CryptoDepositRow {
  readonly id: string
  readonly userId: string
  readonly network: Network
  readonly currency: string
  readonly txHash: string
  readonly outputIndex: number | null
  readonly address: string
  readonly amount: string
  readonly blockHeight: string
  readonly blockHash: string
  readonly confirmations: number
  readonly requiredConfirmations: number
  readonly generation: number
  readonly status: CryptoTransferStatus
  readonly ledgerTransactionId: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface CryptoDepositsRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /** Only one process scans a network at a time: a transaction-scoped advisory lock (false = busy). */
  readonly tryLockNetwork: (network: Network) => Sql<boolean>
  readonly cursor: (network: Network) => Sql<BlockRef | undefined>
  readonly setCursor: (network: Network, block: BlockRef) => Sql<void>
  readonly scannedHash: (network: Network, height: bigint) => Sql<string | undefined>
  readonly recordScanned: (network: Network, blocks: ReadonlyArray<BlockRef>) => Sql<void>
  /** Forgets scanned blocks above `height` (a reorg) and below `keepFrom` (pruning). */
  readonly forgetScannedAbove: (network: Network, height: bigint) => Sql<void>
  readonly pruneScannedBelow: (network: Network, height: bigint) => Sql<void>
  /**
   * Records a transfer; answers the row when it is new, or when an orphaned one was mined again
   * (then reopened as pending, next generation). A transfer seen before answers undefined.
   */
  readonly upsertTransfer: (
    t: ObservedTransfer,
    userId: string,
    requiredConfirmations: number,
  ) => Sql<CryptoDepositRow | undefined>
  /** Open transfers (pending) of a network, locked for this transaction. */
  readonly pendingOf: (network: Network) => Sql<ReadonlyArray<CryptoDepositRow>>
  /** Transfers in blocks above `height` that are not orphaned yet (a reorg replaced them). */
  readonly liveAbove: (network: Network, height: bigint) => Sql<ReadonlyArray<CryptoDepositRow>>
  readonly setConfirmations: (id: string, confirmations: number) => Sql<void>
  readonly markCredited: (id: string, confirmations: number, ledgerTransactionId: string) => Sql<void>
  readonly markBelowMinimum: (id: string, confirmations: number) => Sql<void>
  readonly markOrphaned: (id: string, reversalTransactionId: string | null) => Sql<void>
  readonly alert: (kind: string, depositId: string | null, detail: string) => Sql<void>
  readonly historyOf: (userId: string, from: Date, to: Date) => Sql<ReadonlyArray<CryptoDepositRow>>
}

const columns = `
  id::text AS id, user_id::text AS "userId", network, currency, tx_hash AS "txHash",
  output_index AS "outputIndex", address, amount::text AS amount, block_height::text AS "blockHeight",
  block_hash AS "blockHash", confirmations, required_confirmations AS "requiredConfirmations",
  generation, status, ledger_transaction_id::text AS "ledgerTransactionId",
  created_at AS "createdAt", updated_at AS "updatedAt"
`

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns)

  const shape: CryptoDepositsRepoShape = {
    transaction: sql.withTransaction,
    tryLockNetwork: (network) =>
      sql<{ readonly locked: boolean }>`
        SELECT pg_try_advisory_xact_lock(hashtext(${`crypto-watcher:${network}`})) AS locked
      `.pipe(Effect.map((rows) => rows[0]?.locked === true)),
    cursor: (network) =>
      sql<{ readonly height: string; readonly blockHash: string }>`
        SELECT height::text AS height, block_hash AS "blockHash" FROM crypto_chain_cursors WHERE network = ${network}
      `.pipe(
        Effect.map((rows) =>
          rows[0] === undefined ? undefined : { height: BigInt(rows[0].height), hash: rows[0].blockHash },
        ),
      ),
    setCursor: (network, block) =>
      sql`
        INSERT INTO crypto_chain_cursors (network, height, block_hash) VALUES (${network}, ${block.height.toString()}, ${block.hash})
        ON CONFLICT (network) DO UPDATE SET height = EXCLUDED.height, block_hash = EXCLUDED.block_hash, updated_at = now()
      `.pipe(Effect.asVoid),
    scannedHash: (network, height) =>
      sql<{ readonly blockHash: string }>`
        SELECT block_hash AS "blockHash" FROM crypto_scanned_blocks WHERE network = ${network} AND height = ${height.toString()}
      `.pipe(Effect.map((rows) => rows[0]?.blockHash)),
    recordScanned: (network, blocks) =>
      Effect.forEach(
        blocks,
        (b) => sql`
          INSERT INTO crypto_scanned_blocks (network, height, block_hash) VALUES (${network}, ${b.height.toString()}, ${b.hash})
          ON CONFLICT (network, height) DO UPDATE SET block_hash = EXCLUDED.block_hash
        `,
        { discard: true },
      ),
    forgetScannedAbove: (network, height) =>
      sql`DELETE FROM crypto_scanned_blocks WHERE network = ${network} AND height > ${height.toString()}`.pipe(
        Effect.asVoid,
      ),
    pruneScannedBelow: (network, height) =>
      sql`DELETE FROM crypto_scanned_blocks WHERE network = ${network} AND height < ${height.toString()}`.pipe(
        Effect.asVoid,
      ),
    upsertTransfer: (t, userId, required) =>
      sql<CryptoDepositRow>`
        INSERT INTO crypto_deposits (user_id, network, currency, tx_hash, output_index, address, amount,
          block_height, block_hash, required_confirmations)
        VALUES (${userId}, ${t.network}, ${t.currency}, ${t.txHash}, ${t.outputIndex}, ${t.to},
          ${t.amount.toString()}::numeric, ${t.block.height.toString()}, ${t.block.hash}, ${required})
        ON CONFLICT (network, tx_hash, (COALESCE(output_index, -1))) DO UPDATE SET
          status = 'pending', generation = crypto_deposits.generation + 1, block_height = EXCLUDED.block_height,
          block_hash = EXCLUDED.block_hash, confirmations = 0, ledger_transaction_id = NULL,
          reversal_transaction_id = NULL, credited_at = NULL, updated_at = now()
        WHERE crypto_deposits.status = 'orphaned'
        RETURNING ${cols}
      `.pipe(Effect.map((rows) => rows[0])),
    pendingOf: (network) =>
      sql<CryptoDepositRow>`
        SELECT ${cols} FROM crypto_deposits WHERE network = ${network} AND status = 'pending'
        ORDER BY block_height, id FOR UPDATE
      `,
    liveAbove: (network, height) =>
      sql<CryptoDepositRow>`
        SELECT ${cols} FROM crypto_deposits
        WHERE network = ${network} AND block_height > ${height.toString()} AND status <> 'orphaned'
        ORDER BY block_height, id FOR UPDATE
      `,
    setConfirmations: (id, confirmations) =>
      sql`UPDATE crypto_deposits SET confirmations = ${confirmations}, updated_at = now() WHERE id = ${id}`.pipe(
        Effect.asVoid,
      ),
    markCredited: (id, confirmations, ledgerTransactionId) =>
      sql`
        UPDATE crypto_deposits SET status = 'credited', confirmations = ${confirmations},
          ledger_transaction_id = ${ledgerTransactionId}, credited_at = now(), updated_at = now()
        WHERE id = ${id}
      `.pipe(Effect.asVoid),
    markBelowMinimum: (id, confirmations) =>
      sql`
        UPDATE crypto_deposits SET status = 'below_minimum', confirmations = ${confirmations}, updated_at = now()
        WHERE id = ${id}
      `.pipe(Effect.asVoid),
    markOrphaned: (id, reversalTransactionId) =>
      sql`
        UPDATE crypto_deposits SET status = 'orphaned', reversal_transaction_id = ${reversalTransactionId},
          updated_at = now()
        WHERE id = ${id}
      `.pipe(Effect.asVoid),
    alert: (kind, depositId, detail) =>
      sql`
        INSERT INTO crypto_alerts (kind, deposit_id, detail) VALUES (${kind}, ${depositId}, ${detail})
        ON CONFLICT (kind, deposit_id) DO NOTHING
      `.pipe(Effect.asVoid),
    historyOf: (userId, from, to) =>
      sql<CryptoDepositRow>`
        SELECT ${cols} FROM crypto_deposits
        WHERE user_id = ${userId} AND created_at >= ${from} AND created_at < ${to}
        ORDER BY created_at DESC, id
      `,
  }
  return shape
})

export class CryptoDepositsRepo extends Context.Service<CryptoDepositsRepo, CryptoDepositsRepoShape>()(
  "casino/server/crypto/CryptoDepositsRepo",
) {
  static readonly layer = Layer.effect(CryptoDepositsRepo, make)
}
