/**
 * Responsible-gaming tools (what UKGC- and MGA-licensed casinos must offer):
 *
 * - Deposit limits per rolling 24 h / 7 days / 30 days in EUR cents (DepositTotals.ts). A first
 *   limit or a decrease applies at once; a raise or a removal waits 24 hours (`deposit_limit_changes`
 *   holds it with its effective time) and is applied lazily — by the next read or write for that
 *   player, inside the same transaction — so nothing has to run on a timer. Asking again for the
 *   current amount cancels a pending change. Limits stay ordered: daily ≤ weekly ≤ monthly.
 * - `remainingDeposit(userId)`: what the player may still deposit now (the tightest limit minus what
 *   its window already holds), or null without limits — what the deposit capability will enforce.
 * - The reality-check interval (minutes between reminders during play), or off; and per session
 *   (sign-in) when it last answered a reminder "Continue playing", by the database clock: the
 *   browser shows a reminder that came due after that answer at once (docs/games.md).
 * - Self-exclusion: a time-out or exclusion period of `SelfExclusionPeriods`, ending at a time
 *   computed from the database clock. It can be extended, never shortened; setting it revokes every
 *   session of the player, and sign-in answers 451 until it ends (Users.signIn).
 */
import { Context, Effect, Layer } from "effect"
import { ExclusionNotShortened, ValidationFailed } from "../../services/errors.ts"
import {
  DepositLimitBounds,
  exclusionEnd,
  extendsExclusion,
  isDepositLimitInBounds,
  LIMIT_INCREASE_DELAY_MS,
  type LimitPeriod,
  limitChangeEffectiveAt,
  limitOrderProblem,
  limitPeriods,
  ProfileMessages,
  realityCheckIntervals,
  remainingUnder,
  type SelfExclusionPeriod,
  SelfExclusionPeriods,
  selfExclusionPeriods,
  tightest,
} from "../../services/profile-rules.ts"
import type {
  RealityCheckSession,
  ResponsibleGaming as ResponsibleGamingView,
  SelfExclusion as SelfExclusionSchema,
  UpdateResponsibleGamingPayload,
} from "../../services/profile-service.ts"
import { PlayerEvents } from "../events/PlayerEvents.ts"
import { Sessions } from "../users/Sessions.ts"
import { DepositTotals } from "./DepositTotals.ts"
import { type ExclusionRow, type RealityCheckRow, ResponsibleGamingRepo } from "./ResponsibleGamingRepo.ts"

export interface ResponsibleGamingShape {
  readonly get: (userId: string) => Effect.Effect<ResponsibleGamingView>
  readonly update: (
    userId: string,
    payload: UpdateResponsibleGamingPayload,
  ) => Effect.Effect<ResponsibleGamingView, ValidationFailed>
  /** EUR cents the player may still deposit now; null = no limit. */
  readonly remainingDeposit: (userId: string) => Effect.Effect<bigint | null>
  /** Sets a self-exclusion and revokes every session of the player (in one transaction). */
  readonly selfExclude: (
    userId: string,
    period: SelfExclusionPeriod,
  ) => Effect.Effect<SelfExclusion, ExclusionNotShortened>
  /** The active self-exclusion, or null. */
  readonly currentExclusion: (userId: string) => Effect.Effect<SelfExclusion | null>
  /** The reality check of one of the player's live sessions; undefined for any other session. */
  readonly realityCheck: (userId: string, sessionId: string) => Effect.Effect<RealityCheckSession | undefined>
  /**
   * Records the database's `now()` as that session's "Continue playing" and announces it to the
   * player's pages (their other tabs close the reminder); undefined as above.
   */
  readonly acknowledgeRealityCheck: (
    userId: string,
    sessionId: string,
  ) => Effect.Effect<RealityCheckSession | undefined>
}

type SelfExclusion = typeof SelfExclusionSchema.Type

type Limits = Record<LimitPeriod, bigint | null>

const noLimits = (): Limits => ({ daily: null, weekly: null, monthly: null })

const isPeriod = (p: string | null): p is SelfExclusionPeriod =>
  p !== null && (selfExclusionPeriods as ReadonlyArray<string>).includes(p)

/** End of the active exclusion in epoch ms: undefined = none active, null = permanent. */
export const activeExclusionEnd = (row: ExclusionRow): number | null | undefined => {
  if (row.kind === "indefinite") return null
  if (row.until !== null && row.until.getTime() > row.now.getTime()) return row.until.getTime()
  return undefined
}

