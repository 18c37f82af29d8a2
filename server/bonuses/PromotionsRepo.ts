/**
 * The SQL of operating promotions (`promotions`, `promotion_bands` of migration 0070, the free-spin
 * columns of 0072): read them all with their usage, insert, update, replace the bands, switch them
 * on and off. Only `Promotions` (Promotions.ts) calls it; it holds no rule. Every function fails only
 * with `SqlError`. EUR amounts cross the boundary as bigint cents (numeric read as text), never floats.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"

export type PromotionKind = "deposit_bonus" | "free_spins"

/** A band: deposits up to `upToEurCents` (inclusive; null: the open band above the others). */
export interface PromotionBandSpec {
  readonly upToEurCents: bigint | null
  readonly percent: number
  readonly freeSpins: number
}

/** Everything an operator sets on a promotion (the columns of `promotions` and its bands). */
export interface PromotionSpec {
  readonly id: string
  readonly kind: PromotionKind
  readonly name: string
  readonly description: string
  readonly code: string | null
  readonly depositNumber: number | null
  /** Ordered by bound, the open band last. */
  readonly bands: ReadonlyArray<PromotionBandSpec>
  readonly maxBonusEurCents: bigint
  readonly wageringMultiple: number
  readonly maxBetEurCents: bigint
  readonly validDays: number
  readonly freeSpinGame: string | null
  readonly freeSpinBetEurCents: bigint | null
  /** A free-spins promotion's unlock: the smallest deposit (EUR cents; null: any), the extra percent. */
  readonly unlockDepositEurCents: bigint | null
  readonly extraBonusPercent: number
  /** null: every currency. */
  readonly currencies: ReadonlyArray<string> | null
  readonly startsAt: Date | null
  readonly endsAt: Date | null
  readonly maxUses: number | null
  readonly maxUsesPerPlayer: number
}

/** A stored promotion: what the operator set, whether it runs, and how often it was granted. */
export interface StoredPromotion extends PromotionSpec {
  readonly active: boolean
  /** Grants so far (`player_bonuses` and `free_spin_wallets`), in all. */
  readonly uses: number
  readonly createdAt: Date
}

type Sql<A> = Effect.Effect<A, SqlError.SqlError>

