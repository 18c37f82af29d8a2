/**
 * The SQL of deposit addresses (migration 0040): one per player and network, derivation indexes
 * from a per-network counter taken under its row lock. Fails only with `SqlError`.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { Network } from "../../services/crypto-service.ts"

export interface AddressRow {
  readonly userId: string
  readonly network: Network
  readonly derivationIndex: number
  readonly address: string
  readonly addressNormalized: string
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface AddressesRepoShape {
  readonly find: (userId: string, network: Network) => Sql<AddressRow | undefined>
  /**
   * The player's address on `network`, made on first use: `derive(index)` is called with the next
   * index while the network's counter row is locked, so concurrent first calls (two tabs, two
   * processes) queue, and the second finds the first's address — no index is skipped or reused.
   */
  readonly findOrCreate: (
    userId: string,
    network: Network,
    xpubFingerprint: string,
    derive: (index: number) => { readonly address: string; readonly normalized: string },
  ) => Sql<AddressRow>
  /** Every address of a network (the watcher's `isWatched`), keyed by normalized address. */
  readonly allOf: (network: Network) => Sql<ReadonlyArray<AddressRow>>
}

const columns = `
  user_id::text AS "userId", network, derivation_index AS "derivationIndex", address,
  address_normalized AS "addressNormalized"
`

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns)

  const find = (userId: string, network: Network) =>
    sql<AddressRow>`SELECT ${cols} FROM crypto_addresses WHERE user_id = ${userId} AND network = ${network}`.pipe(
      Effect.map((rows) => rows[0]),
    )

  const findOrCreate: AddressesRepoShape["findOrCreate"] = (userId, network, fingerprint, derive) =>
    Effect.gen(function* () {
      const existing = yield* find(userId, network)
      if (existing !== undefined) return existing
      return yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`INSERT INTO crypto_address_counters (network) VALUES (${network}) ON CONFLICT DO NOTHING`
          const counter = yield* sql<{ readonly nextIndex: number }>`
            SELECT next_index AS "nextIndex" FROM crypto_address_counters WHERE network = ${network} FOR UPDATE
          `
          // Behind the lock: a concurrent first call that committed meanwhile is visible now.
          const raced = yield* find(userId, network)
          if (raced !== undefined) return raced
          const index = counter[0]?.nextIndex ?? 0
          const derived = derive(index)
          const rows = yield* sql<AddressRow>`
            INSERT INTO crypto_addresses (user_id, network, derivation_index, address, address_normalized, xpub_fingerprint)
            VALUES (${userId}, ${network}, ${index}, ${derived.address}, ${derived.normalized}, ${fingerprint})
            RETURNING ${cols}
          `
          yield* sql`UPDATE crypto_address_counters SET next_index = ${index + 1} WHERE network = ${network}`
          const row = rows[0]
          if (row === undefined) return yield* Effect.die(new Error("address row expected"))
          return row
        }),
      )
    })

  const allOf = (network: Network) =>
    sql<AddressRow>`SELECT ${cols} FROM crypto_addresses WHERE network = ${network}`

  return { find, findOrCreate, allOf } satisfies AddressesRepoShape
})

export class AddressesRepo extends Context.Service<AddressesRepo, AddressesRepoShape>()(
  "casino/server/crypto/AddressesRepo",
) {
  static readonly layer = Layer.effect(AddressesRepo, make)
}
