/**
 * The deposit dialog's payment step (spec sections 4, 5, 7, 9): the method list and the payment.
 *
 * - `methods`: Card, Skrill, Jeton, MiFinity; a click is counted (`POST /api/analytics/events`, fire
 *   and forget), then the profile completion step (depositProfile.machine.ts) asks the fields the
 *   method needs, if any; the server's ProfileIncomplete leads there too. BACK: to the amount step.
 * - `card`: only if amount × eurRate ≥ 10 EUR; the enabled gateways are read and the first one not
 *   marked failed in the payment_config cookie is asked; GatewayUnavailable marks it 'Failed to
 *   process' (written to the cookie) and the next one is tried; none left → message.
 * - `skrill`, `jeton` (Checkout, QR, Cash tabs), `mifinity`: one call each.
 * - A `redirectUrl` ends the step with `frame`: the dialog hands the page to the iframe modal. The
 *   amount's own problems (limit, minimum) end it back at the amount step with the message; any
 *   other refusal is said above the method list.
 *
 * Invoked by machines/wallet/deposit.machine.ts after "Play with" (the list), or with the method of
 * a declined or expired payment (Try again: straight to the profile check and the payment).
 */
import { Effect } from "effect"
import { assign, sendParent, setup } from "xstate"
import { analyticsClient } from "../../../services/clients/analytics.ts"
import { GatewayUnavailable, ProfileIncomplete } from "../../../services/errors.ts"
import {
  type FiatMethod,
  MoneyMessages,
  markFailed,
  nextGateway,
  passesGatewayGate,
} from "../../../services/money-rules.ts"
import { writePaymentConfig } from "../../../services/payment-cookie.ts"
import type { ProfileField } from "../../../services/profile-rules.ts"
import type { DepositResponse } from "../../../services/wallet-service.ts"
import type { AccountChanged } from "../../profile/support.ts"
import { quoteOf } from "../support.ts"
import { loadGateways, pay } from "./calls.ts"
import { depositProfileMachine } from "./depositProfile.machine.ts"
import {
  askedFields,
  bodyOf,
  configOf,
  depositFailureMessage,
  endsSession,
  frameOf,
  isAmountProblem,
  isGatewaySegment,
  isProfileField,
} from "./rules.ts"
import type {
  JetonTab,
  PaymentEnd,
  PaymentInput,
  PaymentOutput,
  PayRequest,
  ProfileStepOutput,
} from "./types.ts"

export type PaymentEvent =
  | { readonly type: "CHOOSE_METHOD"; readonly method: FiatMethod }
  | { readonly type: "JETON"; readonly tab: JetonTab }
  | { readonly type: "BACK" }
  | AccountChanged

export interface PaymentContext extends PaymentInput {
  /** The enabled card gateways, in cascade order. */
  readonly gateways: ReadonlyArray<string>
  /** The gateway asked now. */
  readonly gateway: string | null
  /** The fields the server asked for (ProfileIncomplete); null: the method's missing ones. */
  readonly askedFields: ReadonlyArray<ProfileField> | null
  readonly end: PaymentEnd
}

type ErrorParams = { readonly event: { readonly error: unknown } }
type DoneParams = { readonly event: { readonly output: DepositResponse } }

/**
 * The errors every deposit call shares, in order: a gone session ends the dialog; missing profile
 * fields lead to the completion step; the amount's problems (limit, minimum) back to the amount
 * step; anything else is a message on the method list.
 */
const payErrors = [
  {
    guard: { type: "isSessionGone", params: ({ event }: ErrorParams) => ({ error: event.error }) },
    target: "#depositPayment.sessionEnded",
  },
  {
    guard: { type: "needsProfileFields", params: ({ event }: ErrorParams) => ({ error: event.error }) },
    target: "#depositPayment.profile",
    actions: { type: "askForFields", params: ({ event }: ErrorParams) => ({ error: event.error }) },
  },
  {
    guard: { type: "isAmountProblem", params: ({ event }: ErrorParams) => ({ error: event.error }) },
    target: "#depositPayment.toAmount",
    actions: { type: "showFailure", params: ({ event }: ErrorParams) => ({ error: event.error }) },
  },
  {
    target: "#depositPayment.methods",
    actions: { type: "showFailure", params: ({ event }: ErrorParams) => ({ error: event.error }) },
  },
] as const

/** A deposit call's answer: its page opens in the frame; without one there is nothing to show. */
const payDone = [
  {
    guard: { type: "hasPage", params: ({ event }: DoneParams) => ({ response: event.output }) },
    target: "#depositPayment.frame",
    actions: { type: "openFrame", params: ({ event }: DoneParams) => ({ response: event.output }) },
  },
  {
    target: "#depositPayment.methods",
    actions: { type: "showMessage", params: { message: MoneyMessages.depositFailed } },
  },
] as const

