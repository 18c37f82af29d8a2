/**
 * Responsible gaming in the browser (beyond the spec): deposit limits typed in euros, which
 * self-exclusion periods may be offered, and the reality check's schedule. On top of the shared
 * rules of `profile-rules.ts` (the server applies those); pure, named by the machines, and exercised
 * by tests/property.
 */
import {
  exclusionEnd,
  extendsExclusion,
  type LimitPeriod,
  limitPeriods,
  type SelfExclusionPeriod,
  selfExclusionPeriods,
} from "./profile-rules.ts"
import type { ResponsibleGaming, UpdateResponsibleGamingPayload } from "./profile-service.ts"

export const ResponsibleGamingMessages = {
  limitInvalid: "Enter an amount in euros, e.g. 50 or 49.99 (empty: no limit)",
  saved: "Your limits are saved",
  saveFailed: "Your limits could not be saved. Please try again.",
  loadFailed: "Your limits could not be loaded.",
  nothingChanged: "Change a limit or the reality check first",
  excluded: "You are signed out. Take care — we will be here when your break ends.",
  excludeFailed: "The exclusion could not be set. Please try again or contact support.",
} as const

export const limitPeriodLabel = (period: LimitPeriod): string =>
  period === "daily" ? "Per day" : period === "weekly" ? "Per week" : "Per month"

/** At most 9 digits of euros (a billion euros is no limit anyone needs). */
const EUROS = /^(\d{1,9})(?:[.,](\d{1,2}))?$/

/**
 * A limit as typed: empty is "no limit" (null), otherwise euros with at most two decimals ("50",
 * "49.9", "49,99") in cents; anything else is "invalid".
 */
export const parseEuros = (text: string): bigint | null | "invalid" => {
  const trimmed = text.trim().replace(/^€\s*/, "")
  if (trimmed === "") return null
  const match = EUROS.exec(trimmed)
  if (match === null) return "invalid"
  const [, euros = "0", cents = ""] = match
  return BigInt(euros) * 100n + BigInt(cents.padEnd(2, "0"))
}

/** Cents (a decimal string or bigint) as euros for an input or a label: "1234.50". */
export const formatEuros = (cents: string | bigint): string => {
  const value = typeof cents === "bigint" ? cents : BigInt(cents)
  const whole = value / 100n
  const rest = (value % 100n).toString().padStart(2, "0")
  return `${whole}.${rest}`
}

export type LimitInputs = Readonly<Record<LimitPeriod, string>>

/** The inputs a limits form starts with: each limit in force, empty for none. */
export const limitInputsOf = (settings: ResponsibleGaming): LimitInputs => ({
  daily: settings.depositLimits.daily.amount === null ? "" : formatEuros(settings.depositLimits.daily.amount),
  weekly:
    settings.depositLimits.weekly.amount === null ? "" : formatEuros(settings.depositLimits.weekly.amount),
  monthly:
    settings.depositLimits.monthly.amount === null ? "" : formatEuros(settings.depositLimits.monthly.amount),
})

/** The periods whose typed limit is not an amount. */
export const invalidLimits = (inputs: LimitInputs): ReadonlyArray<LimitPeriod> =>
  limitPeriods.filter((period) => parseEuros(inputs[period]) === "invalid")

const sameLimit = (a: bigint | null, b: string | null): boolean =>
  a === null ? b === null : b !== null && a === BigInt(b)

/**
 * What a save sends: the limits that differ from the one in force (a pending change counts as not
 * yet in force), and the reality-check interval when it changed. `undefined` keys are left out.
 */
export const responsibleGamingPayload = (
  settings: ResponsibleGaming,
  inputs: LimitInputs,
  realityCheckMinutes: ResponsibleGaming["realityCheckMinutes"],
): UpdateResponsibleGamingPayload => {
  const limits: { daily?: string | null; weekly?: string | null; monthly?: string | null } = {}
  for (const period of limitPeriods) {
    const parsed = parseEuros(inputs[period])
    if (parsed === "invalid") continue
    if (!sameLimit(parsed, settings.depositLimits[period].amount))
      limits[period] = parsed === null ? null : parsed.toString()
  }
  return {
    ...(Object.keys(limits).length > 0 ? { depositLimits: limits } : {}),
    ...(realityCheckMinutes !== settings.realityCheckMinutes ? { realityCheckMinutes } : {}),
  }
}

export const isEmptyPayload = (payload: UpdateResponsibleGamingPayload): boolean =>
  payload.depositLimits === undefined && payload.realityCheckMinutes === undefined

// ── Self-exclusion ──────────────────────────────────────────────────────────────────────────
/**
 * The periods the player may choose now: all of them without an active exclusion, otherwise only
 * those that end later than the current one (never offer to shorten an exclusion).
 */
export const offeredExclusionPeriods = (
  current: ResponsibleGaming["selfExclusion"],
  nowMs: number,
): ReadonlyArray<SelfExclusionPeriod> => {
  const currentUntil =
    current === null ? undefined : current.until === null ? null : Date.parse(current.until)
  return selfExclusionPeriods.filter((period) => extendsExclusion(currentUntil, exclusionEnd(period, nowMs)))
}

// ── Reality check ───────────────────────────────────────────────────────────────────────────
/**
 * When the next reminder is due: every `intervalMs` of play counted from the sign-in, so a reload
 * keeps the rhythm. The first moment `signedInAt + k × interval` (k ≥ 1) after `nowMs`.
 */
export const nextReminderAt = (signedInAtMs: number, intervalMs: number, nowMs: number): number => {
  const elapsed = Math.max(0, nowMs - signedInAtMs)
  const k = Math.floor(elapsed / intervalMs) + 1
  return signedInAtMs + k * intervalMs
}

/**
 * The reminder the session owes an answer to (a reload or a second tab must not skip one).
 * Reminders come due at `signedInAt + k × interval` (k ≥ 1); "Continue playing" at moment `a`
 * answers every reminder due at or before `a`. So the first unanswered one is the first such moment
 * strictly after max(signedInAt, acknowledgedAt) — acknowledgedAt null: none answered yet. When it
 * is not after now it is due (shown at once); otherwise it is the next one to wait for.
 */
export const owedReminderAt = (
  signedInAtMs: number,
  intervalMs: number,
  acknowledgedAtMs: number | null,
): number =>
  nextReminderAt(signedInAtMs, intervalMs, Math.max(signedInAtMs, acknowledgedAtMs ?? signedInAtMs))

/** Whether a reminder that came due after the last answer is waiting for one now. */
export const isReminderOwed = (
  signedInAtMs: number,
  intervalMs: number,
  acknowledgedAtMs: number | null,
  nowMs: number,
): boolean => owedReminderAt(signedInAtMs, intervalMs, acknowledgedAtMs) <= nowMs

/** "45 min", "1 h 05 min", "2 h" — how long the player has been signed in. */
export const formatSessionTime = (ms: number): string => {
  const minutes = Math.max(0, Math.floor(ms / 60_000))
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  if (hours === 0) return `${rest} min`
  return rest === 0 ? `${hours} h` : `${hours} h ${String(rest).padStart(2, "0")} min`
}

export const realityCheckLabel = (minutes: number | null): string =>
  minutes === null
    ? "Off"
    : minutes < 60
      ? `Every ${minutes} minutes`
      : `Every ${formatSessionTime(minutes * 60_000)}`
