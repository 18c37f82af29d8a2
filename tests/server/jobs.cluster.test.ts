/**
 * Background jobs once per cluster (server/lifecycle/Jobs.ts): three casino nodes on one
 * PostgreSQL database, the jobs with 1-second periods. Each job's rounds, counted in its lease row
 * by whichever node ran them, keep the rhythm of ONE runner (three runners would count about three
 * times as many); one node holds each lease; a node that stops gracefully gives its leases back and
 * another carries on; a lease whose holder stopped renewing (a dead node) is taken when it expires.
 * Backend: PostgreSQL only — several nodes on one database is PostgreSQL's deployment (the embedded
 * database belongs to one process).
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { makeServer, type RunningServer } from "../../server/app.ts"
import { Jobs } from "../../server/lifecycle/Jobs.ts"
import { describeOn, queryThrough, type TestServer } from "./harness.ts"

/** The jobs whose period the test sets to 1 s (the free-rounds outbox runs every second anyway). */
const JOBS = ["loyalty.accrual", "deposits.expiry", "withdrawals.payouts", "games.free-rounds-outbox"]

interface LeaseRow {
  readonly job: string
  readonly holder: string
  readonly runs: string
  readonly expired: boolean
}

describeOn("postgres", "background jobs on three nodes", ({ start }) => {
  let a: TestServer
  interface Node {
    readonly holder: string
    readonly run: RunningServer["run"]
    readonly stop: () => Promise<void>
    running: boolean
  }
  const nodes: Array<Node> = []
  const dirs: Array<string> = []
  const holderOf = (run: RunningServer["run"]) =>
    run(
      Effect.gen(function* () {
        return (yield* Jobs).holder
      }),
    )
  /** SQL through a node still running (the one stopped below may be the first). */
  const query = <T>(text: string, params: ReadonlyArray<unknown> = []) => {
    const node = nodes.find((n) => n.running)
    if (node === undefined) throw new Error("no node runs")
    return queryThrough(node.run)<T>(text, params)
  }

  beforeAll(async () => {
    const periods = { loyaltyAccrualSeconds: 1, depositSweepSeconds: 1, withdrawPayoutPollSeconds: 1 }
    a = await start({ ...periods, captchaEnabled: false })
    nodes.push({ holder: await holderOf(a.run), run: a.run, stop: () => a.drain(0), running: true })
    for (const name of ["b", "c"]) {
      const dir = await mkdtemp(join(tmpdir(), `casino-test-${name}-`))
      dirs.push(dir)
      const server = await makeServer({ ...a.config, port: 0, dataDir: dir })
      nodes.push({
        holder: await holderOf(server.run),
        run: server.run,
        stop: () => server.drain(0),
        running: true,
      })
    }
  })
  afterAll(async () => {
    for (const n of nodes.slice(1)) if (n.running) await n.stop()
    // The first node's close drops the test database (its drain, if it was stopped, did not).
    await a?.close()
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
  })

  const leases = async (): Promise<Map<string, LeaseRow>> => {
    const rows = await query<LeaseRow>(
      `SELECT job, holder, runs::text AS runs, expires_at < now() AS expired FROM job_leases WHERE job = ANY($1)`,
      [JOBS],
    )
    return new Map(rows.map((r) => [r.job, r]))
  }
  const dbSeconds = async (): Promise<number> =>
    Number((await query<{ s: string }>("SELECT extract(epoch FROM clock_timestamp())::text AS s"))[0]?.s)

  it("each job runs on one node, at one runner's rhythm", async () => {
    const holders = new Set(nodes.map((n) => n.holder))
    expect(holders.size).toBe(3)
    // Every job has run at least once.
    await expect
      .poll(async () => [...(await leases()).values()].filter((r) => Number(r.runs) >= 1).length, {
        timeout: 30_000,
      })
      .toBe(JOBS.length)
    const before = await leases()
    const from = await dbSeconds()
    // Long enough for three runners to show as three times the rounds: waited on the database's
    // clock, not measured by the test.
    await expect
      .poll(async () => (await dbSeconds()) - from, { timeout: 30_000, interval: 500 })
      .toBeGreaterThan(6)
    const after = await leases()
    const elapsed = (await dbSeconds()) - from
    for (const job of JOBS) {
      const was = before.get(job)
      const now = after.get(job)
      if (was === undefined || now === undefined) throw new Error(`no lease row for ${job}`)
      expect(holders.has(now.holder), `${job} is held by one of the three nodes`).toBe(true)
      const rounds = Number(now.runs) - Number(was.runs)
      // One runner with a 1 s period: at most one round per second of the window, and one more for
      // its edges. Three runners would make about three per second.
      expect(rounds, `${job}: ${rounds} rounds in ${elapsed.toFixed(1)} s`).toBeLessThanOrEqual(
        Math.ceil(elapsed) + 1,
      )
      expect(rounds, `${job} kept running`).toBeGreaterThanOrEqual(2)
    }
  })

  it("a node that stops gives its leases back at once; another node carries each job on", async () => {
    const job = "loyalty.accrual"
    const holding = (await leases()).get(job)?.holder
    const victim = nodes.find((n) => n.holder === holding)
    if (victim === undefined) throw new Error(`${job} is held by no running node`)
    const held = [...(await leases()).values()].filter((r) => r.holder === victim.holder)
    await victim.stop()
    victim.running = false
    const now = await leases()
    for (const r of held) {
      // Given back (expired at once, or already taken by another node), not left to run out.
      const row = now.get(r.job)
      expect(row?.expired === true || row?.holder !== victim.holder, `${r.job} given back`).toBe(true)
    }
    for (const r of held) {
      await expect
        .poll(async () => (await leases()).get(r.job)?.holder, { timeout: 30_000 })
        .not.toBe(victim.holder)
      await expect
        .poll(async () => Number((await leases()).get(r.job)?.runs), { timeout: 30_000 })
        .toBeGreaterThan(Number(r.runs))
    }
  })

  it("a lease whose holder stopped renewing (a dead node) is taken once it expires", async () => {
    const job = "deposits.expiry"
    await query(
      `UPDATE job_leases SET holder = 'node-dead', expires_at = now() + interval '3 seconds' WHERE job = $1`,
      [job],
    )
    const runs = Number((await leases()).get(job)?.runs)
    // While the dead node's lease lasts, nobody takes it.
    expect((await leases()).get(job)?.holder).toBe("node-dead")
    await expect
      .poll(async () => (await leases()).get(job)?.holder, { timeout: 30_000 })
      .not.toBe("node-dead")
    await expect
      .poll(async () => Number((await leases()).get(job)?.runs), { timeout: 30_000 })
      .toBeGreaterThan(runs)
  })
})
