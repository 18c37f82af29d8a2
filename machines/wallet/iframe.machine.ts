/**
 * The iframe modal (spec sections 2 and 4): the payment page inside a frame. It closes,
 * whichever comes first:
 * - when the balance of the deposit's wallet changes — the fund is polled every 15 s (`after`), and
 *   the server's push (`GET /api/events`: a `balance` or `deposit` event) closes it at once;
 * - after the first loaded navigation inside the frame (the first `load` is the page itself, the
 *   next one is the provider sending the player back) — then it waits a few seconds for the
 *   deposit's outcome (the webhook usually lands before the return), reading the fund once;
 * - after 10 minutes.
 * A completed deposit says "Your deposit is credited", a failed one "The payment was declined"; the
 * modal host has the session read its fund again whatever happened.
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
}

export interface IframeContext extends IframeInput {
  /** The wallet's balance when the frame opened (minor units); null until first read. */
  readonly baseline: string | null
  readonly result: FrameResult
}

export type IframeEvent =
  /** The frame's `load` event (the view's onLoad). */
  | { readonly type: "FRAME_LOADED" }
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
  },
  guards: {
    noBaseline: ({ context }) => context.baseline === null,
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
  },
}).createMachine({
  id: "iframe",
  context: ({ input }) => ({
    ...(input ?? { url: "about:blank", depositId: "", currency: "" }),
    baseline: null,
    result: "open",
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
          initial: "opening",
          states: {
            /** The payment page itself is loading: its `load` is not a navigation. */
            opening: { on: { FRAME_LOADED: "shown" } },
            /** The next `load` is the first navigation inside the frame (the provider's return). */
            shown: { on: { FRAME_LOADED: "#iframe.settling" } },
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
        if (context.result === "credited") {
          enqueue({ type: "toast", params: { kind: "success", message: MoneyMessages.depositCompleted } })
        } else if (context.result === "declined") {
          enqueue({ type: "toast", params: { kind: "error", message: MoneyMessages.depositDeclined } })
        }
      }),
    },
  },
})
