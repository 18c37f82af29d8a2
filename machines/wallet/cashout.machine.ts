/**
 * The cashout modal (spec sections 2, 4, 5, 6, 8, 9): ONE statechart from the amount to
 * the withdraw request.
 *
 * - `form`: the amount step. It loads (again on every currency change) the currency's minWithdraw
 *   (`GET …/rate/limit/{currency}`), the withdrawable amount and the verification status, then
 *   prefills the amount with minWithdraw. The currency selector lists the player's wallets; crypto
 *   currencies add an address input.
 * - CASHOUT runs the spec's four checks IN ORDER through `firstFailingCheck` (services/cashout-rules.ts):
 *   below minWithdraw → nothing happens (the button looks disabled); not verified → the message that
 *   leads to /profile/verification (VERIFY); not enough withdrawable → its message; address (crypto)
 *   or bank e-mail empty → 'required'. Crypto then sends at once; fiat opens `fiat`, the second step
 *   with the payment-wallet (Skrill, the account's e-mail) and Bank Account (an e-mail) tabs.
 * - `forfeit`: with a bonus active in the currency (docs/bonuses.md), once the checks pass the player
 *   reads what cashing out forfeits (its bonus money) and confirms (CONFIRM: the request carries
 *   `forfeitBonus`) or keeps the bonus (BACK to the step). The server asks the same question
 *   (`BonusForfeitRequired`) when a bonus appeared after the step loaded: the answer leads here too.
 * - `sending`: success → toast "Cash out request has been sent!"; a refusal the contract declares →
 *   its message on the step it came from; anything else → toast "Something went wrong, please
 *   contact support!". Both toasts close the modal.
 * - `closing` (CLOSE from anywhere, or after a toast): the content (messages) is cleared at once, the
 *   form is reset after 500 ms (spec section 9), then the flow ends.
 */
