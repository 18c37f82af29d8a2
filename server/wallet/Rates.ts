/**
 * Rates and minimums per currency (`currency_rates`, seeded by server/db/seed.ts for every currency
 * of the list): EUR per whole unit (exact decimal), and the deposit, promotion and withdrawal
 * minimums in the currency's minor units. Read by the rate endpoints and the deposit rules; changed
 * only by an operator (`npm run operator -- rates set …`), with an audit row in the same transaction.
 */
import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { formatDecimal, parseDecimal } from "../../services/money-rules.ts"
import { type AuditActor, actorFields, OperatorAudit } from "../operator/Audit.ts"

export interface CurrencyRate {
  readonly currency: string
  readonly type: "FIAT" | "CRYPTO"
  readonly enabled: boolean
  readonly subunitsToUnit: bigint
  /** EUR per whole unit, scaled by money-rules RATE_SCALE. */
  readonly eurRate: bigint
  readonly minDeposit: bigint
  readonly minPromotion: bigint
  readonly minWithdraw: bigint
  readonly updatedAt: Date
  readonly updatedBy: string
}

export interface RateChange {
  readonly currency: string
  readonly eurRate?: string | undefined
  readonly minDeposit?: bigint | undefined
  readonly minPromotion?: bigint | undefined
  readonly minWithdraw?: bigint | undefined
  readonly actor: AuditActor
}

/** Why an operator's rate change was refused. */
export class RateChangeRefused extends Schema.TaggedError<RateChangeRefused>()("RateChangeRefused", {
  reason: Schema.Literals(["UnknownCurrency", "InvalidRate", "NothingToChange"]),
  message: Schema.String,
}) {}

interface RateRow {
  readonly currency: string
  readonly type: "FIAT" | "CRYPTO"
  readonly enabled: boolean
  readonly subunits: string
  readonly eurRate: string
  readonly minDeposit: string
  readonly minPromotion: string
  readonly minWithdraw: string
  readonly updatedAt: Date
  readonly updatedBy: string
}

const toRate = (row: RateRow): CurrencyRate => ({
  currency: row.currency,
  type: row.type,
  enabled: row.enabled,
  subunitsToUnit: BigInt(row.subunits),
  // numeric(38,18) prints all 18 decimals: parseDecimal takes exactly that.
  eurRate: parseDecimal(row.eurRate) ?? 0n,
  minDeposit: BigInt(row.minDeposit),
  minPromotion: BigInt(row.minPromotion),
  minWithdraw: BigInt(row.minWithdraw),
  updatedAt: row.updatedAt,
  updatedBy: row.updatedBy,
})

export interface RatesShape {
  /** The currency's rate row; undefined for an unknown currency or one without rates. */
  readonly get: (currency: string) => Effect.Effect<CurrencyRate | undefined>
  readonly list: () => Effect.Effect<ReadonlyArray<CurrencyRate>>
  readonly set: (change: RateChange) => Effect.Effect<CurrencyRate, RateChangeRefused>
}

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const audit = yield* OperatorAudit

  const select = sql.literal(`
    SELECT r.currency, c.type, c.enabled, c.subunits_to_unit::text AS subunits,
           r.eur_rate::text AS "eurRate", r.min_deposit::text AS "minDeposit",
           r.min_promotion::text AS "minPromotion", r.min_withdraw::text AS "minWithdraw",
           r.updated_at AS "updatedAt", r.updated_by AS "updatedBy"
    FROM currency_rates r JOIN currencies c ON c.code = r.currency
  `)

  const get = (currency: string) =>
    // Not a code at all (a path parameter may hold NUL, which PostgreSQL refuses as text): none.
    !/^[A-Z0-9]{2,10}$/.test(currency)
      ? Effect.succeed(undefined)
      : sql<RateRow>`${select} WHERE r.currency = ${currency}`.pipe(
          Effect.map((rows) => (rows[0] === undefined ? undefined : toRate(rows[0]))),
          Effect.orDie,
        )

  const list = () =>
    sql<RateRow>`${select} ORDER BY c.sort_order, r.currency`.pipe(
      Effect.map((rows) => rows.map(toRate)),
      Effect.orDie,
    )

  const set = Effect.fn("Rates.set")(function* (change: RateChange) {
    let rate: bigint | undefined
    if (change.eurRate !== undefined) {
      rate = parseDecimal(change.eurRate) ?? undefined
      if (rate === undefined || rate <= 0n)
        return yield* new RateChangeRefused({
          reason: "InvalidRate",
          message: "--eur-rate must be a positive exact decimal (at most 20 digits, 18 decimals), e.g. 0.92",
        })
    }
    const minimums = [change.minDeposit, change.minPromotion, change.minWithdraw]
    if (minimums.some((m) => m !== undefined && (m < 0n || m.toString().length > 38)))
      return yield* new RateChangeRefused({
        reason: "InvalidRate",
        message: "minimums are 0 or more minor units",
      })
    if (rate === undefined && minimums.every((m) => m === undefined))
      return yield* new RateChangeRefused({
        reason: "NothingToChange",
        message: "give --eur-rate or a minimum",
      })
    const eurRateText = rate === undefined ? null : formatDecimal(rate)
    const num = (m: bigint | undefined) => (m === undefined ? null : m.toString())
    return yield* sql
      .withTransaction(
        Effect.gen(function* () {
          const before = yield* get(change.currency)
          if (before === undefined)
            return yield* new RateChangeRefused({
              reason: "UnknownCurrency",
              message: `${change.currency} is not a currency of the list`,
            })
          yield* sql`
            UPDATE currency_rates SET
              eur_rate = coalesce(${eurRateText}::numeric, eur_rate),
              min_deposit = coalesce(${num(change.minDeposit)}::numeric, min_deposit),
              min_promotion = coalesce(${num(change.minPromotion)}::numeric, min_promotion),
              min_withdraw = coalesce(${num(change.minWithdraw)}::numeric, min_withdraw),
              updated_at = now(), updated_by = ${actorFields(change.actor).actor}
            WHERE currency = ${change.currency}
          `
          const after = yield* get(change.currency)
          if (after === undefined) return yield* Effect.die(new Error("rate row vanished"))
          const view = (r: CurrencyRate) => ({
            eurRate: formatDecimal(r.eurRate),
            minDeposit: r.minDeposit.toString(),
            minPromotion: r.minPromotion.toString(),
            minWithdraw: r.minWithdraw.toString(),
          })
          yield* audit.record({
            ...actorFields(change.actor),
            action: "rates.set",
            userId: null,
            subject: change.currency,
            details: {
              eurRateBefore: formatDecimal(before.eurRate),
              eurRate: formatDecimal(after.eurRate),
              minDeposit: after.minDeposit.toString(),
              minPromotion: after.minPromotion.toString(),
              minWithdraw: after.minWithdraw.toString(),
            },
            before: view(before),
            after: view(after),
          })
          return after
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  })

  return { get, list, set } satisfies RatesShape
})

export class Rates extends Context.Service<Rates, RatesShape>()("casino/server/Rates") {
  static readonly layer = Layer.effect(Rates, make)
}
