/**
 * The deposit dialog's amount step (spec sections 2, 8, 9): quick amounts (30/75/100 EUR, converted
 * with `fromEuros`), the amount as typed, the currency (fiat only; a crypto one ends the step for the
 * crypto form once the wallets are known), the optional bonus code, the bonus offer, the minimum and
 * promotion messages. Beside the form two regions load the basics (the wallets, the total deposits,
 * this deposit's offer) and the chosen currency's minimums (again on every currency change). "Play
 * with" ends the step once all have loaded and the amount meets minDeposit.
 *
 * Every change is written to the payment_config cookie. The typed code goes to the dialog's code
 * checker (CHECK_COUPON to the parent): the dialog keeps the checker, and what it said, while this
 * step comes and goes.
 *
 * Invoked by machines/wallet/deposit.machine.ts each time the dialog shows the step, with the order
 * as the player left it; it reads the basics and the minimums again and hands the order back.
 */
import { assign, sendParent, setup } from "xstate"
import { MoneyMessages, meetsMinimum } from "../../../services/money-rules.ts"
import { writePaymentConfig } from "../../../services/payment-cookie.ts"
import type { DepositMinimums } from "../../../services/wallet-service.ts"
import { cryptoCurrencies, fiatCurrencies, quickAmountText, quoteOf } from "../support.ts"
import { loadBasics, loadMinimums } from "./calls.ts"
import { configOf, endsSession } from "./rules.ts"
import {
  type AmountEnd,
  type AmountInput,
  type AmountOutput,
  amountFieldsOf,
  BasicsFailed,
  type DepositBasics,
} from "./types.ts"

export type AmountEvent =
  | { readonly type: "AMOUNT"; readonly value: string }
  | { readonly type: "QUICK"; readonly euros: number }
  | { readonly type: "CURRENCY"; readonly currency: string }
  | { readonly type: "CRYPTO"; readonly currency: string }
  | { readonly type: "TOGGLE_COUPON" }
  | { readonly type: "COUPON"; readonly value: string }
  | { readonly type: "BONUS"; readonly take: boolean }
  | { readonly type: "PLAY" }
  | { readonly type: "RETRY" }

/** Sent to the dialog with every typed code, for its code checker. */
export interface CheckCoupon {
  readonly type: "CHECK_COUPON"
  readonly value: string
}

export interface AmountContext extends AmountInput {
  /** A load failure of the basics (fund, total deposits), shown while `basics` is failed. */
  readonly loadError: string | null
  /** The crypto currency chosen for the crypto form; the order keeps its fiat one. */
  readonly cryptoCurrency: string | null
  readonly end: AmountEnd
}

