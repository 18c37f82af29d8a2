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
import { SqlClient } from "effect/sql"
import { startLocal } from "../../compose/local.ts"
import { studioProviderEntry } from "../../compose/parties/studio.ts"
import { makeDbLayer } from "../../lib/db/client.ts"
import { loadStudioConfig } from "../../providers/game-studio/config.ts"
import { studioCredentials } from "../../providers/game-studio/credentials.ts"
import { startStudio } from "../../providers/game-studio/server.ts"
import { tokenHash } from "../../server/games/rules.ts"
import { checkLedger, type LedgerReport } from "../../server/ledger/check.ts"
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

/** A casino of the stage: a separate process (PostgreSQL), or this process (PGlite). */
export interface StageServer {
  readonly url: string
  readonly pid: number
  /** SIGKILL for a process. */
  readonly kill: () => Promise<unknown>
}

export interface WalletStage {
  readonly backend: "postgres" | "pglite"
  /** The PostgreSQL database's URL; undefined on PGlite (embedded in the casino's process). */
  readonly dbUrl: string | undefined
  /** The casinos, all on the stage's database. */
  readonly servers: ReadonlyArray<StageServer>
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
  /** The PIDs of this database's backends (none on PGlite: it runs in the casino's process). */
  readonly backends: () => Promise<ReadonlyArray<number>>
  /** Commits in this database so far (pg_stat_database); undefined where not counted (PGlite). */
  readonly commits: () => Promise<number | undefined>
  /** SQL on the stage's database (`$1…` placeholders). */
  readonly query: <A extends object>(
    text: string,
    params?: ReadonlyArray<unknown>,
  ) => Promise<ReadonlyArray<A>>
  /** ledger:check on the stage's database. */
  readonly checkLedger: () => Promise<LedgerReport>
  readonly close: () => Promise<void>
}

/** Where the stage runs: its casinos, its SQL, its ledger check, its teardown. */
interface Ground {
  readonly dbUrl: string | undefined
  readonly servers: ReadonlyArray<StageServer>
  readonly query: WalletStage["query"]
  /** Runs an effect that needs the ledger and the database. */
  readonly withLedger: <A>(effect: Effect.Effect<A, unknown, Ledger | SqlClient.SqlClient>) => Promise<A>
  readonly close: () => Promise<void>
}

/** PostgreSQL: a fresh database, the studio in this process, each casino its own PROCESS. */
const postgresGround = async (
  name: string,
  count: number,
  env: Readonly<Record<string, string>>,
): Promise<Ground> => {
  const problem = await probePostgres()
  if (problem !== undefined)
    throw new Error(`the wallet stage needs PostgreSQL (TEST_DATABASE_URL): ${problem}`)
  const db = await createDatabase(name)
  const dataDir = await mkdtemp(join(tmpdir(), `${name}-`))
  const casinoPorts = await Promise.all(Array.from({ length: count }, () => freePort()))
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
  const close = async () => {
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
            ...env,
            GAME_PROVIDERS: JSON.stringify([studioProviderEntry(studio.url, STUDIO_KEYS)]),
          },
        }),
      )
    }
  } catch (error) {
    await close()
    throw error
  }
  const dbLayer = Layer.orDie(makeDbLayer({ databaseUrl: db.url, dataDir: join(dataDir, "stage") }))
  return {
    dbUrl: db.url,
    servers,
    query: (text, params = []) => runSql(db.url, text, params),
    withLedger: (effect) =>
      Effect.runPromise(
        effect.pipe(Effect.provide(Ledger.layer), Effect.provide(dbLayer), Effect.scoped, Effect.orDie),
      ),
    close,
  }
}

/**
 * PGlite, the default database: the casino with the studio as `npm start` composes them, in THIS
 * process (the embedded database belongs to the process that opens it), so a figure on it
 * includes the client's CPU.
 */
