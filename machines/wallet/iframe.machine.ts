/**
 * The iframe modal (spec sections 2 and 4): the payment page inside a frame. It closes,
 * whichever comes first:
 * - when the balance of the deposit's wallet changes — the fund is polled every 15 s (`after`), and
 *   the server's push (`GET /api/events`: a `balance` or `deposit` event) closes it at once;
 * - after the first loaded navigation inside the frame (the first `load` is the page itself, the
 *   next one is the provider sending the player back) — then it waits a few seconds for the
 *   deposit's outcome (the webhook usually lands before the return), reading the fund once;
 * - after 10 minutes.
 * The page must say it is there: it posts `payments:ready` (docs/payments-protocol.md) — a frame's
 * `load` fires for the browser's error page too. Blocked by the browser (a CSP violation the view
 * reports), or silent for 15 s (the provider down, the network): "The payment page could not be
 * loaded." and why, with Try again, which loads the frame anew.
 * A completed deposit says "Your deposit is credited"; a failed one is told by the deposit dialog,
 * which the modal host reopens on it (the reason, Try again); the host has the session read its fund
 * again whatever happened.
 */
import { Effect } from "effect"
import { assign, enqueueActions, fromCallback, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import { profileClient } from "../../services/clients/profile.ts"
import { MoneyConstants, MoneyMessages } from "../../services/money-rules.ts"
import { notify } from "../../services/notify.ts"
import { subscribePlayerEvents } from "../../services/player-events.ts"
import type { Fund } from "../../services/profile-service.ts"
import type { PlayerEvent } from "../../services/wallet-service.ts"
import type { ToastParams } from "../flowSupport.ts"
import type { WalletOutput } from "./support.ts"

export type FrameResult = "credited" | "declined" | "open"

export interface IframeInput {
  readonly url: string
  readonly depositId: string
  readonly currency: string
  /** How long the page has to say it is there (default FRAME_TIMEOUT_MS; tests shorten it). */
  readonly frameTimeoutMs?: number
}

/** Why the payment page is not shown: the browser blocked it, or it never said it was there. */
export type FrameFailure = "blocked" | "timeout"

export interface IframeContext extends IframeInput {
  /** The wallet's balance when the frame opened (minor units); null until first read. */
  readonly baseline: string | null
  readonly result: FrameResult
  /** Bumped by Try again: the view loads a new frame. */
  readonly frameAttempt: number
  /** The frame's `load` came (before its page said it was there). */
  readonly pageLoaded: boolean
  readonly frameFailure: FrameFailure | null
}

export const IframeMessages = {
  loadFailed: "The payment page could not be loaded.",
  blocked: "Your browser blocked it on this address.",
  timeout: "The payment service did not answer in time.",
} as const

/** How long a payment page has to say it is there. */
export const FRAME_TIMEOUT_MS = 15_000

export type IframeEvent =
  /** The frame's `load` event (the view's onLoad): also fires for the browser's error page. */
  | { readonly type: "FRAME_LOADED" }
  /** The page in the frame posted `payments:ready` (the view checks its window and origin). */
  | { readonly type: "FRAME_READY" }
  /** The browser refused to frame it (the view's `securitypolicyviolation` for the frame's origin). */
  | { readonly type: "FRAME_BLOCKED" }
  /** Try again, after the page could not be loaded. */
  | { readonly type: "RETRY" }
  /** A push event from the server (services/player-events.ts). */
  | { readonly type: "PUSH"; readonly event: PlayerEvent }

/** How long the modal waits for the outcome once the provider sent the player back. */
export const SETTLE_MS = 5_000

const balanceOf = (fund: Fund, currency: string): string | null =>
  fund.find((entry) => entry.currency === currency)?.balance ?? null

/** What a push event means for this frame: its deposit credited, declined, or nothing. */
export const pushResult = (context: IframeContext, event: PlayerEvent): FrameResult => {
  if (event.type === "deposit") {
    if (event.depositId !== context.depositId) return "open"
    if (event.status === "completed") return "credited"
    return event.status === "failed" || event.status === "expired" ? "declined" : "open"
  }
  if (event.type !== "balance") return "open"
  return event.currency === context.currency &&
    context.baseline !== null &&
    event.balance !== context.baseline
    ? "credited"
    : "open"
}

export const iframeMachine = setup({
  types: {
    // null only if the host had no frame to show (a bug): the frame then shows an empty page.
    input: {} as IframeInput | null,
    context: {} as IframeContext,
    events: {} as IframeEvent,
    output: {} as WalletOutput,
  },
  actors: {
    loadFund: fromEffect(() =>
      Effect.gen(function* () {
        return yield* profileClient.getFund()
      }),
    ),
    pushEvents: fromCallback<IframeEvent>(({ sendBack }) =>
      subscribePlayerEvents((event) => sendBack({ type: "PUSH", event })),
    ),
  },
  delays: {
    poll: MoneyConstants.iframePollMs,
    autoClose: MoneyConstants.iframeAutoCloseMs,
    settle: SETTLE_MS,
    frameTimeout: ({ context }) => context.frameTimeoutMs ?? FRAME_TIMEOUT_MS,
  },
  guards: {
    noBaseline: ({ context }) => context.baseline === null,
    pageLoaded: ({ context }) => context.pageLoaded,
    balanceChanged: ({ context }, params: { fund: Fund }) => {
      const now = balanceOf(params.fund, context.currency)
      return context.baseline !== null && now !== null && now !== context.baseline
    },
    pushSays: ({ context }, params: { event: PlayerEvent; result: FrameResult }) =>
      pushResult(context, params.event) === params.result,
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    useBaseline: assign(({ context }, params: { fund: Fund }) => ({
      baseline: balanceOf(params.fund, context.currency),
    })),
    credited: assign({ result: "credited" as const }),
    markLoaded: assign({ pageLoaded: true }),
    frameFailed: assign((_, params: { failure: FrameFailure }) => ({ frameFailure: params.failure })),
    reloadFrame: assign(({ context }) => ({
      frameAttempt: context.frameAttempt + 1,
      pageLoaded: false,
      frameFailure: null,
    })),
  },
}).createMachine({
  id: "iframe",
  context: ({ input }) => ({
    ...(input ?? { url: "about:blank", depositId: "", currency: "" }),
    baseline: null,
    result: "open",
    frameAttempt: 0,
    pageLoaded: false,
    frameFailure: null,
  }),
  initial: "open",
  // In `open` and `settling` alike (`closed` is final): the push says how the deposit ended.
  on: {
    PUSH: [
      {
        guard: { type: "pushSays", params: ({ event }) => ({ event: event.event, result: "credited" }) },
        target: ".closed",
        actions: "credited",
      },
      {
        guard: { type: "pushSays", params: ({ event }) => ({ event: event.event, result: "declined" }) },
        target: ".closed",
        actions: assign({ result: "declined" }),
      },
    ],
  },
  output: ({ context }) => ({ type: "closed", credited: context.result === "credited" }),
  states: {
    open: {
      type: "parallel",
      // Without the stream the frame still closes on the 15 s poll.
      invoke: { id: "pushEvents", src: "pushEvents", onError: {} },
      after: { autoClose: "closed" },
      states: {
        frame: {
          initial: "loading",
          states: {
            /** Until the page says it is there; its `load` (or the error page's) is only noted. */
            loading: {
              after: {
                frameTimeout: {
                  target: "failed",
                  actions: { type: "frameFailed", params: { failure: "timeout" } },
                },
              },
              on: {
                FRAME_LOADED: { actions: "markLoaded" },
                FRAME_READY: [{ guard: "pageLoaded", target: "shown" }, { target: "opening" }],
                FRAME_BLOCKED: {
                  target: "failed",
                  actions: { type: "frameFailed", params: { failure: "blocked" } },
                },
              },
            },
            /** The page said it is there before its `load`: that `load` is not a navigation. */
            opening: { on: { FRAME_LOADED: "shown" } },
            /** The next `load` is the first navigation inside the frame (the provider's return). */
            shown: { on: { FRAME_LOADED: "#iframe.settling" } },
            /** "The payment page could not be loaded." and why; Try again loads a new frame. */
            failed: { on: { RETRY: { target: "loading", actions: "reloadFrame" } } },
          },
        },
        balance: {
          initial: "checking",
          states: {
            checking: {
              invoke: {
                id: "loadFund",
                src: "loadFund",
                onDone: [
                  {
                    guard: "noBaseline",
                    target: "waiting",
                    actions: { type: "useBaseline", params: ({ event }) => ({ fund: event.output }) },
                  },
                  {
                    guard: { type: "balanceChanged", params: ({ event }) => ({ fund: event.output }) },
                    target: "#iframe.closed",
                    actions: "credited",
                  },
                  { target: "waiting" },
                ],
                // Offline for a moment: the next poll tries again.
                onError: "waiting",
              },
            },
            waiting: { after: { poll: "checking" } },
          },
        },
      },
    },
    /** Sent back by the provider: the outcome usually arrives within moments (push or fund). */
    settling: {
      invoke: [
        { id: "pushEvents", src: "pushEvents", onError: {} },
        {
          id: "settleFund",
          src: "loadFund",
          onDone: {
            guard: { type: "balanceChanged", params: ({ event }) => ({ fund: event.output }) },
            target: "closed",
            actions: "credited",
          },
          // The fund could not be read: the push event or the settle timer still ends the wait.
          onError: {},
        },
      ],
      after: { settle: "closed" },
    },
    closed: {
      type: "final",
      entry: enqueueActions(({ context, enqueue }) => {
        // A declined one says nothing here: the deposit dialog reopens on it with the provider's
        // reason and Try again (modals machine), so a toast would say the same thing twice.
        if (context.result === "credited") {
          enqueue({ type: "toast", params: { kind: "success", message: MoneyMessages.depositCompleted } })
        }
      }),
    },
  },
})
