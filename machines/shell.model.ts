import { defineModel } from "./model.ts"
import { shellMachine } from "./shell.machine.ts"

const siteConfig = {
  productName: "Casino",
  supportEmail: "support@casino.example",
  blockedEmailDomains: ["blocked-one.example"],
  tutorialVideoUrl: "/media/tutorial.mp4",
  defaultCurrency: "EUR",
  languages: ["en"],
}
const currencies = [
  { code: "EUR", name: "Euro", symbol: "€", type: "FIAT", fiat: true, subunits_to_unit: "100" },
] as const
const user = { id: "u-1", email: "ada@example.com", fullName: "Ada Lovelace", confirmed: true }

export const model = defineModel({
  name: "shell",
  // Children (auth, modals) are long-lived actors with their own models; DOM actions are the entry point's.
  machine: shellMachine,
  input: { path: "/", search: "" },
  events: [
    {
      type: "xstate.done.actor.boot",
      output: { ip: { country: "Malta", isoCode: "MT" }, restricted: ["US", "GB"], siteConfig, currencies },
    },
    {
      type: "xstate.done.actor.boot",
      output: {
        ip: { country: "United Kingdom", isoCode: "GB" },
        restricted: ["US", "GB"],
        siteConfig,
        currencies,
      },
    },
    { type: "xstate.error.actor.boot", error: new Error("Client Ip went wrong") },
    { type: "xstate.error.actor.auth", error: new Error("auth crashed") },
    { type: "xstate.error.actor.modals", error: new Error("modals crashed") },
    { type: "xstate.done.actor.reportError" },
    { type: "xstate.error.actor.reportError", error: new Error("logger down") },
    { type: "NAVIGATE", path: "/terms" },
    { type: "NAVIGATE", path: "/", reloadIfSame: true },
    { type: "LOCATION_CHANGED", path: "/" },
    { type: "UNEXPECTED_ERROR", error: { name: "TypeError", message: "x is undefined" } },
    { type: "SIGNED_IN", user },
    { type: "AUTH_RECHECK" },
    { type: "SHOW_LOADING" },
    { type: "HIDE_LOADING" },
  ],
  projectContext: (snapshot) => ({ path: snapshot.context.path, crashed: snapshot.context.error !== null }),
})
