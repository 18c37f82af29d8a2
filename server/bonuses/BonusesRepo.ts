/**
 * The SQL of bonuses (migration 0070): promotions and their bands, the bonuses players hold, their
 * answers to offers. Only `Bonuses` (Bonuses.ts) calls it; every function fails only with
 * `SqlError`. Amounts cross the boundary as decimal strings (numeric read as text).
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { BonusStatus, FreeRounds } from "../../services/bonus-service.ts"
import { latestFreeRoundsColumn } from "./FreeRoundsRepo.ts"

export interface BandRow {
  readonly upToEurCents: string | null
  readonly percent: number
  readonly freeSpins: number
}

export interface PromotionRow {
  readonly id: string
  readonly kind: "deposit_bonus" | "free_spins"
  readonly name: string
  readonly description: string
  readonly code: string | null
  readonly depositNumber: number | null
  readonly maxBonusEurCents: string
  readonly wageringMultiple: number
  readonly maxBetEurCents: string
  readonly validDays: number
  readonly freeSpinGame: string | null
  readonly freeSpinBetEurCents: string | null
  /** A free-spins promotion's unlock: the smallest deposit (EUR cents), the extra bonus (percent). */
  readonly unlockDepositEurCents: string | null
  readonly extraBonusPercent: number
  readonly currencies: ReadonlyArray<string> | null
  readonly startsAt: Date | null
  readonly endsAt: Date | null
  readonly maxUses: number | null
  readonly maxUsesPerPlayer: number
  readonly active: boolean
  /** Ordered by bound, the unbounded band last. */
  readonly bands: ReadonlyArray<BandRow>
  /** Grants so far, in all. */
  readonly uses: number
}

export interface BonusRow {
  readonly id: string
  readonly userId: string
  readonly promotionId: string
  readonly name: string
  readonly currency: string
  readonly status: BonusStatus
  readonly depositId: string | null
  readonly amount: string
  readonly percent: number
  readonly freeSpins: number
  readonly wageringRequired: string
  readonly wagered: string
  readonly maxBet: string
  readonly expiresAt: Date
  readonly createdAt: Date
  readonly endedAt: Date | null
  readonly endedAmount: string | null
  /** How often a conversion of it was undone (the ledger key of its next end names it). */
  readonly reversals: number
  /** The wallet's bonus account balance now. */
  readonly balance: string
  /** The free rounds that came with it (its latest grant), or null. */
  readonly freeRounds: FreeRoundsRow | null
}

export interface FreeRoundsRow {
  readonly gameId: string
  readonly gameName: string
  readonly rounds: number
  readonly played: number
  readonly bet: string
  readonly won: string
  /** The table's CHECK holds it to these. */
  readonly status: FreeRounds["status"]
}

export interface NewBonus {
  readonly userId: string
  readonly promotionId: string
  readonly currency: string
  /** The card / e-wallet deposit that earned it, or the crypto deposit (one of them). */
  readonly depositId: string | null
  readonly cryptoDepositId: string | null
  readonly coupon: string | null
  readonly amount: bigint
  readonly percent: number
  readonly freeSpins: number
  readonly wageringRequired: bigint
  readonly maxBet: bigint
  readonly validDays: number
  readonly grantTransactionId: string | null
}

/** The bonus a rolled-back bet's money belongs to now, as a refund needs it (locked). */
export interface RefundBonus {
  readonly id: string
  readonly status: BonusStatus
  /** Bonus money that became cash because it converted (what undoing the conversion takes back). */
  readonly convertedTotal: bigint
  /** Its end (expires_at) has passed. */
  readonly lapsed: boolean
}

