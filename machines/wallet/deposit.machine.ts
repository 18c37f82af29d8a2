/**
 * The deposit modal (spec sections 2, 4, 5, 8, 9): ONE statechart from the amount to the
 * payment page.
 *
 * - `restoring`: the `payment_config` cookie (20 minutes) is read, so a reload resumes with the amount,
 *   currency and coupon, and the cascade skips the gateways that failed.
 * - `amount`: quick amounts (30/75/100 EUR, converted with `fromEuros`), the amount as typed, the
 *   currency (fiat only), the optional bonus code, the minimum and promotion messages. Beside the form
 *   two regions load the fund with the total deposits, and the chosen currency's minimums (again on
 *   every currency change). "Play with" passes only once all have loaded and the amount meets
 *   minDeposit.
 * - `wallet`: no wallet in the currency → one is added first (`POST …/profile/currency`).
 * - `crypto`: choosing a crypto currency in the amount step's list (CRYPTO, once the wallets
 *   have loaded) adds its wallet if missing (`cryptoWallet`, `addingCryptoWallet`), then invokes the
 *   crypto form (`cryptoDeposit.machine.ts`: address, QR, copy, live transfers, purchase widgets).
 *   No amount is asked: the player sends what they like; BACK returns to the amount step.
 * - `methods`: Card, Skrill, Jeton, MiFinity; a click is counted (`POST /api/analytics/events`, fire and
 *   forget), then the profile fields the method needs (spec section 5) — when some are missing the
 *   profile form is INVOKED with exactly those fields and finishes on save; the server's
 *   ProfileIncomplete leads there too.
 * - `card`: only if amount × eurRate ≥ 10 EUR; the enabled gateways are read and the first one not
 *   marked failed in the cookie is asked; GatewayUnavailable marks it 'Failed to process' and the
 *   next one is tried; none left → message.
 * - `skrill`, `jeton` (Checkout, QR, Cash tabs), `mifinity`: one call each.
 * - A `redirectUrl` ends the flow with `frame`: the modal host opens the iframe modal with it.
 *
 * The deposit limit is the server's: its DepositLimitExceeded answer is shown on the amount step.
 */
import { Effect } from "effect"
import { assign, sendParent, sendTo, setup } from "xstate"
import type { Promotion } from "../../services/bonus-service.ts"
import { analyticsClient } from "../../services/clients/analytics.ts"
import { GatewayUnavailable, ProfileIncomplete } from "../../services/errors.ts"
import {
  type FiatMethod,
  MoneyMessages,
  markFailed,
  meetsMinimum,
  nextGateway,
  type PaymentConfig,
  passesGatewayGate,
} from "../../services/money-rules.ts"
import { writePaymentConfig } from "../../services/payment-cookie.ts"
import type { ProfileField } from "../../services/profile-rules.ts"
import type { Fund, Profile } from "../../services/profile-service.ts"
import type { DepositMinimums, DepositResponse } from "../../services/wallet-service.ts"
import { couponCheckMachine } from "../couponCheck.machine.ts"
import { profileFormMachine } from "../profile/profileForm.machine.ts"
import type { TabOutput } from "../profile/support.ts"
import { cryptoDepositMachine } from "./cryptoDeposit.machine.ts"
import {
  addWallet,
  loadBasics,
  loadGateways,
  loadMinimums,
  loadOutcome,
  pay,
  readConfig,
} from "./deposit/calls.ts"
import {
  askedFields,
  bodyOf,
  configOf,
  couponOf,
  depositFailureMessage,
  endsSession,
  frameOf,
  isAmountProblem,
  isGatewaySegment,
  isProfileField,
  missingFor,
  restoredOrder,
  retryOrderOf,
} from "./deposit/rules.ts"
import {
  BasicsFailed,
  type DepositBasics,
  type DepositCheck,
  type DepositInput,
  type JetonTab,
  type PaymentOutcome,
  type PayRequest,
} from "./deposit/types.ts"
import {
  type AmountState,
  cryptoCurrencies,
  defaultWallet,
  fiatCurrencies,
  hasWallet,
  quickAmountText,
  quoteOf,
  type WalletOutput,
} from "./support.ts"

