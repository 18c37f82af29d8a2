/**
 * Properties of the reality check's rule (an unanswered reminder survives a reload), over
 * generated sign-ins, intervals, answers and moments:
 *
 *   Reminders come due at signedInAt + k × interval (k ≥ 1). An answer ("Continue playing") at `a`
 *   answers every reminder due at or before `a`. The owed reminder is the first due moment strictly
 *   after max(signedInAt, a) (`owedReminderAt`); it is shown at once when it is not after now
 *   (`isReminderOwed`), otherwise it is the next one to wait for.
 *
 * Checked against a brute-force reading of that sentence, and through the machine's pure
 * `transition()`: a load shows the reminder at once exactly when one is owed, and an answer
 * schedules the next one strictly after it.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  type AnyStateMachine,
  type EventObject,
  initialTransition,
  type SnapshotFrom,
  transition,
} from "xstate"
import {
  type RealityCheckSettings,
  realityCheckMachine,
} from "../../machines/profile/realityCheck.machine.ts"
import { realityCheckIntervals } from "../../services/profile-rules.ts"
import { isReminderOwed, nextReminderAt, owedReminderAt } from "../../services/responsible-gaming.ts"

const runs = { numRuns: 400 }
const MINUTE = 60_000
const DAY = 86_400_000

const signedInAt = fc.integer({
  min: Date.parse("2020-01-01T00:00:00Z"),
  max: Date.parse("2030-01-01T00:00:00Z"),
})
const interval = fc.constantFrom(...realityCheckIntervals).map((minutes) => minutes * MINUTE)
/** Up to two days into the session, boundaries (exact multiples of 15 minutes) included. */
const offset = fc.oneof(
  fc.integer({ min: 0, max: 2 * DAY }),
  fc.integer({ min: 0, max: 192 }).map((k) => k * 15 * MINUTE),
  fc.integer({ min: 1, max: 192 }).map((k) => k * 15 * MINUTE - 1),
)
/** An answer somewhere in the session, or none yet. */
const answer = fc.option(offset, { nil: null })

/** The reminders due in (from, to], by counting them one by one. */
const dueBetween = (s: number, i: number, from: number, to: number): Array<number> => {
  const moments: Array<number> = []
  for (let at = s + i; at <= to; at += i) if (at > from) moments.push(at)
  return moments
}

describe("the owed reminder (services/responsible-gaming.ts)", () => {
  it("is the first multiple of the interval after max(sign-in, answer)", () => {
    fc.assert(
      fc.property(signedInAt, interval, answer, (s, i, answeredAfter) => {
        const a = answeredAfter === null ? null : s + answeredAfter
        const owed = owedReminderAt(s, i, a)
        const from = Math.max(s, a ?? s)
        expect((owed - s) % i).toBe(0)
        expect(owed - s).toBeGreaterThanOrEqual(i)
        expect(owed).toBeGreaterThan(from)
        expect(owed - i <= from).toBe(true)
        // The same as the schedule counted from the sign-in, read at the answer.
        expect(owed).toBe(nextReminderAt(s, i, from))
      }),
      runs,
    )
  })

  it("without an answer is the first reminder of the session; an answer before it changes nothing", () => {
    fc.assert(
      fc.property(signedInAt, interval, fc.integer({ min: 0, max: DAY }), (s, i, before) => {
        expect(owedReminderAt(s, i, null)).toBe(s + i)
        expect(owedReminderAt(s, i, s - before)).toBe(s + i)
        expect(owedReminderAt(s, i, s + (before % i))).toBe(s + i)
      }),
      runs,
    )
  })

  it("is owed now exactly when a reminder came due after the last answer (and after the sign-in)", () => {
    fc.assert(
      fc.property(signedInAt, interval, answer, offset, (s, i, answeredAfter, nowAfter) => {
        const a = answeredAfter === null ? null : s + Math.min(answeredAfter, nowAfter)
        const now = s + nowAfter
        const unanswered = dueBetween(s, i, Math.max(s, a ?? s), now)
        expect(isReminderOwed(s, i, a, now)).toBe(unanswered.length > 0)
        // And it is the earliest of those: a reload shows the one that was skipped, not a later one.
        if (unanswered.length > 0) expect(owedReminderAt(s, i, a)).toBe(unanswered[0])
      }),
      runs,
    )
  })

  it("never comes earlier after a later answer, and an answer at a reminder's moment answers it", () => {
    fc.assert(
      fc.property(signedInAt, interval, offset, offset, (s, i, x, y) => {
        const [early, late] = x <= y ? [x, y] : [y, x]
        expect(owedReminderAt(s, i, s + late)).toBeGreaterThanOrEqual(owedReminderAt(s, i, s + early))
        const reminder = s + Math.max(1, Math.ceil(late / i)) * i
        expect(owedReminderAt(s, i, reminder)).toBe(reminder + i)
      }),
      runs,
    )
  })
})

