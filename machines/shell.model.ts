import { fixtureCurrencies, fixtureSiteConfig, fixtureUser } from "./flowFixtures.ts"
import { defineModel } from "./model.ts"
import { shellMachine } from "./shell.machine.ts"

const siteConfig = fixtureSiteConfig
const currencies = fixtureCurrencies
const user = fixtureUser

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
    { type: "NAVIGATE", path: "/profile" },
    { type: "NAVIGATE", path: "/profile/security" },
    { type: "LOCATION_CHANGED", path: "/profile/verification" },
    { type: "xstate.done.actor.loadProfileArea" },
    {
      type: "xstate.error.actor.loadProfileArea",
      error: new TypeError("Failed to fetch dynamically imported module"),
    },
    { type: "xstate.error.actor.profileArea", error: new Error("profile area crashed") },
    { type: "NAVIGATE", path: "/game/dice-classic" },
    { type: "LOCATION_CHANGED", path: "/fairness" },
    { type: "xstate.done.actor.loadGamesArea" },
    {
      type: "xstate.error.actor.loadGamesArea",
      error: new TypeError("Failed to fetch dynamically imported module"),
    },
    { type: "xstate.error.actor.gamesArea", error: new Error("games area crashed") },
    { type: "OPEN_LOGIN" },
    { type: "ACCOUNT_CHANGED" },
    { type: "PAGE_VISIBLE" },
    { type: "UNEXPECTED_ERROR", error: { name: "TypeError", message: "x is undefined" } },
    { type: "SIGNED_IN", user },
    { type: "AUTH_RECHECK" },
    { type: "SHOW_LOADING" },
    { type: "HIDE_LOADING" },
  ],
  projectContext: (snapshot) => ({ path: snapshot.context.path, crashed: snapshot.context.error !== null }),
})
