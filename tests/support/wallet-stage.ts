/**
 * A stage for the seamless wallet under load, shared by the game-settlement benchmarks
 * (`bench/games.bench.ts`, closed loop; `bench/games-open.bench.ts`, open loop) and the kill -9
 * test (`tests/server/games.crash.test.ts`): a fresh PostgreSQL database, the studio (a sandbox, in
 * this process, listing its games through the protocol), one or more real casino servers as
 * separate PROCESSES on that database, N players with a balance booked by the ledger and a live
 * game session each, and a signed wallet call over node:http on keep-alive connections (cheaper
 * per call than fetch: the client shares the servers' cores). No vitest import: bench/ uses it.
 */
import { createHmac, randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import { Agent, request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { studioProviderEntry } from "../../compose/parties/studio.ts"
import { makeDbLayer } from "../../lib/db/client.ts"
import { loadStudioConfig } from "../../providers/game-studio/config.ts"
import { studioCredentials } from "../../providers/game-studio/credentials.ts"
import { startStudio } from "../../providers/game-studio/server.ts"
import { tokenHash } from "../../server/games/rules.ts"
import { Ledger } from "../../server/ledger/Ledger.ts"
import { createDatabase, probePostgres, runSql } from "./databases.ts"
import { freePort, type ServerProcess, startServerProcess } from "./server.ts"

/** CPU seconds (user + system) a process has used, from /proc (Linux); 0 when unreadable. */
export const cpuSecondsOf = (pid: number): number => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
    // Fields 14 and 15 (utime, stime) in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** A numeric `--name=value` command-line flag. */
export const flag = (name: string, def: number): number => {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`))
  return arg === undefined ? def : Number(arg.split("=")[1])
}

/** A text `--name=value` command-line flag. */
export const textFlag = (name: string, def: string): string => {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`))
  return arg === undefined ? def : (arg.split("=")[1] ?? def)
}

// The studio's keys derive from its secret: the stage signs as the studio (a sandbox) would.
const STUDIO_SECRET = "stage-studio-secret-0123456789abcdef"
const STUDIO_KEYS = studioCredentials(STUDIO_SECRET, { sandbox: true })

const sign = (body: string, signedAt: number | undefined) => {
  const t = signedAt ?? Math.floor(Date.now() / 1000)
  return `t=${t},v1=${createHmac("sha256", STUDIO_KEYS.walletSecret).update(`${t}.${body}`).digest("hex")}`
}

export interface StagePlayer {
  readonly id: string
  readonly token: string
}

export interface WalletReply {
  readonly status: number
  readonly body: string
}

export interface WalletStage {
  readonly dbUrl: string
  /** The casino processes, all on the stage's database. */
  readonly servers: ReadonlyArray<ServerProcess>
  readonly players: ReadonlyArray<StagePlayer>
  /** The launch id of a game without a jackpot. */
  readonly launchId: string
  /**
   * One wallet call to `servers[server]` (default 0), signed now or at `signedAt` (unix seconds:
   * a second delivery of the same body needs another signature); rejects on a network error.
   */
  readonly call: (
    op: string,
    body: Readonly<Record<string, unknown>>,
    server?: number,
    signedAt?: number,
  ) => Promise<WalletReply>
  /** The PIDs of this database's backends (the servers' pools, and anything else connected). */
  readonly backends: () => Promise<ReadonlyArray<number>>
  /** Commits in this database so far (pg_stat_database), to print calls per commit. */
  readonly commits: () => Promise<number>
  readonly dbLayer: Layer.Layer<SqlClient.SqlClient>
  readonly close: () => Promise<void>
}