export const depositAmountMachine = setup({
  types: {
    input: {} as AmountInput,
    context: {} as AmountContext,
    events: {} as AmountEvent,
    output: {} as AmountOutput,
  },
  actors: { loadBasics, loadMinimums },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => endsSession(params.error),
    hasOffer: ({ context }) => context.offer !== null,
    canPlay: ({ context }) => {
      const quote = quoteOf(context)
      return context.fund !== null && context.depositCount !== null && quote !== null && meetsMinimum(quote)
    },
    isKnownCurrency: ({ context }, params: { currency: string }) =>
      fiatCurrencies(context.currencies).some((c) => c.code === params.currency),
    /** A crypto currency of the list, once the wallets are known (a missing one is added first). */
    canChooseCrypto: ({ context }, params: { currency: string }) =>
      context.fund !== null && cryptoCurrencies(context.currencies).some((c) => c.code === params.currency),
  },
  actions: {
    saveConfig: ({ context }) => writePaymentConfig(context.config),
    checkCoupon: sendParent(
      (_, params: { value: string }): CheckCoupon => ({ type: "CHECK_COUPON", value: params.value }),
    ),
    setAmount: assign(({ context }, params: { value: string }) => {
      const amountText = params.value.slice(0, 12)
      return { amountText, message: null, config: configOf({ ...context, amountText }) }
    }),
    setQuick: assign(({ context }, params: { euros: number }) => {
      const amountText = quickAmountText(context, params.euros) ?? context.amountText
      return { amountText, message: null, config: configOf({ ...context, amountText }) }
    }),
    setCurrency: assign(({ context }, params: { currency: string }) => ({
      currency: params.currency,
      minimums: null,
      message: null,
      config: configOf({ ...context, currency: params.currency }),
    })),
    toggleCoupon: assign(({ context }) => ({ couponOpen: !context.couponOpen })),
    setCoupon: assign(({ context }, params: { value: string }) => ({
      coupon: params.value.slice(0, 64),
      config: configOf({ ...context, coupon: params.value.slice(0, 64) }),
    })),
    useBasics: assign((_, params: { basics: DepositBasics }) => ({
      fund: params.basics.fund,
      depositCount: params.basics.totals.deposits.length,
      offer: params.basics.offer,
      // An offer taken before (the Bonuses tab, a registration code) is chosen; else "No bonus".
      takeBonus: params.basics.offer?.accepted === true,
      loadError: null,
    })),
    chooseBonus: assign((_, params: { take: boolean }) => ({ takeBonus: params.take })),
    showBasicsFailure: assign((_, params: { error: unknown }) => ({
      loadError: params.error instanceof BasicsFailed ? params.error.message : MoneyMessages.fundFailed,
    })),
    useMinimums: assign((_, params: { minimums: DepositMinimums }) => ({ minimums: params.minimums })),
    clearMessage: assign({ message: null }),
    chooseCrypto: assign((_, params: { currency: string }) => ({
      cryptoCurrency: params.currency,
      message: null,
    })),
    endWith: assign((_, params: { end: AmountEnd }) => ({ end: params.end })),
  },
}).createMachine({
  id: "depositAmount",
  context: ({ input }) => ({ ...input, loadError: null, cryptoCurrency: null, end: "sessionEnded" }),
  initial: "editing",
  output: ({ context }) => ({
    end: context.end,
    step: amountFieldsOf(context),
    cryptoCurrency: context.cryptoCurrency,
  }),
  states: {
    editing: {
      type: "parallel",
      on: {
        AMOUNT: {
          actions: [{ type: "setAmount", params: ({ event }) => ({ value: event.value }) }, "saveConfig"],
        },
        QUICK: {
          actions: [{ type: "setQuick", params: ({ event }) => ({ euros: event.euros }) }, "saveConfig"],
        },
        TOGGLE_COUPON: { actions: "toggleCoupon" },
        BONUS: {
          guard: "hasOffer",
          actions: { type: "chooseBonus", params: ({ event }) => ({ take: event.take }) },
        },
        COUPON: {
          actions: [
            { type: "setCoupon", params: ({ event }) => ({ value: event.value }) },
            "saveConfig",
            { type: "checkCoupon", params: ({ event }) => ({ value: event.value }) },
          ],
        },
        PLAY: { guard: "canPlay", target: "played", actions: "clearMessage" },
        CRYPTO: {
          guard: { type: "canChooseCrypto", params: ({ event }) => ({ currency: event.currency }) },
          target: "crypto",
          actions: { type: "chooseCrypto", params: ({ event }) => ({ currency: event.currency }) },
        },
      },
      states: {
        basics: {
          initial: "loading",
          states: {
            loading: {
              invoke: {
                id: "loadBasics",
                src: "loadBasics",
                onDone: {
                  target: "ready",
                  actions: { type: "useBasics", params: ({ event }) => ({ basics: event.output }) },
                },
                onError: [
                  {
                    guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
                    target: "#depositAmount.sessionEnded",
                  },
                  {
                    target: "failed",
                    actions: { type: "showBasicsFailure", params: ({ event }) => ({ error: event.error }) },
                  },
                ],
              },
            },
            ready: {},
            failed: { on: { RETRY: "loading" } },
          },
        },
        minimums: {
          initial: "loading",
          on: {
            // A new currency: its minimums are read again (the region restarts, the others go on).
            CURRENCY: {
              guard: { type: "isKnownCurrency", params: ({ event }) => ({ currency: event.currency }) },
              target: ".loading",
              actions: [
                { type: "setCurrency", params: ({ event }) => ({ currency: event.currency }) },
                "saveConfig",
              ],
            },
          },
          states: {
            loading: {
              invoke: {
                id: "loadMinimums",
                src: "loadMinimums",
                input: ({ context }) => context.currency,
                onDone: {
                  target: "ready",
                  actions: { type: "useMinimums", params: ({ event }) => ({ minimums: event.output }) },
                },
                onError: "failed",
              },
            },
            ready: {},
            /** "Could not get deposit minimum amounts" (spec section 8). */
            failed: { on: { RETRY: "loading" } },
          },
        },
      },
    },
    /** "Play with": the order goes on to the wallet check and the methods. */
    played: { type: "final", entry: { type: "endWith", params: { end: "play" } } },
    /** A crypto currency: the dialog opens the crypto form (adding its wallet first if missing). */
    crypto: { type: "final", entry: { type: "endWith", params: { end: "crypto" } } },
    sessionEnded: { type: "final", entry: { type: "endWith", params: { end: "sessionEnded" } } },
  },
})