const pgliteGround = async (env: Readonly<Record<string, string>>): Promise<Ground> => {
  const dataDir = await mkdtemp(join(tmpdir(), "casino-stage-pglite-"))
  const port = await freePort()
  const stack = await startLocal(
    {
      PORT: String(port),
      SANDBOX_PORTS: "auto",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: "test",
      CAPTCHA: "off",
      LOG_LEVEL: "Warn",
      STUDIO_SECRET,
      ...env,
    },
    { only: ["studio"] },
  ).catch(async (error: unknown) => {
    await rm(dataDir, { recursive: true, force: true })
    throw error
  })
  const casino = stack.casino
  return {
    dbUrl: undefined,
    servers: [{ url: casino.url, pid: process.pid, kill: () => casino.close() }],
    query: <A extends object>(text: string, params: ReadonlyArray<unknown> = []) =>
      casino.run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          return yield* sql.unsafe<A>(text, params)
        }).pipe(Effect.orDie),
      ),
    withLedger: (effect) => casino.run(effect.pipe(Effect.orDie)),
    close: async () => {
      await stack.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** Sets the stage; `env` goes to every casino (e.g. SETTLEMENT_BATCHING). */
export const startWalletStage = async (options: {
  readonly name: string
  readonly players: number
  /** Each player's opening balance in EUR cents (default 1,000.00 EUR). */
  readonly balance?: bigint
  /** PostgreSQL (default) or the embedded PGlite (one casino, in this process). */
  readonly backend?: "postgres" | "pglite"
  readonly servers?: number
  readonly env?: Readonly<Record<string, string>>
}): Promise<WalletStage> => {
  const backend = options.backend ?? "postgres"
  const ground =
    backend === "pglite"
      ? await pgliteGround(options.env ?? {})
      : await postgresGround(options.name, options.servers ?? 1, options.env ?? {})
  const { query } = ground
  const agent = new Agent({ keepAlive: true, maxSockets: 256 })
  const close = async () => {
    agent.destroy()
    await ground.close()
  }
  try {
    const first = ground.servers[0]
    if (first === undefined) throw new Error("a stage needs a server")
    // The games list arrives from the studio through the protocol: the lobby call waits for it.
    const lobby = await fetch(`${first.url}/game-aggregator-service/api/v1/games-and-categories/EUR`)
    if (!lobby.ok) throw new Error(`the lobby answered ${lobby.status}`)
    const [game] = await query<{ id: string; launch_id: string }>(
      "SELECT id, launch_id FROM games WHERE jackpot_id IS NULL AND active ORDER BY sort LIMIT 1",
    )
    if (game === undefined) throw new Error("no game listed by the studio")
    const users = await query<{ id: string }>(
      `INSERT INTO users (email, password_hash, full_name, currency)
       SELECT 'stage' || g || '@example.com', 'x', 'Stage Player', 'EUR' FROM generate_series(1, $1::int) g
       RETURNING id::text AS id`,
      [options.players],
    )
    await query("INSERT INTO wallets (user_id, currency, is_default) SELECT id, 'EUR', true FROM users")
    // Every player's opening balance is booked by the ledger, as a deposit would be.
    const opening = options.balance ?? 100_000n
    await ground.withLedger(
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
      }),
    )
    const players = users.map((u) => ({
      id: u.id,
      token: randomUUID().replace(/-/g, "") + randomUUID().replace(/-/g, ""),
    }))
    await query(
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

    const targets = ground.servers.map((s) => new URL(s.url))
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
    const dbUrl = ground.dbUrl
    const backends = async () =>
      dbUrl === undefined
        ? []
        : (
            await runSql<{ pid: number }>(
              dbUrl,
              "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
            )
          ).map((r) => r.pid)
    const commits = async () =>
      dbUrl === undefined
        ? undefined
        : Number(
            (
              await runSql<{ n: string }>(
                dbUrl,
                "SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()",
              )
            )[0]?.n ?? 0,
          )
    // Warm the pools so their backends exist before the first sample.
    for (const server of ground.servers.keys())
      await Promise.all(
        players
          .slice(0, 20)
          .map((p) => call("balance", { sessionToken: p.token, playerId: p.id, currency: "EUR" }, server)),
      )
    return {
      backend,
      dbUrl,
      servers: ground.servers,
      players,
      launchId: game.launch_id,
      call,
      backends,
      commits,
      query,
      checkLedger: () => ground.withLedger(checkLedger),
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}
