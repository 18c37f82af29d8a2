/**
 * The SQL of free-spin wallets (migration 0073): free spins granted without a deposit, the winnings
 * they hold, their unlock by a deposit and their expiry. Only `FreeSpinWallets` (FreeSpinWallets.ts)
 * and the game wallet's free-round win call it. Fails only with `SqlError`; amounts cross as
 * decimal strings.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { FreeSpinWallet } from "../../services/bonus-service.ts"
import type { FreeRoundsRow } from "./BonusesRepo.ts"
import { latestFreeRoundsColumn } from "./FreeRoundsRepo.ts"

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export type FreeSpinWalletStatus = FreeSpinWallet["status"]

export interface FreeSpinWalletRow {
  readonly id: string
  readonly userId: string
  readonly promotionId: string
  readonly name: string
  readonly currency: string
  readonly status: FreeSpinWalletStatus
  readonly unlockDepositEurCents: string
  readonly extraBonusPercent: number
  readonly maxUnlockEurCents: string
  readonly wageringMultiple: number
  readonly expiresAt: Date
  readonly createdAt: Date
  readonly bonusId: string | null
  readonly unlockedWinnings: string | null
  readonly extraBonus: string | null
  /** The held winnings now (the free-spins account; 0 unless locked). */
  readonly balance: string
  readonly freeRounds: FreeRoundsRow | null
}

export interface NewFreeSpinWallet {
  readonly userId: string
  readonly promotionId: string
  readonly currency: string
  readonly unlockDepositEurCents: bigint
  readonly extraBonusPercent: number
  readonly maxUnlockEurCents: bigint
  readonly wageringMultiple: number
  readonly validDays: number
}

export interface FreeSpinWalletRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /** A new wallet; undefined when the player has this promotion's already, or one waiting in the currency. */
  readonly insert: (w: NewFreeSpinWallet) => Sql<string | undefined>
  /** The wallet waiting in a currency (not past its end), locked for the caller's transaction. */
  readonly lockWaiting: (userId: string, currency: string) => Sql<FreeSpinWalletRow | undefined>
  /** The wallet by id, locked. */
  readonly lock: (id: string) => Sql<FreeSpinWalletRow | undefined>
  /** Unlocked by a deposit: what moved into which bonus; its grants' later wins follow that bonus. */
  readonly unlocked: (u: {
    readonly id: string
    /** A card / e-wallet deposit's id, or a crypto deposit's. */
    readonly source: "fiat" | "crypto"
    readonly depositId: string
    readonly bonusId: string
    readonly winnings: bigint
    readonly extra: bigint
    readonly endedAmount: bigint
    readonly transactionId: string | null
  }) => Sql<void>
  /** Expired: what went back to the house; its spins not played are withdrawn from the provider. */
  readonly expired: (e: {
    readonly id: string
    readonly endedAmount: bigint
    readonly transactionId: string | null
  }) => Sql<void>
  /** Waiting wallets past their end, oldest first. */
  readonly expiredWaiting: (
    limit: number,
  ) => Sql<ReadonlyArray<{ readonly id: string; readonly userId: string; readonly currency: string }>>
  /** The player's wallets, newest first. */
  readonly of: (userId: string) => Sql<ReadonlyArray<FreeSpinWalletRow>>
  /** A bonus grows by what an unlock brought: its amount and its wagering requirement. */
  readonly addToBonus: (bonusId: string, amount: bigint, wagering: bigint) => Sql<void>
}

const columns = `
  w.id::text AS id, w.user_id::text AS "userId", w.promotion_id AS "promotionId", p.name, w.currency,
  w.status, w.unlock_deposit_eur_cents::text AS "unlockDepositEurCents",
  w.extra_bonus_percent AS "extraBonusPercent", w.max_unlock_eur_cents::text AS "maxUnlockEurCents",
  w.wagering_multiple AS "wageringMultiple", w.expires_at AS "expiresAt", w.created_at AS "createdAt",
  w.bonus_id::text AS "bonusId", w.unlocked_winnings::text AS "unlockedWinnings",
  w.extra_bonus::text AS "extraBonus",
  CASE WHEN w.status = 'locked' THEN coalesce(a.balance, 0) ELSE 0 END::text AS balance,
  ${latestFreeRoundsColumn("f.free_spin_wallet_id = w.id")}`

