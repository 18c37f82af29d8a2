/**
 * Test harness of the payment sandbox: the provider ALONE on its own server
 * (providers/payment-sandbox/server.ts) with its own storage — a PGlite folder of its own, or its
 * schema `payment_sandbox` in a fresh PostgreSQL database — plus a tiny webhook receiver. No casino:
 * the provider is tested as the external party it is.
 */
import { createServer, type IncomingHttpHeaders } from "node:http"
import { describe, it } from "vitest"
import {
  loadPaymentSandboxConfig,
  type PaymentSandboxConfig,
} from "../../providers/payment-sandbox/config.ts"
import { sandboxCredentials } from "../../providers/payment-sandbox/credentials.ts"
import { type PaymentSandboxServer, startPaymentSandbox } from "../../providers/payment-sandbox/server.ts"
import { postgresUnavailable, testDatabaseUrl } from "./harness.ts"
import { type Backend, startStandalone } from "./standalone-harness.ts"

// The shared stand-alone server code lives in standalone-harness.ts; these names stay exported here.
export { type Backend, createPostgresDatabase } from "./standalone-harness.ts"

export interface SandboxTest {
  readonly backend: Backend
  readonly url: string
  readonly config: PaymentSandboxConfig
  readonly secret: string
  readonly apiKey: (code: string) => string
  readonly webhookSecret: (code: string) => string
  readonly query: <T = Record<string, unknown>>(
    text: string,
    params?: ReadonlyArray<unknown>,
  ) => Promise<Array<T>>
  readonly server: PaymentSandboxServer
  readonly close: () => Promise<void>
}

export const testSecret = "sandbox-test-secret-0123456789abcdef0123456789"

export interface StartOptions {
  readonly env?: Record<string, string>
  /** Share an existing PostgreSQL database (a second process on the same data). */
  readonly databaseUrl?: string
}

export const startSandbox = async (backend: Backend, options: StartOptions = {}): Promise<SandboxTest> => {
  const { config, server, query, close } = await startStandalone({
    backend,
    name: "sandbox",
    env: { PAYMENT_SANDBOX_SECRET: testSecret, ...options.env },
    logLevel: "Error",
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    configure: (base, env) =>
      loadPaymentSandboxConfig({
        PAYMENT_SANDBOX_PORT: String(base.port),
        PAYMENT_SANDBOX_HOST: base.host,
        PAYMENT_SANDBOX_PUBLIC_URL: base.publicUrl,
        PAYMENT_SANDBOX_DATA_DIR: base.dataDir,
        PAYMENT_SANDBOX_DATABASE_URL: base.databaseUrl,
        PAYMENT_SANDBOX_LOG_LEVEL: base.logLevel,
        PAYMENT_SANDBOX_NODE_ENV: "test",
        PAYMENT_SANDBOX_FRAME_ANCESTORS: "http://casino.example",
        ...env,
      }),
    make: startPaymentSandbox,
  })
  const secret = config.secret
  return {
    backend,
    url: server.url,
    config,
    secret,
    apiKey: (code) => sandboxCredentials(secret, code).apiKey,
    webhookSecret: (code) => sandboxCredentials(secret, code).webhookSecret,
    query,
    server,
    close,
  }
}

const pgProblem = await postgresUnavailable()

/** The suite on PGlite and on PostgreSQL (skipped with a notice when PostgreSQL is unreachable, failing under CI). */
export const describeSandboxBackends = (name: string, fn: (backend: Backend) => void): void => {
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

// ---- a webhook receiver -------------------------------------------------------------------------

export interface ReceivedWebhook {
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly answeredStatus: number
}

export interface Receiver {
  readonly url: string
  readonly received: Array<ReceivedWebhook>
  readonly close: () => Promise<void>
}

/** Answers each POST with `answer(n)` (n = 1 for the first request). */
export const startReceiver = async (answer: (n: number) => number = () => 200): Promise<Receiver> => {
  const received: Array<ReceivedWebhook> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const status = answer(received.length + 1)
      received.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        answeredStatus: status,
      })
      res.writeHead(status, { "content-type": "application/json" })
      res.end(status < 300 ? `{"received":true}` : `{"error":"try later"}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}/api/payments/webhooks`,
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

// ---- merchant calls -----------------------------------------------------------------------------

export const customer = (country: string | null = "MT") => ({
  id: "player-1",
  email: "player@casino.example",
  firstName: "Ada",
  lastName: "Lovelace",
  country,
  city: "Valletta",
  address: "1 Republic Street",
  zipCode: "VLT 1117",
  phone: "+35699999999",
})

export const initiation = (notifyUrl: string, overrides: Record<string, unknown> = {}) => ({
  reference: crypto.randomUUID(),
  amount: "3000",
  currency: "EUR",
  customer: customer(),
  returnUrl: "http://casino.example/api/payments/return?deposit=1",
  notifyUrl,
  language: "en",
  ...overrides,
})

export const merchantPost = async (
  t: SandboxTest,
  path: string,
  code: string,
  body: unknown,
  key = t.apiKey(code),
): Promise<{ status: number; body: Record<string, unknown> }> => {
  const res = await fetch(`${t.url}/sandbox-pay${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}
