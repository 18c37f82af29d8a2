/**
 * Loyalty levels (docs/loyalty.md): points from real-money bets, levels with perks, the weekly
 * cashback, the withdrawal-limit factor. The arithmetic is services/loyalty-rules.ts; the SQL
 * LoyaltyRepo.ts; money moves only through the ledger.
 *
 * Rules:
 * - A bet earns points on its real-money part (the bet minus its bonus part) in EUR at the currency's
 *   rate when the job reads it, times its game kind's weight (bonus_game_weights): 1 point = 1 EUR
 *   so weighted. A rollback takes its bet's points back. Bonus money earns nothing.
 * - The accrual job reads the wallet's settled calls after a cursor (the wallet's own statements are
 *   untouched), one window of ids per transaction; the cursor moves in the same transaction as the
 *   points, so a crash or a second process never counts a bet twice or skips one.
 * - The level is the highest whose threshold the points reach, and never goes down. A new level is
 *   recorded with the time of the bet that reached it, and pushed to the player's pages (`loyalty`
 *   event) after the commit.
 * - Weekly cashback: for an ISO week (UTC, Monday start), each player's net real-money loss per
 *   currency in the rounds started that week (cash-account entries of their game postings, a later
 *   rollback or win included) × the cashback of the level held at the week's end, rounded down, paid
 *   as cash from the house's `cashback` account; once per player, currency and week, 48 hours after
 *   the week ends (`CASHBACK_GRACE_HOURS`), so the rounds' late rollbacks and wins count.
 */
import { Clock, Context, Duration, Effect, Layer, Schema } from "effect"
import type { SqlError } from "effect/sql"
import {
  CASHBACK_GRACE_HOURS,
  cashbackDueAt,
  cashbackOf,
  dueCashbackWeek,
  heldLevel,
  isWeekStart,
  levelFor,
  perksOf,
  pointsOf,
  progressOf,
  sortTiers,
  type TierRule,
  WAGER_UNITS_PER_POINT,
  weekBounds,
  weightedWagerUnits,
} from "../../services/loyalty-rules.ts"
import type { LoyaltyLevel, LoyaltyTier } from "../../services/loyalty-service.ts"
import { parseDecimal } from "../../services/money-rules.ts"
import { AppConfig } from "../config.ts"
import { PlayerEvents } from "../events/PlayerEvents.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Jobs } from "../lifecycle/Jobs.ts"
import { type LevelRow, LoyaltyRepo, type StakeRow } from "./LoyaltyRepo.ts"

/** The house account weekly cashback is paid from (`house/cashback`, one per currency). */
export const CASHBACK_HOUSE_CODE = "cashback"

/** Wallet-call ids read per accrual transaction: short transactions, bounded memory. */
const ACCRUAL_WINDOW = 1000n

/** A cashback run that cannot be done as asked. */
export class CashbackRefused extends Schema.TaggedError<CashbackRefused>()("CashbackRefused", {
  weekStart: Schema.String,
  message: Schema.String,
}) {}

export interface AccrualRun {
  /** Bets and rollbacks taken into account. */
  readonly stakes: number
  /** Players who reached a higher level. */
  readonly levelUps: number
}

export interface CashbackRun {
  readonly weekStart: string
  /** Cashbacks paid by this run (0 when all were paid before). */
  readonly payments: number
}

export interface LoyaltyShape {
  /** The player's level, points, progress and every level's perks (GET …/profile/loyalty-level). */
  readonly status: (userId: string) => Effect.Effect<LoyaltyLevel>
  /** Counts the points of the bets settled since the last run (the job runs it every minute). */
  readonly accrue: Effect.Effect<AccrualRun, SqlError.SqlError>
  /**
   * Pays the cashback of the ISO week starting on Monday `weekStart` (YYYY-MM-DD), once it is due
   * (48 hours after it ends); idempotent (the hourly job pays the latest week due; tests and
   * operators call it directly).
   */
  readonly runCashback: (weekStart: string) => Effect.Effect<CashbackRun, CashbackRefused | SqlError.SqlError>
  /**
   * The player's daily-withdrawal-limit factor in basis points (10000 = ×1): the level's perk, for
   * the withdrawal rules to multiply their daily cap by (services/loyalty-rules.ts `scaledLimit`).
   */
  readonly withdrawLimitFactorBps: (userId: string) => Effect.Effect<number>
}