export interface PromotionsRepoShape {
  readonly transaction: <A, E, R>(
    effect: Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | SqlError.SqlError, R>
  /** Every promotion, in the operator's order (`sort`, then id). */
  readonly all: () => Sql<ReadonlyArray<StoredPromotion>>
  readonly byId: (id: string) => Sql<StoredPromotion | undefined>
  /** The promotion, its row locked for the caller's transaction. */
  readonly lockById: (id: string) => Sql<StoredPromotion | undefined>
  /** The id of the promotion holding `code` (stored upper-case), other than `exceptId`. */
  readonly codeHolder: (code: string, exceptId: string | null) => Sql<string | undefined>
  readonly gameExists: (gameId: string) => Sql<boolean>
  /** Which of `codes` are currencies of the list. */
  readonly knownCurrencies: (codes: ReadonlyArray<string>) => Sql<ReadonlyArray<string>>
  /** Inserts it (active, listed after the others) with its bands. */
  readonly insert: (spec: PromotionSpec) => Sql<void>
  /** Writes every column of `spec` (not its bands) over the row of `spec.id`. */
  readonly update: (spec: PromotionSpec) => Sql<void>
  readonly replaceBands: (id: string, bands: ReadonlyArray<PromotionBandSpec>) => Sql<void>
  readonly setActive: (id: string, active: boolean) => Sql<void>
}

interface Row {
  readonly id: string
  readonly kind: PromotionKind
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
  readonly unlockDepositEurCents: string | null
  readonly extraBonusPercent: number
  readonly currencies: string | null
  readonly startsAt: Date | string | null
  readonly endsAt: Date | string | null
  readonly maxUses: number | null
  readonly maxUsesPerPlayer: number
  readonly active: boolean
  readonly createdAt: Date | string
  readonly uses: number
  readonly bands:
    | ReadonlyArray<{
        readonly upToEurCents: string | null
        readonly percent: number
        readonly freeSpins: number
      }>
    | string
}

const columns = `
  p.id, p.kind, p.name, p.description, p.code, p.deposit_number AS "depositNumber",
  p.max_bonus_eur_cents::text AS "maxBonusEurCents", p.wagering_multiple AS "wageringMultiple",
  p.max_bet_eur_cents::text AS "maxBetEurCents", p.valid_days AS "validDays",
  p.free_spin_game AS "freeSpinGame", p.free_spin_bet_eur_cents::text AS "freeSpinBetEurCents",
  p.unlock_deposit_eur_cents::text AS "unlockDepositEurCents", p.extra_bonus_percent AS "extraBonusPercent",
  array_to_string(p.currencies, ',') AS currencies, p.starts_at AS "startsAt", p.ends_at AS "endsAt",
  p.max_uses AS "maxUses", p.max_uses_per_player AS "maxUsesPerPlayer", p.active, p.created_at AS "createdAt",
  ((SELECT count(*)::int FROM player_bonuses g WHERE g.promotion_id = p.id) +
   (SELECT count(*)::int FROM free_spin_wallets w WHERE w.promotion_id = p.id)) AS uses,
  coalesce((SELECT json_agg(json_build_object('upToEurCents', b.up_to_eur_cents::text, 'percent', b.percent,
                                              'freeSpins', b.free_spins)
                            ORDER BY b.up_to_eur_cents NULLS LAST)
            FROM promotion_bands b WHERE b.promotion_id = p.id), '[]'::json) AS bands`

const date = (value: Date | string): Date => (value instanceof Date ? value : new Date(value))

const toStored = (r: Row): StoredPromotion => {
  const bands = typeof r.bands === "string" ? (JSON.parse(r.bands) as Exclude<Row["bands"], string>) : r.bands
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    description: r.description,
    code: r.code,
    depositNumber: r.depositNumber,
    bands: bands.map((b) => ({
      upToEurCents: b.upToEurCents === null ? null : BigInt(b.upToEurCents),
      percent: b.percent,
      freeSpins: b.freeSpins,
    })),
    maxBonusEurCents: BigInt(r.maxBonusEurCents),
    wageringMultiple: r.wageringMultiple,
    maxBetEurCents: BigInt(r.maxBetEurCents),
    validDays: r.validDays,
    freeSpinGame: r.freeSpinGame,
    freeSpinBetEurCents: r.freeSpinBetEurCents === null ? null : BigInt(r.freeSpinBetEurCents),
    unlockDepositEurCents: r.unlockDepositEurCents === null ? null : BigInt(r.unlockDepositEurCents),
    extraBonusPercent: r.extraBonusPercent,
    currencies: r.currencies === null ? null : r.currencies.split(",").filter((c) => c !== ""),
    startsAt: r.startsAt === null ? null : date(r.startsAt),
    endsAt: r.endsAt === null ? null : date(r.endsAt),
    maxUses: r.maxUses,
    maxUsesPerPlayer: r.maxUsesPerPlayer,
    active: r.active,
    uses: r.uses,
    createdAt: date(r.createdAt),
  }
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const cols = sql.literal(columns)

  const num = (value: bigint | null) => (value === null ? null : value.toString())
  const iso = (value: Date | null) => (value === null ? null : value.toISOString())
  const list = (value: ReadonlyArray<string> | null) => (value === null ? null : value.join(","))

  const all = () =>
    sql<Row>`SELECT ${cols} FROM promotions p ORDER BY p.sort, p.id`.pipe(
      Effect.map((rows) => rows.map(toStored)),
    )

  const byId = (id: string) =>
    sql<Row>`SELECT ${cols} FROM promotions p WHERE p.id = ${id}`.pipe(
      Effect.map((rows) => (rows[0] === undefined ? undefined : toStored(rows[0]))),
    )

  const lockById = (id: string) =>
    sql<Row>`SELECT ${cols} FROM promotions p WHERE p.id = ${id} FOR UPDATE OF p`.pipe(
      Effect.map((rows) => (rows[0] === undefined ? undefined : toStored(rows[0]))),
    )

  const codeHolder = (code: string, exceptId: string | null) =>
    sql<{ readonly id: string }>`
      SELECT id FROM promotions WHERE code = ${code} AND id IS DISTINCT FROM ${exceptId}::text
    `.pipe(Effect.map((rows) => rows[0]?.id))

