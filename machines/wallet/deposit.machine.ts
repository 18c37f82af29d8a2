/**
 * The deposit modal (spec sections 2, 4, 5, 8, 9): the dialog from the amount to the payment page.
 * This chart is the dialog; its steps are machines of their own in machines/wallet/deposit/, each
 * invoked while the dialog shows it:
 *
 * - `restoring`: the `payment_config` cookie (20 minutes) is read, so a reload resumes with the
 *   amount, currency and coupon, and the cascade skips the gateways that failed.
 * - `checkingPayment`: a dialog reopened after its payment frame closed without a credit (`check`)
 *   looks the payment up: declined (the reason in words) or expired, with Try again (the same method
 *   and amount, a new payment) and Choose another method; still open or credited: the dialog closes.
 * - `amount`: the amount step (depositAmount.machine.ts): amount, currency, bonus, minimums.
 * - `wallet`: no wallet in the currency → one is added first (`POST …/profile/currency`).
 * - `crypto`: a crypto currency chosen on the amount step adds its wallet if missing
 *   (`cryptoWallet`, `addingCryptoWallet`), then invokes the crypto form (`cryptoDeposit.machine.ts`:
 *   address, QR, copy, live transfers, purchase widgets). No amount is asked; BACK returns to the amount.
 * - `payment`: the method list, the profile completion (depositProfile.machine.ts) and the payment
 *   with the card gateways' cascade (depositPayment.machine.ts).
 * - A `redirectUrl` ends the dialog with `frame`: the modal host opens the iframe modal with it.
 *
 * The order (amount, currency, bonus choice, the cookie's copy, the profile) lives here between the
 * steps: each step gets it as input and hands it back as output. The bonus code checker lives here
 * too, for the dialog's whole life (the amount step sends it each typed code: CHECK_COUPON), so what
 * it said stays when the player comes back to the amount. The deposit limit is the server's: its
 * DepositLimitExceeded answer is shown on the amount step.
 */
import { assign, sendParent, sendTo, setup } from "xstate"
import { type FiatMethod, MoneyMessages, type PaymentConfig } from "../../services/money-rules.ts"
import type { Fund, Profile } from "../../services/profile-service.ts"
import { couponCheckMachine } from "../couponCheck.machine.ts"
import type { AccountChanged } from "../profile/support.ts"
import { cryptoDepositMachine } from "./cryptoDeposit.machine.ts"
import { addWallet, loadOutcome, readConfig } from "./deposit/calls.ts"
import { type CheckCoupon, depositAmountMachine } from "./deposit/depositAmount.machine.ts"
import { depositPaymentMachine } from "./deposit/depositPayment.machine.ts"
import { couponOf, endsSession, restoredOrder, retryOrderOf } from "./deposit/rules.ts"
import {
  type AmountOutput,
  amountFieldsOf,
  type DepositCheck,
  type DepositInput,
  type DepositOrder,
  type JetonTab,
  type PaymentInput,
  type PaymentOutcome,
  type PaymentOutput,
} from "./deposit/types.ts"
import { defaultWallet, fiatCurrencies, hasWallet, type WalletOutput } from "./support.ts"

export interface DepositContext extends DepositOrder {
  readonly language: string
  readonly fund: Fund | null
  readonly profile: Profile | null
  /** Try again pays with this method (the reopened dialog's payment); null: the method list. */
  readonly retryMethod: FiatMethod | null
  readonly jetonTab: JetonTab
  /** The message the next step shows (role=alert): why the dialog came back to it. */
  readonly message: string | null
  readonly outcome: WalletOutput
  /** The crypto currency chosen for the crypto form; the order keeps its fiat one. */
  readonly cryptoCurrency: string | null
  /** The payment to look up when the dialog reopens after its frame (DepositInput.check). */
  readonly check: DepositCheck | null
  /** Why the last payment failed, in a player's words (the `declined` step). */
  readonly declineReason: string | null
}