/** Sets the stage; `env` goes to every casino process (e.g. SETTLEMENT_BATCHING). */
export const startWalletStage = async (options: {
  readonly name: string
  readonly players: number
  /** Each player's opening balance in EUR cents (default 1,000.00 EUR). */
  readonly balance?: bigint
  readonly servers?: number
  readonly env?: Readonly<Record<string, string>>
}): Promise<WalletStage> => {
  const problem = await probePostgres()
  if (problem !== undefined)
    throw new Error(`the wallet stage needs PostgreSQL (TEST_DATABASE_URL): ${problem}`)
  const db = await createDatabase(options.name)
  const dataDir = await mkdtemp(join(tmpdir(), `${options.name}-`))
  const casinoPorts = await Promise.all(Array.from({ length: options.servers ?? 1 }, () => freePort()))
  // The studio calls back the first casino; the stage's calls go wherever they are sent.
  const studio = await startStudio(
    loadStudioConfig({
      NODE_ENV: "test",
      STUDIO_PORT: String(await freePort()),
      STUDIO_HOST: "127.0.0.1",
      STUDIO_DATA_DIR: join(dataDir, "studio"),
      STUDIO_DATABASE_URL: db.url,
      STUDIO_SECRET,
      STUDIO_WALLET_URL: `http://127.0.0.1:${casinoPorts[0]}/api/games/wallet/studio`,
      STUDIO_LOG_LEVEL: "Warn",
    }),
  )
  const servers: Array<ServerProcess> = []
  const agent = new Agent({ keepAlive: true, maxSockets: 256 })
  const close = async () => {
    agent.destroy()
    await Promise.all(servers.map((s) => s.stop()))
    await studio.close()
    await db.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
  try {
    // One after the other: the first migrates the database, the next find it migrated.
    for (const [i, port] of casinoPorts.entries()) {
      const serverDir = join(dataDir, `casino-${i}`)
      await mkdir(serverDir, { recursive: true })
      servers.push(
        await startServerProcess({
          dataDir: serverDir,
          port,
          databaseUrl: db.url,
          env: {
            CAPTCHA: "off",
            LOG_LEVEL: "Warn",
            SANDBOX_SECRET: "b".repeat(40),
            ...options.env,
            GAME_PROVIDERS: JSON.stringify([studioProviderEntry(studio.url, STUDIO_KEYS)]),
          },
        }),
      )
    }
    const first = servers[0]
    if (first === undefined) throw new Error("a stage needs a server")
    // The games list arrives from the studio through the protocol: the lobby call waits for it.
    const lobby = await fetch(`${first.url}/game-aggregator-service/api/v1/games-and-categories/EUR`)
    if (!lobby.ok) throw new Error(`the lobby answered ${lobby.status}`)
    const [game] = await runSql<{ id: string; launch_id: string }>(
      db.url,
      "SELECT id, launch_id FROM games WHERE jackpot_id IS NULL AND active ORDER BY sort LIMIT 1",
    )
    if (game === undefined) throw new Error("no game listed by the studio")
    const users = await runSql<{ id: string }>(
      db.url,
      `INSERT INTO users (email, password_hash, full_name, currency)
       SELECT 'stage' || g || '@example.com', 'x', 'Stage Player', 'EUR' FROM generate_series(1, $1::int) g
       RETURNING id::text AS id`,
      [options.players],
    )
    await runSql(
      db.url,
      "INSERT INTO wallets (user_id, currency, is_default) SELECT id, 'EUR', true FROM users",
    )
    // Every player's opening balance is booked by the ledger, as a deposit would be.
    const opening = options.balance ?? 100_000n
    const dbLayer = Layer.orDie(makeDbLayer({ databaseUrl: db.url, dataDir: join(dataDir, "stage") }))
    await Effect.runPromise(
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const clearing = yield* ledger.systemAccountId("gateway_clearing", "stage", "EUR")
        for (const u of users) {
          const account = yield* ledger.playerAccount(u.id, "EUR")
          if (account === undefined) return yield* Effect.die(new Error("no wallet"))
          yield* ledger.post({
            kind: "deposit",
            idempotencyKey: `stage-credit:${u.id}`,
            entries: [
              { accountId: clearing, currency: "EUR", amount: -opening },
              { accountId: account.id, currency: "EUR", amount: opening },
            ],
          })
        }
      }).pipe(Effect.provide(Ledger.layer), Effect.provide(dbLayer), Effect.scoped, Effect.orDie),
    )
    const players = users.map((u) => ({
      id: u.id,
      token: randomUUID().replace(/-/g, "") + randomUUID().replace(/-/g, ""),
    }))
    await runSql(
      db.url,
      `WITH p AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x (id uuid, hash text)),
            s AS (
              INSERT INTO sessions (token_hash, user_id, expires_at)
              SELECT 'stage-' || p.hash, p.id, now() + interval '1 day' FROM p
              RETURNING id, user_id
            )
       INSERT INTO game_sessions (token_hash, user_id, casino_session_id, currency, game_id, integration, expires_at)
       SELECT p.hash, p.id, s.id, 'EUR', $2, 'studio', now() + interval '1 day' FROM p JOIN s ON s.user_id = p.id`,
      [JSON.stringify(players.map((p) => ({ id: p.id, hash: tokenHash(p.token) }))), game.id],
    )

    const targets = servers.map((s) => new URL(s.url))
    const post = (server: number, path: string, raw: string, signature: string) =>
      new Promise<WalletReply>((resolve, reject) => {
        const target = targets[server]
        if (target === undefined) return reject(new Error(`no server ${server}`))
        const req = request(
          {
            agent,
            host: target.hostname,
            port: target.port,
            path,
            method: "POST",
            headers: {
              "content-type": "application/json",
              "content-length": Buffer.byteLength(raw),
              "x-signature": signature,
            },
          },
          (res) => {
            const chunks: Array<Buffer> = []
            res.on("data", (c: Buffer) => chunks.push(c))
            res.on("end", () =>
              resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
            )
            res.on("error", reject)
          },
        )
        req.on("error", reject)
        req.end(raw)
      })
    const call = (op: string, body: Readonly<Record<string, unknown>>, server = 0, signedAt?: number) => {
      const raw = JSON.stringify(body)
      return post(server, `/api/games/wallet/studio/${op}`, raw, sign(raw, signedAt))
    }
    const backends = async () =>
      (
        await runSql<{ pid: number }>(
          db.url,
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
      ).map((r) => r.pid)
    const commits = async () =>
      Number(
        (
          await runSql<{ n: string }>(
            db.url,
            "SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()",
          )
        )[0]?.n ?? 0,
      )
    // Warm the pools so their backends exist before the first sample.
    for (const server of servers.keys())
      await Promise.all(
        players
          .slice(0, 20)
          .map((p) => call("balance", { sessionToken: p.token, playerId: p.id, currency: "EUR" }, server)),
      )
    return {
      dbUrl: db.url,
      servers,
      players,
      launchId: game.launch_id,
      call,
      backends,
      commits,
      dbLayer,
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}
