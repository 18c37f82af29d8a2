/**
 * What the sandbox on-ramp sells at (table `onramp_sandbox_prices`, seeded by its migration 0001):
 * its own EUR price per whole unit of each currency — a seller's quote, not the casino's rate.
 * A currency without a price is not sold. Fails only with `SqlError`.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import { formatDecimal, parseDecimal } from "../../services/money-rules.ts"

/** Minor units per whole unit of each currency: a fact of each chain (satoshi, wei, USDT's 6 decimals). */
export const subunitsOf: Readonly<Record<CryptoCurrency, bigint>> = {
  BTC: 100_000_000n,
  LTC: 100_000_000n,
  DOG: 100_000_000n,
  ETH: 10n ** 18n,
  USDT: 1_000_000n,
}

export interface Price {
  readonly currency: CryptoCurrency
  /** EUR per whole unit, scaled by 10^18 (services/money-rules.ts `parseDecimal`). */
  readonly eurRate: bigint
  readonly subunitsToUnit: bigint
}

export interface PricesRepoShape {
  readonly get: (currency: CryptoCurrency) => Effect.Effect<Price | undefined, SqlError.SqlError>
  /** Sets the price (EUR per whole unit, scaled by 10^18). */
  readonly set: (currency: CryptoCurrency, eurRate: bigint) => Effect.Effect<void, SqlError.SqlError>
}

export class PricesRepo extends Context.Service<PricesRepo, PricesRepoShape>()("onramp-sandbox/PricesRepo") {
  static readonly layer = Layer.effect(
    PricesRepo,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return PricesRepo.of({
        get: (currency) =>
          sql<{ eurRate: string }>`
            SELECT eur_rate::text AS "eurRate" FROM onramp_sandbox_prices WHERE currency = ${currency}`.pipe(
            Effect.map((rows) => {
              const rate = rows[0] === undefined ? null : parseDecimal(rows[0].eurRate)
              return rate === null || rate <= 0n
                ? undefined
                : { currency, eurRate: rate, subunitsToUnit: subunitsOf[currency] }
            }),
          ),
        set: (currency, eurRate) =>
          sql`
            INSERT INTO onramp_sandbox_prices (currency, eur_rate) VALUES (${currency}, ${formatDecimal(eurRate)}::numeric)
            ON CONFLICT (currency) DO UPDATE SET eur_rate = EXCLUDED.eur_rate, updated_at = now()`.pipe(
            Effect.asVoid,
          ),
      })
    }),
  )
}
