import { currencyDropdownMachine } from "./currencyDropdown.machine.ts"
import { defineModel } from "./model.ts"

export const model = defineModel({
  name: "currencyDropdown",
  machine: currencyDropdownMachine,
  input: { selected: "EUR" },
  events: [
    { type: "TOGGLE" },
    { type: "SELECT", code: "BTC" },
    { type: "OUTSIDE_CLICK" },
    { type: "KEY_DOWN", keyCode: 27 },
    { type: "KEY_DOWN", keyCode: 13 },
    { type: "SYNC", selected: "USD" },
  ],
  projectContext: (snapshot) => snapshot.context.selected,
})