/** What undoing a conversion made of the bonus (docs/bonuses.md, "Rollbacks"). */
export type UndoneConversion =
  | { readonly _tag: "Reactivated" }
  /** Its end had passed meanwhile: it ends expired, `endedAmount` back to the house. */
  | { readonly _tag: "Expired"; readonly endedAmount: bigint }
  /** Another bonus became active meanwhile: `money` of this one's joins it. */
  | { readonly _tag: "Merged"; readonly into: string; readonly money: bigint }

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface BonusesRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /** Every promotion (active or not), in the operator's order. */
  readonly promotions: () => Sql<ReadonlyArray<PromotionRow>>
  readonly promotionById: (id: string) => Sql<PromotionRow | undefined>
  /** The promotion a code names (case does not matter). */
  readonly promotionByCode: (code: string) => Sql<PromotionRow | undefined>
  /** How often this player was granted it (bonuses and free-spin wallets). */
  readonly grantsTo: (userId: string, promotionId: string) => Sql<number>
  /**
   * The player's completed deposits — card and e-wallet ones completed, crypto ones credited — this
   * one (of either kind) not counted: the tier's deposit number is this + 1.
   */
  readonly completedDepositsBefore: (userId: string, depositId: string | null) => Sql<number>
  /** Serialises the bonus decisions of one player (two deposits completing at once). */
  readonly lockPlayer: (userId: string) => Sql<void>
  /** The player's active bonus in a currency, locked for the caller's transaction. */
  readonly lockActive: (userId: string, currency: string) => Sql<BonusRow | undefined>
  readonly lockOwn: (userId: string, bonusId: string) => Sql<BonusRow | undefined>
  /** The active bonus in a currency, unlocked (the caller holds the player's bonus lock). */
  readonly activeIn: (userId: string, currency: string) => Sql<BonusRow | undefined>
  readonly hasActive: (userId: string) => Sql<ReadonlyArray<string>>
  readonly insertBonus: (bonus: NewBonus) => Sql<string>
  readonly endBonus: (end: {
    readonly id: string
    readonly status: Exclude<BonusStatus, "active">
    readonly endedAmount: bigint
    readonly transactionId: string | null
    /** A conversion: the bet whose wagering met the requirement ("<integration>:<transaction id>"). */
    readonly convertedBy?: string
  }) => Sql<void>
  /** The bonus part of a bet, on its round and on the bet itself (for a refund). */
  readonly recordStake: (stake: {
    readonly integration: string
    readonly roundId: string
    readonly transactionId: string
    readonly bonusId: string
    readonly bonusPart: bigint
  }) => Sql<void>
  /** Adds a bet × its game kind's weight to the bonus's wagering; its progress after (undefined: ended). */
  readonly addWagering: (
    bonusId: string,
    amount: bigint,
    gameKind: string,
  ) => Sql<{ readonly wagered: bigint; readonly required: bigint } | undefined>
  /**
   * Takes a refunded bet's wagering back (its weight from its round's game), never below 0, whatever
   * the bonus's status; whether the wagering is then short of the requirement.
   */
  readonly removeWagering: (
    bonusId: string,
    amount: bigint,
    integration: string,
    roundId: string,
  ) => Sql<{ readonly short: boolean }>
  /**
   * The bonus whose money a round of `bonusId` plays for now — itself, or the one its money joined
   * (`merged_into`) — and its status; undefined: no such bonus.
   */
  readonly effectiveOf: (
    bonusId: string,
  ) => Sql<{ readonly id: string; readonly status: BonusStatus } | undefined>
  /** The same, locked for the caller's transaction, with what a refund needs. */
  readonly lockEffective: (bonusId: string) => Sql<RefundBonus | undefined>
  /** A converted bonus's share of a win or a refund paid to cash: counted in what undoing takes back. */
  readonly addConverted: (bonusId: string, amount: bigint) => Sql<void>
  /**
   * Undoes a conversion on the (locked) bonus row: `unrecovered` is what could not be taken back
   * from cash. Reactivated: active again, its end cleared. Expired: ended now. Merged: the other
   * bonus's amount grows by `money` and its wagering by what this one still needed; the spins left
   * and bonuses merged into this one follow.
   */
  readonly undoConversion: (undo: {
    readonly id: string
    readonly unrecovered: bigint
    readonly outcome: UndoneConversion
  }) => Sql<void>
  readonly bonusBalance: (userId: string, currency: string) => Sql<bigint>
  /** Active bonuses past their end, oldest first. */
  readonly expiredActive: (
    limit: number,
  ) => Sql<ReadonlyArray<{ readonly id: string; readonly userId: string; readonly currency: string }>>
  readonly bonusesOf: (userId: string) => Sql<ReadonlyArray<BonusRow>>
  readonly bonusById: (id: string) => Sql<BonusRow | undefined>
  readonly choicesOf: (userId: string) => Sql<ReadonlyMap<string, boolean>>
  readonly setChoice: (userId: string, promotionId: string, accepted: boolean) => Sql<void>
  readonly optedOut: (userId: string) => Sql<boolean>
  /** The code named with the player's last crypto address request in a currency (a day long). */
  readonly setCryptoChoice: (userId: string, currency: string, coupon: string | null) => Sql<void>
  /** Takes (and removes) that code for a crypto deposit being credited; undefined: none, or too old. */
  readonly takeCryptoChoice: (userId: string, currency: string) => Sql<string | undefined>
  /** The currencies of the player's wallets. */
  readonly walletCurrencies: (userId: string) => Sql<ReadonlyArray<string>>
  /** The player's currency (chosen at registration): where a free-spins code's spins are granted. */
  readonly currencyOf: (userId: string) => Sql<string | undefined>
  readonly setOptedOut: (userId: string, optedOut: boolean) => Sql<void>
}