interface Tier extends TierRule {
  readonly row: LevelRow
}

/** A player who reached a higher level in an accrual window. */
type LevelUp = Tier & { readonly userId: string }
const noLevelUps: ReadonlyArray<LevelUp> = []

const toTier = (row: LevelRow): Tier => ({
  level: row.level,
  name: row.name,
  minPoints: BigInt(row.minPoints),
  cashbackBps: row.cashbackBps,
  withdrawLimitBps: row.withdrawLimitBps,
  extraPerks: row.perks,
  row,
})

const toLoyaltyTier = (t: Tier): LoyaltyTier => ({
  level: t.level,
  name: t.name,
  minPoints: t.minPoints.toString(),
  cashbackBps: t.cashbackBps,
  withdrawLimitBps: t.withdrawLimitBps,
  perks: perksOf(t),
})

/** A stake's worth in wager units and when it was made. */
interface Stake {
  readonly units: bigint
  readonly at: string
}

/**
 * When `threshold` wager units were first reached from `start` by `stakes` (in id order): the time of
 * the stake that reached it; the last one's if none did alone (the caller's sum reached it).
 */
const reachedAt = (start: bigint, stakes: readonly [Stake, ...Array<Stake>], threshold: bigint): string => {
  let running = start
  for (const stake of stakes) {
    running += stake.units
    if (running >= threshold) return stake.at
  }
  return (stakes.at(-1) ?? stakes[0]).at
}

/** A stake's signed worth in wager units: a bet adds, a rollback takes its bet's back. */
const unitsOf = (row: StakeRow): bigint => {
  const units = weightedWagerUnits(
    BigInt(row.realAmount),
    row.eurRate === null ? 0n : (parseDecimal(row.eurRate) ?? 0n),
    BigInt(row.subunits),
    row.weight,
  )
  return row.op === "bet" ? units : -units
}

