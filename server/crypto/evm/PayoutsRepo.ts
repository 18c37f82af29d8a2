/**
 * The SQL of the hot wallet (migration 0045): its nonce row and its signed payout transactions.
 * Amounts are read as text and handled as bigint. Every function fails only with `SqlError`.
 */
import { Effect } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export interface PayoutTxRow {
  readonly requestKey: string
  readonly currency: string
  readonly toAddress: string
  readonly amount: bigint
  readonly nonce: bigint
  readonly gasLimit: bigint
  readonly maxFeePerGas: bigint
  readonly txHash: string
  readonly rawTx: string
}

export interface NewPayoutTx extends PayoutTxRow {
  readonly network: string
  readonly fromAddress: string
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

interface RawRow {
  readonly requestKey: string
  readonly currency: string
  readonly toAddress: string
  readonly amount: string
  readonly nonce: string
  readonly gasLimit: string
  readonly maxFeePerGas: string
  readonly txHash: string
  readonly rawTx: string
}

const columns = `
  request_key AS "requestKey", currency, to_address AS "toAddress", amount::text AS amount,
  nonce::text AS nonce, gas_limit::text AS "gasLimit", max_fee_per_gas::text AS "maxFeePerGas",
  tx_hash AS "txHash", raw_tx AS "rawTx"
`

const fromRaw = (r: RawRow): PayoutTxRow => ({
  requestKey: r.requestKey,
  currency: r.currency,
  toAddress: r.toAddress,
  amount: BigInt(r.amount),
  nonce: BigInt(r.nonce),
  gasLimit: BigInt(r.gasLimit),
  maxFeePerGas: BigInt(r.maxFeePerGas),
  txHash: r.txHash,
  rawTx: r.rawTx,
})

export const makePayoutsRepo = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns)
  return {
    transaction: sql.withTransaction,
    /** Creates the wallet's row once (its first nonce read from the chain). */
    ensureWallet: (network: string, address: string, nonce: bigint): Sql<void> =>
      sql`
        INSERT INTO crypto_hot_wallets (network, address, next_nonce)
        VALUES (${network}, ${address}, ${nonce.toString()}::bigint)
        ON CONFLICT (network, address) DO NOTHING
      `.pipe(Effect.asVoid),
    /** The next nonce, the wallet's row locked until the transaction ends (one signer at a time). */
    lockWallet: (network: string, address: string): Sql<bigint> =>
      sql<{ readonly nextNonce: string }>`
        SELECT next_nonce::text AS "nextNonce" FROM crypto_hot_wallets
        WHERE network = ${network} AND address = ${address} FOR UPDATE
      `.pipe(
        Effect.flatMap((rows) =>
          rows[0] === undefined
            ? Effect.die(new Error("hot wallet row expected"))
            : Effect.succeed(BigInt(rows[0].nextNonce)),
        ),
      ),
    setNextNonce: (network: string, address: string, nonce: bigint): Sql<void> =>
      sql`
        UPDATE crypto_hot_wallets SET next_nonce = ${nonce.toString()}::bigint
        WHERE network = ${network} AND address = ${address}
      `.pipe(Effect.asVoid),
    findByKey: (key: string): Sql<PayoutTxRow | undefined> =>
      sql<RawRow>`SELECT ${cols} FROM crypto_payout_transactions WHERE request_key = ${key}`.pipe(
        Effect.map((rows) => (rows[0] === undefined ? undefined : fromRaw(rows[0]))),
      ),
    findByHash: (hash: string): Sql<PayoutTxRow | undefined> =>
      sql<RawRow>`SELECT ${cols} FROM crypto_payout_transactions WHERE tx_hash = ${hash}`.pipe(
        Effect.map((rows) => (rows[0] === undefined ? undefined : fromRaw(rows[0]))),
      ),
    /** The wallet's signed transactions the chain has not mined yet (nonce at or above its count). */
    unmined: (network: string, address: string, minedCount: bigint): Sql<ReadonlyArray<PayoutTxRow>> =>
      sql<RawRow>`
        SELECT ${cols} FROM crypto_payout_transactions
        WHERE network = ${network} AND from_address = ${address} AND nonce >= ${minedCount.toString()}::bigint
        ORDER BY nonce
      `.pipe(Effect.map((rows) => rows.map(fromRaw))),
    insert: (tx: NewPayoutTx): Sql<void> =>
      sql`
        INSERT INTO crypto_payout_transactions
          (request_key, network, currency, from_address, to_address, amount, nonce, gas_limit,
           max_fee_per_gas, tx_hash, raw_tx)
        VALUES (${tx.requestKey}, ${tx.network}, ${tx.currency}, ${tx.fromAddress}, ${tx.toAddress},
                ${tx.amount.toString()}::numeric, ${tx.nonce.toString()}::bigint, ${tx.gasLimit.toString()}::numeric,
                ${tx.maxFeePerGas.toString()}::numeric, ${tx.txHash}, ${tx.rawTx})
      `.pipe(Effect.asVoid),
    markBroadcast: (key: string): Sql<void> =>
      sql`
        UPDATE crypto_payout_transactions SET broadcast_at = COALESCE(broadcast_at, now())
        WHERE request_key = ${key}
      `.pipe(Effect.asVoid),
  }
})

export type PayoutsRepo = Effect.Success<typeof makePayoutsRepo>