const promotionColumns = `
  p.id, p.kind, p.name, p.description, p.code, p.deposit_number AS "depositNumber",
  p.max_bonus_eur_cents::text AS "maxBonusEurCents", p.wagering_multiple AS "wageringMultiple",
  p.max_bet_eur_cents::text AS "maxBetEurCents", p.valid_days AS "validDays",
  p.free_spin_game AS "freeSpinGame", p.free_spin_bet_eur_cents::text AS "freeSpinBetEurCents",
  p.unlock_deposit_eur_cents::text AS "unlockDepositEurCents", p.extra_bonus_percent AS "extraBonusPercent",
  p.currencies, p.starts_at AS "startsAt", p.ends_at AS "endsAt",
  p.max_uses AS "maxUses", p.max_uses_per_player AS "maxUsesPerPlayer", p.active,
  coalesce((SELECT json_agg(json_build_object('upToEurCents', b.up_to_eur_cents::text, 'percent', b.percent,
                                              'freeSpins', b.free_spins)
                            ORDER BY b.up_to_eur_cents NULLS LAST)
            FROM promotion_bands b WHERE b.promotion_id = p.id), '[]'::json) AS bands,
  ((SELECT count(*)::int FROM player_bonuses g WHERE g.promotion_id = p.id) +
   (SELECT count(*)::int FROM free_spin_wallets w WHERE w.promotion_id = p.id)) AS uses`

const bonusColumns = `
  b.id::text AS id, b.user_id::text AS "userId", b.promotion_id AS "promotionId", p.name, b.currency,
  b.status, b.deposit_id::text AS "depositId", b.amount::text AS amount, b.percent,
  b.free_spins AS "freeSpins", b.wagering_required::text AS "wageringRequired",
  floor(b.wagered)::text AS wagered, b.max_bet::text AS "maxBet", b.expires_at AS "expiresAt",
  b.created_at AS "createdAt", b.ended_at AS "endedAt", b.ended_amount::text AS "endedAmount",
  b.reversals,
  CASE WHEN b.status = 'active' THEN coalesce(a.balance, 0) ELSE 0 END::text AS balance,
  ${latestFreeRoundsColumn("f.bonus_id = b.id")}`

