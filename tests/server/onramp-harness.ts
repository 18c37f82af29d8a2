/**
 * Test harness of the sandbox on-ramp: the provider ALONE on its own server
 * (server/providers/onramp-sandbox/standalone.ts) on PGlite or a fresh PostgreSQL database, with a
 * TEST faucet double that records every send (tests only; the real faucets are the chain sandboxes').
 */
import { createHash } from "node:crypto"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { type AppConfigShape, loadConfig } from "../../server/config.ts"
import { ChainUnavailable, type SandboxFaucet } from "../../server/crypto/chain.ts"
import { OnrampFaucets } from "../../server/providers/onramp-sandbox/OnrampFaucets.ts"
import { makeOnrampServer, type OnrampServer } from "../../server/providers/onramp-sandbox/standalone.ts"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import { createDatabase, seedPgliteDataDir } from "../support/databases.ts"
import { freePort } from "../support/server.ts"
import { queryThrough } from "./harness.ts"
import type { Backend } from "./payment-sandbox-harness.ts"

export { describeSandboxBackends as describeOnrampBackends, eventually } from "./payment-sandbox-harness.ts"
export type { Backend }

export interface Send {
  readonly currency: CryptoCurrency
  readonly to: string
  readonly amount: bigint
  readonly txHash: string
}

/** A faucet double: records each send and answers a deterministic hash; `down` makes it fail. */
export const recordingFaucet = (currencies: ReadonlyArray<CryptoCurrency>) => {
  const sends: Array<Send> = []
  const state = { down: false }
  const faucet: SandboxFaucet = {
    currencies,
    send: (currency, to, amount) =>
      state.down
        ? Effect.fail(new ChainUnavailable({ network: "test", message: "node down" }))
        : Effect.sync(() => {
            const txHash = `0x${createHash("sha256").update(`${sends.length}:${currency}:${to}:${amount}`).digest("hex")}`
            sends.push({ currency, to, amount, txHash })
            return txHash
          }),
  }
  return { faucet, sends, state }
}

export interface OnrampTest {
  readonly url: string
  readonly config: AppConfigShape
  readonly sends: Array<Send>
  readonly faucetState: { down: boolean }
  readonly query: <T = Record<string, unknown>>(
    text: string,
    params?: ReadonlyArray<unknown>,
  ) => Promise<Array<T>>
  readonly server: OnrampServer
  readonly close: () => Promise<void>
}

export const onrampTestSecret = "onramp-test-secret-0123456789abcdef0123456789"

/** The faucet double sells BTC, LTC, ETH and USDT — not DOGE (the "not available" case). */
export const startOnramp = async (
  backend: Backend,
  env: Record<string, string> = {},
): Promise<OnrampTest> => {
  const dataDir = await mkdtemp(join(tmpdir(), "casino-onramp-test-"))
  let drop: (() => Promise<void>) | undefined
  let databaseUrl: string | undefined
  if (backend === "postgres") {
    const db = await createDatabase("casino_onramp")
    databaseUrl = db.url
    drop = db.drop
  } else {
    await seedPgliteDataDir(dataDir)
  }
  const port = await freePort()
  const config = loadConfig({
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "Error",
    NODE_ENV: "test",
    ONRAMP_SECRET: onrampTestSecret,
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    ...env,
  })
  const { faucet, sends, state } = recordingFaucet(["BTC", "LTC", "ETH", "USDT"])
  const server = await makeOnrampServer(config, OnrampFaucets.fromFaucets([faucet]))
  const query = queryThrough(server.run)
  let closing: Promise<void> | undefined
  return {
    url: server.url,
    config,
    sends,
    faucetState: state,
    query,
    server,
    close: () => {
      closing ??= (async () => {
        await server.close()
        if (drop !== undefined) await drop()
        await rm(dataDir, { recursive: true, force: true })
      })()
      return closing
    },
  }
}
