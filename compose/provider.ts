/**
 * `npm run provider -- <party>`: one outside party's sandbox ALONE, as its provider's test
 * environment would run (its own port, its own storage, its own variables: see its main.ts), with
 * no casino in the process. The casino is then pointed at it by configuration.
 */
import type { PartyName } from "./party.ts"

const entries: Readonly<Record<PartyName, string>> = {
  chains: "../providers/chains/main.ts",
  payments: "../providers/payment-sandbox/main.ts",
  onramp: "../providers/onramp-sandbox/main.ts",
  studio: "../providers/game-studio/main.ts",
}

const name = process.argv[2]
const entry = name === undefined ? undefined : entries[name as PartyName]
if (entry === undefined) {
  console.error(`usage: npm run provider -- <${Object.keys(entries).join("|")}>`)
  process.exit(2)
}
await import(entry)
