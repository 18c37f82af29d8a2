/**
 * Test harness of the sandbox payment provider: the provider ALONE on its own server
 * (server/providers/payment-sandbox/standalone.ts) on PGlite or a fresh PostgreSQL database, plus a
 * tiny webhook receiver. The casino side is not involved: the provider is tested as the external
 * party it pretends to be.
 */
import { randomBytes } from "node:crypto"
import { cp, mkdtemp, rm, stat } from "node:fs/promises"
import { createServer, type IncomingHttpHeaders } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgClient } from "@effect/sql-pg"
import { PGlite } from "@electric-sql/pglite"
import { Duration, Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { describe, it } from "vitest"
import { type AppConfigShape, loadConfig } from "../../server/config.ts"
import { sandboxCredentials } from "../../server/payments/sandboxCredentials.ts"
import { makeSandboxServer, type SandboxServer } from "../../server/providers/payment-sandbox/standalone.ts"
import { freePort } from "../support/server.ts"
import { postgresUnavailable, testDatabaseUrl } from "./harness.ts"

export type Backend = "pglite" | "postgres"

export interface SandboxTest {
  readonly backend: Backend
  readonly url: string
  readonly config: AppConfigShape
  readonly secret: string
  readonly apiKey: (code: string) => string
  readonly webhookSecret: (code: string) => string
  readonly query: <T = Record<string, unknown>>(
    text: string,
    params?: ReadonlyArray<unknown>,
  ) => Promise<Array<T>>
  readonly server: SandboxServer
  readonly close: () => Promise<void>
}

export const testSecret = "sandbox-test-secret-0123456789abcdef0123456789"

const withAdmin = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.runPromise(
    effect.pipe(
      Effect.provide(
        PgClient.layer({
          url: Redacted.make(testDatabaseUrl),
          maxConnections: 1,
          connectTimeout: Duration.seconds(3),
        }),
      ),
      Effect.scoped,
    ),
  )

/** A fresh database on the test PostgreSQL; dropped by the returned function. */
export const createPostgresDatabase = async (): Promise<{ url: string; drop: () => Promise<void> }> => {
  const name = `casino_sandbox_${randomBytes(6).toString("hex")}`
  await withAdmin(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE DATABASE ${name}`)))
  const url = new URL(testDatabaseUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () =>
      withAdmin(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
        ),
      ).then(() => undefined),
  }
}

const pgliteTemplate = async (): Promise<string> => {
  const dir = join(tmpdir(), "casino-pglite-template-sandbox")
  const ready = await stat(join(dir, "PG_VERSION")).then(
    () => true,
    () => false,
  )
  if (ready) return dir
  const building = `${dir}.building-${process.pid}-${randomBytes(4).toString("hex")}`
  const db = await PGlite.create({ dataDir: building })
  await db.close()
  await cp(building, dir, { recursive: true, force: false, errorOnExist: false })
  await rm(building, { recursive: true, force: true })
  return dir
}

export interface StartOptions {
  readonly env?: Record<string, string>
  /** Share an existing PostgreSQL database (a second process on the same data). */
  readonly databaseUrl?: string
}

export const startSandbox = async (backend: Backend, options: StartOptions = {}): Promise<SandboxTest> => {
  const dataDir = await mkdtemp(join(tmpdir(), "casino-sandbox-test-"))
  let drop: (() => Promise<void>) | undefined
  let databaseUrl = options.databaseUrl
  if (backend === "postgres" && databaseUrl === undefined) {
    const db = await createPostgresDatabase()
    databaseUrl = db.url
    drop = db.drop
  } else if (backend === "pglite") {
    await cp(await pgliteTemplate(), join(dataDir, "pglite"), { recursive: true })
  }
  const port = await freePort()
  const config = loadConfig({
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "Error",
    NODE_ENV: "test",
    SANDBOX_SECRET: testSecret,
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    ...options.env,
  })
  const server = await makeSandboxServer(config)
  const secret = config.sandboxSecret ?? testSecret
  const query = <T>(text: string, params: ReadonlyArray<unknown> = []): Promise<Array<T>> =>
    server.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql.unsafe<T & object>(text, params)
        return [...rows] as Array<T>
      }),
    )
  let closing: Promise<void> | undefined
  return {
    backend,
    url: server.url,
    config,
    secret,
    apiKey: (code) => sandboxCredentials(secret, code).apiKey,
    webhookSecret: (code) => sandboxCredentials(secret, code).webhookSecret,
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
