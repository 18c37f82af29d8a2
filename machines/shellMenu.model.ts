import { defineModel } from "./model.ts"
import { shellMenuMachine } from "./shellMenu.machine.ts"

export const model = defineModel({
  name: "shellMenu",
  machine: shellMenuMachine,
  events: [
    { type: "TOGGLE" },
    { type: "OPEN" },
    { type: "CLOSE" },
    { type: "PAGE_CHANGED", path: "/profile" },
  ],
})
