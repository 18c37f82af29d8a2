/**
 * The port through which responsible gaming reads what a player has deposited: EUR cents in each
 * ROLLING window ending now (database clock) — the last 24 hours, 7 days and 30 days.
 *
 * Rolling windows (not calendar days/weeks/months): a limit then means the same thing at every
 * moment, and a player cannot deposit a full daily limit at 23:59 and again at 00:01.
 *
 * The deposit capability (the next issue) replaces `layerNoDeposits` with an implementation that
 * sums the player's successful deposits converted to EUR cents; the shape stays.
 */
import { Context, Effect, Layer } from "effect"
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
}
