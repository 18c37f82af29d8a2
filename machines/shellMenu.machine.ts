/**
 * The header's account menu on a phone (Deposit, Cash out, the account, Sign out; the header has no
 * room for them as buttons). Closed until the menu button opens it; choosing an item, Escape, a tap
 * outside or a new page closes it. The view (ui/shell/Header.tsx) renders the state and sends events.
 */
import { setup } from "xstate"

export type ShellMenuEvent =
  | { readonly type: "TOGGLE" }
  | { readonly type: "OPEN" }
  | { readonly type: "CLOSE" }
  /** The address changed (a link in the menu, back/forward): the menu does not outlive its page. */
  | { readonly type: "PAGE_CHANGED"; readonly path: string }

export const shellMenuMachine = setup({
  types: {
    events: {} as ShellMenuEvent,
  },
}).createMachine({
  id: "shellMenu",
  initial: "closed",
  states: {
    closed: {
      on: { TOGGLE: "open", OPEN: "open" },
    },
    open: {
      on: { TOGGLE: "closed", CLOSE: "closed", PAGE_CHANGED: "closed" },
    },
  },
})
