/**
 * Crash test: the real server PROCESS (server/main.ts) is SIGKILLed while concurrent registrations
 * are in flight, then restarted on the same data (same DATA_DIR / same DATABASE_URL), several rounds
 * in a row. Every registration that was answered 2xx before the kill must exist afterwards (its
 * player can sign in with its password), the database must open cleanly at every restart, and no
 * registration may be half-stored (a user without its wallet, password history or confirmation
 * token). Runs on PGlite and on PostgreSQL; prints what happened in each round.
 *
 * The kill moment is random (printed, and reproducible with CRASH_SEED): 0–1.5 s after the round's
 * first acknowledged registration, so some requests are always answered and some are cut off.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { afterAll, expect, it } from "vitest"
import { createDatabase, runSql, seedPgliteDataDir, type TestDatabase } from "../support/databases.ts"
import { keepAliveAgent, send } from "../support/http.ts"
import { prng } from "../support/prng.ts"
import { type ServerProcess, startServerProcess } from "../support/server.ts"
import { describeBackends } from "./harness.ts"

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3)
const CLIENTS = 12
const USER = "/user-service/api/v1"
const PASSWORD = "crash test password 1"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const serverEnv = {
  CAPTCHA: "off",
  RATE_LIMIT_SCALE: "1000000",
  LOG_LEVEL: "Warn",
} as const

const registrationBody = (email: string) =>
  JSON.stringify({
    email,
    password: PASSWORD,
    fullName: "Crash Test Player",
    terms: true,
    language: "en",
    currency: "EUR",
    captcha: "",
  })

interface RoundReport {
  readonly round: number
  readonly killAfterMs: number
  sent: number
  acknowledged: number
  refused: number
  cutOff: number
  restartMs: number
  verified: number
}

/** Rows that show a registration stored only in part (the registration is one transaction). */
const consistencySql = `
  SELECT
    (SELECT count(*)::int FROM users) AS users,
    (SELECT count(*)::int FROM users u WHERE NOT EXISTS
       (SELECT 1 FROM wallets w WHERE w.user_id = u.id AND w.is_default)) AS without_wallet,
    (SELECT count(*)::int FROM users u WHERE NOT EXISTS
       (SELECT 1 FROM password_history h WHERE h.user_id = u.id)) AS without_history,
    (SELECT count(*)::int FROM users u WHERE NOT EXISTS
       (SELECT 1 FROM email_tokens t WHERE t.user_id = u.id AND t.purpose = 'confirm')) AS without_token,
    (SELECT count(*)::int FROM users u WHERE NOT EXISTS
       (SELECT 1 FROM sessions s WHERE s.user_id = u.id)) AS without_session`

interface Consistency {
  readonly users: number
  readonly without_wallet: number
  readonly without_history: number
  readonly without_token: number
  readonly without_session: number
}

