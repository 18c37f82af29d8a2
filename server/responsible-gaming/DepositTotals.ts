/**
 * The port through which responsible gaming reads what a player has deposited: EUR cents in each
 * ROLLING window ending now (database clock) — the last 24 hours, 7 days and 30 days.
 *
 * Rolling windows (not calendar days/weeks/months): a limit then means the same thing at every
 * moment, and a player cannot deposit a full daily limit at 23:59 and again at 00:01.
 *
 * `layer` sums the player's COMPLETED deposits (server/payments, table `deposits`) in EUR cents at
 * the rate of the moment each was started, by the time it was credited. `layerNoDeposits` stays
 * for tests that drive responsible gaming alone.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { LimitPeriod } from "../../services/profile-rules.ts"

export type DepositedByWindow = Readonly<Record<LimitPeriod, bigint>>

export interface DepositTotalsShape {
  readonly deposited: (userId: string) => Effect.Effect<DepositedByWindow>
}

/** Window lengths in hours, per limit period. */
export const windowHours: Readonly<Record<LimitPeriod, number>> = {
  daily: 24,
  weekly: 7 * 24,
  monthly: 30 * 24,
}

export class DepositTotals extends Context.Service<DepositTotals, DepositTotalsShape>()(
  "casino/server/DepositTotals",
) {
  /**
   * Deposits do not exist yet: there is no deposits table before the deposit capability, so the
   * honest answer for every player and window is 0. The next issue replaces this layer.
   */
  static readonly layerNoDeposits = Layer.succeed(DepositTotals, {
    deposited: () => Effect.succeed({ daily: 0n, weekly: 0n, monthly: 0n }),
  })

  /** Completed deposits in each rolling window (one query, database clock). */
  static readonly layer = Layer.effect(
    DepositTotals,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return {
        deposited: (userId: string) =>
          sql<{ readonly daily: string; readonly weekly: string; readonly monthly: string }>`
            SELECT
              coalesce(sum(amount_eur_cents) FILTER (WHERE completed_at > now() - make_interval(hours => ${windowHours.daily}::int)), 0)::text AS daily,
              coalesce(sum(amount_eur_cents) FILTER (WHERE completed_at > now() - make_interval(hours => ${windowHours.weekly}::int)), 0)::text AS weekly,
              coalesce(sum(amount_eur_cents) FILTER (WHERE completed_at > now() - make_interval(hours => ${windowHours.monthly}::int)), 0)::text AS monthly
            FROM deposits
            WHERE user_id = ${userId} AND status = 'completed'
              AND completed_at > now() - make_interval(hours => ${windowHours.monthly}::int)
          `.pipe(
            Effect.map((rows) => ({
              daily: BigInt(rows[0]?.daily ?? "0"),
              weekly: BigInt(rows[0]?.weekly ?? "0"),
              monthly: BigInt(rows[0]?.monthly ?? "0"),
            })),
            Effect.orDie,
          ),
      } satisfies DepositTotalsShape
    }),
  )
}
