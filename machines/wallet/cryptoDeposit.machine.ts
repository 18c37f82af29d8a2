/**
 * The crypto form of the deposit modal (spec sections 2, 4, 9), invoked by the deposit
 * machine once the player chose a crypto currency and has a wallet in it.
 *
 * - `loading`: the player's own address for the currency (`POST …/profile/crypto/deposit`); a failure
 *   says so and offers RETRY; a 401 ends the flow; a currency the casino does not take deposits in
 *   (CurrencyNotSupported: no account key configured for its chain) is `unavailable`, with the
 *   server's reason and no RETRY — asking again would not change it.
 * - `ready` (parallel):
 *   - `tabs`: Buy crypto or Deposit (TAB), the Deposit tab first.
 *   - `copy`: COPY writes the address to the clipboard through an invoked actor; "Copied" (or the
 *     failure) stays 2 s (`after`, spec section 9), a new COPY starts again.
 *   - `transfers`: the recent transfers to this address (`GET …/profile/crypto/deposit`, the last
 *     30 days), then kept live by `cryptoDeposit` push events (services/player-events.ts) received
 *     through an invoked callback actor for as long as the form is open: pending with its
 *     confirmations counting up, then credited. A failed load leaves the live list (empty) in place.
 *     The stream (re)opening reads the list again (STREAM_OPENED): a transfer's change made before
 *     it was connected, or while it reconnected, is never sent.
 *   - `buy`: the four purchase widgets; CHOOSE_WIDGET opens one in a frame, WIDGETS goes back.
 *     The frame is `loading` until its `load` (FRAME_LOADED); a browser's refusal to frame it
 *     (FRAME_BLOCKED: a CSP violation naming its origin) or no load within `widgetTimeout` is
 *     `failed` — said in words with Try again (RETRY_WIDGET loads a new frame), never a blank box.
 *     A provider's widget posts nothing to the casino, so `load` is all a page can know.
 */
