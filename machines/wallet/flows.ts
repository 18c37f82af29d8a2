/**
 * The money flows as ONE chunk (the modal host imports this module lazily): opening any of them loads
 * the three, so the first screen names one download instead of three (machines/modals.machine.ts).
 */
export { cashoutMachine } from "./cashout.machine.ts"
export { currencyMachine } from "./currency.machine.ts"
export { depositMachine } from "./deposit.machine.ts"
export { iframeMachine } from "./iframe.machine.ts"