  const gameExists = (gameId: string) =>
    sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM games WHERE id = ${gameId}`.pipe(
      Effect.map((rows) => (rows[0]?.n ?? 0) > 0),
    )

  const knownCurrencies = (codes: ReadonlyArray<string>) =>
    sql<{ readonly code: string }>`
      SELECT code FROM currencies WHERE code = ANY (string_to_array(${codes.join(",")}::text, ','))
    `.pipe(Effect.map((rows) => rows.map((r) => r.code)))

  const replaceBands = (id: string, bands: ReadonlyArray<PromotionBandSpec>) =>
    Effect.gen(function* () {
      yield* sql`DELETE FROM promotion_bands WHERE promotion_id = ${id}`
      for (const b of bands) {
        yield* sql`
          INSERT INTO promotion_bands (promotion_id, up_to_eur_cents, percent, free_spins)
          VALUES (${id}, ${num(b.upToEurCents)}::numeric, ${b.percent}, ${b.freeSpins})
        `
      }
    })

  const insert = (p: PromotionSpec) =>
    Effect.gen(function* () {
      yield* sql`
        INSERT INTO promotions (id, kind, name, description, code, deposit_number, max_bonus_eur_cents,
                                wagering_multiple, max_bet_eur_cents, valid_days, free_spin_game,
                                free_spin_bet_eur_cents, unlock_deposit_eur_cents, extra_bonus_percent,
                                currencies, starts_at, ends_at, max_uses, max_uses_per_player, active, sort)
        VALUES (${p.id}, ${p.kind}, ${p.name}, ${p.description}, ${p.code}, ${p.depositNumber}::int,
                ${num(p.maxBonusEurCents)}::numeric, ${p.wageringMultiple}, ${num(p.maxBetEurCents)}::numeric,
                ${p.validDays}, ${p.freeSpinGame}, ${num(p.freeSpinBetEurCents)}::numeric,
                ${num(p.unlockDepositEurCents)}::numeric, ${p.extraBonusPercent},
                string_to_array(${list(p.currencies)}::text, ','), ${iso(p.startsAt)}::timestamptz,
                ${iso(p.endsAt)}::timestamptz, ${p.maxUses}::int, ${p.maxUsesPerPlayer}, true,
                (SELECT coalesce(max(sort), 0) + 1 FROM promotions))
      `
      yield* replaceBands(p.id, p.bands)
    })

  const update = (p: PromotionSpec) =>
    sql`
      UPDATE promotions SET
        name = ${p.name}, description = ${p.description}, code = ${p.code},
        deposit_number = ${p.depositNumber}::int, max_bonus_eur_cents = ${num(p.maxBonusEurCents)}::numeric,
        wagering_multiple = ${p.wageringMultiple}, max_bet_eur_cents = ${num(p.maxBetEurCents)}::numeric,
        valid_days = ${p.validDays}, free_spin_game = ${p.freeSpinGame},
        free_spin_bet_eur_cents = ${num(p.freeSpinBetEurCents)}::numeric,
        unlock_deposit_eur_cents = ${num(p.unlockDepositEurCents)}::numeric,
        extra_bonus_percent = ${p.extraBonusPercent},
        currencies = string_to_array(${list(p.currencies)}::text, ','),
        starts_at = ${iso(p.startsAt)}::timestamptz, ends_at = ${iso(p.endsAt)}::timestamptz,
        max_uses = ${p.maxUses}::int, max_uses_per_player = ${p.maxUsesPerPlayer}
      WHERE id = ${p.id}
    `.pipe(Effect.asVoid)

  const setActive = (id: string, active: boolean) =>
    sql`UPDATE promotions SET active = ${active} WHERE id = ${id}`.pipe(Effect.asVoid)

  return {
    transaction: sql.withTransaction,
    all,
    byId,
    lockById,
    codeHolder,
    gameExists,
    knownCurrencies,
    insert,
    update,
    replaceBands,
    setActive,
  } satisfies PromotionsRepoShape
})

export class PromotionsRepo extends Context.Service<PromotionsRepo, PromotionsRepoShape>()(
  "casino/server/PromotionsRepo",
) {
  static readonly layer = Layer.effect(PromotionsRepo, make)
}
