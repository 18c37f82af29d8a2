/**
 * Loyalty levels (docs/loyalty.md), pure and exact (bigint): how a real-money bet earns points, which
 * level points reach, the progress to the next one, the weekly cashback, the withdrawal-limit perk,
 * the ISO weeks the cashback is paid for and when, and the words the perks table shows. The server
 * (server/loyalty/Loyalty.ts) pays and answers by these; the Loyalty tab shows them.
 */
import { RATE_SCALE } from "./money-rules.ts"

/** `loyalty_accounts.wagered` counts ten-thousandths of a EUR: 1 point = 1 EUR = 10000 units. */
export const WAGER_UNITS_PER_POINT = 10_000n

/** Basis points in a whole: 10000 bps = 100 %, or a factor of ×1. */
export const BPS = 10_000n

/** What the rules need of a level. */
export interface TierRule {
  readonly level: number
  readonly name: string
  readonly minPoints: bigint
  readonly cashbackBps: number
  readonly withdrawLimitBps: number
  /** Perks beyond the cashback and the withdrawal limit (the operator's words). */
  readonly extraPerks: ReadonlyArray<string>
}

/**
 * A real-money stake's weighted worth in wager units (1/10000 EUR), rounded down: the amount in
 * EUR at `eurRate` (EUR per whole unit, × RATE_SCALE), times the game kind's weight in percent.
 */
export const weightedWagerUnits = (
  amountMinor: bigint,
  eurRate: bigint,
  subunitsToUnit: bigint,
  weightPercent: number,
): bigint => {
  if (amountMinor <= 0n || eurRate <= 0n || subunitsToUnit <= 0n || weightPercent <= 0) return 0n
  return (amountMinor * eurRate * BigInt(weightPercent) * 100n) / (subunitsToUnit * RATE_SCALE)
}

/** Whole points in `wagered` wager units. */
export const pointsOf = (wagered: bigint): bigint => (wagered <= 0n ? 0n : wagered / WAGER_UNITS_PER_POINT)

/** Levels lowest first (the order of their thresholds). */
export const sortTiers = <T extends TierRule>(tiers: ReadonlyArray<T>): ReadonlyArray<T> =>
  [...tiers].sort((a, b) => (a.minPoints < b.minPoints ? -1 : a.minPoints > b.minPoints ? 1 : 0))

/** The highest level whose threshold `points` reach (the lowest level when none: it starts at 0). */
export const levelFor = <T extends TierRule>(tiers: ReadonlyArray<T>, points: bigint): T | undefined => {
  const sorted = sortTiers(tiers)
  let found = sorted[0]
  for (const t of sorted) if (points >= t.minPoints) found = t
  return found
}

/** The level a player holds: never lower than the one reached before (levels are not taken back). */
export const heldLevel = <T extends TierRule>(
  tiers: ReadonlyArray<T>,
  points: bigint,
  previousLevel: number | undefined,
): T | undefined => {
  const byPoints = levelFor(tiers, points)
  const previous = tiers.find((t) => t.level === previousLevel)
  if (previous === undefined) return byPoints
  if (byPoints === undefined) return previous
  return previous.minPoints > byPoints.minPoints ? previous : byPoints
}

export interface Progress<T extends TierRule> {
  readonly next: T | undefined
  /** Points still missing for `next` (undefined at the top). */
  readonly pointsToNext: bigint | undefined
  /** 0 … 100, rounded down, from the held level's threshold to the next one's; 100 at the top. */
  readonly percent: number
}

/** How far a player holding `level` with `points` is on the way to the next level. */
export const progressOf = <T extends TierRule>(
  tiers: ReadonlyArray<T>,
  level: T,
  points: bigint,
): Progress<T> => {
  const next = sortTiers(tiers).find((t) => t.minPoints > level.minPoints)
  if (next === undefined) return { next: undefined, pointsToNext: undefined, percent: 100 }
  const span = next.minPoints - level.minPoints
  const done = points - level.minPoints
  const clamped = done < 0n ? 0n : done > span ? span : done
  const missing = next.minPoints - points
  return {
    next,
    pointsToNext: missing > 0n ? missing : 0n,
    percent: Number((clamped * 100n) / span),
  }
}

/** The cashback on a week's net real-money loss (minor units) at `bps`, rounded down; 0 without a loss. */
export const cashbackOf = (netLoss: bigint, bps: number): bigint =>
  netLoss <= 0n || bps <= 0 ? 0n : (netLoss * BigInt(bps)) / BPS

