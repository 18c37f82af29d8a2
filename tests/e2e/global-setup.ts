/**
 * Starts the REAL casino server for the browser tests, once per run:
 * - the apps must be built (dist/app, and dist/backoffice served at /backoffice); built here when
 *   either is missing;
 * - a fresh PostgreSQL database when one is reachable (mandatory with CI=true), otherwise the
 *   embedded PGlite in a temporary DATA_DIR;
 * - TRUST_PROXY=true (a test may pretend to come from elsewhere with X-Forwarded-For), a low
 *   captcha cost (the real ALTCHA widget is solved in the browser), relaxed rate limits, and the
 *   mail outbox in a temporary folder the tests read;
 * - the chains party beside it (as every sandbox party, compose/local.ts), its anvil's JSON-RPC
 *   handed to the tests as E2E_EVM_RPC_URL (serve.ts prints the casino's EVM_RPC_URL); blocks only
 *   when a test mines them (CHAIN_SANDBOX_BLOCK_SECONDS=0) and 2 confirmations for ETH/USDT
 *   deposits and payouts, so a journey drives pending → credited and sent → paid itself instead of
 *   waiting for a block timer.
 * The returned function stops the server and drops the database.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runSql, withDatabase } from "./support/db.ts"
import { E2E_ENV, partyUrlEnv, repoRoot } from "./support/env.ts"

const node = join(repoRoot, "node_modules/.bin/node")
const adminUrl = process.env.E2E_PG_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

const ensureBuilt = (): void => {
  const built = ["dist/app/index.html", "dist/backoffice/index.html"].every((f) =>
    existsSync(join(repoRoot, f)),
  )
  if (built) return
  process.stdout.write(
    "[e2e] dist/app or dist/backoffice missing: running npm run build (scripts/build.ts)\n",
  )
  execFileSync(node, [join(repoRoot, "scripts/build.ts")], { cwd: repoRoot, stdio: "inherit" })
}

/** A fresh database on the local PostgreSQL, or undefined when none answers (allowed outside CI). */
const freshDatabase = async (): Promise<{ url: string; name: string } | undefined> => {
  const name = `casino_e2e_${Date.now()}_${process.pid}`
  try {
    await runSql(adminUrl, `CREATE DATABASE ${name}`)
    return { url: withDatabase(adminUrl, name), name }
  } catch (error) {
    if (process.env.CI === "true") {
      throw new Error(`CI=true needs PostgreSQL at ${adminUrl} for the e2e tests: ${String(error)}`)
    }
    process.stdout.write(`[e2e] PostgreSQL unreachable (${String(error)}): using embedded PGlite\n`)
    return undefined
  }
}

interface Ready {
  readonly baseUrl: string
  /** Each sandbox party's public URL, by name (`E2E_PARTY <name> <public url> <url>` lines). */
  readonly parties: ReadonlyMap<string, string>
  /** The casino's EVM node (`E2E_EVM_RPC_URL <url>`): the chains party's anvil. */
  readonly evmRpcUrl: string | undefined
}

const waitForReady = (child: ChildProcess, logFile: string, timeoutMs: number): Promise<Ready> =>
  new Promise((resolve, reject) => {
    let buffer = ""
    const timer = setTimeout(() => {
      reject(new Error(`the e2e server did not start within ${timeoutMs} ms (log: ${logFile})`))
    }, timeoutMs)
    child.stdout?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8")
      const match = /E2E_SERVER_READY (\S+)/.exec(buffer)
      if (match?.[1] !== undefined) {
        clearTimeout(timer)
        const parties = new Map<string, string>()
        for (const m of buffer.matchAll(/E2E_PARTY (\S+) (\S+) (\S+)/g))
          if (m[1] !== undefined && m[2] !== undefined) parties.set(m[1], m[2])
        resolve({ baseUrl: match[1], parties, evmRpcUrl: /E2E_EVM_RPC_URL (\S+)/.exec(buffer)?.[1] })
      }
    })
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      reject(
        new Error(`the e2e server exited (code ${String(code)}, signal ${String(signal)}); log: ${logFile}`),
      )
    })
  })

export default async function globalSetup(): Promise<() => Promise<void>> {
  ensureBuilt()
  const workDir = mkdtempSync(join(tmpdir(), "casino-e2e-"))
  const outboxDir = join(workDir, "outbox")
  const dataDir = join(workDir, "data")
  mkdirSync(outboxDir, { recursive: true })
  const resultsDir = join(repoRoot, "test-results")
  mkdirSync(resultsDir, { recursive: true })
  const logFile = join(resultsDir, "e2e-server.log")

  const database = await freshDatabase()
  const port = await freePort()
  const publicUrl = `http://127.0.0.1:${port}`
  const env: Record<string, string> = {
    ...Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
    ),
    NODE_ENV: "test",
    PORT: String(port),
    // The sandbox parties on kernel-chosen ports (a server test run may be using casino + 1…5).
    SANDBOX_PORTS: "auto",
    HOST: "127.0.0.1",
    PUBLIC_URL: publicUrl,
    DATA_DIR: dataDir,
    TRUST_PROXY: "true",
    CAPTCHA: "on",
    CAPTCHA_COST: "10",
    MAIL_OUTBOX_DIR: outboxDir,
    RATE_LIMIT_SCALE: "1000",
    LOG_LEVEL: "Info",
    CHAIN_SANDBOX_BLOCK_SECONDS: "0",
    CRYPTO_CONFIRMATIONS: "BTC=2,LTC=3,DOG=3,ETH=2,USDT=2",
    CRYPTO_POLL_SECONDS: "1",
    WITHDRAW_CONFIRMATIONS: "2",
    // Points follow bets within seconds (the level-up toast is waited for, not slept for).
    LOYALTY_ACCRUAL_SECONDS: "2",
    WITHDRAW_PAYOUT_POLL_SECONDS: "1",
    // The expiry sweeper every 2 s: the abandoned-payment test waits for it, not for a minute.
    DEPOSIT_SWEEP_SECONDS: "2",
  }
  if (database !== undefined) env.DATABASE_URL = database.url
  else delete env.DATABASE_URL

  const log = createWriteStream(logFile)
  const child = spawn(node, [join(repoRoot, "tests/e2e/support/serve.ts")], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  })
  child.stdout.pipe(log)
  child.stderr.pipe(log)

  let ready: Ready
  try {
    ready = await waitForReady(child, logFile, 120_000)
  } catch (error) {
    child.kill("SIGKILL")
    if (database !== undefined)
      await runSql(adminUrl, `DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`)
    throw error
  }
  const { baseUrl } = ready
  process.stdout.write(
    `[e2e] server ${baseUrl} on ${database === undefined ? "PGlite" : `PostgreSQL ${database.name}`}; outbox ${outboxDir}\n`,
  )

  // Workers inherit the runner's environment: this is how the tests find the server.
  process.env[E2E_ENV.baseUrl] = baseUrl
  process.env[E2E_ENV.outboxDir] = outboxDir
  process.env[E2E_ENV.dataDir] = dataDir
  if (ready.evmRpcUrl !== undefined) process.env[E2E_ENV.evmRpcUrl] = ready.evmRpcUrl
  if (database !== undefined) process.env[E2E_ENV.databaseUrl] = database.url
  for (const [name, url] of ready.parties) process.env[partyUrlEnv(name)] = url

  return async () => {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000)
      child.once("exit", () => {
        clearTimeout(timer)
        resolve()
      })
      child.kill("SIGTERM")
    })
    log.end()
    if (database !== undefined)
      await runSql(adminUrl, `DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`)
    rmSync(workDir, { recursive: true, force: true })
  }
}