import { Effect } from "effect"
import { assign, fromCallback, fromPromise, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import type { Currencies } from "../../services/cdn.ts"
import { cryptoClient } from "../../services/clients/crypto.ts"
import type { BuyCryptoWidget, CryptoDepositAddress, CryptoHistory } from "../../services/crypto-service.ts"
import { CurrencyNotSupported, Unauthenticated } from "../../services/errors.ts"
import { subscribePlayerEvents } from "../../services/player-events.ts"
import { Constants } from "../../services/rules.ts"
import type { PlayerEvent } from "../../services/wallet-service.ts"
import { applyPush, isCryptoPushFor, type LiveTransfer, supersedes, transfersTo } from "./cryptoSupport.ts"
import { defaultRange } from "./depositHistory.machine.ts"

export type CryptoTab = "buy" | "deposit"

export interface CryptoDepositInput {
  readonly currency: string
  readonly currencies: Currencies
  /** The bonus code typed on the amount step, passed on as the spec's promotionCoupon. */
  readonly promotionCoupon: string | null
  /** Today as yyyy-mm-dd (UTC): the recent transfers are the last 30 days'. */
  readonly today: string
  /** How long a purchase widget may take to load before it counts as failed (default 20 s). */
  readonly widgetTimeoutMs?: number
}

export type WidgetFailure = "blocked" | "timeout"

export const WidgetMessages = {
  loadFailed: "The purchase page could not be loaded.",
  blocked: "Your browser refused to show it inside the casino.",
  timeout: "The provider did not answer in time.",
} as const

export interface CryptoDepositContext {
  readonly currency: string
  readonly currencies: Currencies
  readonly promotionCoupon: string | null
  readonly today: string
  readonly address: CryptoDepositAddress | null
  readonly tab: CryptoTab
  /** The purchase widget open in the frame. */
  readonly widget: BuyCryptoWidget | null
  readonly transfers: ReadonlyArray<LiveTransfer>
  /** Why deposits in this currency are not offered (the server's message), in `unavailable`. */
  readonly unavailable: string | null
  readonly widgetTimeoutMs: number
  /** Why the widget's frame failed, in `buy.widget.failed`. */
  readonly widgetFailure: WidgetFailure | null
  /** Bumped by Try again: the view mounts a new frame. */
  readonly widgetAttempt: number
}

export type CryptoDepositEvent =
  | { readonly type: "RETRY" }
  | { readonly type: "TAB"; readonly tab: CryptoTab }
  | { readonly type: "COPY" }
  | { readonly type: "CHOOSE_WIDGET"; readonly id: string }
  | { readonly type: "WIDGETS" }
  | { readonly type: "PUSH"; readonly event: PlayerEvent }
  | { readonly type: "STREAM_OPENED" }
  | { readonly type: "FRAME_LOADED" }
  | { readonly type: "FRAME_BLOCKED" }
  | { readonly type: "RETRY_WIDGET" }

/** How the form ends by itself: only when the session is gone (BACK is the deposit machine's). */
export type CryptoDepositOutput = { readonly type: "sessionEnded" }

export const cryptoDepositMachine = setup({
  types: {
    input: {} as CryptoDepositInput,
    context: {} as CryptoDepositContext,
    events: {} as CryptoDepositEvent,
    output: {} as CryptoDepositOutput,
  },
  actors: {
    requestAddress: fromEffect((payload: { currency: string; promotionCoupon: string | null }) =>
      Effect.gen(function* () {
        return yield* cryptoClient.cryptoDeposit({
          payload:
            payload.promotionCoupon === null
              ? { currency: payload.currency }
              : { currency: payload.currency, promotionCoupon: payload.promotionCoupon },
        })
      }),
    ),
    loadTransfers: fromEffect((range: { readonly from: string; readonly to: string }) =>
      Effect.gen(function* () {
        return yield* cryptoClient.cryptoHistory({ params: { type: "deposit" }, query: range })
      }),
    ),
    copyText: fromPromise<void, string>(async ({ input }) => {
      await navigator.clipboard.writeText(input)
    }),
    pushEvents: fromCallback<CryptoDepositEvent>(({ sendBack }) =>
      subscribePlayerEvents(
        (event) => sendBack({ type: "PUSH", event }),
        () => sendBack({ type: "STREAM_OPENED" }),
      ),
    ),
  },
  delays: {
    copyFeedback: Constants.clipboardFeedbackMs,
    widgetTimeout: ({ context }) => context.widgetTimeoutMs,
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => params.error instanceof Unauthenticated,
    isNotOffered: (_, params: { error: unknown }) => params.error instanceof CurrencyNotSupported,
    isOurDeposit: ({ context }, params: { event: PlayerEvent }) =>
      isCryptoPushFor(params.event, context.currency),
    isWidget: ({ context }, params: { id: string }) =>
      context.address?.widgets.some((w) => w.id === params.id) ?? false,
  },
  actions: {
    useAddress: assign((_, params: { address: CryptoDepositAddress }) => ({ address: params.address })),
    useRefusal: assign((_, params: { error: unknown }) => ({
      unavailable: params.error instanceof CurrencyNotSupported ? params.error.message : null,
    })),
    chooseTab: assign((_, params: { tab: CryptoTab }) => ({ tab: params.tab })),
    useHistory: assign(({ context }, params: { history: CryptoHistory }) => {
      if (context.address === null) return {}
      // A push that arrived while the history loaded may be newer than the answer's row, and a row
      // read again after the stream reopened newer than the pushed one: the later state wins.
      const loaded = transfersTo(params.history, context.address)
      const pushed = context.transfers.filter((t) => !loaded.some((l) => l.id === t.id))
      const later = (row: LiveTransfer): LiveTransfer => {
        const shown = context.transfers.find((t) => t.id === row.id)
        return shown === undefined || supersedes(shown, row) ? row : shown
      }
      return { transfers: [...pushed, ...loaded.map(later)] }
    }),
    applyPush: assign(({ context }, params: { event: PlayerEvent }) =>
      isCryptoPushFor(params.event, context.currency)
        ? { transfers: applyPush(context.transfers, params.event) }
        : {},
    ),
    openWidget: assign(({ context }, params: { id: string }) => ({
      widget: context.address?.widgets.find((w) => w.id === params.id) ?? null,
    })),
    closeWidget: assign({ widget: null, widgetFailure: null }),
    widgetFailed: assign((_, params: { failure: WidgetFailure }) => ({ widgetFailure: params.failure })),
    retryWidget: assign(({ context }) => ({ widgetFailure: null, widgetAttempt: context.widgetAttempt + 1 })),
  },
}).createMachine({
  id: "cryptoDeposit",
  context: ({ input }) => ({
    currency: input.currency,
    currencies: input.currencies,
    promotionCoupon: input.promotionCoupon,
    today: input.today,
    address: null,
    tab: "deposit",
    widget: null,
    transfers: [],
    unavailable: null,
    widgetTimeoutMs: input.widgetTimeoutMs ?? 20_000,
    widgetFailure: null,
    widgetAttempt: 0,
  }),
  initial: "loading",
  output: () => ({ type: "sessionEnded" }),
  states: {
    loading: {
      invoke: {
        id: "requestAddress",
        src: "requestAddress",
        input: ({ context }) => ({ currency: context.currency, promotionCoupon: context.promotionCoupon }),
        onDone: {
          target: "ready",
          actions: { type: "useAddress", params: ({ event }) => ({ address: event.output }) },
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            guard: { type: "isNotOffered", params: ({ event }) => ({ error: event.error }) },
            target: "unavailable",
            actions: { type: "useRefusal", params: ({ event }) => ({ error: event.error }) },
          },
          { target: "failed" },
        ],
      },
    },
    /** "Your deposit address could not be loaded." with Try again. */
    failed: { on: { RETRY: "loading" } },
    /** The server's reason (e.g. "DOGE deposits are not available right now."); another currency is the way on. */
    unavailable: {},
    ready: {
      type: "parallel",
      // Subscribed for as long as the form is open; leaving it unsubscribes (the callback's cleanup).
      invoke: {
        id: "pushEvents",
        src: "pushEvents",
        // Without the stream the list still shows what was loaded; the header's 15 s poll stays.
        onError: { target: ".transfers.offline" },
      },
      on: {
        TAB: { actions: { type: "chooseTab", params: ({ event }) => ({ tab: event.tab }) } },
        PUSH: {
          guard: { type: "isOurDeposit", params: ({ event }) => ({ event: event.event }) },
          actions: { type: "applyPush", params: ({ event }) => ({ event: event.event }) },
        },
      },
      states: {
        copy: {
          initial: "idle",
          states: {
            idle: { on: { COPY: "copying" } },
            copying: {
              invoke: {
                id: "copyText",
                src: "copyText",
                input: ({ context }) => context.address?.address ?? "",
                onDone: "copied",
                onError: "copyFailed",
              },
            },
            /** "Copied" for 2 s; a new COPY copies again (and restarts the 2 s). */
            copied: { after: { copyFeedback: "idle" }, on: { COPY: "copying" } },
            copyFailed: { after: { copyFeedback: "idle" }, on: { COPY: "copying" } },
          },
        },
        transfers: {
          initial: "loading",
          states: {
            loading: {
              // The list being read may predate a change the stream, opening only now, never sends.
              on: { STREAM_OPENED: { target: "loading", reenter: true } },
              invoke: {
                id: "loadTransfers",
                src: "loadTransfers",
                input: ({ context }) => defaultRange(context.today),
                onDone: {
                  target: "live",
                  actions: { type: "useHistory", params: ({ event }) => ({ history: event.output }) },
                },
                onError: [
                  {
                    guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
                    target: "#cryptoDeposit.sessionEnded",
                  },
                  { target: "live" },
                ],
              },
            },
            live: { on: { STREAM_OPENED: "loading" } },
            /** The push stream could not be opened: the list no longer updates by itself. */
            offline: {},
          },
        },
        buy: {
          initial: "list",
          states: {
            list: {
              on: {
                CHOOSE_WIDGET: {
                  guard: { type: "isWidget", params: ({ event }) => ({ id: event.id }) },
                  target: "widget",
                  actions: { type: "openWidget", params: ({ event }) => ({ id: event.id }) },
                },
              },
            },
            /** The widget's page in a frame inside the modal; WIDGETS goes back to the list. */
            widget: {
              on: { WIDGETS: { target: "list", actions: "closeWidget" } },
              initial: "loading",
              states: {
                loading: {
                  after: {
                    widgetTimeout: {
                      target: "failed",
                      actions: { type: "widgetFailed", params: { failure: "timeout" } },
                    },
                  },
                  on: {
                    FRAME_LOADED: "shown",
                    FRAME_BLOCKED: {
                      target: "failed",
                      actions: { type: "widgetFailed", params: { failure: "blocked" } },
                    },
                  },
                },
                shown: {
                  on: {
                    FRAME_BLOCKED: {
                      target: "failed",
                      actions: { type: "widgetFailed", params: { failure: "blocked" } },
                    },
                  },
                },
                failed: { on: { RETRY_WIDGET: { target: "loading", actions: "retryWidget" } } },
              },
            },
          },
        },
      },
    },
    sessionEnded: { type: "final" },
  },
})
