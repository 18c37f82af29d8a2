/** The casino's record of order-status callbacks (`onramp_callbacks`, migration 0042). */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { OrderEvent } from "../../../protocols/onramp/index.ts"
import type { OnrampFamily } from "../../../services/onramp-rules.ts"

export interface CallbacksRepoShape {
  /** Records the event unless (widget, eventId) is there already; whether it was new. */
  readonly record: (widget: OnrampFamily, event: OrderEvent) => Effect.Effect<boolean, SqlError.SqlError>
}

export class CallbacksRepo extends Context.Service<CallbacksRepo, CallbacksRepoShape>()(
  "casino/server/crypto/onramp/CallbacksRepo",
) {
  static readonly layer = Layer.effect(
    CallbacksRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return CallbacksRepo.of({
        record: (widget, e) =>
          sql<{ widget: string }>`
            INSERT INTO onramp_callbacks (widget, event_id, order_id, status, currency, address, crypto_amount, tx_hash)
            VALUES (${widget}, ${e.eventId.slice(0, 100)}, ${e.orderId.slice(0, 100)}, ${e.status}, ${e.currency},
              ${e.address.slice(0, 128)}, ${e.cryptoAmount}::numeric, ${e.txHash === null ? null : e.txHash.slice(0, 130)})
            ON CONFLICT (widget, event_id) DO NOTHING
            RETURNING widget`.pipe(Effect.map((rows) => rows.length > 0)),
      })
    }),
  )
}