export const depositPaymentMachine = setup({
  types: {
    input: {} as PaymentInput,
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    output: {} as PaymentOutput,
    children: {} as { profile: "depositProfile" },
  },
  actors: { loadGateways, pay, depositProfile: depositProfileMachine },
  guards: {
    paysAgain: ({ context }) => context.method !== null,
    isSessionGone: (_, params: { error: unknown }) => endsSession(params.error),
    profileComplete: (_, params: { output: ProfileStepOutput }) => params.output.type === "complete",
    profileFailed: (_, params: { output: ProfileStepOutput }) => params.output.type === "failed",
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
    /** From the completion step (a save): relayed to the dialog. */
    announceChange: sendParent({ type: "ACCOUNT_CHANGED" }),
    chooseMethod: assign((_, params: { method: FiatMethod }) => ({
      method: params.method,
      askedFields: null,
      message: null,
    })),
    askForFields: assign((_, params: { error: unknown }) => ({ askedFields: askedFields(params.error) })),
    useProfile: assign(({ context }, params: { output: ProfileStepOutput }) => ({
      profile: params.output.type === "complete" ? params.output.profile : context.profile,
    })),
    showMessage: assign((_, params: { message: string }) => ({ message: params.message })),
    clearMessage: assign({ message: null }),
    showFailure: assign(({ context }, params: { error: unknown }) => ({
      message: depositFailureMessage(context.currencies, params.error),
    })),
    useGateways: assign((_, params: { gateways: ReadonlyArray<string> }) => ({ gateways: params.gateways })),
    pickGateway: assign(({ context }) => ({ gateway: nextGateway(context.gateways, context.config) })),
    markGatewayFailed: assign(({ context }) => ({
      config: context.gateway === null ? context.config : markFailed(configOf(context), context.gateway),
    })),
    chooseJeton: assign((_, params: { tab: JetonTab }) => ({ jetonTab: params.tab, message: null })),
    openFrame: assign(({ context }, params: { response: DepositResponse }) => ({
      end: frameOf(params.response, context.currency),
    })),
    endSession: assign({ end: { type: "sessionEnded" } as const }),
    backToAmount: assign({ end: { type: "amount" } as const }),
  },
}).createMachine({
  id: "depositPayment",
  context: ({ input }) => ({
    ...input,
    gateways: [],
    gateway: null,
    askedFields: null,
    end: { type: "amount" },
  }),
  initial: "opening",
  output: ({ context }) => ({
    end: context.end,
    message: context.message,
    profile: context.profile,
    config: context.config,
  }),
  on: {
    ACCOUNT_CHANGED: { actions: "announceChange" },
  },
  states: {
    /** Try again (a method given): the same method at once; else the list. */
    opening: {
      always: [{ guard: "paysAgain", target: "profile" }, { target: "methods" }],
    },
    methods: {
      on: {
        CHOOSE_METHOD: {
          target: "profile",
          actions: [
            { type: "chooseMethod", params: ({ event }) => ({ method: event.method }) },
            {
              type: "trackMethod",
              params: ({ context, event }) => ({ method: event.method, currency: context.currency }),
            },
          ],
        },
        BACK: { target: "toAmount", actions: "clearMessage" },
      },
    },
    /** The fields the method needs, asked when missing (depositProfile.machine.ts). */
    profile: {
      invoke: {
        id: "profile",
        src: "depositProfile",
        input: ({ context }) => ({
          profile: context.profile,
          method: context.method,
          fields: context.askedFields,
        }),
        onDone: [
          {
            guard: { type: "profileComplete", params: ({ event }) => ({ output: event.output }) },
            target: "routing",
            actions: { type: "useProfile", params: ({ event }) => ({ output: event.output }) },
          },
          {
            guard: { type: "profileFailed", params: ({ event }) => ({ output: event.output }) },
            target: "methods",
            actions: { type: "showMessage", params: { message: MoneyMessages.depositFailed } },
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
              target: "#depositPayment.methods",
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
                target: "#depositPayment.sessionEnded",
              },
              {
                target: "#depositPayment.methods",
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
              target: "#depositPayment.methods",
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
    /** The provider's page: the dialog hands it to the iframe modal. */
    frame: { type: "final" },
    sessionEnded: { type: "final", entry: "endSession" },
    /** Back to the amount step: BACK from the list, or the amount's problem with its message. */
    toAmount: { type: "final", entry: "backToAmount" },
  },
})