/** The dialog's own events; the steps' events (AMOUNT, CHOOSE_METHOD …) go to the step's actor. */
export type DepositEvent =
  /** The crypto form: back to the amount step. */
  | { readonly type: "BACK" }
  /** The declined or expired payment: again with the same method and amount (a new payment). */
  | { readonly type: "PAY_AGAIN" }
  /** The declined or expired payment: back to the method list, same amount. */
  | { readonly type: "OTHER_METHOD" }
  | AccountChanged
  | CheckCoupon

const paymentInputOf = (context: DepositContext): PaymentInput => ({
  currencies: context.currencies,
  currency: context.currency,
  amountText: context.amountText,
  minimums: context.minimums,
  depositCount: context.depositCount,
  offer: context.offer,
  couponOpen: context.couponOpen,
  coupon: context.coupon,
  takeBonus: context.takeBonus,
  config: context.config,
  language: context.language,
  profile: context.profile,
  method: context.retryMethod,
  jetonTab: context.jetonTab,
  message: context.message,
})

export const depositMachine = setup({
  types: {
    input: {} as DepositInput,
    context: {} as DepositContext,
    events: {} as DepositEvent,
    output: {} as WalletOutput,
    children: {} as {
      coupon: "couponCheck"
      amount: "depositAmount"
      payment: "depositPayment"
      cryptoDeposit: "cryptoDeposit"
    },
  },
  actors: {
    /** The bonus code checked as it is typed (machines/couponCheck.machine.ts). */
    couponCheck: couponCheckMachine,
    readConfig,
    loadOutcome,
    addWallet,
    depositAmount: depositAmountMachine,
    depositPayment: depositPaymentMachine,
    cryptoDeposit: cryptoDepositMachine,
  },
  guards: {
    hasCheck: ({ context }) => context.check !== null,
    paymentDeclined: (_, params: { outcome: PaymentOutcome }) =>
      params.outcome.deposit?.status === "failed" && params.outcome.minimums !== null,
    paymentExpired: (_, params: { outcome: PaymentOutcome }) =>
      params.outcome.deposit?.status === "expired" && params.outcome.minimums !== null,
    isSessionGone: (_, params: { error: unknown }) => endsSession(params.error),
    playChosen: (_, params: { output: AmountOutput }) => params.output.end === "play",
    cryptoChosen: (_, params: { output: AmountOutput }) => params.output.end === "crypto",
    hasWallet: ({ context }) => hasWallet(context.fund, context.currency),
    hasCryptoWallet: ({ context }) =>
      context.cryptoCurrency !== null && hasWallet(context.fund, context.cryptoCurrency),
    opensFrame: (_, params: { output: PaymentOutput }) => params.output.end.type === "frame",
    paymentEndsSession: (_, params: { output: PaymentOutput }) => params.output.end.type === "sessionEnded",
  },
  actions: {
    /** A step saved the profile (or a promo switch changed): the session's copy is read again. */
    announceChange: sendParent({ type: "ACCOUNT_CHANGED" }),
    checkCoupon: sendTo("coupon", (_, params: { value: string }) => ({
      type: "CODE" as const,
      value: params.value,
    })),
    restore: assign(({ context }, params: { config: PaymentConfig | null }) =>
      restoredOrder(context, params.config),
    ),
    useOutcome: assign(({ context }, params: { outcome: PaymentOutcome }) => {
      const retry = retryOrderOf(context, params.outcome)
      if (retry === null) return {}
      return {
        currency: retry.currency,
        amountText: retry.amountText,
        minimums: retry.minimums,
        profile: retry.profile,
        retryMethod: retry.method,
        jetonTab: retry.jetonTab,
        declineReason: retry.declineReason,
        message: null,
        config: retry.config,
      }
    }),
    forgetRetry: assign({ retryMethod: null }),
    /** The amount step as the player left it; a new order goes to the method list. */
    useAmount: assign((_, params: { output: AmountOutput }) => ({
      ...params.output.step,
      cryptoCurrency: params.output.cryptoCurrency,
      retryMethod: null,
    })),
    /** Back from the payment step: its message, the profile as saved, the gateways marked failed. */
    usePayment: assign((_, params: { output: PaymentOutput }) => ({
      message: params.output.message,
      profile: params.output.profile,
      config: params.output.config,
    })),
    useFrame: assign((_, params: { output: PaymentOutput }) =>
      params.output.end.type === "frame" ? { outcome: params.output.end } : {},
    ),
    useFund: assign((_, params: { fund: Fund }) => ({ fund: params.fund })),
    showMessage: assign((_, params: { message: string }) => ({ message: params.message })),
    clearMessage: assign({ message: null }),
    endSession: assign({ outcome: { type: "sessionEnded" } as const }),
    /** The dialog reopened on a payment still open or already credited: nothing to show. */
    endQuietly: assign({ outcome: { type: "closed", credited: false } as const }),
  },
}).createMachine({
  id: "deposit",
  context: ({ input }) => {
    const fiat = fiatCurrencies(input.currencies)
    const wanted = defaultWallet(input.fund) ?? input.siteConfig.defaultCurrency
    const currency = fiat.some((c) => c.code === wanted) ? wanted : (fiat[0]?.code ?? "EUR")
    return {
      currencies: input.currencies,
      currency,
      amountText: "",
      minimums: null,
      depositCount: null,
      language: input.siteConfig.languages[0] ?? "en",
      couponOpen: false,
      coupon: "",
      fund: null,
      profile: input.profile,
      config: { tabs: {}, depositAmount: "", currency, promotionCoupon: "" },
      retryMethod: null,
      jetonTab: "Checkout",
      message: null,
      outcome: { type: "sessionEnded" },
      cryptoCurrency: null,
      offer: null,
      // Opt-in: "No bonus" until the player takes the offer (here, or in the Bonuses tab before).
      takeBonus: false,
      check: input.check ?? null,
      declineReason: null,
    }
  },
  initial: "restoring",
  output: ({ context }) => context.outcome,
  invoke: { id: "coupon", src: "couponCheck", onError: {} },
  on: {
    ACCOUNT_CHANGED: { actions: "announceChange" },
    CHECK_COUPON: { actions: { type: "checkCoupon", params: ({ event }) => ({ value: event.value }) } },
  },
  states: {
    restoring: {
      invoke: {
        id: "readConfig",
        src: "readConfig",
        onDone: {
          target: "reopened",
          actions: { type: "restore", params: ({ event }) => ({ config: event.output }) },
        },
        onError: "reopened",
      },
    },
    /** A new deposit starts at the amount; a dialog reopened after its frame looks the payment up. */
    reopened: {
      always: [{ guard: "hasCheck", target: "checkingPayment" }, { target: "amount" }],
    },
    checkingPayment: {
      invoke: {
        id: "loadOutcome",
        src: "loadOutcome",
        input: ({ context }) => context.check ?? { depositId: "", currency: context.currency },
        onDone: [
          {
            guard: { type: "paymentDeclined", params: ({ event }) => ({ outcome: event.output }) },
            target: "declined",
            actions: { type: "useOutcome", params: ({ event }) => ({ outcome: event.output }) },
          },
          {
            guard: { type: "paymentExpired", params: ({ event }) => ({ outcome: event.output }) },
            target: "expired",
            actions: { type: "useOutcome", params: ({ event }) => ({ outcome: event.output }) },
          },
          // Still open at the provider, or credited meanwhile: the dialog closes.
          { target: "closed", actions: "endQuietly" },
        ],
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          { target: "closed", actions: "endQuietly" },
        ],
      },
    },
    /** The provider declined the payment: why, in words; again (a new payment) or another method. */
    declined: {
      on: {
        PAY_AGAIN: { target: "payment", actions: "clearMessage" },
        OTHER_METHOD: { target: "payment", actions: ["clearMessage", "forgetRetry"] },
      },
    },
    /** The payment was abandoned or never finished and has expired. */
    expired: {
      on: {
        PAY_AGAIN: { target: "payment", actions: "clearMessage" },
        OTHER_METHOD: { target: "payment", actions: ["clearMessage", "forgetRetry"] },
      },
    },
    amount: {
      invoke: {
        id: "amount",
        src: "depositAmount",
        input: ({ context }) => amountFieldsOf(context),
        onDone: [
          {
            guard: { type: "playChosen", params: ({ event }) => ({ output: event.output }) },
            target: "wallet",
            actions: { type: "useAmount", params: ({ event }) => ({ output: event.output }) },
          },
          {
            guard: { type: "cryptoChosen", params: ({ event }) => ({ output: event.output }) },
            target: "cryptoWallet",
            actions: { type: "useAmount", params: ({ event }) => ({ output: event.output }) },
          },
          { target: "sessionEnded" },
        ],
        // The step itself failed (a bug, its calls all handle their errors): the dialog closes
        // rather than start a step again that would fail again.
        onError: { target: "closed", actions: "endQuietly" },
      },
    },
    wallet: {
      always: [{ guard: "hasWallet", target: "payment" }, { target: "addingWallet" }],
    },
    /** No wallet in the chosen currency: one is added first (spec section 4). */
    addingWallet: {
      invoke: {
        id: "addWallet",
        src: "addWallet",
        input: ({ context }) => context.currency,
        onDone: {
          target: "payment",
          actions: { type: "useFund", params: ({ event }) => ({ fund: event.output }) },
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            target: "amount",
            actions: { type: "showMessage", params: { message: MoneyMessages.currencyAddFailed } },
          },
        ],
      },
    },
    cryptoWallet: {
      always: [{ guard: "hasCryptoWallet", target: "crypto" }, { target: "addingCryptoWallet" }],
    },
    /** No wallet in the chosen crypto currency: one is added first (spec section 4). */
    addingCryptoWallet: {
      invoke: {
        id: "addWallet",
        src: "addWallet",
        input: ({ context }) => context.cryptoCurrency ?? "",
        onDone: {
          target: "crypto",
          actions: { type: "useFund", params: ({ event }) => ({ fund: event.output }) },
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            target: "amount",
            actions: { type: "showMessage", params: { message: MoneyMessages.currencyAddFailed } },
          },
        ],
      },
    },
    /** The crypto form (Buy crypto and Deposit tabs); it ends by itself only when the session is gone. */
    crypto: {
      invoke: {
        id: "cryptoDeposit",
        src: "cryptoDeposit",
        input: ({ context }) => ({
          currency: context.cryptoCurrency ?? "",
          currencies: context.currencies,
          promotionCoupon: couponOf(context),
          // The server's days are UTC: the recent transfers are the last 30 days to today's UTC date.
          today: new Date().toISOString().slice(0, 10),
        }),
        onDone: "sessionEnded",
        onError: {
          target: "amount",
          actions: { type: "showMessage", params: { message: MoneyMessages.depositFailed } },
        },
      },
      on: { BACK: { target: "amount", actions: "clearMessage" } },
    },
    /** The method list, the profile completion and the payment (depositPayment.machine.ts). */
    payment: {
      invoke: {
        id: "payment",
        src: "depositPayment",
        input: ({ context }) => paymentInputOf(context),
        onDone: [
          {
            guard: { type: "opensFrame", params: ({ event }) => ({ output: event.output }) },
            target: "frame",
            actions: { type: "useFrame", params: ({ event }) => ({ output: event.output }) },
          },
          {
            guard: { type: "paymentEndsSession", params: ({ event }) => ({ output: event.output }) },
            target: "sessionEnded",
          },
          {
            target: "amount",
            actions: { type: "usePayment", params: ({ event }) => ({ output: event.output }) },
          },
        ],
        onError: {
          target: "amount",
          actions: { type: "showMessage", params: { message: MoneyMessages.depositFailed } },
        },
      },
    },
    frame: { type: "final" },
    closed: { type: "final" },
    sessionEnded: { type: "final", entry: "endSession" },
  },
})
