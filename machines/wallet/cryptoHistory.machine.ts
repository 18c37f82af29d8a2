/**
 * The crypto deposits tab of the profile area (`/profile/crypto-deposits`): the player's
 * on-chain deposits in a date range — `GET …/profile/crypto/deposit?from&to`, calendar days in UTC,
 * both inclusive — by default the last 30 days, with each transfer's hash and confirmations. The same
 * shape as the fiat deposits tab (depositHistory.machine.ts: its range rules are reused), plus a copy
 * of a transaction hash with the 2 s "Copied" feedback (spec section 9) of the deposit form.
 *
 * Part of the money flows' chunk (machines/wallet/flows.ts), like the fiat deposits tab.
 */
import { Effect } from "effect"
import { assign, fromPromise, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { cryptoClient } from "../../services/clients/crypto.ts"
import type { CryptoHistory } from "../../services/crypto-service.ts"
import { Unauthenticated } from "../../services/errors.ts"
import { Constants } from "../../services/rules.ts"
import type { TabOutput } from "../profile/support.ts"
import { defaultRange, rangeProblem } from "./depositHistory.machine.ts"

export interface CryptoHistoryInput {
  /** Today as yyyy-mm-dd (UTC): the default range ends on it. */
  readonly today: string
}

export interface CryptoHistoryContext {
  readonly from: string
  readonly to: string
  readonly shown: { readonly from: string; readonly to: string }
  readonly transfers: CryptoHistory
  readonly rangeError: string | null
  /** The hash last asked to be copied (its row shows the feedback). */
  readonly copiedHash: string | null
}

export type CryptoHistoryEvent =
  | { readonly type: "FROM"; readonly value: string }
  | { readonly type: "TO"; readonly value: string }
  | { readonly type: "SHOW" }
  | { readonly type: "RETRY" }
  | { readonly type: "COPY"; readonly txHash: string }

const show = [
  {
    guard: "rangeIsValid" as const,
    target: "#cryptoHistory.open.list.loading",
    actions: "useRange" as const,
  },
  { actions: "refuseRange" as const },
]

export const cryptoHistoryMachine = setup({
  types: {
    input: {} as CryptoHistoryInput,
    context: {} as CryptoHistoryContext,
    events: {} as CryptoHistoryEvent,
    output: {} as TabOutput,
  },
  actors: {
    load: fromEffect((range: { readonly from: string; readonly to: string }) =>
      Effect.gen(function* () {
        return yield* cryptoClient.cryptoHistory({ params: { type: "deposit" }, query: range })
      }),
    ),
    copyText: fromPromise<void, string>(async ({ input }) => {
      await navigator.clipboard.writeText(input)
    }),
  },
  delays: { copyFeedback: Constants.clipboardFeedbackMs },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => params.error instanceof Unauthenticated,
    rangeIsValid: ({ context }) => rangeProblem(context.from, context.to) === null,
  },
  actions: {
    setFrom: assign((_, params: { value: string }) => ({ from: params.value, rangeError: null })),
    setTo: assign((_, params: { value: string }) => ({ to: params.value, rangeError: null })),
    useRange: assign(({ context }) => ({ shown: { from: context.from, to: context.to }, rangeError: null })),
    refuseRange: assign(({ context }) => ({ rangeError: rangeProblem(context.from, context.to) })),
    useTransfers: assign((_, params: { transfers: CryptoHistory }) => ({ transfers: params.transfers })),
    chooseHash: assign((_, params: { txHash: string }) => ({ copiedHash: params.txHash })),
  },
}).createMachine({
  id: "cryptoHistory",
  context: ({ input }) => {
    const range = defaultRange(input.today)
    return { ...range, shown: range, transfers: [], rangeError: null, copiedHash: null }
  },
  initial: "open",
  output: (): TabOutput => ({ type: "sessionEnded" }),
  on: {
    FROM: { actions: { type: "setFrom", params: ({ event }) => ({ value: event.value }) } },
    TO: { actions: { type: "setTo", params: ({ event }) => ({ value: event.value }) } },
  },
  states: {
    open: {
      type: "parallel",
      states: {
        list: {
          initial: "loading",
          states: {
            loading: {
              invoke: {
                id: "load",
                src: "load",
                input: ({ context }) => context.shown,
                onDone: {
                  target: "ready",
                  actions: { type: "useTransfers", params: ({ event }) => ({ transfers: event.output }) },
                },
                onError: [
                  {
                    guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
                    target: "#cryptoHistory.sessionEnded",
                  },
                  { target: "loadFailed" },
                ],
              },
            },
            /** "Your crypto deposits could not be loaded." with Try again (the same range). */
            loadFailed: { on: { RETRY: "loading", SHOW: show } },
            ready: { on: { SHOW: show } },
          },
        },
        /** A row's hash copied: "Copied" on that row for 2 s. */
        copy: {
          initial: "idle",
          on: {
            COPY: {
              target: ".copying",
              actions: { type: "chooseHash", params: ({ event }) => ({ txHash: event.txHash }) },
            },
          },
          states: {
            idle: {},
            copying: {
              invoke: {
                id: "copyText",
                src: "copyText",
                input: ({ context }) => context.copiedHash ?? "",
                onDone: "copied",
                onError: "copyFailed",
              },
            },
            copied: { after: { copyFeedback: "idle" } },
            copyFailed: { after: { copyFeedback: "idle" } },
          },
        },
      },
    },
    sessionEnded: { type: "final" },
  },
})
