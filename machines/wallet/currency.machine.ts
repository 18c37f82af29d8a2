/**
 * The currency modal (spec sections 2, 5, 7 and 8): the player's wallets, reached from the header's
 * balance. Make a wallet the default (`PUT …/profile/currency`) or add one (`POST`): "Currency is
 * added!" / "Couldn't add currency, please contact support"; adding without a choice is refused
 * with "Selected currency is required.". A success ends the flow with `fundChanged` (the modal host
 * has the session read its fund again); a 401 ends it with `sessionEnded`.
 */
import { Effect } from "effect"
import { assign, setup } from "xstate"
import { fromEffect } from "../../services/bridge.ts"
import type { Currencies } from "../../services/cdn.ts"
import { walletClient } from "../../services/clients/wallet.ts"
import { Unauthenticated } from "../../services/errors.ts"
import { MoneyMessages } from "../../services/money-rules.ts"
import { notify } from "../../services/notify.ts"
import type { Fund } from "../../services/profile-service.ts"
import type { ToastParams } from "../flowSupport.ts"
import { fiatCurrencies, hasWallet, type WalletOutput } from "./support.ts"

export const CurrencyMessages = {
  ...MoneyMessages,
  defaultFailed: "The default currency could not be changed, please try again",
} as const

export interface CurrencyInput {
  readonly currencies: Currencies
  /** The session's wallets when the modal opened. */
  readonly fund: Fund | null
}

export interface CurrencyContext {
  readonly currencies: Currencies
  readonly fund: Fund
  /** The currency chosen in the "add a wallet" selector ("" = none yet). */
  readonly selected: string
  /** The currency being made the default, while that call runs. */
  readonly makingDefault: string | null
  readonly error: string | null
  readonly outcome: WalletOutput
}

export type CurrencyEvent =
  | { readonly type: "SELECT"; readonly currency: string }
  | { readonly type: "ADD" }
  | { readonly type: "MAKE_DEFAULT"; readonly currency: string }

/** The currencies a player may add now: fiat ones (see support.ts) they have no wallet in. */
export const addableCurrencies = (context: Pick<CurrencyContext, "currencies" | "fund">): Currencies =>
  fiatCurrencies(context.currencies).filter((c) => !hasWallet(context.fund, c.code))

export const currencyMachine = setup({
  types: {
    input: {} as CurrencyInput,
    context: {} as CurrencyContext,
    events: {} as CurrencyEvent,
    output: {} as WalletOutput,
  },
  actors: {
    add: fromEffect((currency: string) =>
      Effect.gen(function* () {
        return yield* walletClient.addCurrency({ payload: { currency } })
      }),
    ),
    makeDefault: fromEffect((currency: string) =>
      Effect.gen(function* () {
        return yield* walletClient.setDefaultCurrency({ payload: { currency } })
      }),
    ),
  },
  guards: {
    isSessionGone: (_, params: { error: unknown }) => params.error instanceof Unauthenticated,
    nothingSelected: ({ context }) => context.selected === "",
    /** A wallet the player has and that is not the default already. */
    canMakeDefault: ({ context }, params: { currency: string }) =>
      context.fund.some((f) => f.currency === params.currency && !f.default),
  },
  actions: {
    toast: (_, params: ToastParams) => notify(params.kind, params.message),
    select: assign((_, params: { currency: string }) => ({ selected: params.currency, error: null })),
    showError: assign((_, params: { message: string }) => ({ error: params.message })),
    changed: assign({ outcome: { type: "fundChanged" } as const }),
  },
}).createMachine({
  id: "currency",
  context: ({ input }) => ({
    currencies: input.currencies,
    fund: input.fund ?? [],
    selected: "",
    makingDefault: null,
    error: null,
    outcome: { type: "sessionEnded" },
  }),
  initial: "idle",
  output: ({ context }) => context.outcome,
  states: {
    idle: {
      on: {
        SELECT: { actions: { type: "select", params: ({ event }) => ({ currency: event.currency }) } },
        ADD: [
          {
            guard: "nothingSelected",
            actions: { type: "showError", params: { message: MoneyMessages.currencyRequired } },
          },
          { target: "adding" },
        ],
        MAKE_DEFAULT: {
          guard: { type: "canMakeDefault", params: ({ event }) => ({ currency: event.currency }) },
          target: "makingDefault",
          actions: assign({ makingDefault: ({ event }) => event.currency, error: null }),
        },
      },
    },
    adding: {
      invoke: {
        id: "add",
        src: "add",
        input: ({ context }) => context.selected,
        onDone: {
          target: "done",
          actions: [
            "changed",
            { type: "toast", params: { kind: "success", message: MoneyMessages.currencyAdded } },
          ],
        },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            target: "idle",
            actions: [
              { type: "showError", params: { message: MoneyMessages.currencyAddFailed } },
              { type: "toast", params: { kind: "error", message: MoneyMessages.currencyAddFailed } },
            ],
          },
        ],
      },
    },
    makingDefault: {
      exit: assign({ makingDefault: null }),
      invoke: {
        id: "makeDefault",
        src: "makeDefault",
        input: ({ context }) => context.makingDefault ?? "",
        onDone: { target: "done", actions: "changed" },
        onError: [
          {
            guard: { type: "isSessionGone", params: ({ event }) => ({ error: event.error }) },
            target: "sessionEnded",
          },
          {
            target: "idle",
            actions: { type: "showError", params: { message: CurrencyMessages.defaultFailed } },
          },
        ],
      },
    },
    done: { type: "final" },
    sessionEnded: { type: "final" },
  },
})