describeBackends("crash: SIGKILL during registrations, restart on the same data", ({ backend }) => {
  let dataDir: string | undefined
  let database: TestDatabase | undefined
  let server: ServerProcess | undefined

  afterAll(async () => {
    await server?.kill()
    await database?.drop()
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true })
  })

  it(`keeps every acknowledged registration through ${ROUNDS} kill/restart rounds`, async () => {
    const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000)
    const random = prng(seed)
    dataDir = await mkdtemp(join(tmpdir(), "casino-crash-"))
    if (backend === "postgres") database = await createDatabase("casino_crash")
    else await seedPgliteDataDir(dataDir)
    const start = () =>
      startServerProcess({ dataDir: dataDir ?? "", databaseUrl: database?.url, env: serverEnv, nice: 10 })

    server = await start()
    const acknowledged: Array<string> = []
    const reports: Array<RoundReport> = []
    const log = (line: string) => console.log(`[crash ${backend}] ${line}`)
    log(`seed ${seed} (CRASH_SEED=${seed} replays the kill moments), ${ROUNDS} rounds, ${CLIENTS} clients`)

    for (let round = 1; round <= ROUNDS; round++) {
      const report: RoundReport = {
        round,
        killAfterMs: Math.floor(random() * 1_500),
        sent: 0,
        acknowledged: 0,
        refused: 0,
        cutOff: 0,
        restartMs: 0,
        verified: 0,
      }
      const target = server
      const agent = keepAliveAgent(CLIENTS)
      const unexpected: Array<string> = []
      let killed = false
      let firstAck: (() => void) | undefined
      const firstAcknowledged = new Promise<void>((resolve) => {
        firstAck = resolve
      })
      const clients = Array.from({ length: CLIENTS }, async (_, client) => {
        for (let n = 0; !killed; n++) {
          const email = `crash-${seed}-r${round}-c${client}-n${n}@example.com`
          report.sent++
          try {
            const res = await send(target.url, agent, {
              method: "POST",
              path: `${USER}/registration`,
              headers: { "content-type": "application/json" },
              body: registrationBody(email),
            })
            if (res.status >= 200 && res.status < 300) {
              report.acknowledged++
              acknowledged.push(email)
              firstAck?.()
            } else {
              report.refused++
              // Answered but not 2xx: never expected here (unique e-mails, captcha off, no limits).
              unexpected.push(`${email}: ${res.status} ${res.body.toString("utf8").slice(0, 200)}`)
            }
          } catch {
            // The connection died with the process: the client cannot know whether it was stored.
            report.cutOff++
            if (!killed) unexpected.push(`${email}: transport error before the kill`)
          }
        }
      })
      const trafficStarted = performance.now()
      await Promise.race([firstAcknowledged, target.exited])
      const firstAckMs = Math.round(performance.now() - trafficStarted)
      await sleep(report.killAfterMs)
      killed = true
      const exit = await target.kill()
      await Promise.all(clients)
      agent.destroy()
      expect(exit.signal, "the server died of the SIGKILL").toBe("SIGKILL")
      expect(unexpected, "registrations answered with something else than 2xx").toEqual([])

      // Restart on the same data: must open the database (PGlite: its lock, WAL recovery) and listen.
      const restartStarted = performance.now()
      server = await start()
      report.restartMs = Math.round(performance.now() - restartStarted)

      // Every acknowledged registration, of this round and the earlier ones, signs in.
      const verifier = keepAliveAgent(4)
      const missing: Array<string> = []
      const queue = [...acknowledged]
      const current = server
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let email = queue.pop(); email !== undefined; email = queue.pop()) {
            const res = await send(current.url, verifier, {
              method: "POST",
              path: `${USER}/signin`,
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ email, password: PASSWORD, captcha: "" }),
            })
            if (res.status === 200) report.verified++
            else missing.push(`${email}: ${res.status} ${res.body.toString("utf8").slice(0, 200)}`)
          }
        }),
      )
      verifier.destroy()
      reports.push(report)
      log(
        `round ${round}: first answer after ${firstAckMs} ms, killed ${report.killAfterMs} ms later; ${report.sent} sent, ${report.acknowledged} acknowledged, ` +
          `${report.cutOff} cut off by the kill; restart ${report.restartMs} ms; ` +
          `${report.verified}/${acknowledged.length} acknowledged so far sign in`,
      )
      expect(missing, `acknowledged registrations lost after round ${round}`).toEqual([])
      expect(report.acknowledged, "the kill came after some registrations were answered").toBeGreaterThan(0)
    }

    // Finally: a clean stop, then the stored rows themselves.
    const exit = await server.stop()
    expect(exit.code, `graceful stop; output:\n${server.output()}`).toBe(0)
    let rows: Consistency | undefined
    if (database !== undefined) {
      rows = (await runSql<Consistency>(database.url, consistencySql))[0]
    } else {
      const db = await PGlite.create({ dataDir: join(dataDir, "pglite") })
      try {
        rows = (await db.query<Consistency>(consistencySql)).rows[0]
      } finally {
        await db.close()
      }
    }
    log(`stored: ${JSON.stringify(rows)}`)
    expect(rows?.users).toBeGreaterThanOrEqual(acknowledged.length)
    expect(rows).toMatchObject({
      without_wallet: 0,
      without_history: 0,
      without_token: 0,
      without_session: 0,
    })
  }, 300_000)
})
