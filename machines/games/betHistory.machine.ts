/**
 * The bets tab of the profile area (`/profile/bets`): the player's real-money rounds —
 * `GET …/history/bet?from&to&size&page&provider`, days in UTC, both inclusive, 20 a page, newest
 * first — with a date range (the last 30 days first), a provider filter (the brands the player has
 * rounds with, `GET …/history/bet/provider`) and paging. Each round shows its game, brand, bet, win,
 * status and time (the view).
 *
 * The range is edited freely (FROM / TO) and applied by SHOW (a range that is not two real days in
 * order is refused here); a provider applies at once; both start again at the first page. A failed
 * load says so and offers RETRY; a failed provider list leaves the filter at "All providers"; a call
 * answered 401 ends the tab (the area has the shell re-check the session).
 */
import { assign, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { playerGamesClient } from "../../services/clients/playerGames.ts"
import { Unauthenticated } from "../../services/errors.ts"
import type { BetHistory, BetHistoryQuery } from "../../services/game-service.ts"
import type { TabOutput } from "../profile/support.ts"

/** Spec-free decision (docs/decisions.md): 20 rounds a page. */
export const BET_PAGE_SIZE = 20

export const BetHistoryMessages = {
  badDates: "Enter both dates as yyyy-mm-dd.",
  fromAfterTo: "The start date must be on or before the end date.",
  loadFailed: "Your bets could not be loaded.",
} as const

const DAY_MS = 24 * 60 * 60 * 1000
const RANGE_DAYS = 30

/** yyyy-mm-dd → UTC midnight in ms, or null for text that is not a real day (2025-02-30). */
export const dayValue = (text: string): number | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (match === null) return null
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const value = Date.UTC(y, m - 1, d)
  const date = new Date(value)
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? value : null
}

/** The last 30 days ending on `today` (yyyy-mm-dd), today included. */
export const defaultBetRange = (today: string): { readonly from: string; readonly to: string } => {
  const end = dayValue(today) ?? Date.now()
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  return { from: day(end - (RANGE_DAYS - 1) * DAY_MS), to: day(end) }
}

export const betRangeProblem = (from: string, to: string): string | null => {
  const start = dayValue(from)
  const end = dayValue(to)
  if (start === null || end === null) return BetHistoryMessages.badDates
  return start > end ? BetHistoryMessages.fromAfterTo : null
}

export interface BetHistoryInput {
  readonly today: string
}

export interface BetQuery {
  readonly from: string
  readonly to: string
  /** "" = every provider. */
  readonly provider: string
  readonly page: number
}

export interface BetHistoryContext {
  readonly from: string
  readonly to: string
  /** What the list shows (the last query asked for). */
  readonly shown: BetQuery
  readonly providers: ReadonlyArray<string>
  readonly history: BetHistory | null
  readonly rangeError: string | null
}

export type BetHistoryEvent =
  | { readonly type: "FROM"; readonly value: string }
  | { readonly type: "TO"; readonly value: string }
  | { readonly type: "SHOW" }
  | { readonly type: "PROVIDER"; readonly provider: string }
  | { readonly type: "PAGE"; readonly page: number }
  | { readonly type: "RETRY" }

/** The query string of a shown query (the contract's codec writes the numbers as text). */
export const queryOf = (q: BetQuery): BetHistoryQuery => ({
  from: q.from,
  to: q.to,
  size: BET_PAGE_SIZE,
  page: q.page,
  ...(q.provider === "" ? {} : { provider: q.provider }),
})

const sessionGone = { guard: "isSessionGone" as const, target: "#betHistory.sessionEnded" }

export const betHistoryMachine = setup({
  types: {
    input: {} as BetHistoryInput,
    context: {} as BetHistoryContext,
    events: {} as BetHistoryEvent,
    output: {} as TabOutput,
  },
  actors: {
    load: fromEffect((query: BetHistoryQuery) => playerGamesClient.betHistory({ query })),
    providers: fromEffect(() => playerGamesClient.betProviders()),
  },
  guards: {
    isSessionGone: ({ event }) => "error" in event && event.error instanceof Unauthenticated,
    rangeIsValid: ({ context }) => betRangeProblem(context.from, context.to) === null,
    isOtherPage: ({ context }, params: { page: number }) =>
      context.history !== null &&
      Number.isInteger(params.page) &&
      params.page >= 0 &&
      params.page < context.history.totalPages &&
      params.page !== context.shown.page,
  },
  actions: {
    setFrom: assign((_, params: { value: string }) => ({ from: params.value, rangeError: null })),
    setTo: assign((_, params: { value: string }) => ({ to: params.value, rangeError: null })),
    useRange: assign(({ context }) => ({
      shown: { ...context.shown, from: context.from, to: context.to, page: 0 },
      rangeError: null,
    })),
    refuseRange: assign(({ context }) => ({ rangeError: betRangeProblem(context.from, context.to) })),
    useProvider: assign(({ context }, params: { provider: string }) => ({
      shown: { ...context.shown, provider: params.provider, page: 0 },
    })),
    usePage: assign(({ context }, params: { page: number }) => ({
      shown: { ...context.shown, page: params.page },
    })),
    useHistory: assign((_, params: { history: BetHistory }) => ({ history: params.history })),
    useProviders: assign((_, params: { providers: ReadonlyArray<string> }) => ({
      providers: params.providers,
    })),
  },
}).createMachine({
  id: "betHistory",
  context: ({ input }) => {
    const range = defaultBetRange(input.today)
    return {
      ...range,
      shown: { ...range, provider: "", page: 0 },
      providers: [],
      history: null,
      rangeError: null,
    }
  },
  output: (): TabOutput => ({ type: "sessionEnded" }),
  // The providers for the filter load beside the list; without them the filter offers "All" only.
  invoke: {
    id: "providers",
    src: "providers",
    onDone: { actions: { type: "useProviders", params: ({ event }) => ({ providers: event.output }) } },
    onError: [sessionGone, {}],
  },
  on: {
    FROM: { actions: { type: "setFrom", params: ({ event }) => ({ value: event.value }) } },
    TO: { actions: { type: "setTo", params: ({ event }) => ({ value: event.value }) } },
  },
  initial: "loading",
  states: {
    loading: {
      invoke: {
        id: "load",
        src: "load",
        input: ({ context }) => queryOf(context.shown),
        onDone: {
          target: "ready",
          actions: { type: "useHistory", params: ({ event }) => ({ history: event.output }) },
        },
        onError: [sessionGone, { target: "loadFailed" }],
      },
    },
    loadFailed: {
      on: {
        RETRY: "loading",
        SHOW: [{ guard: "rangeIsValid", target: "loading", actions: "useRange" }, { actions: "refuseRange" }],
        PROVIDER: {
          target: "loading",
          actions: { type: "useProvider", params: ({ event }) => ({ provider: event.provider }) },
        },
      },
    },
    ready: {
      on: {
        SHOW: [{ guard: "rangeIsValid", target: "loading", actions: "useRange" }, { actions: "refuseRange" }],
        PROVIDER: {
          target: "loading",
          actions: { type: "useProvider", params: ({ event }) => ({ provider: event.provider }) },
        },
        PAGE: {
          guard: { type: "isOtherPage", params: ({ event }) => ({ page: event.page }) },
          target: "loading",
          actions: { type: "usePage", params: ({ event }) => ({ page: event.page }) },
        },
      },
    },
    sessionEnded: { type: "final" },
  },
})