import { Effect } from "effect"
import { match } from "ts-pattern"
import { assign, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import {
  type CashoutCheck,
  CashoutMessages,
  checkFails,
  firstFailingCheck,
  formatMinor,
  isCryptoCurrency,
  parseCashoutAmount,
} from "../../services/cashout-rules.ts"
import type {
  BankWithdrawPayload,
  CryptoWithdrawPayload,
  SkrillWithdrawPayload,
  Withdrawal,
} from "../../services/cashout-service.ts"
import type { Currencies } from "../../services/cdn.ts"
import { bonusesClient } from "../../services/clients/bonuses.ts"
import { cashoutClient } from "../../services/clients/cashout.ts"
import { profileClient } from "../../services/clients/profile.ts"
import { walletClient } from "../../services/clients/wallet.ts"
import {
  BonusForfeitRequired,
  CurrencyNotSupported,
  InvalidAddress,
  NotEnoughMoney,
  PaymentsBlocked,
  RateLimited,
  Unauthenticated,
  VerificationRequired,
  WalletNotFound,
  WithdrawAmountOutOfRange,
  WithdrawDailyLimitReached,
} from "../../services/errors.ts"
import { notify } from "../../services/notify.ts"
import type { Fund, Profile } from "../../services/profile-service.ts"
import { Constants, currencyDisplayName } from "../../services/rules.ts"
import { clientFailureClasses, failureFrom, type ToastParams } from "../flowSupport.ts"
import { defaultWallet } from "./support.ts"

export type FiatTab = "wallet" | "bank"

/** The active bonus of the chosen currency: what a cashout would forfeit (`balance`, minor units). */
export interface CashoutBonus {
  readonly id: string
  readonly name: string
  readonly balance: string
}

export interface CashoutInput {
  readonly currencies: Currencies
  /** The session's wallets: the selector lists them, the default one is chosen first. */
  readonly fund: Fund | null
  /** The session's profile: its verification until the fresh one is read. */
  readonly profile: Profile | null
}

/**
 * How the cashout ends. `cashoutClosed`: the modal closed (a request may have been made: the session
 * reads its fund again). `verificationNeeded`: the player clicked the verification message (the host
 * goes to /profile/verification). `sessionEnded`: a call answered 401.
 */
export type CashoutOutput =
  | { readonly type: "cashoutClosed" }
  | { readonly type: "verificationNeeded" }
  | { readonly type: "sessionEnded" }

export interface CashoutContext {
  readonly currencies: Currencies
  /** The currencies of the player's wallets, in the fund's order. */
  readonly wallets: ReadonlyArray<string>
  /**
   * Whether the wallets above are the player's: the dialog may open before the session has read its
   * fund (a click on Cash out right after the page loaded); the first load then reads it too.
   */
  readonly fundKnown: boolean
  readonly currency: string
  readonly amountText: string
  readonly address: string
  readonly email: string
  readonly tab: FiatTab
  /** Minor units of `currency`, once loaded. */
  readonly minWithdraw: string | null
  readonly withdrawable: string | null
  readonly verified: boolean
  /** The currency's active bonus, or null. */
  readonly bonus: CashoutBonus | null
  /** The player confirmed forfeiting `bonus` with this request. */
  readonly forfeitConfirmed: boolean
  /** The step the forfeit question came from (BACK returns there). */
  readonly forfeitFrom: "amount" | "fiat"
  readonly loadError: string | null
  /** The check of the last click that failed (shown by the view), or null. */
  readonly failed: CashoutCheck | null
  /** A refusal of the server, shown above the button. */
  readonly message: string | null
  readonly outcome: CashoutOutput
}

export type CashoutEvent =
  | { readonly type: "AMOUNT"; readonly value: string }
  | { readonly type: "ADDRESS"; readonly value: string }
  | { readonly type: "EMAIL"; readonly value: string }
  | { readonly type: "CURRENCY"; readonly currency: string }
  | { readonly type: "TAB"; readonly tab: FiatTab }
  | { readonly type: "CASHOUT" }
  | { readonly type: "VERIFY" }
  | { readonly type: "BACK" }
  | { readonly type: "CONFIRM" }
  | { readonly type: "RETRY" }
  | { readonly type: "CLOSE" }

/** What the amount step loads for a currency. */
export interface CashoutBasics {
  readonly minWithdraw: string
  readonly withdrawable: string
  readonly verified: boolean
  readonly bonus: CashoutBonus | null
  /** When the dialog opened without the fund: the fund read, and the wallet these basics are for. */
  readonly fund?: { readonly fund: Fund; readonly currency: string }
}

/** Which load failed, with the spec's message for the withdrawable one. */
export class CashoutLoadFailed extends Error {
  readonly _tag = "CashoutLoadFailed"
  readonly part: "limits" | "withdrawable" | "profile"
  override readonly cause: unknown
  constructor(part: "limits" | "withdrawable" | "profile", cause: unknown) {
    super(part === "limits" ? CashoutMessages.limitsFailed : CashoutMessages.withdrawableFailed)
    this.part = part
    this.cause = cause
  }
}

export type WithdrawRequest =
  | { readonly kind: "crypto"; readonly payload: CryptoWithdrawPayload }
  | { readonly kind: "skrill"; readonly payload: SkrillWithdrawPayload }
  | { readonly kind: "bank"; readonly payload: BankWithdrawPayload }

const withdraw = (request: WithdrawRequest) => {
  switch (request.kind) {
    case "crypto":
      return cashoutClient.cryptoWithdraw({ payload: request.payload })
    case "skrill":
      return cashoutClient.skrillWithdraw({ payload: request.payload })
    case "bank":
      return cashoutClient.bankWithdraw({ payload: request.payload })
  }
}

export const withdrawFailure = failureFrom([
  Unauthenticated,
  CurrencyNotSupported,
  WalletNotFound,
  VerificationRequired,
  WithdrawAmountOutOfRange,
  WithdrawDailyLimitReached,
  NotEnoughMoney,
  PaymentsBlocked,
  RateLimited,
  InvalidAddress,
  BonusForfeitRequired,
  ...clientFailureClasses,
])
export type WithdrawFailure = ReturnType<typeof withdrawFailure>

/**
 * The message of a refusal the player can act on, or null for what is not one (the session is gone,
 * the network, a defect): those close the modal with the spec's failure toast.
 */
export const refusalMessage = (failure: WithdrawFailure, currencies: Currencies): string | null =>
  match(failure)
    .with({ _tag: "VerificationRequired" }, () => CashoutMessages.notVerified)
    .with({ _tag: "WithdrawAmountOutOfRange" }, (e) =>
      CashoutMessages.outOfRange(
        formatMinor(e.minimum, currencies, e.currency),
        formatMinor(e.maximum, currencies, e.currency),
        e.currency,
      ),
    )
    .with({ _tag: "WithdrawDailyLimitReached" }, (e) =>
      CashoutMessages.dailyLimit(formatMinor(e.remaining, currencies, e.currency), e.currency),
    )
    .with({ _tag: "NotEnoughMoney" }, () => CashoutMessages.notEnoughMoney)
    .with({ _tag: "InvalidAddress" }, (e) => CashoutMessages.invalidAddress(e.currency))
    .with({ _tag: "RateLimited" }, (e) => CashoutMessages.rateLimited(e.retryAfterSeconds))
    .with({ _tag: "PaymentsBlocked" }, () => CashoutMessages.blocked)
    // Not a refusal: the forfeit question (the machine goes to `forfeit`).
    .with({ _tag: "BonusForfeitRequired" }, () => null)
    .with(
      { _tag: "CurrencyNotSupported" },
      { _tag: "WalletNotFound" },
      () => CashoutMessages.currencyUnavailable,
    )
    .with(
      { _tag: "Unauthenticated" },
      { _tag: "ClientError" },
      { _tag: "SchemaError" },
      { _tag: "UnexpectedError" },
      () => null,
    )
    .exhaustive()

export const isCryptoStep = (context: CashoutContext): boolean =>
  isCryptoCurrency(context.currencies, context.currency)

/** The facts the click is checked against, on the amount step or the fiat step. */
export const factsOf = (context: CashoutContext, step: "amount" | "fiat") => ({
  amount: parseCashoutAmount(context.amountText, context.currencies, context.currency),
  minWithdraw: BigInt(context.minWithdraw ?? "0"),
  verified: context.verified,
  withdrawable: BigInt(context.withdrawable ?? "0"),
  destination:
    step === "amount"
      ? isCryptoStep(context)
        ? context.address
        : null
      : context.tab === "bank"
        ? context.email
        : null,
})

export const requestOf = (context: CashoutContext): WithdrawRequest => {
  const amount = (
    parseCashoutAmount(context.amountText, context.currencies, context.currency) ?? 0n
  ).toString()
  // Sent only when confirmed: the server refuses a request that would forfeit without it.
  const consent = context.forfeitConfirmed ? { forfeitBonus: true } : {}
  if (isCryptoStep(context)) {
    return {
      kind: "crypto",
      payload: { amount, currency: context.currency, address: context.address.trim(), ...consent },
    }
  }
  return context.tab === "bank"
    ? {
        kind: "bank",
        payload: { amount, currency: context.currency, email: context.email.trim(), ...consent },
      }
    : { kind: "skrill", payload: { amount, currency: context.currency, ...consent } }
}

/** The bonus a cashout in `currency` would forfeit, from the player's bonuses. */
const activeBonusIn = (
  bonuses: ReadonlyArray<{ id: string; name: string; status: string; currency: string; balance: string }>,
  currency: string,
): CashoutBonus | null => {
  const active = bonuses.find((b) => b.status === "active" && b.currency === currency)
  return active === undefined ? null : { id: active.id, name: active.name, balance: active.balance }
}

const walletsOf = (currencies: Currencies, fund: Fund | null): ReadonlyArray<string> =>
  (fund ?? []).map((f) => f.currency).filter((code) => currencies.some((c) => c.code === code))

const isVerified = (profile: Profile | null): boolean =>
  (profile?.idVerification.verified ?? false) && (profile?.billVerification.verified ?? false)

const emptyForm = { amountText: "", address: "", email: "", tab: "wallet" as FiatTab }

/**
 * The click on the amount step: one transition per check, each guarded by "is it the FIRST failing"
 * (the order lives in the rule, not in the order of these transitions).
 */
const clickOnAmount = [
  // Check 1: the button only looks disabled; the click changes nothing.
  { guard: { type: "isFirstFailing", params: { step: "amount", check: "belowMinimum" } } },
  ...(["notVerified", "notEnoughMoney", "destinationMissing"] as const).map((check) => ({
    guard: { type: "isFirstFailing" as const, params: { step: "amount" as const, check } },
    actions: { type: "showCheck" as const, params: { check } },
  })),
  {
    guard: { type: "needsForfeitConsent", params: { step: "amount" } },
    target: "#cashout.forfeit",
    actions: ["clearMessages", { type: "askForfeit", params: { from: "amount" } }],
  },
  { guard: "isCrypto", target: "#cashout.sending", actions: "clearMessages" },
  { target: "#cashout.fiat", actions: "clearMessages" },
] as const

/**
 * The click on the fiat step. The amount, the verification and the withdrawable cannot change there
 * (they passed on the amount step), so only check 4 can newly fail: the bank e-mail; the server
 * re-checks everything anyway.
 */
const clickOnFiat = [
  {
    guard: { type: "isFirstFailing", params: { step: "fiat", check: "destinationMissing" } },
    actions: { type: "showCheck", params: { check: "destinationMissing" } },
  },
  {
    guard: { type: "needsForfeitConsent", params: { step: "fiat" } },
    target: "#cashout.forfeit",
    actions: ["clearMessages", { type: "askForfeit", params: { from: "fiat" } }],
  },
  { target: "#cashout.sending", actions: "clearMessages" },
] as const

export const cashoutMachine = setup({
  types: {
    input: {} as CashoutInput,
    context: {} as CashoutContext,
    events: {} as CashoutEvent,
    output: {} as CashoutOutput,
  },
  delays: {
    /** Spec section 9: the modal form resets 500 ms after closing. */
    resetDelay: Constants.modalResetDelayMs,
  },
  actors: {
    /** The amount step's data for a currency; `null`: the fund is not known yet, read it first. */
    loadBasics: fromEffect((asked: string | null) =>
      Effect.gen(function* () {
        const fund =
          asked === null
            ? yield* profileClient.getFund().pipe(Effect.mapError((e) => new CashoutLoadFailed("profile", e)))
            : null
        const currency = asked ?? defaultWallet(fund) ?? fund?.[0]?.currency ?? "EUR"
        const [limits, withdrawable, profile, bonus] = yield* Effect.all(
          [
            walletClient
              .withdrawLimits({ params: { currency } })
              .pipe(Effect.mapError((e) => new CashoutLoadFailed("limits", e))),
            cashoutClient
              .withdrawable({ query: { currency } })
              .pipe(Effect.mapError((e) => new CashoutLoadFailed("withdrawable", e))),
            profileClient.getProfile().pipe(Effect.mapError((e) => new CashoutLoadFailed("profile", e))),
            // Only to ask before the request: without it the server still asks
            // (BonusForfeitRequired), so a failed read is not a failed step.
            bonusesClient.mine().pipe(
              Effect.map((mine) => activeBonusIn(mine.bonuses, currency)),
              Effect.orElseSucceed(() => null),
            ),
          ],
          { concurrency: "unbounded" },
        )
        const basics: CashoutBasics = {
          minWithdraw: limits.minWithdraw,
          withdrawable: withdrawable.withdrawable,
          verified: isVerified(profile),
          bonus,
          ...(fund === null ? {} : { fund: { fund, currency } }),
        }
        return basics
      }),
    ),
    withdraw: fromEffect((request: WithdrawRequest) =>
      Effect.gen(function* () {
        const withdrawal: Withdrawal = yield* withdraw(request)
        return withdrawal
      }),
    ),
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) =>
      params.error instanceof Unauthenticated ||
      (params.error instanceof CashoutLoadFailed && params.error.cause instanceof Unauthenticated),
    isWallet: ({ context }, params: { currency: string }) => context.wallets.includes(params.currency),
    isFirstFailing: ({ context }, params: { step: "amount" | "fiat"; check: CashoutCheck }) =>
      firstFailingCheck(factsOf(context, params.step)) === params.check,
    isCrypto: ({ context }) => isCryptoStep(context),
    /**
     * A crypto click sends from the amount step, a fiat one from the fiat step: the question comes
     * right before the request, after every check passed.
     */
    needsForfeitConsent: ({ context }, params: { step: "amount" | "fiat" }) =>
      context.bonus !== null &&
      !context.forfeitConfirmed &&
      (params.step === "fiat" || isCryptoStep(context)),
    cameFromFiat: ({ context }) => context.forfeitFrom === "fiat",
    isForfeitQuestion: (_, params: { error: unknown }) => params.error instanceof BonusForfeitRequired,
    showsNotVerified: ({ context }) => context.failed === "notVerified",
    isVerificationRefusal: (_, params: { error: unknown }) => params.error instanceof VerificationRequired,
    isRefusal: ({ context }, params: { error: unknown }) =>
      refusalMessage(withdrawFailure(params.error), context.currencies) !== null,
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    setAmount: assign((_, params: { value: string }) => ({
      amountText: params.value.slice(0, 12),
      failed: null,
      message: null,
    })),
    setAddress: assign((_, params: { value: string }) => ({
      address: params.value.slice(0, 128),
      failed: null,
      message: null,
    })),
    setEmail: assign((_, params: { value: string }) => ({
      email: params.value.slice(0, 254),
      failed: null,
      message: null,
    })),
    setCurrency: assign((_, params: { currency: string }) => ({
      currency: params.currency,
      minWithdraw: null,
      withdrawable: null,
      bonus: null,
      forfeitConfirmed: false,
      address: "",
      failed: null,
      message: null,
    })),
    setTab: assign((_, params: { tab: FiatTab }) => ({ tab: params.tab, failed: null, message: null })),
    useBasics: assign(({ context }, params: { basics: CashoutBasics }) => {
      const read = params.basics.fund
      const currency = read?.currency ?? context.currency
      return {
        ...(read === undefined
          ? {}
          : { wallets: walletsOf(context.currencies, read.fund), currency, fundKnown: true }),
        minWithdraw: params.basics.minWithdraw,
        withdrawable: params.basics.withdrawable,
        verified: params.basics.verified,
        bonus: params.basics.bonus,
        // Spec section 4: the amount is prefilled with minWithdraw once loaded.
        amountText: formatMinor(params.basics.minWithdraw, context.currencies, currency),
        loadError: null,
      }
    }),
    showLoadFailure: assign((_, params: { error: unknown }) => ({
      loadError:
        params.error instanceof CashoutLoadFailed ? params.error.message : CashoutMessages.withdrawableFailed,
    })),
    showCheck: assign((_, params: { check: CashoutCheck }) => ({ failed: params.check, message: null })),
    showRefusal: assign(({ context }, params: { error: unknown }) => ({
      message: refusalMessage(withdrawFailure(params.error), context.currencies),
      // A refused request forfeited nothing: the next one asks again.
      forfeitConfirmed: false,
    })),
    refusedVerification: assign({
      verified: false,
      failed: "notVerified" as const,
      message: null,
      forfeitConfirmed: false,
    }),
    askForfeit: assign((_, params: { from: "amount" | "fiat" }) => ({ forfeitFrom: params.from })),
    /** The server asked: the bonus it named, from the step the request was sent from. */
    askForfeitFromServer: assign(({ context }, params: { error: unknown }) =>
      params.error instanceof BonusForfeitRequired
        ? {
            bonus: { id: params.error.bonusId, name: params.error.name, balance: params.error.bonusBalance },
            forfeitConfirmed: false,
            forfeitFrom: isCryptoStep(context) ? ("amount" as const) : ("fiat" as const),
          }
        : {},
    ),
    confirmForfeit: assign({ forfeitConfirmed: true }),
    clearMessages: assign({ failed: null, message: null }),
    /** Closing clears the content at once (the form itself resets 500 ms later). */
    clearContent: assign({ failed: null, message: null, loadError: null }),
    resetForm: assign(emptyForm),
    endWithdrawn: assign({ outcome: { type: "cashoutClosed" } as const }),
    endSession: assign({ outcome: { type: "sessionEnded" } as const }),
    endForVerification: assign({ outcome: { type: "verificationNeeded" } as const }),
  },
}).createMachine({
  id: "cashout",
  context: ({ input }) => {
    const wallets = walletsOf(input.currencies, input.fund)
    const preferred = defaultWallet(input.fund)
    return {
      currencies: input.currencies,
      wallets,
      fundKnown: input.fund !== null,
      currency: preferred !== null && wallets.includes(preferred) ? preferred : (wallets[0] ?? "EUR"),
      ...emptyForm,
      minWithdraw: null,
      withdrawable: null,
      verified: isVerified(input.profile),
      bonus: null,
      forfeitConfirmed: false,
      forfeitFrom: "amount",
      loadError: null,
      failed: null,
      message: null,
      outcome: { type: "cashoutClosed" },
    }
  },
  initial: "form",
  output: ({ context }) => context.outcome,
  on: {
    CLOSE: ".closing",
  },
  states: {
    form: {
      initial: "loading",
      on: {
        AMOUNT: { actions: { type: "setAmount", params: ({ event }) => ({ value: event.value }) } },
        ADDRESS: { actions: { type: "setAddress", params: ({ event }) => ({ value: event.value }) } },
        CURRENCY: {
          guard: { type: "isWallet", params: ({ event }) => ({ currency: event.currency }) },
          target: ".loading",
          actions: { type: "setCurrency", params: ({ event }) => ({ currency: event.currency }) },
        },
      },
      states: {
        loading: {
          invoke: {
            id: "loadBasics",
            src: "loadBasics",
            input: ({ context }) => (context.fundKnown ? context.currency : null),
            onDone: {
              target: "ready",
              actions: { type: "useBasics", params: ({ event }) => ({ basics: event.output }) },
            },
            onError: [
              {
                guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
                target: "#cashout.sessionEnded",
              },
              {
                target: "failed",
                actions: { type: "showLoadFailure", params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
        /** "Get Withdrawable did not work" (spec section 8), with Try again. */
        failed: { on: { RETRY: "loading" } },
        ready: {
          on: {
            CASHOUT: clickOnAmount,
            VERIFY: { guard: "showsNotVerified", target: "#cashout.verification" },
          },
        },
      },
    },
    /** Fiat, step 2: the payment-wallet tab (the account's e-mail) or the Bank Account tab (an e-mail). */
    fiat: {
      on: {
        TAB: { actions: { type: "setTab", params: ({ event }) => ({ tab: event.tab }) } },
        EMAIL: { actions: { type: "setEmail", params: ({ event }) => ({ value: event.value }) } },
        BACK: { target: "#cashout.form.ready", actions: "clearMessages" },
        CASHOUT: clickOnFiat,
      },
    },
    /** What cashing out forfeits, and the choice: CONFIRM sends with consent, BACK keeps the bonus. */
    forfeit: {
      on: {
        CONFIRM: { target: "sending", actions: "confirmForfeit" },
        BACK: [{ guard: "cameFromFiat", target: "fiat" }, { target: "#cashout.form.ready" }],
      },
    },
    sending: {
      invoke: {
        id: "withdraw",
        src: "withdraw",
        input: ({ context }) => requestOf(context),
        onDone: {
          target: "closing",
          actions: [{ type: "toast", params: { kind: "success", message: CashoutMessages.requestSent } }],
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            guard: { type: "isForfeitQuestion", params: ({ event }) => ({ error: event.error }) },
            target: "forfeit",
            actions: { type: "askForfeitFromServer", params: ({ event }) => ({ error: event.error }) },
          },
          {
            guard: { type: "isVerificationRefusal", params: ({ event }) => ({ error: event.error }) },
            target: "#cashout.form.ready",
            actions: "refusedVerification",
          },
          {
            guard: { type: "isRefusal", params: ({ event }) => ({ error: event.error }) },
            target: "refused",
            actions: { type: "showRefusal", params: ({ event }) => ({ error: event.error }) },
          },
          {
            target: "closing",
            actions: { type: "toast", params: { kind: "error", message: CashoutMessages.requestFailed } },
          },
        ],
      },
    },
    /** A refusal goes back to the step the request came from, its message shown there. */
    refused: {
      always: [{ guard: "isCrypto", target: "#cashout.form.ready" }, { target: "fiat" }],
    },
    closing: {
      entry: "clearContent",
      on: { CLOSE: {} },
      after: {
        resetDelay: { target: "closed", actions: "resetForm" },
      },
    },
    closed: { type: "final", entry: "endWithdrawn" },
    verification: { type: "final", entry: "endForVerification" },
    sessionEnded: { type: "final", entry: "endSession" },
  },
})

/** Whether the cashout button should look disabled (check 1 fails): aria-disabled, the click still arrives. */
export const looksDisabled = (context: CashoutContext, step: "amount" | "fiat"): boolean =>
  context.minWithdraw === null || checkFails("belowMinimum", factsOf(context, step))

/** The forfeit question's words for the bonus the step holds (null: no bonus to forfeit). */
export const forfeitQuestion = (context: CashoutContext): string | null =>
  context.bonus === null
    ? null
    : CashoutMessages.forfeitBonus(
        context.bonus.name,
        formatMinor(context.bonus.balance, context.currencies, context.currency),
        currencyDisplayName(context.currency),
      )