export interface DepositContext extends AmountState {
  readonly language: string
  readonly couponOpen: boolean
  readonly coupon: string
  readonly fund: Fund | null
  readonly profile: Profile | null
  readonly config: PaymentConfig
  readonly method: FiatMethod | null
  readonly jetonTab: JetonTab
  /** The enabled card gateways, in cascade order. */
  readonly gateways: ReadonlyArray<string>
  /** The gateway asked now. */
  readonly gateway: string | null
  /** The fields the profile-completion step shows. */
  readonly missing: ReadonlyArray<ProfileField>
  /** A load failure of the amount step (fund, total deposits). */
  readonly loadError: string | null
  /** The message shown above the step's buttons (role=alert). */
  readonly message: string | null
  readonly outcome: WalletOutput
  /** The crypto currency chosen for the crypto form; the amount step keeps its fiat one. */
  readonly cryptoCurrency: string | null
  /** The bonus offer for this deposit (its number's promotion), when the player may take one. */
  readonly offer: Promotion | null
  /** The payment to look up when the dialog reopens after its frame (DepositInput.check). */
  readonly check: DepositCheck | null
  /** Why the last payment failed, in a player's words (the `declined` step). */
  readonly declineReason: string | null
  /** The player's choice on the amount step: take the offer with this deposit, or no bonus. */
  readonly takeBonus: boolean
}

export type DepositEvent =
  | { readonly type: "AMOUNT"; readonly value: string }
  | { readonly type: "QUICK"; readonly euros: number }
  | { readonly type: "CURRENCY"; readonly currency: string }
  | { readonly type: "CRYPTO"; readonly currency: string }
  | { readonly type: "TOGGLE_COUPON" }
  | { readonly type: "COUPON"; readonly value: string }
  | { readonly type: "BONUS"; readonly take: boolean }
  | { readonly type: "PLAY" }
  | { readonly type: "RETRY" }
  | { readonly type: "CHOOSE_METHOD"; readonly method: FiatMethod }
  | { readonly type: "JETON"; readonly tab: JetonTab }
  | { readonly type: "BACK" }
  | { readonly type: "ACCOUNT_CHANGED" }
  /** The declined or expired payment: again with the same method and amount (a new payment). */
  | { readonly type: "PAY_AGAIN" }
  /** The declined or expired payment: back to the method list, same amount. */
  | { readonly type: "OTHER_METHOD" }

/**
 * The errors every deposit call shares, in order: a gone session ends the flow; missing profile
 * fields lead to the completion form; the amount's problems (limit, minimum) back to the amount
 * step; anything else is a message on the method list.
 */
const payErrors = [
  {
    guard: {
      type: "isSessionGone",
      params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
    },
    target: "#deposit.sessionEnded",
  },
  {
    guard: {
      type: "needsProfileFields",
      params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
    },
    target: "#deposit.completingProfile",
    actions: {
      type: "askForFields",
      params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
    },
  },
  {
    guard: {
      type: "isAmountProblem",
      params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
    },
    target: "#deposit.amount",
    actions: {
      type: "showFailure",
      params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
    },
  },
  {
    target: "#deposit.methods",
    actions: {
      type: "showFailure",
      params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
    },
  },
] as const

/** A deposit call's answer: its page opens in the frame; without one there is nothing to show. */
const payDone = [
  {
    guard: {
      type: "hasPage",
      params: ({ event }: { event: { output: DepositResponse } }) => ({ response: event.output }),
    },
    target: "#deposit.frame",
    actions: {
      type: "openFrame",
      params: ({ event }: { event: { output: DepositResponse } }) => ({ response: event.output }),
    },
  },
  {
    target: "#deposit.methods",
    actions: { type: "showMessage", params: { message: MoneyMessages.depositFailed } },
  },
] as const

