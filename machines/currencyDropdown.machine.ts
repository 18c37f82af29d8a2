/**
 * The currency dropdown (spec section 2): Cryptocurrency and Fiat groups; closes on an outside click
 * or the Escape key (key code 27). Selecting emits `selected`, which the host form turns into its
 * own event — the dropdown knows nothing about the form it serves.
 */
import { assign, emit, setup } from "xstate"
import { Constants } from "../services/rules.ts"

export interface CurrencyDropdownInput {
  readonly selected: string
}

export type CurrencyDropdownEvent =
  | { readonly type: "TOGGLE" }
  | { readonly type: "SELECT"; readonly code: string }
  | { readonly type: "OUTSIDE_CLICK" }
  | { readonly type: "KEY_DOWN"; readonly keyCode: number }
  | { readonly type: "SYNC"; readonly selected: string }

export type CurrencyDropdownEmitted = { readonly type: "selected"; readonly code: string }

export const isEscapeKey = (keyCode: number): boolean => keyCode === Constants.escapeKeyCode

export const currencyDropdownMachine = setup({
  types: {
    input: {} as CurrencyDropdownInput,
    context: {} as { readonly selected: string },
    events: {} as CurrencyDropdownEvent,
    emitted: {} as CurrencyDropdownEmitted,
  },
  guards: {
    isEscapeKey: ({ event }) => event.type === "KEY_DOWN" && isEscapeKey(event.keyCode),
  },
}).createMachine({
  id: "currencyDropdown",
  context: ({ input }) => ({ selected: input.selected }),
  initial: "closed",
  on: {
    /** The host's value changed from elsewhere (e.g. a form reset). */
    SYNC: { actions: assign({ selected: ({ event }) => event.selected }) },
  },
  states: {
    closed: {
      on: { TOGGLE: "open" },
    },
    open: {
      on: {
        TOGGLE: "closed",
        OUTSIDE_CLICK: "closed",
        KEY_DOWN: { guard: "isEscapeKey", target: "closed" },
        SELECT: {
          target: "closed",
          actions: [
            assign({ selected: ({ event }) => event.code }),
            emit(({ event }) => ({ type: "selected" as const, code: event.code })),
          ],
        },
      },
    },
  },
})