/**
 * The active exclusion as the contract shows it. An exclusion set outside this service (support,
 * older data) may carry no period: permanent when it has no end, else the shortest listed period
 * that covers the time left.
 */
const exclusionView = (row: ExclusionRow): SelfExclusion | null => {
  const end = activeExclusionEnd(row)
  if (end === undefined) return null
  if (end === null) return { period: isPeriod(row.period) ? row.period : "permanent", until: null }
  const until = new Date(end).toISOString()
  if (isPeriod(row.period)) return { period: row.period, until }
  const left = end - row.now.getTime()
  const covering = selfExclusionPeriods.find((p) => {
    const days = SelfExclusionPeriods[p].days
    return days !== null && days * 86_400_000 >= left
  })
  return { period: covering ?? "permanent", until }
}

const cents = (text: string): bigint => BigInt(text)

const realityCheckView = (row: RealityCheckRow | undefined): RealityCheckSession | undefined =>
  row === undefined
    ? undefined
    : {
        signedInAt: row.signedInAt.toISOString(),
        acknowledgedAt: row.acknowledgedAt === null ? null : row.acknowledgedAt.toISOString(),
        now: row.now.toISOString(),
      }

const make = Effect.gen(function* () {
  const repo = yield* ResponsibleGamingRepo
  const totals = yield* DepositTotals
  const sessions = yield* Sessions
  const events = yield* PlayerEvents

  /** Applies due changes, then reads limits, pending changes, reality check and exclusion. */
  const readState = (userId: string) =>
    Effect.gen(function* () {
      yield* repo.applyDueChanges(userId)
      const current = noLimits()
      for (const row of yield* repo.limits(userId)) current[row.period] = cents(row.amount)
      const pending: Partial<Record<LimitPeriod, { amount: bigint | null; effectiveAt: Date }>> = {}
      for (const row of yield* repo.pendingChanges(userId)) {
        pending[row.period] = {
          amount: row.amount === null ? null : cents(row.amount),
          effectiveAt: row.effectiveAt,
        }
      }
      const realityCheck = yield* repo.realityCheck(userId)
      const exclusion = yield* repo.exclusion(userId, false)
      return { current, pending, realityCheck, exclusion }
    })

  const view = (userId: string) =>
    Effect.gen(function* () {
      const state = yield* repo.transaction(readState(userId)).pipe(Effect.orDie)
      const used = yield* totals.deposited(userId)
      const limit = (period: LimitPeriod) => {
        const amount = state.current[period]
        const pending = state.pending[period]
        const remaining = remainingUnder(amount, used[period])
        return {
          amount: amount === null ? null : amount.toString(),
          pending:
            pending === undefined
              ? null
              : {
                  amount: pending.amount === null ? null : pending.amount.toString(),
                  effectiveAt: pending.effectiveAt.toISOString(),
                },
          used: used[period].toString(),
          remaining: remaining === null ? null : remaining.toString(),
        }
      }
      const remainingDeposit = tightest(limitPeriods.map((p) => remainingUnder(state.current[p], used[p])))
      const minutes = state.realityCheck
      return {
        currency: "EUR",
        depositLimits: { daily: limit("daily"), weekly: limit("weekly"), monthly: limit("monthly") },
        remainingDeposit: remainingDeposit === null ? null : remainingDeposit.toString(),
        realityCheckMinutes: realityCheckIntervals.find((m) => m === minutes) ?? null,
        selfExclusion: state.exclusion === undefined ? null : exclusionView(state.exclusion),
      } satisfies ResponsibleGamingView
    })

  const get = Effect.fn("ResponsibleGaming.get")(function* (userId: string) {
    return yield* view(userId)
  })

  const update = Effect.fn("ResponsibleGaming.update")(function* (
    userId: string,
    payload: UpdateResponsibleGamingPayload,
  ) {
    const requested: Partial<Limits> = {}
    for (const period of limitPeriods) {
      const value = payload.depositLimits?.[period]
      if (value === undefined) continue
      const amount = value === null ? null : cents(value)
      if (amount !== null && !isDepositLimitInBounds(amount)) {
        return yield* new ValidationFailed({
          field: `depositLimits.${period}`,
          message:
            amount < DepositLimitBounds.min ? ProfileMessages.limitTooSmall : ProfileMessages.limitTooLarge,
        })
      }
      requested[period] = amount
    }
    yield* repo
      .transaction(
        Effect.gen(function* () {
          yield* repo.lockPlayer(userId)
          const state = yield* readState(userId)
          // The limits as they will stand once every change (requested or already pending) applies.
          const target = noLimits()
          for (const period of limitPeriods) {
            const asked = requested[period]
            const pending = state.pending[period]
            target[period] =
              asked !== undefined ? asked : pending !== undefined ? pending.amount : state.current[period]
          }
          const disorder = limitOrderProblem(target)
          if (disorder !== undefined) {
            return yield* new ValidationFailed({
              field: `depositLimits.${disorder.lower}`,
              message: ProfileMessages.limitOrder(disorder.lower, disorder.higher),
            })
          }
          const nowMs = (yield* repo.now()).getTime()
          for (const period of limitPeriods) {
            const asked = requested[period]
            if (asked === undefined) continue
            const current = state.current[period]
            if (asked === current) {
              // Asking for what already applies cancels a pending raise or removal.
              yield* repo.cancelPendingChange(userId, period)
            } else if (limitChangeEffectiveAt(current, asked, nowMs) <= nowMs) {
              yield* repo.setLimitNow(userId, period, asked)
            } else {
              yield* repo.setPendingChange(userId, period, asked, LIMIT_INCREASE_DELAY_MS)
            }
          }
          if (payload.realityCheckMinutes !== undefined) {
            yield* repo.setRealityCheck(userId, payload.realityCheckMinutes)
          }
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
    return yield* view(userId)
  })

  const remainingDeposit = Effect.fn("ResponsibleGaming.remainingDeposit")(function* (userId: string) {
    const state = yield* repo.transaction(readState(userId)).pipe(Effect.orDie)
    const used = yield* totals.deposited(userId)
    return tightest(limitPeriods.map((p) => remainingUnder(state.current[p], used[p])))
  })

  const selfExclude = Effect.fn("ResponsibleGaming.selfExclude")(function* (
    userId: string,
    period: SelfExclusionPeriod,
  ) {
    return yield* repo
      .transaction(
        Effect.gen(function* () {
          const row = yield* repo.exclusion(userId, true)
          if (row === undefined) return yield* Effect.die(new Error(`user ${userId} does not exist`))
          const nowMs = row.now.getTime()
          const currentEnd = activeExclusionEnd(row)
          const newEnd = exclusionEnd(period, nowMs)
          if (!extendsExclusion(currentEnd, newEnd)) {
            return yield* new ExclusionNotShortened({
              message: ProfileMessages.exclusionNotShortened,
              until:
                currentEnd === null || currentEnd === undefined ? null : new Date(currentEnd).toISOString(),
            })
          }
          const until = newEnd === null ? null : new Date(newEnd)
          yield* repo.setExclusion(userId, {
            period,
            // 'indefinite' is what sign-in and session checks read as "no end".
            kind: newEnd === null ? "indefinite" : SelfExclusionPeriods[period].kind,
            startsAt: row.now,
            until,
          })
          yield* sessions.revokeAllForUser(userId)
          return { period, until: until === null ? null : until.toISOString() } satisfies SelfExclusion
        }),
      )
      .pipe(Effect.catchTag("SqlError", Effect.die))
  })

  const currentExclusion = Effect.fn("ResponsibleGaming.currentExclusion")(function* (userId: string) {
    const row = yield* repo.exclusion(userId, false).pipe(Effect.orDie)
    return row === undefined ? null : exclusionView(row)
  })

  const realityCheck = Effect.fn("ResponsibleGaming.realityCheck")(function* (
    userId: string,
    sessionId: string,
  ) {
    return realityCheckView(yield* repo.realityCheckSession(userId, sessionId).pipe(Effect.orDie))
  })

  const acknowledgeRealityCheck = Effect.fn("ResponsibleGaming.acknowledgeRealityCheck")(function* (
    userId: string,
    sessionId: string,
  ) {
    const view = realityCheckView(yield* repo.acknowledgeRealityCheck(userId, sessionId).pipe(Effect.orDie))
    if (view !== undefined && view.acknowledgedAt !== null) {
      yield* events.publish(userId, { type: "realityCheck", acknowledgedAt: view.acknowledgedAt })
    }
    return view
  })

  return {
    get,
    update,
    remainingDeposit,
    selfExclude,
    currentExclusion,
    realityCheck,
    acknowledgeRealityCheck,
  } satisfies ResponsibleGamingShape
})

export class ResponsibleGaming extends Context.Service<ResponsibleGaming, ResponsibleGamingShape>()(
  "casino/server/ResponsibleGaming",
) {
  /** Needs SqlClient, Sessions, DepositTotals and PlayerEvents. */
  static readonly layer = Layer.effect(ResponsibleGaming, make).pipe(
    Layer.provide(ResponsibleGamingRepo.layer),
  )
}
