/**
 * A bonus code checked as it is typed (registration and deposit step): after a pause in the typing
 * the code goes to `POST /user-service/api/v1/promotion/coupon` (`couponName`), and the field says
 * what it grants, or why it grants nothing (the server's reason). Typing again starts over; a blank
 * field says nothing. The host form owns the code it sends: this machine only tells the player
 * whether it will work, so a failed check never blocks the form (the server decides on submit).
 *
 *   empty ─CODE─▶ waiting ─(pause)─▶ checking ─▶ valid | invalid | unavailable
 *     ▲              ▲                                        │
 *     └── CODE "" ───┴──────────── CODE (any state) ──────────┘
 */
import { assign, setup } from "xstate"
import { offerBandsText } from "../services/bonus-rules.ts"
import type { CouponCheck } from "../services/bonus-service.ts"
import { fromEffect } from "../services/bridge.ts"
import { couponsClient } from "../services/clients/coupons.ts"
import { CouponRejected } from "../services/errors.ts"

export const CouponCheckMessages = {
  /** When the check itself could not be made (network, too many tries): the code is still sent. */
  unavailable: "The code could not be checked now; it is checked again when you continue.",
} as const

/** What a valid code grants, in the player's words. */
export const couponGrantText = (check: CouponCheck): string =>
  `${check.couponName}: ${check.promotion.name}: ${offerBandsText(check.promotion)}`

export interface CouponCheckContext {
  /** The code as typed (trimmed). */
  readonly code: string
  /** What the last check said: the grant, or the reason it grants nothing; null while none. */
  readonly message: string | null
}

export type CouponCheckEvent = { readonly type: "CODE"; readonly value: string }

export const couponCheckMachine = setup({
  types: {
    context: {} as CouponCheckContext,
    events: {} as CouponCheckEvent,
  },
  delays: {
    /** A pause in the typing before the code is sent: one call per word, not per key. */
    typingPause: 450,
  },
  actors: {
    check: fromEffect((code: string) => couponsClient.checkCoupon({ payload: { couponName: code } })),
  },
  guards: {
    isBlank: ({ event }) => event.value.trim() === "",
    isRejection: (_, params: { error: unknown }) => params.error instanceof CouponRejected,
  },
  actions: {
    setCode: assign((_, params: { value: string }) => ({ code: params.value.trim(), message: null })),
    clear: assign({ code: "", message: null }),
    showGrant: assign((_, params: { check: CouponCheck }) => ({ message: couponGrantText(params.check) })),
    showRejection: assign((_, params: { error: unknown }) => ({
      message: params.error instanceof CouponRejected ? params.error.message : null,
    })),
    showUnavailable: assign({ message: CouponCheckMessages.unavailable }),
  },
}).createMachine({
  id: "couponCheck",
  context: { code: "", message: null },
  initial: "empty",
  on: {
    CODE: [
      { guard: "isBlank", target: ".empty", actions: "clear" },
      { target: ".waiting", actions: { type: "setCode", params: ({ event }) => ({ value: event.value }) } },
    ],
  },
  states: {
    empty: {},
    waiting: {
      after: { typingPause: "checking" },
    },
    checking: {
      invoke: {
        id: "check",
        src: "check",
        input: ({ context }) => context.code,
        onDone: {
          target: "valid",
          actions: { type: "showGrant", params: ({ event }) => ({ check: event.output }) },
        },
        onError: [
          {
            guard: { type: "isRejection", params: ({ event }) => ({ error: event.error }) },
            target: "invalid",
            actions: { type: "showRejection", params: ({ event }) => ({ error: event.error }) },
          },
          { target: "unavailable", actions: "showUnavailable" },
        ],
      },
    },
    /** The code grants what `message` says. */
    valid: {},
    /** The code grants nothing: `message` says why. */
    invalid: {},
    /** The check could not be made; the code is still sent with the form. */
    unavailable: {},
  },
})

/** What the field shows under the code: its tone and words (null: nothing to say yet). */
export const couponFeedback = (snapshot: {
  matches: (state: "valid" | "invalid" | "unavailable" | "checking") => boolean
  context: CouponCheckContext
}): { readonly tone: "ok" | "error" | "info"; readonly text: string } | null => {
  if (snapshot.matches("checking")) return { tone: "info", text: "Checking the code…" }
  if (snapshot.context.message === null) return null
  if (snapshot.matches("valid")) return { tone: "ok", text: snapshot.context.message }
  if (snapshot.matches("invalid")) return { tone: "error", text: snapshot.context.message }
  return { tone: "info", text: snapshot.context.message }
}
