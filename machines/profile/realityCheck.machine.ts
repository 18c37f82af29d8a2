/**
 * The reality check (issue 8, beyond the spec: a UKGC/MGA duty): while signed in with an interval
 * set, every N minutes of the session a reminder says how long the player has been signed in, to
 * continue or to sign out. The session machine (auth) runs it while authenticated; it reads the
 * interval and the session's start once (and again on REFRESH, after the settings changed) and
 * keeps the rhythm from the sign-in, so a reload does not reset it. The timer is an `after` whose
 * delay comes from the context; the current time arrives with the settings and with CONTINUE.
 */
import { Effect } from "effect"
import { assign, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { profileClient } from "../../services/clients/profile.ts"
import { nextReminderAt } from "../../services/responsible-gaming.ts"

/** What the session needs to know: the interval (null: off) and when this session began. */
export interface RealityCheckSettings {
  readonly minutes: number | null
  /** Epoch ms of the current session's sign-in. */
  readonly signedInAt: number
  /** When the settings were read (epoch ms). */
  readonly now: number
}

export interface RealityCheckContext {
  readonly intervalMs: number | null
  readonly signedInAt: number
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

export type RealityCheckOutput = { readonly type: "signOut" }

export const loadRealityCheckSettings = Effect.gen(function* () {
  const [settings, sessions] = yield* Effect.all(
    [profileClient.getResponsibleGaming(), profileClient.listSessions()],
    { concurrency: "unbounded" },
  )
  const now = Date.now()
  const current = sessions.find((s) => s.current)
  const loaded: RealityCheckSettings = {
    minutes: settings.realityCheckMinutes,
    signedInAt: current === undefined ? now : Date.parse(current.createdAt),
    now,
  }
  return loaded
})

const schedule = (intervalMs: number, signedInAt: number, now: number) => ({
  nextAt: nextReminderAt(signedInAt, intervalMs, now),
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
  },
  delays: {
    untilReminder: ({ context }) => Math.max(0, context.nextAt - context.scheduledAt),
  },
  guards: {
    hasInterval: (_, params: { settings: RealityCheckSettings }) => params.settings.minutes !== null,
  },
  actions: {
    useSettings: assign((_, params: { settings: RealityCheckSettings }) => {
      const { minutes, signedInAt, now } = params.settings
      const intervalMs = minutes === null ? null : minutes * 60_000
      return {
        intervalMs,
        signedInAt,
        ...(intervalMs === null ? { nextAt: now, scheduledAt: now } : schedule(intervalMs, signedInAt, now)),
      }
    }),
    remind: assign(({ context }) => ({ elapsedMs: context.nextAt - context.signedInAt })),
    reschedule: assign(({ context }, params: { at: number }) =>
      context.intervalMs === null ? {} : schedule(context.intervalMs, context.signedInAt, params.at),
    ),
  },
}).createMachine({
  id: "realityCheck",
  context: { intervalMs: null, signedInAt: 0, nextAt: 0, scheduledAt: 0, elapsedMs: 0 },
  initial: "loading",
  output: { type: "signOut" },
  states: {
    loading: {
      invoke: {
        id: "loadSettings",
        src: "loadSettings",
        onDone: [
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
      after: { untilReminder: { target: "reminding", actions: "remind" } },
      on: { REFRESH: "loading" },
    },
    reminding: {
      on: {
        CONTINUE: {
          target: "waiting",
          actions: { type: "reschedule", params: ({ event }) => ({ at: event.at }) },
        },
        SIGN_OUT: "signOut",
      },
    },
    signOut: { type: "final" },
  },
})
