/**
 * The deposits tab of the profile area (`/profile/deposits`): the player's deposits in a
 * date range — `GET …/profile/fiat/deposit?from&to`, calendar days in UTC, both inclusive, as the
 * server reads them — by default the last 30 days (today and the 29 before it, the server's own
 * default). Each deposit shows its status, amount, method and provider, and time (the view).
 *
 * The range is edited freely (FROM / TO) and applied by SHOW; a range that is not two real days in
 * order is refused here with a message and nothing is asked. A failed load says so and offers RETRY;
 * a call answered 401 ends the tab (the area has the shell re-check the session).
 *
 * While the list shows, the server's push of a deposit's new status (completed, declined, expired by
 * the sweeper) reads the range again, so a row never stays "Started" on an open tab.
 *
 * Part of the money flows' chunk (machines/wallet/flows.ts): the profile area loads it from there when
 * the tab opens, so the wallet client stays in that one download.
 */
import { Effect } from "effect"
import { assign, fromCallback, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { walletClient } from "../../services/clients/wallet.ts"
import { Unauthenticated } from "../../services/errors.ts"
import { subscribePlayerEvents } from "../../services/player-events.ts"
import type { FiatHistory, PlayerEvent } from "../../services/wallet-service.ts"
import type { TabOutput } from "../profile/support.ts"

export const DepositHistoryMessages = {
  badDates: "Enter both dates as yyyy-mm-dd.",
  fromAfterTo: "The start date must be on or before the end date.",
} as const

/** The default range's length in days, today included (the server's default window). */
export const DEFAULT_RANGE_DAYS = 30

const DAY_MS = 24 * 60 * 60 * 1000

/** yyyy-mm-dd → UTC midnight in ms, or null for text that is not a real day (2025-02-30). */
export const dayValue = (text: string): number | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (match === null) return null
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const value = Date.UTC(y, m - 1, d)
  const date = new Date(value)
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? value : null
}

/** The UTC calendar day of `date` (the server's days are UTC). */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10)

/** The default range ending on `today` (yyyy-mm-dd): the last 30 days, today included. */
export const defaultRange = (today: string): { readonly from: string; readonly to: string } => {
  const end = dayValue(today) ?? Date.now()
  return {
    from: utcDay(new Date(end - (DEFAULT_RANGE_DAYS - 1) * DAY_MS)),
    to: utcDay(new Date(end)),
  }
}

/** Why a range cannot be shown, or null when it can. */
export const rangeProblem = (from: string, to: string): string | null => {
  const start = dayValue(from)
  const end = dayValue(to)
  if (start === null || end === null) return DepositHistoryMessages.badDates
  return start > end ? DepositHistoryMessages.fromAfterTo : null
}

export interface DepositHistoryInput {
  /** Today as yyyy-mm-dd (UTC): the default range ends on it. */
  readonly today: string
}

export interface DepositHistoryContext {
  /** The range as typed (the date inputs). */
  readonly from: string
  readonly to: string
  /** The range the list shows (the last one asked for). */
  readonly shown: { readonly from: string; readonly to: string }
  readonly deposits: FiatHistory
  /** Why the typed range was refused; null otherwise. */
  readonly rangeError: string | null
}

export type DepositHistoryEvent =
  | { readonly type: "FROM"; readonly value: string }
  | { readonly type: "TO"; readonly value: string }
  | { readonly type: "SHOW" }
  | { readonly type: "RETRY" }
  /** A push event from the server (services/player-events.ts). */
  | { readonly type: "PUSH"; readonly event: PlayerEvent }

export const depositHistoryMachine = setup({
  types: {
    input: {} as DepositHistoryInput,
    context: {} as DepositHistoryContext,
    events: {} as DepositHistoryEvent,
    output: {} as TabOutput,
  },
  actors: {
    load: fromEffect((range: { readonly from: string; readonly to: string }) =>
      Effect.gen(function* () {
        return yield* walletClient.fiatHistory({ params: { type: "deposit" }, query: range })
      }),
    ),
    pushEvents: fromCallback<DepositHistoryEvent>(({ sendBack }) =>
      subscribePlayerEvents((event) => sendBack({ type: "PUSH", event })),
    ),
  },
  guards: {
    /** A deposit of the player changed status: the list is read again. */
    isDepositPush: (_, params: { event: PlayerEvent }) => params.event.type === "deposit",
    isSessionGone: (_, params: { error: unknown }) => params.error instanceof Unauthenticated,
    rangeIsValid: ({ context }) => rangeProblem(context.from, context.to) === null,
  },
  actions: {
    setFrom: assign((_, params: { value: string }) => ({ from: params.value, rangeError: null })),
    setTo: assign((_, params: { value: string }) => ({ to: params.value, rangeError: null })),
    useRange: assign(({ context }) => ({ shown: { from: context.from, to: context.to }, rangeError: null })),
    refuseRange: assign(({ context }) => ({ rangeError: rangeProblem(context.from, context.to) })),
    useDeposits: assign((_, params: { deposits: FiatHistory }) => ({ deposits: params.deposits })),
  },
}).createMachine({
  id: "depositHistory",
  context: ({ input }) => {
    const range = defaultRange(input.today)
    return { ...range, shown: range, deposits: [], rangeError: null }
  },
  initial: "loading",
  output: (): TabOutput => ({ type: "sessionEnded" }),
  on: {
    FROM: { actions: { type: "setFrom", params: ({ event }) => ({ value: event.value }) } },
    TO: { actions: { type: "setTo", params: ({ event }) => ({ value: event.value }) } },
  },
  states: {
    loading: {
      invoke: {
        id: "load",
        src: "load",
        input: ({ context }) => context.shown,
        onDone: {
          target: "ready",
          actions: { type: "useDeposits", params: ({ event }) => ({ deposits: event.output }) },
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          { target: "loadFailed" },
        ],
      },
    },
    /** "Your deposits could not be loaded." with Try again (the same range). */
    loadFailed: {
      on: {
        RETRY: "loading",
        SHOW: [{ guard: "rangeIsValid", target: "loading", actions: "useRange" }, { actions: "refuseRange" }],
      },
    },
    ready: {
      // Without the stream the list is still read on every SHOW.
      invoke: { id: "pushEvents", src: "pushEvents", onError: {} },
      on: {
        PUSH: {
          guard: { type: "isDepositPush", params: ({ event }) => ({ event: event.event }) },
          target: "loading",
        },
        SHOW: [{ guard: "rangeIsValid", target: "loading", actions: "useRange" }, { actions: "refuseRange" }],
      },
    },
    sessionEnded: { type: "final" },
  },
})
