/**
 * The bonuses tab (spec section 7: the promotion, coupon calls): the player's bonuses with their
 * wagering progress, the offers they may take for their next deposit with the terms, a bonus code,
 * and the way out of offers. Forfeiting an active bonus shows first what is lost (its bonus money;
 * cash is not touched) and asks to confirm. While a bonus is active the tab reads the player's
 * bonuses again every minute (one request), so the progress follows the bets; without one it reads
 * nothing more.
 */
import { Effect } from "effect"
import { assign, setup } from "xstate"
import type {
  EligiblePromotions,
  FreeSpinWallet,
  MyPromotions,
  PlayerBonus,
} from "../../services/bonus-service.ts"
import { fromEffect } from "../../services/bridge.ts"
import { bonusesClient } from "../../services/clients/bonuses.ts"
import { CouponRejected, PromotionNotFound, PromotionUnavailable } from "../../services/errors.ts"
import { notify } from "../../services/notify.ts"
import type { ToastParams } from "../flowSupport.ts"
import { isSessionGone, sessionEnded, type TabOutput } from "./support.ts"

export const BonusesMessages = {
  loadFailed: "Your bonuses could not be loaded.",
  accepted: "Offer taken: the deposit step adds it to your next deposit.",
  declined: "Offer declined.",
  chooseFailed: "Your answer could not be saved. Please try again.",
  forfeited: "The bonus was forfeited.",
  forfeitFailed: "The bonus could not be forfeited. Please try again.",
  redeemed: "Bonus code accepted: the deposit step adds its offer to your next deposit.",
  redeemFailed: "The bonus code could not be checked. Please try again.",
  optedOut: "You will not be offered bonuses. Taking an offer again opts you back in.",
  optOutFailed: "Your choice could not be saved. Please try again.",
} as const

/** How often an active bonus's progress is read again while the tab is open (one request). */
export const BONUS_REFRESH_MS = 60_000

export interface BonusesContext {
  readonly bonuses: MyPromotions["bonuses"]
  /** Free spins granted without a deposit, their winnings held for one. */
  readonly freeSpinWallets: ReadonlyArray<FreeSpinWallet>
  readonly offers: EligiblePromotions
  /** The bonus whose forfeit is being confirmed. */
  readonly selected: PlayerBonus | null
  readonly code: string
  /** Why the last code was refused (the server's words). */
  readonly codeError: string | null
  /** The answer to an offer being saved. */
  readonly choice: { readonly id: string; readonly accepted: boolean } | null
}

export type BonusesEvent =
  | { readonly type: "ACCEPT"; readonly id: string }
  | { readonly type: "DECLINE"; readonly id: string }
  | { readonly type: "FORFEIT"; readonly id: string }
  | { readonly type: "CONFIRM" }
  | { readonly type: "CANCEL" }
  | { readonly type: "CODE"; readonly value: string }
  | { readonly type: "REDEEM" }
  | { readonly type: "OPT_OUT" }
  | { readonly type: "REFRESH" }
  | { readonly type: "RETRY" }

interface Loaded {
  readonly mine: MyPromotions
  readonly offers: EligiblePromotions
}

const errorMessage = (error: unknown): string | null =>
  error instanceof CouponRejected ? error.message : null

/** The server's words for an offer that cannot be taken now. */
const refusalMessage = (error: unknown): string =>
  error instanceof PromotionNotFound || error instanceof PromotionUnavailable
    ? error.message
    : BonusesMessages.chooseFailed

