/**
 * The sandbox on-ramp's SQL (table `onramp_sandbox_orders`, its migration 0001). Every function fails
 * only with `SqlError`; times come from the database clock.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import type { OnrampFamily } from "../../services/onramp-rules.ts"

export type OrderStatus = "paid" | "sending" | "sent" | "failed"

export interface OrderRow {
  readonly id: string
  readonly widget: OnrampFamily
  readonly currency: CryptoCurrency
  readonly address: string
  readonly grossEurCents: bigint
  readonly feeEurCents: bigint
  readonly netEurCents: bigint
  readonly cryptoAmount: bigint
  readonly eurRate: string
  readonly verifiedName: string | null
  readonly status: OrderStatus
  readonly txHash: string | null
  readonly reason: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface NewOrder {
  readonly id: string
  readonly widget: OnrampFamily
  readonly currency: CryptoCurrency
  readonly address: string
  readonly grossEurCents: bigint
  readonly feeEurCents: bigint
  readonly netEurCents: bigint
  readonly cryptoAmount: bigint
  /** Exact decimal text. */
  readonly eurRate: string
  readonly verifiedName: string | null
}

interface RawRow extends Omit<OrderRow, "grossEurCents" | "feeEurCents" | "netEurCents" | "cryptoAmount"> {
  readonly grossEurCents: string
  readonly feeEurCents: string
  readonly netEurCents: string
  readonly cryptoAmount: string
}

const toRow = (r: RawRow): OrderRow => ({
  ...r,
  grossEurCents: BigInt(r.grossEurCents),
  feeEurCents: BigInt(r.feeEurCents),
  netEurCents: BigInt(r.netEurCents),
  cryptoAmount: BigInt(r.cryptoAmount),
})

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface OrdersRepoShape {
  /** Inserts unless the id exists; undefined when it did (a replay). */
  readonly insert: (order: NewOrder) => Sql<OrderRow | undefined>
  readonly byId: (id: string) => Sql<OrderRow | undefined>
  /** 'paid' → 'sending': whether THIS caller claimed the send (exactly one caller ever does). */
  readonly claimSend: (id: string) => Sql<boolean>
  readonly markSent: (id: string, txHash: string) => Sql<OrderRow | undefined>
  readonly markFailed: (id: string, reason: string) => Sql<OrderRow | undefined>
  /** The newest orders to an address. */
  readonly byAddress: (address: string, limit: number) => Sql<ReadonlyArray<OrderRow>>
}

const columns = `id::text AS "id", widget, currency, address, gross_eur_cents::text AS "grossEurCents",
  fee_eur_cents::text AS "feeEurCents", net_eur_cents::text AS "netEurCents", crypto_amount::text AS "cryptoAmount",
  eur_rate::text AS "eurRate", verified_name AS "verifiedName", status, tx_hash AS "txHash", reason,
  created_at AS "createdAt", updated_at AS "updatedAt"`

export class OrdersRepo extends Context.Service<OrdersRepo, OrdersRepoShape>()("onramp-sandbox/OrdersRepo") {
  static readonly layer = Layer.effect(
    OrdersRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const cols = sql.literal(columns)
      const one = (rows: ReadonlyArray<RawRow>) => (rows[0] === undefined ? undefined : toRow(rows[0]))
      return OrdersRepo.of({
        insert: (o) =>
          sql<RawRow>`
            INSERT INTO onramp_sandbox_orders (id, widget, currency, address, gross_eur_cents, fee_eur_cents,
              net_eur_cents, crypto_amount, eur_rate, verified_name)
            VALUES (${o.id}, ${o.widget}, ${o.currency}, ${o.address}, ${o.grossEurCents.toString()}::bigint,
              ${o.feeEurCents.toString()}::bigint, ${o.netEurCents.toString()}::bigint,
              ${o.cryptoAmount.toString()}::numeric, ${o.eurRate}::numeric, ${o.verifiedName})
            ON CONFLICT (id) DO NOTHING
            RETURNING ${cols}`.pipe(Effect.map(one)),
        byId: (id) =>
          sql<RawRow>`SELECT ${cols} FROM onramp_sandbox_orders WHERE id = ${id}`.pipe(Effect.map(one)),
        claimSend: (id) =>
          sql<{ id: string }>`
            UPDATE onramp_sandbox_orders SET status = 'sending', updated_at = now()
            WHERE id = ${id} AND status = 'paid' RETURNING id::text AS id`.pipe(
            Effect.map((r) => r.length > 0),
          ),
        markSent: (id, txHash) =>
          sql<RawRow>`
            UPDATE onramp_sandbox_orders SET status = 'sent', tx_hash = ${txHash}, updated_at = now()
            WHERE id = ${id} AND status = 'sending' RETURNING ${cols}`.pipe(Effect.map(one)),
        markFailed: (id, reason) =>
          sql<RawRow>`
            UPDATE onramp_sandbox_orders SET status = 'failed', reason = ${reason.slice(0, 300)}, updated_at = now()
            WHERE id = ${id} AND status IN ('paid', 'sending') RETURNING ${cols}`.pipe(Effect.map(one)),
        byAddress: (address, limit) =>
          sql<RawRow>`
            SELECT ${cols} FROM onramp_sandbox_orders WHERE address = ${address}
            ORDER BY created_at DESC, id LIMIT ${limit}`.pipe(Effect.map((rows) => rows.map(toRow))),
      })
    }),
  )
}
