/** What the e2e global setup hands to the test workers, through their inherited environment. */
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")

export const E2E_ENV = {
  baseUrl: "E2E_BASE_URL",
  outboxDir: "E2E_OUTBOX_DIR",
  databaseUrl: "E2E_DATABASE_URL",
  /** The server's DATA_DIR: the operator command reaches an embedded database through it. */
  dataDir: "E2E_DATA_DIR",
  /** The e2e server's local EVM chain (anvil, JSON-RPC): the crypto journeys pay and mine on it. */
  evmRpcUrl: "E2E_EVM_RPC_URL",
} as const

/** Where the workers find a sandbox party's pages and API: E2E_PARTY_PAYMENTS_URL, E2E_PARTY_STUDIO_URL… */
export const partyUrlEnv = (party: string): string => `E2E_PARTY_${party.toUpperCase()}_URL`

export const requiredEnv = (name: string): string => {
  const value = process.env[name]
  if (value === undefined || value === "") {
    throw new Error(
      `${name} is not set: run the e2e tests through playwright.config.ts (its global setup starts the server)`,
    )
  }
  return value
}