const from = `
  free_spin_wallets w
  JOIN promotions p ON p.id = w.promotion_id
  LEFT JOIN ledger_accounts a ON a.kind = 'player_free_spins' AND a.user_id = w.user_id AND a.currency = w.currency`

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns)
  const tables = sql.literal(from)

  const insert: FreeSpinWalletRepoShape["insert"] = (w) =>
    sql<{ readonly id: string }>`
      INSERT INTO free_spin_wallets (user_id, promotion_id, currency, unlock_deposit_eur_cents,
                                     extra_bonus_percent, max_unlock_eur_cents, wagering_multiple, expires_at)
      VALUES (${w.userId}, ${w.promotionId}, ${w.currency}, ${w.unlockDepositEurCents.toString()}::numeric,
              ${w.extraBonusPercent}, ${w.maxUnlockEurCents.toString()}::numeric, ${w.wageringMultiple},
              now() + make_interval(days => ${w.validDays}))
      ON CONFLICT DO NOTHING
      RETURNING id::text AS id
    `.pipe(Effect.map((rows) => rows[0]?.id))

  // FOR UPDATE OF w: the joined account is locked by the ledger when it posts, in its own order.
  const lockWaiting = (userId: string, currency: string) =>
    sql<FreeSpinWalletRow>`
      SELECT ${cols} FROM ${tables}
      WHERE w.user_id = ${userId} AND w.currency = ${currency} AND w.status = 'locked' AND w.expires_at > now()
      FOR UPDATE OF w
    `.pipe(Effect.map((rows) => rows[0]))

  const lock = (id: string) =>
    sql<FreeSpinWalletRow>`SELECT ${cols} FROM ${tables} WHERE w.id = ${id}::uuid FOR UPDATE OF w`.pipe(
      Effect.map((rows) => rows[0]),
    )

  const unlocked: FreeSpinWalletRepoShape["unlocked"] = (u) =>
    Effect.gen(function* () {
      yield* sql`
        UPDATE free_spin_wallets SET status = 'unlocked',
          deposit_id = ${u.source === "fiat" ? u.depositId : null}::uuid,
          crypto_deposit_id = ${u.source === "crypto" ? u.depositId : null}::uuid,
          bonus_id = ${u.bonusId}::uuid, unlocked_winnings = ${u.winnings.toString()}::numeric,
          extra_bonus = ${u.extra.toString()}::numeric, ended_amount = ${u.endedAmount.toString()}::numeric,
          end_transaction_id = ${u.transactionId}::uuid, ended_at = now()
        WHERE id = ${u.id}::uuid AND status = 'locked'
      `
      yield* sql`
        UPDATE free_round_grants SET bonus_id = ${u.bonusId}::uuid, updated_at = now()
        WHERE free_spin_wallet_id = ${u.id}::uuid
      `
    })

  const expired: FreeSpinWalletRepoShape["expired"] = (e) =>
    Effect.gen(function* () {
      yield* sql`
        UPDATE free_spin_wallets SET status = 'expired', ended_amount = ${e.endedAmount.toString()}::numeric,
          end_transaction_id = ${e.transactionId}::uuid, ended_at = now()
        WHERE id = ${e.id}::uuid AND status = 'locked'
      `
      yield* sql`
        UPDATE free_round_grants SET status = 'cancelling', next_attempt = now(), attempts = 0, updated_at = now()
        WHERE free_spin_wallet_id = ${e.id}::uuid AND status IN ('pending', 'active')
      `
    })

  const expiredWaiting = (limit: number) =>
    sql<{ readonly id: string; readonly userId: string; readonly currency: string }>`
      SELECT id::text AS id, user_id::text AS "userId", currency FROM free_spin_wallets
      WHERE status = 'locked' AND expires_at <= now()
      ORDER BY expires_at LIMIT ${limit}
    `

  const of = (userId: string) =>
    sql<FreeSpinWalletRow>`SELECT ${cols} FROM ${tables} WHERE w.user_id = ${userId} ORDER BY w.created_at DESC`

  const addToBonus = (bonusId: string, amount: bigint, wagering: bigint) =>
    sql`
      UPDATE player_bonuses SET amount = amount + ${amount.toString()}::numeric,
        wagering_required = wagering_required + ${wagering.toString()}::numeric
      WHERE id = ${bonusId}::uuid
    `.pipe(Effect.asVoid)

  return {
    transaction: sql.withTransaction,
    insert,
    lockWaiting,
    lock,
    unlocked,
    expired,
    expiredWaiting,
    of,
    addToBonus,
  } satisfies FreeSpinWalletRepoShape
})

export class FreeSpinWalletRepo extends Context.Service<FreeSpinWalletRepo, FreeSpinWalletRepoShape>()(
  "casino/server/FreeSpinWalletRepo",
) {
  static readonly layer = Layer.effect(FreeSpinWalletRepo, make)
}