describe("the machine keeps the rule (pure transitions)", () => {
  type Snapshot = SnapshotFrom<typeof realityCheckMachine>
  /** Any event, invoke outcomes included (the machine's own event type lists the player's only). */
  const step = (snapshot: Snapshot, event: EventObject & Readonly<Record<string, unknown>>): Snapshot => {
    const machine: AnyStateMachine = realityCheckMachine
    return transition(machine, snapshot, event)[0] as Snapshot
  }
  const loaded = (settings: RealityCheckSettings) =>
    step(initialTransition(realityCheckMachine)[0], {
      type: "xstate.done.actor.loadSettings",
      output: settings,
    })

  it("a load shows the reminder at once exactly when one is owed, else waits for it", () => {
    fc.assert(
      fc.property(signedInAt, interval, answer, offset, (s, i, answeredAfter, nowAfter) => {
        const a = answeredAfter === null ? null : s + Math.min(answeredAfter, nowAfter)
        const now = s + nowAfter
        const snapshot = loaded({
          minutes: i / MINUTE,
          signedInAt: s,
          ...(a === null ? {} : { acknowledgedAt: a }),
          now,
        })
        if (isReminderOwed(s, i, a, now)) {
          expect(snapshot.value).toEqual({ reminding: "shown" })
          expect(snapshot.context.elapsedMs).toBe(now - s)
        } else {
          expect(snapshot.value).toBe("waiting")
          expect(snapshot.context.nextAt).toBe(owedReminderAt(s, i, a))
          expect(snapshot.context.nextAt - snapshot.context.scheduledAt).toBeGreaterThan(0)
        }
      }),
      runs,
    )
  })

  it("an answer recorded by the server schedules the next reminder strictly after it", () => {
    fc.assert(
      fc.property(
        signedInAt,
        interval,
        fc.integer({ min: 0, max: DAY }),
        fc.integer({ min: 0, max: 5_000 }),
        (s, i, continuedAfter, latency) => {
          // Owed at load (never answered, one interval in), then answered.
          let snapshot = loaded({ minutes: i / MINUTE, signedInAt: s, now: s + i })
          expect(snapshot.value).toEqual({ reminding: "shown" })
          const at = s + i + continuedAfter
          snapshot = step(snapshot, { type: "CONTINUE", at })
          expect(snapshot.value).toEqual({ continuing: "saving" })
          expect(snapshot.context.nextAt).toBeGreaterThan(at)
          const recorded = at + latency
          snapshot = step(snapshot, {
            type: "xstate.done.actor.acknowledge",
            output: { acknowledgedAt: recorded, now: recorded },
          })
          expect(snapshot.value).toBe("waiting")
          expect(snapshot.context.acknowledgedAt).toBe(recorded)
          expect(snapshot.context.nextAt).toBe(owedReminderAt(s, i, recorded))
          expect(snapshot.context.nextAt).toBeGreaterThan(recorded)
          expect(snapshot.context.nextAt - snapshot.context.scheduledAt).toBeLessThanOrEqual(i)
        },
      ),
      runs,
    )
  })
})