const make = Effect.gen(function* () {
  const repo = yield* LoyaltyRepo
  const ledger = yield* Ledger
  const events = yield* PlayerEvents
  const config = yield* AppConfig

  const tiers = repo.levels().pipe(Effect.map((rows) => sortTiers(rows.map(toTier))))

  /** The level held: the stored one (never lower than the points' level), the lowest without one. */
  const heldTier = (all: ReadonlyArray<Tier>, points: bigint, stored: number | undefined) =>
    Effect.gen(function* () {
      const tier = heldLevel(all, points, stored)
      if (tier === undefined) return yield* Effect.die(new Error("loyalty_levels is empty"))
      return tier
    })

  const status = (userId: string) =>
    Effect.gen(function* () {
      const all = yield* tiers
      const standing = yield* repo.standing(userId)
      const points = BigInt(standing?.points ?? "0")
      const tier = yield* heldTier(all, points, standing?.level)
      const progress = progressOf(all, tier, points)
      return {
        level: tier.level,
        name: tier.name,
        points: points.toString(),
        nextLevel:
          progress.next === undefined
            ? null
            : {
                level: progress.next.level,
                name: progress.next.name,
                minPoints: progress.next.minPoints.toString(),
              },
        pointsToNext: progress.pointsToNext?.toString() ?? null,
        progressPercent: progress.percent,
        cashbackBps: tier.cashbackBps,
        withdrawLimitBps: tier.withdrawLimitBps,
        perks: perksOf(tier),
        levels: all.map(toLoyaltyTier),
      } satisfies LoyaltyLevel
    }).pipe(Effect.orDie)

  /** One window of wallet calls after the cursor, in one transaction; whether the cursor reached `high`. */
  const accrueWindow = (all: ReadonlyArray<Tier>, high: bigint) =>
    repo.transaction(
      Effect.gen(function* () {
        const position = yield* repo.lockCursor()
        if (position >= high) return { done: true, stakes: 0, levelUps: noLevelUps }
        const to = position + ACCRUAL_WINDOW < high ? position + ACCRUAL_WINDOW : high
        const rows = yield* repo.stakes(position, to)
        // Each player's stakes in id order, with their worth: the one that reaches a level dates it.
        const byUser = new Map<string, [Stake, ...Array<Stake>]>()
        for (const row of rows) {
          const stake = { units: unitsOf(row), at: row.at }
          const list = byUser.get(row.userId)
          if (list === undefined) byUser.set(row.userId, [stake])
          else list.push(stake)
        }
        const before = new Map((yield* repo.standings([...byUser.keys()])).map((s) => [s.userId, s] as const))
        const lowest = levelFor(all, 0n)
        const levelUps: Array<LevelUp> = []
        for (const [userId, stakes] of byUser) {
          const delta = stakes.reduce((sum, s) => sum + s.units, 0n)
          if (delta === 0n) continue
          const previous = before.get(userId)
          const start = BigInt(previous?.wagered ?? "0")
          const sum = start + delta
          const wagered = sum > 0n ? sum : 0n
          const points = pointsOf(wagered)
          const tier = yield* heldTier(all, points, previous?.level)
          yield* repo.saveStanding({
            userId,
            wagered: wagered.toString(),
            points: points.toString(),
            level: tier.level,
          })
          const was = all.find((t) => t.level === (previous?.level ?? lowest?.level))
          if (was === undefined || tier.minPoints > was.minPoints) {
            const at = reachedAt(start, stakes, tier.minPoints * WAGER_UNITS_PER_POINT)
            yield* repo.saveLevelReached(userId, tier.level, at)
            levelUps.push({ ...tier, userId })
          }
        }
        yield* repo.setCursor(to)
        return { done: to >= high, stakes: rows.length, levelUps }
      }),
    )

  const accrue = Effect.gen(function* () {
    const all = yield* tiers
    const high = yield* repo.settledHigh()
    let stakes = 0
    let levelUps = 0
    for (;;) {
      const window = yield* accrueWindow(all, high)
      stakes += window.stakes
      levelUps += window.levelUps.length
      // After the commit: a push names a level the player holds.
      if (window.levelUps.length > 0)
        yield* events.publishMany(
          window.levelUps.map((t) => ({
            userId: t.userId,
            event: { type: "loyalty" as const, level: t.level, name: t.name },
          })),
        )
      if (window.done) break
    }
    return { stakes, levelUps } satisfies AccrualRun
  }).pipe(Effect.withSpan("Loyalty.accrue"))

  /** Pays one player's cashback for the week in one transaction; the cash balance after, or undefined. */
  const payCashback = (input: {
    readonly userId: string
    readonly currency: string
    readonly weekStart: string
    readonly tier: Tier
    readonly netLoss: bigint
    readonly amount: bigint
  }) =>
    repo.transaction(
      Effect.gen(function* () {
        const cash = yield* ledger.playerAccount(input.userId, input.currency)
        if (cash === undefined) return undefined
        const house = yield* ledger.systemAccountId("house", CASHBACK_HOUSE_CODE, input.currency)
        const posted = yield* ledger.post(
          {
            kind: "loyalty.cashback",
            idempotencyKey: `loyalty:cashback:${input.userId}:${input.currency}:${input.weekStart}`,
            entries: [
              { accountId: house, currency: input.currency, amount: -input.amount },
              { accountId: cash.id, currency: input.currency, amount: input.amount },
            ],
            metadata: {
              userId: input.userId,
              weekStart: input.weekStart,
              level: input.tier.level,
              netLoss: input.netLoss.toString(),
            },
          },
          (transactionId) =>
            repo
              .insertCashback({
                userId: input.userId,
                currency: input.currency,
                weekStart: input.weekStart,
                level: input.tier.level,
                cashbackBps: input.tier.cashbackBps,
                netLoss: input.netLoss,
                amount: input.amount,
                transactionId,
              })
              .pipe(Effect.asVoid),
        )
        return posted.replayed ? undefined : (posted.balances.get(cash.id) ?? undefined)
      }),
    )

  const runCashback = (weekStart: string) =>
    Effect.gen(function* () {
      if (!isWeekStart(weekStart))
        return yield* new CashbackRefused({ weekStart, message: "A cashback week starts on a Monday." })
      const { start, end } = weekBounds(weekStart)
      const due = cashbackDueAt(weekStart)
      if (due > (yield* Clock.currentTimeMillis))
        return yield* new CashbackRefused({
          weekStart,
          message: `This week's cashback is paid from ${new Date(due).toISOString().slice(0, 16)} UTC, ${CASHBACK_GRACE_HOURS} hours after the week ends.`,
        })
      // The week's last bets count towards the level held at its end (the job may not have read them).
      yield* accrue.pipe(
        Effect.catchCause((cause) => Effect.logWarning("loyalty: accrual before cashback failed", cause)),
      )
      const all = yield* tiers
      let payments = 0
      for (const row of yield* repo.netLosses(start, end)) {
        // The level held at the week's end, not one reached since (none recorded: the lowest).
        const tier = yield* heldTier(all, 0n, yield* repo.levelAt(row.userId, end))
        const netLoss = BigInt(row.loss)
        const amount = cashbackOf(netLoss, tier.cashbackBps)
        if (amount <= 0n || (yield* repo.cashbackPaid(row.userId, row.currency, weekStart))) continue
        const balance = yield* payCashback({
          userId: row.userId,
          currency: row.currency,
          weekStart,
          tier,
          netLoss,
          amount,
        }).pipe(
          // Another process paid it meanwhile with other figures (a late bet): the first payment stands.
          Effect.catchTag("LedgerConflict", (e) =>
            Effect.logWarning(`loyalty: cashback ${e.idempotencyKey} paid before with other figures`).pipe(
              Effect.as(undefined),
            ),
          ),
          Effect.catchTag(["InsufficientFunds", "InvalidPosting"], Effect.die),
        )
        if (balance === undefined) continue
        payments++
        yield* events.publish(row.userId, {
          type: "balance",
          currency: row.currency,
          balance: balance.toString(),
        })
      }
      yield* repo.markWeekDone(weekStart, payments)
      return { weekStart, payments } satisfies CashbackRun
    }).pipe(Effect.withSpan("Loyalty.runCashback", { attributes: { weekStart } }))

  const withdrawLimitFactorBps = (userId: string) =>
    Effect.gen(function* () {
      const standing = yield* repo.standing(userId)
      const tier = yield* heldTier(yield* tiers, BigInt(standing?.points ?? "0"), standing?.level)
      return tier.withdrawLimitBps
    }).pipe(Effect.orDie)

  const jobs = yield* Jobs
  // The jobs run once for the cluster (their leases); the cursor's row lock and the cashback's
  // idempotency key would make a second runner harmless anyway. Tests that move bets back in time
  // run them by hand.
  if (config.loyaltyJobs) {
    yield* jobs.every("loyalty.accrual", accrue, Duration.seconds(config.loyaltyAccrualSeconds), {
      firstAfter: Duration.seconds(Math.min(15, config.loyaltyAccrualSeconds)),
    })
    yield* jobs.every(
      "loyalty.cashback",
      Effect.gen(function* () {
        const week = dueCashbackWeek(yield* Clock.currentTimeMillis)
        if (!(yield* repo.weekDone(week))) yield* runCashback(week)
      }),
      Duration.hours(1),
      { firstAfter: Duration.seconds(30) },
    )
  }

  return { status, accrue, runCashback, withdrawLimitFactorBps } satisfies LoyaltyShape
})

export class Loyalty extends Context.Service<Loyalty, LoyaltyShape>()("casino/server/Loyalty") {
  static readonly layer = Layer.effect(Loyalty, make).pipe(Layer.provide(LoyaltyRepo.layer))
}