export const bonusesMachine = setup({
  types: {
    context: {} as BonusesContext,
    events: {} as BonusesEvent,
    output: {} as TabOutput,
  },
  actors: {
    load: fromEffect(() =>
      Effect.gen(function* () {
        const [mine, offers] = yield* Effect.all([bonusesClient.mine(), bonusesClient.eligible()], {
          concurrency: "unbounded",
        })
        const loaded: Loaded = { mine, offers }
        return loaded
      }),
    ),
    choose: fromEffect((payload: { readonly id: string; readonly accepted: boolean }) =>
      bonusesClient.choose({ payload }),
    ),
    progress: fromEffect(() => bonusesClient.mine()),
    forfeit: fromEffect((id: string) => bonusesClient.forfeit({ payload: { id } })),
    redeem: fromEffect((promotionCoupon: string) =>
      bonusesClient.redeemCoupon({ payload: { promotionCoupon } }),
    ),
    optOut: fromEffect(() => bonusesClient.optOut()),
  },
  delays: { bonusRefresh: BONUS_REFRESH_MS },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => isSessionGone(params.error),
    /** The offer is gone or not for this player now: the list is read again. */
    isStaleOffer: (_, params: { error: unknown }) =>
      params.error instanceof PromotionNotFound || params.error instanceof PromotionUnavailable,
    isRejectedCode: (_, params: { error: unknown }) => params.error instanceof CouponRejected,
    isOffered: ({ context }, params: { id: string }) =>
      context.offers.promotions.some((p) => p.id === params.id),
    isActiveBonus: ({ context }, params: { id: string }) =>
      context.bonuses.some((b) => b.id === params.id && b.status === "active"),
    hasActiveBonus: ({ context }) => context.bonuses.some((b) => b.status === "active"),
    hasCode: ({ context }) => context.code.trim().length >= 3,
    wasAccepted: (_, params: { accepted: boolean }) => params.accepted,
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    useLoaded: assign((_, params: { loaded: Loaded }) => ({
      bonuses: params.loaded.mine.bonuses,
      freeSpinWallets: params.loaded.mine.freeSpinWallets ?? [],
      offers: params.loaded.offers,
    })),
    useBonuses: assign((_, params: { mine: MyPromotions }) => ({
      bonuses: params.mine.bonuses,
      freeSpinWallets: params.mine.freeSpinWallets ?? [],
    })),
    select: assign(({ context }, params: { id: string }) => ({
      selected: context.bonuses.find((b) => b.id === params.id) ?? null,
    })),
    unselect: assign({ selected: null }),
    setChoice: assign((_, params: { id: string; accepted: boolean }) => ({ choice: params })),
    setCode: assign((_, params: { value: string }) => ({ code: params.value, codeError: null })),
    clearCode: assign({ code: "", codeError: null }),
    rejectCode: assign((_, params: { error: unknown }) => ({ codeError: errorMessage(params.error) })),
  },
}).createMachine({
  id: "bonuses",
  context: {
    bonuses: [],
    freeSpinWallets: [],
    offers: { optedOut: false, promotions: [] },
    selected: null,
    code: "",
    codeError: null,
    choice: null,
  },
  initial: "loading",
  output: () => sessionEnded,
  on: {
    // The code field is typed into whatever the tab is doing.
    CODE: { actions: { type: "setCode", params: ({ event }) => ({ value: event.value }) } },
  },
  states: {
    loading: {
      invoke: {
        id: "load",
        src: "load",
        onDone: {
          target: "ready",
          actions: { type: "useLoaded", params: ({ event }) => ({ loaded: event.output }) },
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
    loadFailed: { on: { RETRY: "loading" } },
    ready: {
      initial: "choosingRefresh",
      states: {
        choosingRefresh: { always: [{ guard: "hasActiveBonus", target: "following" }, { target: "still" }] },
        /** An active bonus: its progress is read again now and then. */
        following: { after: { bonusRefresh: "refreshing" } },
        /** Only the bonuses (the offers do not move with bets); a failure keeps what is shown. */
        refreshing: {
          invoke: {
            id: "progress",
            src: "progress",
            onDone: {
              target: "choosingRefresh",
              actions: { type: "useBonuses", params: ({ event }) => ({ mine: event.output }) },
            },
            onError: [
              {
                guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
                target: "#bonuses.sessionEnded",
              },
              { target: "following" },
            ],
          },
        },
        still: {},
      },
      on: {
        ACCEPT: {
          guard: { type: "isOffered", params: ({ event }) => ({ id: event.id }) },
          target: "choosing",
          actions: { type: "setChoice", params: ({ event }) => ({ id: event.id, accepted: true }) },
        },
        DECLINE: {
          guard: { type: "isOffered", params: ({ event }) => ({ id: event.id }) },
          target: "choosing",
          actions: { type: "setChoice", params: ({ event }) => ({ id: event.id, accepted: false }) },
        },
        FORFEIT: {
          guard: { type: "isActiveBonus", params: ({ event }) => ({ id: event.id }) },
          target: "confirmingForfeit",
          actions: { type: "select", params: ({ event }) => ({ id: event.id }) },
        },
        REDEEM: { guard: "hasCode", target: "redeeming" },
        OPT_OUT: "optingOut",
        REFRESH: "loading",
      },
    },
    choosing: {
      invoke: {
        id: "choose",
        src: "choose",
        input: ({ context }) => context.choice ?? { id: "", accepted: false },
        onDone: [
          {
            guard: { type: "wasAccepted", params: ({ event }) => ({ accepted: event.output.accepted }) },
            target: "loading",
            actions: { type: "toast", params: { kind: "success", message: BonusesMessages.accepted } },
          },
          {
            target: "loading",
            actions: { type: "toast", params: { kind: "info", message: BonusesMessages.declined } },
          },
        ],
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            guard: { type: "isStaleOffer", params: ({ event }) => ({ error: event.error }) },
            target: "loading",
            actions: {
              type: "toast",
              params: ({ event }) => ({ kind: "info", message: refusalMessage(event.error) }),
            },
          },
          {
            target: "ready",
            actions: { type: "toast", params: { kind: "error", message: BonusesMessages.chooseFailed } },
          },
        ],
      },
    },
    confirmingForfeit: {
      on: {
        CONFIRM: "forfeiting",
        CANCEL: { target: "ready", actions: "unselect" },
      },
    },
    forfeiting: {
      invoke: {
        id: "forfeit",
        src: "forfeit",
        input: ({ context }) => context.selected?.id ?? "",
        onDone: {
          target: "loading",
          actions: [
            "unselect",
            { type: "toast", params: { kind: "success", message: BonusesMessages.forfeited } },
          ],
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            // Ended meanwhile (converted, expired, or forfeited on another device).
            guard: { type: "isStaleOffer", params: ({ event }) => ({ error: event.error }) },
            target: "loading",
            actions: "unselect",
          },
          {
            target: "ready",
            actions: [
              "unselect",
              { type: "toast", params: { kind: "error", message: BonusesMessages.forfeitFailed } },
            ],
          },
        ],
      },
    },
    redeeming: {
      invoke: {
        id: "redeem",
        src: "redeem",
        input: ({ context }) => context.code.trim(),
        onDone: {
          target: "loading",
          actions: [
            "clearCode",
            { type: "toast", params: { kind: "success", message: BonusesMessages.redeemed } },
          ],
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            guard: { type: "isRejectedCode", params: ({ event }) => ({ error: event.error }) },
            target: "ready",
            actions: { type: "rejectCode", params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: "ready",
            actions: { type: "toast", params: { kind: "error", message: BonusesMessages.redeemFailed } },
          },
        ],
      },
    },
    optingOut: {
      invoke: {
        id: "optOut",
        src: "optOut",
        onDone: {
          target: "loading",
          actions: { type: "toast", params: { kind: "info", message: BonusesMessages.optedOut } },
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            target: "ready",
            actions: { type: "toast", params: { kind: "error", message: BonusesMessages.optOutFailed } },
          },
        ],
      },
    },
    sessionEnded: { type: "final" },
  },
})
