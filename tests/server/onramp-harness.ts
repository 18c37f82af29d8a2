/**
 * Test harness of the sandbox on-ramp: the provider ALONE on its own server
 * (providers/onramp-sandbox/server.ts) with its own storage — PGlite in its data directory, or its
 * schema `onramp_sandbox` in a fresh PostgreSQL database — and, as the chains it pays through, a
 * TEST faucet double speaking the chains' faucet API over HTTP (protocols/chains/faucet.ts) that
 * records every payment (or the real chains party, see onramp.chains.test.ts). No casino.
 */
import { createHash } from "node:crypto"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer, type IncomingHttpHeaders } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, it } from "vitest"
import { FAUCET_PATH, type FaucetRequest } from "../../protocols/chains/faucet.ts"
import { onrampAdapters } from "../../protocols/onramp/index.ts"
import { loadOnrampSandboxConfig, type OnrampSandboxConfig } from "../../providers/onramp-sandbox/config.ts"
import { sandboxWidgetCredentials } from "../../providers/onramp-sandbox/credentials.ts"
import { type OnrampSandboxServer, startOnrampSandbox } from "../../providers/onramp-sandbox/server.ts"
import type { CryptoCurrency } from "../../services/crypto-service.ts"
import type { OnrampFamily } from "../../services/onramp-rules.ts"
import { createDatabase, seedPgliteDataDir } from "../support/databases.ts"
import { freePort } from "../support/server.ts"
import { postgresUnavailable, queryThrough, testDatabaseUrl } from "./harness.ts"

export type Backend = "pglite" | "postgres"

export interface Send {
  readonly currency: CryptoCurrency
  readonly to: string
  readonly amount: bigint
  readonly txHash: string
}

// ---- the chains' faucet, a double over HTTP -------------------------------------------------------

export interface FaucetDouble {
  readonly url: string
  readonly sends: Array<Send>
  /** While true the double answers 503, as chains whose node is down. */
  readonly state: { down: boolean }
  readonly close: () => Promise<void>
}

/** Answers `POST /faucet` with a deterministic hash and records the payment. */
export const startFaucetDouble = async (): Promise<FaucetDouble> => {
  const sends: Array<Send> = []
  const state = { down: false }
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify(body))
      }
      if (req.method !== "POST" || req.url !== FAUCET_PATH) return answer(404, { error: "not found" })
      if (state.down) return answer(503, { error: "node down" })
      const { currency, to, amount } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as FaucetRequest
      const txHash = `0x${createHash("sha256").update(`${sends.length}:${currency}:${to}:${amount}`).digest("hex")}`
      sends.push({ currency, to, amount: BigInt(amount), txHash })
      return answer(200, { txHash })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    sends,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

// ---- the casino's side of the callbacks, a receiver ------------------------------------------------

export interface ReceivedCallback {
  readonly headers: IncomingHttpHeaders
  readonly path: string
  readonly body: string
}

export interface Receiver {
  /** Its origin: the callback URL is `${url}/api/crypto/onramp/{widget}/callback`. */
  readonly url: string
  readonly received: Array<ReceivedCallback>
  readonly close: () => Promise<void>
}

export const startReceiver = async (): Promise<Receiver> => {
  const received: Array<ReceivedCallback> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      received.push({
        headers: req.headers,
        path: req.url ?? "",
        body: Buffer.concat(chunks).toString("utf8"),
      })
      res.writeHead(200, { "content-type": "application/json" })
      res.end(`{"received":true}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Polls `check` until it returns a value (not a timed assertion: the test's own timeout bounds it). */
export const eventually = async <A>(check: () => Promise<A | undefined>, everyMs = 100): Promise<A> => {
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

// ---- the on-ramp alone --------------------------------------------------------------------------

export interface OnrampTest {
  readonly url: string
  readonly dataDir: string
  readonly config: OnrampSandboxConfig
  readonly query: <T = Record<string, unknown>>(
    text: string,
    params?: ReadonlyArray<unknown>,
  ) => Promise<Array<T>>
  readonly server: OnrampSandboxServer
  /** The address the casino's frame would open for this widget, currency and deposit address. */
  readonly widgetUrl: (widget: OnrampFamily, currency: CryptoCurrency, address: string) => string
  readonly close: () => Promise<void>
}

export const onrampTestSecret = "onramp-test-secret-0123456789abcdef0123456789"
/** The casino origins allowed to frame the pages in these tests. */
export const casinoOrigins = ["http://localhost:8080", "http://127.0.0.1:8080"] as const

/** The sandbox on-ramp alone; `env` adds ONRAMP_SANDBOX_* variables (CHAINS_URL, CALLBACK_URL…). */
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
  const config = loadOnrampSandboxConfig({
    ONRAMP_SANDBOX_PORT: String(port),
    ONRAMP_SANDBOX_HOST: "127.0.0.1",
    ONRAMP_SANDBOX_PUBLIC_URL: `http://127.0.0.1:${port}`,
    ONRAMP_SANDBOX_DATA_DIR: dataDir,
    ONRAMP_SANDBOX_SECRET: onrampTestSecret,
    ONRAMP_SANDBOX_FRAME_ANCESTORS: casinoOrigins.join(","),
    ONRAMP_SANDBOX_LOG_LEVEL: process.env.LOG_LEVEL ?? "Error",
    ONRAMP_SANDBOX_NODE_ENV: "test",
    ...(databaseUrl === undefined ? {} : { ONRAMP_SANDBOX_DATABASE_URL: databaseUrl }),
    ...env,
  })
  const server = await startOnrampSandbox(config).catch(async (error: unknown) => {
    await drop?.()
    await rm(dataDir, { recursive: true, force: true })
    throw error
  })
  let closing: Promise<void> | undefined
  return {
    url: server.url,
    dataDir,
    config,
    query: queryThrough(server.run),
    server,
    widgetUrl: (widget, currency, address) =>
      onrampAdapters[widget].launchUrl(sandboxWidgetCredentials(config.secret, widget, config.publicUrl), {
        currency,
        address,
      }),
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

const pgProblem = await postgresUnavailable()

/** The suite on PGlite and on PostgreSQL (skipped with a notice when PostgreSQL is unreachable, failing under CI). */
export const describeOnrampBackends = (name: string, fn: (backend: Backend) => void): void => {
  for (const backend of ["pglite", "postgres"] as const) {
    if (backend === "postgres" && pgProblem !== undefined) {
      if (process.env.CI === "true") {
        describe(`${name} [postgres]`, () => {
          it("needs PostgreSQL (CI=true)", () => {
            throw new Error(`PostgreSQL at ${testDatabaseUrl} is unreachable under CI: ${pgProblem}`)
          })
        })
      } else describe.skip(`${name} [postgres]`, () => fn(backend))
      continue
    }
    describe(`${name} [${backend}]`, () => fn(backend))
  }
}
