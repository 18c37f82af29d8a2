/**
 * Generated-path model of machines/wallet/currency.machine.ts: the player with a EUR wallet (default)
 * and a USD one adds a wallet (without a choice first), or makes USD the default; every outcome of
 * both calls.
 */
import { Unauthenticated, WalletExists } from "../../services/errors.ts"
import { transportError } from "../flowFixtures.ts"
import { defineModel } from "../model.ts"
import { currencyMachine } from "./currency.machine.ts"
import { fixtureCurrenciesWithGbp, twoWallets } from "./fixtures.ts"

const gone = new Unauthenticated({ message: "Session expired" })

export const model = defineModel({
  name: "currency",
  machine: currencyMachine.provide({ actions: { toast: () => {} } }),
  input: { currencies: fixtureCurrenciesWithGbp, fund: twoWallets },
  events: [
    { type: "SELECT", currency: "GBP" },
    { type: "ADD" },
    { type: "MAKE_DEFAULT", currency: "USD" },
    // Already the default: refused by the guard (no call).
    { type: "MAKE_DEFAULT", currency: "EUR" },
    { type: "xstate.done.actor.add", output: twoWallets },
    { type: "xstate.error.actor.add", error: new WalletExists({ message: "exists", currency: "GBP" }) },
    { type: "xstate.error.actor.add", error: gone },
    { type: "xstate.done.actor.makeDefault", output: twoWallets },
    { type: "xstate.error.actor.makeDefault", error: transportError() },
    { type: "xstate.error.actor.makeDefault", error: gone },
  ],
  projectContext: (snapshot) => ({
    selected: snapshot.context.selected,
    error: snapshot.context.error !== null,
  }),
})