/** A limit (EUR cents) raised by the level's factor, rounded down. */
export const scaledLimit = (limit: bigint, factorBps: number): bigint => (limit * BigInt(factorBps)) / BPS

const DAY_MS = 86_400_000

/** Whether `date` is a YYYY-MM-DD Monday. */
export const isWeekStart = (date: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false
  const ms = Date.parse(`${date}T00:00:00Z`)
  return (
    Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === date && new Date(ms).getUTCDay() === 1
  )
}

/** The Monday (UTC, YYYY-MM-DD) of the ISO week holding the instant `ms`. */
export const isoWeekStart = (ms: number): string => {
  const day = Math.floor(ms / DAY_MS) * DAY_MS
  // getUTCDay: Sunday 0 … Saturday 6; an ISO week starts on Monday.
  const sinceMonday = (new Date(day).getUTCDay() + 6) % 7
  return new Date(day - sinceMonday * DAY_MS).toISOString().slice(0, 10)
}

/** The Monday of the week before the one holding `ms`. */
export const previousIsoWeekStart = (ms: number): string =>
  isoWeekStart(Date.parse(`${isoWeekStart(ms)}T00:00:00Z`) - 7 * DAY_MS)

/** The instants [start, end) of the week starting on the Monday `weekStart`. */
export const weekBounds = (weekStart: string): { readonly start: Date; readonly end: Date } => {
  const start = Date.parse(`${weekStart}T00:00:00Z`)
  return { start: new Date(start), end: new Date(start + 7 * DAY_MS) }
}

/**
 * Hours a week's cashback waits after the week ends: a rollback or a win of one of its rounds that
 * arrives in them still counts (providers retry a failed rollback for hours; a day more covers an
 * outage). Paid on Wednesday, 00:00 UTC, and final from then on.
 */
export const CASHBACK_GRACE_HOURS = 48

/** The instant (ms) from which the cashback of the week starting on `weekStart` is paid. */
export const cashbackDueAt = (weekStart: string): number =>
  weekBounds(weekStart).end.getTime() + CASHBACK_GRACE_HOURS * 3_600_000

/** The latest week whose cashback is due at the instant `ms`: the one the cashback job pays. */
export const dueCashbackWeek = (ms: number): string =>
  previousIsoWeekStart(ms - CASHBACK_GRACE_HOURS * 3_600_000)

/** Basis points as a percent the player reads: 500 → "5 %", 250 → "2.5 %", 25 → "0.25 %". */
export const formatBpsPercent = (bps: number): string => {
  const whole = Math.trunc(bps / 100)
  const fraction = String(Math.abs(bps % 100))
    .padStart(2, "0")
    .replace(/0+$/, "")
  return `${whole}${fraction === "" ? "" : `.${fraction}`} %`
}

/** A factor in basis points as "×1.5" (15000), "×2" (20000), "×1.25" (12500). */
export const formatFactor = (bps: number): string => {
  const whole = Math.trunc(bps / 10_000)
  const fraction = String(bps % 10_000)
    .padStart(4, "0")
    .replace(/0+$/, "")
  return `×${whole}${fraction === "" ? "" : `.${fraction}`}`
}

/** Points with thousands separators: "25000" → "25,000". */
export const formatPoints = (points: string | bigint): string =>
  String(points).replace(/\B(?=(\d{3})+(?!\d))/g, ",")

/** What a level gives, in the player's words: the cashback, the withdrawal limit, then the rest. */
export const perksOf = (tier: TierRule): ReadonlyArray<string> => [
  ...(tier.cashbackBps > 0
    ? [`${formatBpsPercent(tier.cashbackBps)} weekly cashback on net losses, paid as cash`]
    : []),
  ...(tier.withdrawLimitBps > Number(BPS)
    ? [`Daily withdrawal limit ${formatFactor(tier.withdrawLimitBps)}`]
    : []),
  ...tier.extraPerks,
]

/** What the progress bar says: "3,000 points to Gold", or that the top level is held. */
export const progressText = (next: { readonly name: string } | null, pointsToNext: string | null): string =>
  next === null || pointsToNext === null
    ? "You hold the highest level."
    : `${formatPoints(pointsToNext)} ${pointsToNext === "1" ? "point" : "points"} to ${next.name}`
