/**
 * Deposit settlement throughput: signed webhooks → ledger credits, against the real server PROCESS
 * on PostgreSQL, printed beside pgbench's TPC-B-like figure measured in the same run on the same
 * database server (the ceiling a wallet on this machine can approach; see /work/shared/STACK.md).
 *
 *   npm run bench:deposit                                   # 4,000 deposits, 16 concurrent senders
 *   npm run bench:deposit -- --deposits=10000 --clients=32 --players=500 --pgbench-seconds=20
 *   npm run bench:deposit -- --clients=200 --batching=off   # each webhook in its own transaction
 *
 * Each webhook is one `payment.completed` for its own deposit (a ledger credit, the deposit's
 * completion, the event record); webhooks arriving together settle in one transaction
 * (docs/ledger.md#batched-settlement-game-wallet).
 * A fresh database on TEST_DATABASE_URL's server, dropped afterwards. Ends with ledger:check.
 * A measurement: it asserts nothing about speed; it exits non-zero only on errors or drift.
 */
import { randomUUID } from "node:crypto"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Effect, Layer } from "effect"
import { makeDbLayer } from "../lib/db/client.ts"
import { SIGNATURE_HEADER, signEvent } from "../protocols/payments/signature.ts"
import { checkLedger, formatLedgerReport } from "../server/ledger/check.ts"
import { createDatabase, probePostgres, runSql } from "../tests/support/databases.ts"
import { startServerProcess } from "../tests/support/server.ts"
import { percentile, pgbenchTpcB } from "./pgbench.ts"

const flag = (name: string, def: number): number => {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`))
  return arg === undefined ? def : Number(arg.split("=")[1])
}
const BATCHING = process.argv.includes("--batching=off") ? "off" : "on"
const DEPOSITS = flag("deposits", 4_000)
const CLIENTS = flag("clients", 16)
const PLAYERS = flag("players", 200)
const PGBENCH_SECONDS = flag("pgbench-seconds", 10)
const SECRET = "bench-webhook-secret-0123456789"

const main = async (): Promise<number> => {
  const problem = await probePostgres()
  if (problem !== undefined) {
    process.stderr.write(`bench:deposit needs PostgreSQL (TEST_DATABASE_URL): ${problem}\n`)
    return 2
  }
  const db = await createDatabase("casino_bench_deposit")
  const dataDir = await mkdtemp(join(tmpdir(), "casino-bench-deposit-"))
  const gateways = JSON.stringify([
    {
      code: "paystudio",
      family: "hosted-card",
      baseUrl: "http://127.0.0.1:9",
      merchantId: "bench",
      apiKey: "k",
      webhookSecret: SECRET,
    },
  ])
  const server = await startServerProcess({
    dataDir,
    databaseUrl: db.url,
    env: {
      CAPTCHA: "off",
      LOG_LEVEL: "Warn",
      PAYMENT_GATEWAYS: gateways,
      SETTLEMENT_BATCHING: BATCHING === "on" ? "true" : "false",
    },
  })
  try {
    await runSql(
      db.url,
      `INSERT INTO users (email, password_hash, full_name, currency)
       SELECT 'bench' || g || '@example.com', 'x', 'Bench Player', 'EUR' FROM generate_series(1, ${PLAYERS}) g`,
    )
    await runSql(
      db.url,
      "INSERT INTO wallets (user_id, currency, is_default) SELECT id, 'EUR', true FROM users",
    )
    const deposits = await runSql<{ id: string; amount: string }>(
      db.url,
      `INSERT INTO deposits (user_id, method, provider, amount, currency, amount_eur_cents)
       SELECT u.id, 'card', 'paystudio', 3000, 'EUR', 3000
       FROM generate_series(1, ${DEPOSITS}) g
       JOIN LATERAL (SELECT id FROM users ORDER BY id OFFSET (g % ${PLAYERS}) LIMIT 1) u ON true
       RETURNING id::text AS id, amount::text AS amount`,
    )
    const bodies = deposits.map((d) =>
      JSON.stringify({
        id: randomUUID(),
        type: "payment.completed",
        paymentId: `bench_${d.id}`,
        reference: d.id,
        amount: d.amount,
        currency: "EUR",
        reason: null,
        createdAt: new Date().toISOString(),
      }),
    )
    const latencies: Array<number> = []
    const errors = new Map<number, number>()
    let next = 0
    const sender = async () => {
      while (next < bodies.length) {
        const body = bodies[next++]
        if (body === undefined) break
        const t0 = performance.now()
        const res = await fetch(`${server.url}/api/payments/webhooks/paystudio`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            [SIGNATURE_HEADER]: signEvent(SECRET, Math.floor(Date.now() / 1000), body),
          },
          body,
        })
        await res.arrayBuffer()
        latencies.push(performance.now() - t0)
        if (res.status !== 200) errors.set(res.status, (errors.get(res.status) ?? 0) + 1)
      }
    }
    const started = performance.now()
    await Promise.all(Array.from({ length: CLIENTS }, sender))
    const seconds = (performance.now() - started) / 1000
    latencies.sort((a, b) => a - b)

    // pgbench TPC-B-like on the same PostgreSQL server, same database, same run.
    const tps = await pgbenchTpcB(db.url, PGBENCH_SECONDS)

    const report = await Effect.runPromise(
      checkLedger.pipe(
        Effect.provide(Layer.orDie(makeDbLayer({ databaseUrl: db.url, dataDir }))),
        Effect.scoped,
      ),
    )
    const f = (ms: number) => `${ms.toFixed(1)} ms`
    process.stdout.write(
      [
        `deposit settlement (webhook → ledger), ${DEPOSITS} deposits, ${PLAYERS} players, ${CLIENTS} concurrent senders`,
        `  throughput: ${(DEPOSITS / seconds).toFixed(0)} settlements/s (${seconds.toFixed(1)} s)`,
        `  latency: p50 ${f(percentile(latencies, 50))}  p95 ${f(percentile(latencies, 95))}  p99 ${f(percentile(latencies, 99))}  max ${f(latencies.at(-1) ?? 0)}`,
        `  non-200 answers: ${errors.size === 0 ? "none" : JSON.stringify(Object.fromEntries(errors))}`,
        `pgbench TPC-B-like (scale 10, 16 clients, 2 threads, ${PGBENCH_SECONDS} s), same server: ${tps} tps`,
        `settlements / pgbench: ${((DEPOSITS / seconds / Number(tps)) * 100).toFixed(1)} % (batching ${BATCHING})`,
        formatLedgerReport(report).trimEnd(),
        "",
      ].join("\n"),
    )
    return errors.size === 0 && report.clean ? 0 : 1
  } finally {
    await server.stop()
    await db.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `bench:deposit: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    )
    process.exit(2)
  },
)