export const depositMachine = setup({
  types: {
    input: {} as DepositInput,
    context: {} as DepositContext,
    events: {} as DepositEvent,
    output: {} as WalletOutput,
    children: {} as { coupon: "couponCheck" },
  },
  actors: {
    /** The bonus code checked as it is typed (machines/couponCheck.machine.ts). */
    couponCheck: couponCheckMachine,
    readConfig,
    loadBasics,
    loadMinimums,
    addWallet,
    loadGateways,
    pay,
    /** The reopened dialog's payment (today's deposits, UTC) and its currency's minimums. */
    loadOutcome,
    completeProfile: profileFormMachine,
    cryptoDeposit: cryptoDepositMachine,
  },
  guards: {
    hasOffer: ({ context }) => context.offer !== null,
    hasCheck: ({ context }) => context.check !== null,
    paymentDeclined: (_, params: { outcome: PaymentOutcome }) =>
      params.outcome.deposit?.status === "failed" && params.outcome.minimums !== null,
    paymentExpired: (_, params: { outcome: PaymentOutcome }) =>
      params.outcome.deposit?.status === "expired" && params.outcome.minimums !== null,
    isSessionGone: (_, params: { error: unknown }) => endsSession(params.error),
    canPlay: ({ context }) => {
      const quote = quoteOf(context)
      return context.fund !== null && context.depositCount !== null && quote !== null && meetsMinimum(quote)
    },
    hasWallet: ({ context }) => hasWallet(context.fund, context.currency),
    missesFields: ({ context }) =>
      context.method !== null && missingFor(context.profile, context.method).length > 0,
    profileSaved: (_, params: { output: TabOutput }) => params.output.type === "saved",
    isMethod: ({ context }, params: { method: FiatMethod }) => context.method === params.method,
    passesGatewayGate: ({ context }) => {
      const quote = quoteOf(context)
      return quote !== null && passesGatewayGate(quote)
    },
    allGatewaysFailed: ({ context }) => nextGateway(context.gateways, context.config) === null,
    isGatewayUnavailable: (_, params: { error: unknown }) => params.error instanceof GatewayUnavailable,
    needsProfileFields: (_, params: { error: unknown }) =>
      params.error instanceof ProfileIncomplete && params.error.fields.some(isProfileField),
    isAmountProblem: (_, params: { error: unknown }) => isAmountProblem(params.error),
    hasPage: (_, params: { response: DepositResponse }) => params.response.redirectUrl !== null,
    isKnownCurrency: ({ context }, params: { currency: string }) =>
      fiatCurrencies(context.currencies).some((c) => c.code === params.currency),
    /** A crypto currency of the list, once the wallets are known (a missing one is added first). */
    canChooseCrypto: ({ context }, params: { currency: string }) =>
      context.fund !== null && cryptoCurrencies(context.currencies).some((c) => c.code === params.currency),
    hasCryptoWallet: ({ context }) =>
      context.cryptoCurrency !== null && hasWallet(context.fund, context.cryptoCurrency),
  },
  actions: {
    saveConfig: ({ context }) => writePaymentConfig(context.config),
    /** Fire and forget (spec section 7): never blocks, never fails the flow. */
    trackMethod: (_, params: { method: FiatMethod; currency: string }) => {
      // runPromiseExit never rejects: a failed count is simply not counted. (Effect.runFork would add
      // bytes to the first download: every Effect function any chunk uses is in the core chunk.)
      void Effect.runPromiseExit(
        analyticsClient.track({
          payload: {
            name: "deposit_method_click",
            properties: { method: params.method, currency: params.currency },
          },
        }),
      )
    },
    /** The profile form saved (or the promo switch changed): the session's copy is read again. */
    announceChange: sendParent({ type: "ACCOUNT_CHANGED" }),
    restore: assign(({ context }, params: { config: PaymentConfig | null }) =>
      restoredOrder(context, params.config),
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
    checkCoupon: sendTo("coupon", (_, params: { value: string }) => ({
      type: "CODE" as const,
      value: params.value,
    })),
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
    showMessage: assign((_, params: { message: string }) => ({ message: params.message })),
    clearMessage: assign({ message: null }),
    showFailure: assign(({ context }, params: { error: unknown }) => ({
      message: depositFailureMessage(context.currencies, params.error),
    })),
    chooseMethod: assign((_, params: { method: FiatMethod }) => ({ method: params.method, message: null })),
    askForMissing: assign(({ context }) => ({
      missing: context.method === null ? [] : missingFor(context.profile, context.method),
    })),
    askForFields: assign((_, params: { error: unknown }) => ({
      missing: askedFields(params.error),
    })),
    useProfile: assign((_, params: { output: TabOutput }) =>
      params.output.type === "saved" ? { profile: params.output.profile } : {},
    ),
    useGateways: assign((_, params: { gateways: ReadonlyArray<string> }) => ({ gateways: params.gateways })),
    pickGateway: assign(({ context }) => ({ gateway: nextGateway(context.gateways, context.config) })),
    markGatewayFailed: assign(({ context }) => ({
      config: context.gateway === null ? context.config : markFailed(configOf(context), context.gateway),
    })),
    chooseJeton: assign((_, params: { tab: JetonTab }) => ({ jetonTab: params.tab, message: null })),
    openFrame: assign(({ context }, params: { response: DepositResponse }) => ({
      outcome: frameOf(params.response, context.currency),
    })),
    endSession: assign({ outcome: { type: "sessionEnded" } as const }),
    /** The dialog reopened on a payment still open or already credited: nothing to show. */
    endQuietly: assign({ outcome: { type: "closed", credited: false } as const }),
    useOutcome: assign(({ context }, params: { outcome: PaymentOutcome }) => {
      const retry = retryOrderOf(context, params.outcome)
      if (retry === null) return {}
      return {
        currency: retry.currency,
        amountText: retry.amountText,
        minimums: retry.minimums,
        profile: retry.profile,
        method: retry.method,
        jetonTab: retry.jetonTab,
        declineReason: retry.declineReason,
        message: null,
        config: retry.config,
      }
    }),
    chooseCrypto: assign((_, params: { currency: string }) => ({
      cryptoCurrency: params.currency,
      message: null,
    })),
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
      method: null,
      jetonTab: "Checkout",
      gateways: [],
      gateway: null,
      missing: [],
      loadError: null,
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
        PAY_AGAIN: { target: "checkingProfile", actions: "clearMessage" },
        OTHER_METHOD: { target: "methods", actions: "clearMessage" },
      },
    },
    /** The payment was abandoned or never finished and has expired. */
    expired: {
      on: {
        PAY_AGAIN: { target: "checkingProfile", actions: "clearMessage" },
        OTHER_METHOD: { target: "methods", actions: "clearMessage" },
      },
    },
    amount: {
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
        PLAY: { guard: "canPlay", target: "wallet", actions: "clearMessage" },
        CRYPTO: {
          guard: { type: "canChooseCrypto", params: ({ event }) => ({ currency: event.currency }) },
          target: "cryptoWallet",
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
                    target: "#deposit.sessionEnded",
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
    wallet: {
      always: [{ guard: "hasWallet", target: "methods" }, { target: "addingWallet" }],
    },
    /** No wallet in the chosen currency: one is added first (spec section 4). */
    addingWallet: {
      invoke: {
        id: "addWallet",
        src: "addWallet",
        input: ({ context }) => context.currency,
        onDone: { target: "methods", actions: assign({ fund: ({ event }) => event.output }) },
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
        onDone: { target: "crypto", actions: assign({ fund: ({ event }) => event.output }) },
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
    methods: {
      on: {
        CHOOSE_METHOD: {
          target: "checkingProfile",
          actions: [
            { type: "chooseMethod", params: ({ event }) => ({ method: event.method }) },
            {
              type: "trackMethod",
              params: ({ context, event }) => ({ method: event.method, currency: context.currency }),
            },
          ],
        },
        BACK: { target: "amount", actions: "clearMessage" },
      },
    },
    checkingProfile: {
      always: [
        { guard: "missesFields", target: "completingProfile", actions: "askForMissing" },
        { target: "routing" },
      ],
    },
    /** The profile form of the account issue, with exactly the missing fields (spec section 4). */
    completingProfile: {
      invoke: {
        id: "completeProfile",
        src: "completeProfile",
        input: ({ context }) => ({ fields: context.missing, showMissing: true, finishOnSave: true }),
        onDone: [
          {
            guard: { type: "profileSaved", params: ({ event }) => ({ output: event.output }) },
            target: "routing",
            actions: [
              { type: "useProfile", params: ({ event }) => ({ output: event.output }) },
              "announceChange",
            ],
          },
          { target: "sessionEnded" },
        ],
        onError: {
          target: "methods",
          actions: { type: "showMessage", params: { message: MoneyMessages.depositFailed } },
        },
      },
      on: { BACK: "methods" },
    },
    routing: {
      always: [
        { guard: { type: "isMethod", params: { method: "card" } }, target: "card" },
        { guard: { type: "isMethod", params: { method: "skrill" } }, target: "skrill" },
        { guard: { type: "isMethod", params: { method: "jeton" } }, target: "jeton" },
        { target: "mifinity" },
      ],
    },
    card: {
      initial: "gate",
      on: { BACK: "methods" },
      states: {
        /** Spec sections 4, 5, 9: the gateway screen opens only if amount × eurRate ≥ 10 EUR. */
        gate: {
          always: [
            { guard: "passesGatewayGate", target: "loadingGateways" },
            {
              target: "#deposit.methods",
              actions: { type: "showMessage", params: { message: MoneyMessages.belowGatewayGate } },
            },
          ],
        },
        loadingGateways: {
          invoke: {
            id: "loadGateways",
            src: "loadGateways",
            onDone: {
              target: "cascading",
              actions: { type: "useGateways", params: ({ event }) => ({ gateways: event.output }) },
            },
            onError: [
              {
                guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
                target: "#deposit.sessionEnded",
              },
              {
                target: "#deposit.methods",
                actions: { type: "showMessage", params: { message: MoneyMessages.gatewaysFailed } },
              },
            ],
          },
        },
        /** The first gateway not marked 'Failed to process' in the cookie; none left → message. */
        cascading: {
          always: [
            {
              guard: "allGatewaysFailed",
              target: "#deposit.methods",
              actions: { type: "showMessage", params: { message: MoneyMessages.allGatewaysFailed } },
            },
            { target: "paying", actions: "pickGateway" },
          ],
        },
        paying: {
          invoke: {
            id: "pay",
            src: "pay",
            input: ({ context }): PayRequest => ({
              kind: "gateway",
              gateway: isGatewaySegment(context.gateway) ? context.gateway : "brpay",
              body: bodyOf(context),
            }),
            onDone: payDone,
            onError: [
              {
                guard: { type: "isGatewayUnavailable", params: ({ event }) => ({ error: event.error }) },
                target: "cascading",
                actions: ["markGatewayFailed", "saveConfig"],
              },
              ...payErrors,
            ],
          },
        },
      },
    },
    skrill: {
      on: { BACK: "methods" },
      invoke: {
        id: "pay",
        src: "pay",
        input: ({ context }): PayRequest => ({ kind: "skrill", body: bodyOf(context) }),
        onDone: payDone,
        onError: payErrors,
      },
    },
    jeton: {
      initial: "choosing",
      on: { BACK: "methods" },
      states: {
        /** Checkout, QR, Cash (spec section 7: jeton/{type}/deposit and jeton/cash/deposit). */
        choosing: {
          on: {
            JETON: {
              target: "paying",
              actions: { type: "chooseJeton", params: ({ event }) => ({ tab: event.tab }) },
            },
          },
        },
        paying: {
          invoke: {
            id: "pay",
            src: "pay",
            input: ({ context }): PayRequest => ({
              kind: "jeton",
              tab: context.jetonTab,
              body: bodyOf(context),
              email: context.profile?.email ?? "",
            }),
            onDone: payDone,
            onError: payErrors,
          },
        },
      },
    },
    mifinity: {
      on: { BACK: "methods" },
      invoke: {
        id: "pay",
        src: "pay",
        input: ({ context }): PayRequest => ({ kind: "gateway", gateway: "mifinity", body: bodyOf(context) }),
        onDone: payDone,
        onError: payErrors,
      },
    },
    frame: { type: "final" },
    closed: { type: "final" },
    sessionEnded: { type: "final", entry: "endSession" },
  },
})
