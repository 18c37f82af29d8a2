/**
 * The reality check (beyond the spec: a UKGC/MGA duty): while signed in with an interval
 * set, every N minutes of the session a reminder says how long the player has been signed in, to
 * continue or to sign out. The session machine (auth) runs it while authenticated; it reads the
 * interval, the session's start and the session's last answer (and again on REFRESH, after the
 * settings changed) and keeps the rhythm from the sign-in.
 *
 * A reminder is owed until it is answered, and the answer is kept on the server: "Continue
 * playing" records the server's clock on the session (`acknowledgeRealityCheck`). On load, a
 * reminder that came due after the last answer (and after the sign-in) shows at once — a reload or
 * a second tab cannot skip it (`owedReminderAt`, services/responsible-gaming.ts).
 *
 * Clocks: the server's moments are placed on this browser's clock by the answer that carried them
 * (its `now` is the browser's now when it arrived), so a browser clock that is off does not move a
 * reminder. The timer is an `after` whose delay comes from the context; the current time arrives
 * with the settings, with CONTINUE and with the server's answer to it.
 */
import { Effect } from "effect"
import { assign, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { profileClient } from "../../services/clients/profile.ts"
import type { RealityCheckSession } from "../../services/profile-service.ts"
import { isReminderOwed, owedReminderAt } from "../../services/responsible-gaming.ts"

/**
 * What the session needs to know, in epoch ms of this browser's clock: the interval (null: off),
 * when this session began, and when it last answered a reminder (absent: never).
 */
export interface RealityCheckSettings {
  readonly minutes: number | null
  /** The current session's sign-in. */
  readonly signedInAt: number
  /** Its last "Continue playing", as the server recorded it; absent when it has answered none. */
  readonly acknowledgedAt?: number
  /** When the settings were read. */
  readonly now: number
}

/** The server's answer to "Continue playing", on this browser's clock (epoch ms). */
export interface RealityCheckAcknowledgement {
  readonly acknowledgedAt: number
  readonly now: number
}

export interface RealityCheckContext {
  readonly intervalMs: number | null
  readonly signedInAt: number
  /** The last answer (the server's, or the local moment of CONTINUE until it replies); null: none. */
  readonly acknowledgedAt: number | null
  /** When the next reminder is due, and from when it was scheduled (epoch ms). */
  readonly nextAt: number
  readonly scheduledAt: number
  /** How long the player had been signed in when the reminder showed. */
  readonly elapsedMs: number
}

export type RealityCheckEvent =
  | { readonly type: "CONTINUE"; readonly at: number }
  | { readonly type: "SIGN_OUT" }
  | { readonly type: "REFRESH" }
  /** A page of this player answered a reminder (the server's push): read this session's state again. */
  | { readonly type: "ANSWERED_ELSEWHERE" }

export type RealityCheckOutput = { readonly type: "signOut" }

/** The server's moments on this browser's clock: the answer's `now` is `received` here. */
const onThisClock = (answer: RealityCheckSession, received: number) => {
  const offset = received - Date.parse(answer.now)
  return (instant: string): number => Date.parse(instant) + offset
}

export const loadRealityCheckSettings = Effect.gen(function* () {
  const [settings, session] = yield* Effect.all(
    [profileClient.getResponsibleGaming(), profileClient.getRealityCheck()],
    { concurrency: "unbounded" },
  )
  const now = Date.now()
  const local = onThisClock(session, now)
  const loaded: RealityCheckSettings = {
    minutes: settings.realityCheckMinutes,
    signedInAt: local(session.signedInAt),
    ...(session.acknowledgedAt === null ? {} : { acknowledgedAt: local(session.acknowledgedAt) }),
    now,
  }
  return loaded
})

export const acknowledgeRealityCheck = Effect.gen(function* () {
  const answer = yield* profileClient.acknowledgeRealityCheck()
  const now = Date.now()
  const local = onThisClock(answer, now)
  const acknowledged: RealityCheckAcknowledgement = {
    acknowledgedAt: answer.acknowledgedAt === null ? now : local(answer.acknowledgedAt),
    now,
  }
  return acknowledged
})

/** The owed reminder after an answer at `acknowledgedAt`, scheduled at `now`. */
const schedule = (intervalMs: number, signedInAt: number, acknowledgedAt: number | null, now: number) => ({
  acknowledgedAt,
  nextAt: owedReminderAt(signedInAt, intervalMs, acknowledgedAt),
  scheduledAt: now,
})

export const realityCheckMachine = setup({
  types: {
    context: {} as RealityCheckContext,
    events: {} as RealityCheckEvent,
    output: {} as RealityCheckOutput,
  },
  actors: {
    loadSettings: fromEffect(() => loadRealityCheckSettings),
    acknowledge: fromEffect(() => acknowledgeRealityCheck),
  },
  delays: {
    untilReminder: ({ context }) => Math.max(0, context.nextAt - context.scheduledAt),
  },
  guards: {
    hasInterval: (_, params: { settings: RealityCheckSettings }) => params.settings.minutes !== null,
    /**
     * A reminder came due after the last answer (and after the sign-in): it shows at once, saying how
     * long the player has been signed in now — straight from the load, not through a zero-delay
     * timer in `waiting`, so nothing (the game page's frame) runs on in between.
     */
    isReminderOwed: (_, params: { settings: RealityCheckSettings }) => {
      const { minutes, signedInAt, acknowledgedAt, now } = params.settings
      return minutes !== null && isReminderOwed(signedInAt, minutes * 60_000, acknowledgedAt ?? null, now)
    },
  },
  actions: {
    useSettings: assign((_, params: { settings: RealityCheckSettings }) => {
      const { minutes, signedInAt, now } = params.settings
      const acknowledgedAt = params.settings.acknowledgedAt ?? null
      const intervalMs = minutes === null ? null : minutes * 60_000
      return {
        intervalMs,
        signedInAt,
        ...(intervalMs === null
          ? { acknowledgedAt, nextAt: now, scheduledAt: now }
          : schedule(intervalMs, signedInAt, acknowledgedAt, now)),
      }
    }),
    /** The reminder shows at `at` (its due moment, or the load that found it owed). */
    remind: assign(({ context }, params: { at: number }) => ({ elapsedMs: params.at - context.signedInAt })),
    /** "Continue playing" at `at`: the next reminder, until the server's answer replaces it. */
    reschedule: assign(({ context }, params: { at: number }) =>
      context.intervalMs === null
        ? {}
        : schedule(context.intervalMs, context.signedInAt, params.at, params.at),
    ),
    /** The server recorded the answer: the next reminder from its moment. */
    useAcknowledgement: assign(({ context }, params: { answer: RealityCheckAcknowledgement }) =>
      context.intervalMs === null
        ? {}
        : schedule(context.intervalMs, context.signedInAt, params.answer.acknowledgedAt, params.answer.now),
    ),
  },
}).createMachine({
  id: "realityCheck",
  context: { intervalMs: null, signedInAt: 0, acknowledgedAt: null, nextAt: 0, scheduledAt: 0, elapsedMs: 0 },
  initial: "loading",
  output: { type: "signOut" },
  states: {
    loading: {
      invoke: {
        id: "loadSettings",
        src: "loadSettings",
        onDone: [
          {
            guard: { type: "isReminderOwed", params: ({ event }) => ({ settings: event.output }) },
            target: "reminding",
            actions: [
              { type: "useSettings", params: ({ event }) => ({ settings: event.output }) },
              { type: "remind", params: ({ event }) => ({ at: event.output.now }) },
            ],
          },
          {
            guard: { type: "hasInterval", params: ({ event }) => ({ settings: event.output }) },
            target: "waiting",
            actions: { type: "useSettings", params: ({ event }) => ({ settings: event.output }) },
          },
          {
            target: "off",
            actions: { type: "useSettings", params: ({ event }) => ({ settings: event.output }) },
          },
        ],
        // No reminders rather than a broken session: the next REFRESH tries again.
        onError: "off",
      },
    },
    off: {
      on: { REFRESH: "loading" },
    },
    waiting: {
      after: {
        untilReminder: {
          target: "reminding",
          actions: { type: "remind", params: ({ context }) => ({ at: context.nextAt }) },
        },
      },
      on: { REFRESH: "loading" },
    },
    /**
     * The reminder shows until the player answers it here, or until the server says this session
     * answered it elsewhere (another tab): a push makes it read the session's state again, and the
     * reminder stays up meanwhile and whenever the answer was not this session's.
     */
    reminding: {
      initial: "shown",
      on: {
        CONTINUE: {
          target: "continuing",
          actions: { type: "reschedule", params: ({ event }) => ({ at: event.at }) },
        },
        SIGN_OUT: "signOut",
      },
      states: {
        shown: {
          on: { ANSWERED_ELSEWHERE: "rechecking" },
        },
        rechecking: {
          invoke: {
            id: "recheckSettings",
            src: "loadSettings",
            onDone: [
              {
                guard: { type: "isReminderOwed", params: ({ event }) => ({ settings: event.output }) },
                target: "shown",
              },
              {
                guard: { type: "hasInterval", params: ({ event }) => ({ settings: event.output }) },
                target: "#realityCheck.waiting",
                actions: { type: "useSettings", params: ({ event }) => ({ settings: event.output }) },
              },
              {
                target: "#realityCheck.off",
                actions: { type: "useSettings", params: ({ event }) => ({ settings: event.output }) },
              },
            ],
            // Nothing known: the reminder stays, as the duty asks.
            onError: "shown",
          },
        },
      },
    },
    /**
     * Answered: play goes on at once with the next reminder scheduled from the moment of the
     * answer, while the server records it. The timer runs here too, so a slow call holds nothing up.
     */
    continuing: {
      initial: "saving",
      after: {
        untilReminder: {
          target: "reminding",
          actions: { type: "remind", params: ({ context }) => ({ at: context.nextAt }) },
        },
      },
      on: { REFRESH: "loading" },
      states: {
        saving: {
          invoke: {
            id: "acknowledge",
            src: "acknowledge",
            // Scheduled again from the server's moment.
            onDone: {
              target: "#realityCheck.waiting",
              actions: { type: "useAcknowledgement", params: ({ event }) => ({ answer: event.output }) },
            },
            // Not recorded (offline, the server down): play goes on with the local schedule, whose
            // timer keeps running. A reload before the next reminder shows this one again, as the
            // server still owes it — the safe side of the duty (docs/decisions.md).
            onError: "unsaved",
          },
        },
        unsaved: {},
      },
    },
    signOut: { type: "final" },
  },
})