const bonusFrom = `
  player_bonuses b
  JOIN promotions p ON p.id = b.promotion_id
  LEFT JOIN ledger_accounts a ON a.kind = 'player_bonus' AND a.user_id = b.user_id AND a.currency = b.currency`

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const pcols = sql.literal(promotionColumns)
  const bcols = sql.literal(bonusColumns)
  const bfrom = sql.literal(bonusFrom)

  const promotions = () => sql<PromotionRow>`SELECT ${pcols} FROM promotions p ORDER BY p.sort, p.id`

  const promotionById = (id: string) =>
    sql<PromotionRow>`SELECT ${pcols} FROM promotions p WHERE p.id = ${id}`.pipe(Effect.map((r) => r[0]))

  const promotionByCode = (code: string) =>
    sql<PromotionRow>`SELECT ${pcols} FROM promotions p WHERE p.code = ${code.trim().toUpperCase()}`.pipe(
      Effect.map((r) => r[0]),
    )

  const grantsTo = (userId: string, promotionId: string) =>
    sql<{ readonly n: number }>`
      SELECT ((SELECT count(*) FROM player_bonuses WHERE user_id = ${userId} AND promotion_id = ${promotionId}) +
              (SELECT count(*) FROM free_spin_wallets WHERE user_id = ${userId} AND promotion_id = ${promotionId}))::int AS n
    `.pipe(Effect.map((r) => r[0]?.n ?? 0))

  const completedDepositsBefore = (userId: string, depositId: string | null) =>
    sql<{ readonly n: number }>`
      SELECT ((SELECT count(*) FROM deposits
               WHERE user_id = ${userId} AND status = 'completed' AND id IS DISTINCT FROM ${depositId}::uuid) +
              (SELECT count(*) FROM crypto_deposits
               WHERE user_id = ${userId} AND status = 'credited' AND id IS DISTINCT FROM ${depositId}::uuid))::int AS n
    `.pipe(Effect.map((r) => r[0]?.n ?? 0))

  // An advisory lock, not the users row: other modules lock that row before the ledger's accounts,
  // and a deposit takes this after them; a lock of its own keeps lock orders from crossing.
  const lockPlayer = (userId: string) =>
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${`bonus:${userId}`}, 0))`.pipe(Effect.asVoid)

  const lockActive = (userId: string, currency: string) =>
    sql<BonusRow>`
      SELECT ${bcols} FROM ${bfrom}
      WHERE b.user_id = ${userId} AND b.currency = ${currency} AND b.status = 'active'
      FOR UPDATE OF b
    `.pipe(Effect.map((r) => r[0]))

  const activeIn = (userId: string, currency: string) =>
    sql<BonusRow>`
      SELECT ${bcols} FROM ${bfrom}
      WHERE b.user_id = ${userId} AND b.currency = ${currency} AND b.status = 'active'
    `.pipe(Effect.map((r) => r[0]))

  const lockOwn = (userId: string, bonusId: string) =>
    sql<BonusRow>`
      SELECT ${bcols} FROM ${bfrom} WHERE b.id = ${bonusId}::uuid AND b.user_id = ${userId} FOR UPDATE OF b
    `.pipe(Effect.map((r) => r[0]))

  const hasActive = (userId: string) =>
    sql<{ readonly currency: string }>`
      SELECT currency FROM player_bonuses WHERE user_id = ${userId} AND status = 'active'
    `.pipe(Effect.map((rows) => rows.map((r) => r.currency)))

  const insertBonus = (b: NewBonus) =>
    sql<{ readonly id: string }>`
      INSERT INTO player_bonuses (user_id, promotion_id, currency, status, deposit_id, crypto_deposit_id, coupon,
                                  amount, percent, free_spins, wagering_required, max_bet, expires_at,
                                  grant_transaction_id)
      VALUES (${b.userId}, ${b.promotionId}, ${b.currency}, 'active', ${b.depositId}::uuid,
              ${b.cryptoDepositId}::uuid, ${b.coupon},
              ${b.amount.toString()}::numeric, ${b.percent}, ${b.freeSpins},
              ${b.wageringRequired.toString()}::numeric, ${b.maxBet.toString()}::numeric,
              now() + make_interval(days => ${b.validDays}), ${b.grantTransactionId}::uuid)
      RETURNING id::text AS id
    `.pipe(
      Effect.flatMap((rows) =>
        rows[0] === undefined
          ? Effect.die(new Error("bonus insert returned no row"))
          : Effect.succeed(rows[0].id),
      ),
    )

  const endBonus: BonusesRepoShape["endBonus"] = (end) =>
    sql`
      UPDATE player_bonuses SET status = ${end.status}, ended_at = now(),
             ended_amount = ${end.endedAmount.toString()}::numeric, end_transaction_id = ${end.transactionId}::uuid,
             converted_by = ${end.convertedBy ?? null},
             converted_total = ${end.status === "completed" ? end.endedAmount.toString() : "0"}::numeric
      WHERE id = ${end.id}::uuid AND status = 'active'
    `.pipe(Effect.asVoid)

  const recordStake: BonusesRepoShape["recordStake"] = (st) =>
    sql`
      WITH round AS (
        UPDATE game_rounds SET bonus_id = ${st.bonusId}::uuid, bonus_bet = bonus_bet + ${st.bonusPart.toString()}::numeric
        WHERE integration = ${st.integration} AND round_id = ${st.roundId}
      )
      UPDATE game_transactions SET bonus_id = ${st.bonusId}::uuid, bonus_amount = ${st.bonusPart.toString()}::numeric
      WHERE integration = ${st.integration} AND transaction_id = ${st.transactionId}
    `.pipe(Effect.asVoid)

  const addWagering: BonusesRepoShape["addWagering"] = (bonusId, amount, gameKind) =>
    sql<{ readonly wagered: string; readonly required: string }>`
      UPDATE player_bonuses SET wagered = wagered + (${amount.toString()}::numeric *
        coalesce((SELECT percent FROM bonus_game_weights WHERE game_kind = ${gameKind}), 0)) / 100
      WHERE id = ${bonusId}::uuid AND status = 'active'
      RETURNING floor(wagered)::text AS wagered, wagering_required::text AS required
    `.pipe(
      Effect.map((rows) =>
        rows[0] === undefined
          ? undefined
          : { wagered: BigInt(rows[0].wagered), required: BigInt(rows[0].required) },
      ),
    )

  const removeWagering: BonusesRepoShape["removeWagering"] = (bonusId, amount, integration, roundId) =>
    sql<{ readonly short: boolean }>`
      UPDATE player_bonuses SET wagered = greatest(0, wagered - (${amount.toString()}::numeric *
        coalesce((SELECT w.percent FROM game_rounds r JOIN games g ON g.id = r.game_id
                  JOIN bonus_game_weights w ON w.game_kind = g.kind
                  WHERE r.integration = ${integration} AND r.round_id = ${roundId}), 0)) / 100)
      WHERE id = ${bonusId}::uuid
      RETURNING wagered < wagering_required AS short
    `.pipe(Effect.map((rows) => ({ short: rows[0]?.short === true })))

  // A bonus merged into another once points at it; `undoConversion` re-points what pointed at the
  // merged one, so one step always reaches the bonus whose money it is now.
  const effectiveOf: BonusesRepoShape["effectiveOf"] = (bonusId) =>
    sql<{ readonly id: string; readonly status: BonusStatus }>`
      SELECT m.id::text AS id, m.status FROM player_bonuses b
      JOIN player_bonuses m ON m.id = coalesce(b.merged_into, b.id)
      WHERE b.id = ${bonusId}::uuid
    `.pipe(Effect.map((rows) => rows[0]))

  const lockEffective: BonusesRepoShape["lockEffective"] = (bonusId) =>
    sql<{
      readonly id: string
      readonly status: BonusStatus
      readonly convertedTotal: string
      readonly lapsed: boolean
    }>`
      SELECT m.id::text AS id, m.status, m.converted_total::text AS "convertedTotal", m.expires_at <= now() AS lapsed
      FROM player_bonuses m
      WHERE m.id = (SELECT coalesce(b.merged_into, b.id) FROM player_bonuses b WHERE b.id = ${bonusId}::uuid)
      FOR UPDATE
    `.pipe(
      Effect.map((rows) =>
        rows[0] === undefined ? undefined : { ...rows[0], convertedTotal: BigInt(rows[0].convertedTotal) },
      ),
    )

  const addConverted: BonusesRepoShape["addConverted"] = (bonusId, amount) =>
    sql`
      UPDATE player_bonuses SET converted_total = converted_total + ${amount.toString()}::numeric
      WHERE id = ${bonusId}::uuid AND status = 'completed'
    `.pipe(Effect.asVoid)

  const undoConversion: BonusesRepoShape["undoConversion"] = ({ id, unrecovered, outcome }) =>
    Effect.gen(function* () {
      const lost = unrecovered.toString()
      if (outcome._tag === "Reactivated") {
        yield* sql`
          UPDATE player_bonuses SET status = 'active', ended_at = NULL, ended_amount = NULL, end_transaction_id = NULL,
                 converted_by = NULL, converted_total = 0, reversals = reversals + 1,
                 unrecovered = unrecovered + ${lost}::numeric
          WHERE id = ${id}::uuid AND status = 'completed'`
        return
      }
      if (outcome._tag === "Expired") {
        yield* sql`
          UPDATE player_bonuses SET status = 'expired', ended_at = now(),
                 ended_amount = ${outcome.endedAmount.toString()}::numeric, end_transaction_id = NULL,
                 converted_by = NULL, converted_total = 0, reversals = reversals + 1,
                 unrecovered = unrecovered + ${lost}::numeric
          WHERE id = ${id}::uuid AND status = 'completed'`
        return
      }
      yield* sql`
        UPDATE player_bonuses SET amount = amount + ${outcome.money.toString()}::numeric,
               wagering_required = wagering_required +
                 (SELECT ceil(greatest(0, o.wagering_required - o.wagered)) FROM player_bonuses o WHERE o.id = ${id}::uuid)
        WHERE id = ${outcome.into}::uuid`
      yield* sql`
        UPDATE player_bonuses SET converted_total = 0, reversals = reversals + 1,
               unrecovered = unrecovered + ${lost}::numeric, merged_into = ${outcome.into}::uuid
        WHERE id = ${id}::uuid`
      yield* sql`UPDATE player_bonuses SET merged_into = ${outcome.into}::uuid WHERE merged_into = ${id}::uuid`
      yield* sql`
        UPDATE free_round_grants SET bonus_id = ${outcome.into}::uuid, updated_at = now()
        WHERE bonus_id = ${id}::uuid AND status IN ('pending', 'active')`
    })

  const bonusBalance = (userId: string, currency: string) =>
    sql<{ readonly balance: string }>`
      SELECT balance::text AS balance FROM ledger_accounts
      WHERE kind = 'player_bonus' AND user_id = ${userId} AND currency = ${currency}
    `.pipe(Effect.map((rows) => BigInt(rows[0]?.balance ?? "0")))

  const expiredActive = (limit: number) =>
    sql<{ readonly id: string; readonly userId: string; readonly currency: string }>`
      SELECT id::text AS id, user_id::text AS "userId", currency FROM player_bonuses
      WHERE status = 'active' AND expires_at <= now() ORDER BY expires_at LIMIT ${limit}
    `

  const bonusesOf = (userId: string) =>
    sql<BonusRow>`SELECT ${bcols} FROM ${bfrom} WHERE b.user_id = ${userId} ORDER BY b.created_at DESC, b.id`

  const bonusById = (id: string) =>
    sql<BonusRow>`SELECT ${bcols} FROM ${bfrom} WHERE b.id = ${id}::uuid`.pipe(Effect.map((r) => r[0]))

  const choicesOf = (userId: string) =>
    sql<{ readonly promotionId: string; readonly accepted: boolean }>`
      SELECT promotion_id AS "promotionId", accepted FROM promotion_choices WHERE user_id = ${userId}
    `.pipe(Effect.map((rows) => new Map(rows.map((r) => [r.promotionId, r.accepted] as const))))

  const setChoice = (userId: string, promotionId: string, accepted: boolean) =>
    sql`
      INSERT INTO promotion_choices (user_id, promotion_id, accepted) VALUES (${userId}, ${promotionId}, ${accepted})
      ON CONFLICT (user_id, promotion_id) DO UPDATE SET accepted = EXCLUDED.accepted, decided_at = now()
    `.pipe(Effect.asVoid)

  const optedOut = (userId: string) =>
    sql<{ readonly out: boolean }>`SELECT promotions_opted_out AS out FROM users WHERE id = ${userId}`.pipe(
      Effect.map((r) => r[0]?.out ?? false),
    )

  const setOptedOut = (userId: string, out: boolean) =>
    sql`UPDATE users SET promotions_opted_out = ${out} WHERE id = ${userId}`.pipe(Effect.asVoid)

  return {
    transaction: sql.withTransaction,
    walletCurrencies: (userId: string) =>
      sql<{ readonly currency: string }>`
        SELECT currency FROM ledger_accounts WHERE kind = 'player_cash' AND user_id = ${userId} ORDER BY currency
      `.pipe(Effect.map((rows) => rows.map((r) => r.currency))),
    setCryptoChoice: (userId: string, currency: string, coupon: string | null) =>
      (coupon === null
        ? sql`DELETE FROM crypto_bonus_choices WHERE user_id = ${userId} AND currency = ${currency}`
        : sql`
            INSERT INTO crypto_bonus_choices (user_id, currency, coupon, expires_at)
            VALUES (${userId}, ${currency}, ${coupon}, now() + interval '1 day')
            ON CONFLICT (user_id, currency) DO UPDATE SET coupon = EXCLUDED.coupon, expires_at = EXCLUDED.expires_at
          `
      ).pipe(Effect.asVoid),
    takeCryptoChoice: (userId: string, currency: string) =>
      sql<{ readonly coupon: string; readonly live: boolean }>`
        DELETE FROM crypto_bonus_choices WHERE user_id = ${userId} AND currency = ${currency}
        RETURNING coupon, expires_at > now() AS live
      `.pipe(Effect.map((rows) => (rows[0]?.live === true ? rows[0].coupon : undefined))),
    currencyOf: (userId: string) =>
      sql<{ readonly currency: string }>`SELECT currency FROM users WHERE id = ${userId}`.pipe(
        Effect.map((rows) => rows[0]?.currency),
      ),
    promotions,
    promotionById,
    promotionByCode,
    grantsTo,
    completedDepositsBefore,
    lockPlayer,
    lockActive,
    lockOwn,
    activeIn,
    hasActive,
    insertBonus,
    endBonus,
    recordStake,
    addWagering,
    removeWagering,
    effectiveOf,
    lockEffective,
    addConverted,
    undoConversion,
    bonusBalance,
    expiredActive,
    bonusesOf,
    bonusById,
    choicesOf,
    setChoice,
    optedOut,
    setOptedOut,
  } satisfies BonusesRepoShape
})

export class BonusesRepo extends Context.Service<BonusesRepo, BonusesRepoShape>()(
  "casino/server/BonusesRepo",
) {
  static readonly layer = Layer.effect(BonusesRepo, make)
}
