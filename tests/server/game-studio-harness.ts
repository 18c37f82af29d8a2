/**
 * Test harness of the game studio: the studio ALONE on its own server
 * (server/providers/game-studio/standalone.ts) on PGlite or a fresh PostgreSQL database, and a fake
 * casino wallet — a tiny HTTP server that checks the studio's signatures and keeps balances, with
 * idempotent transaction ids, as docs/game-wallet-protocol.md says the casino does.
 */

import { randomBytes } from "node:crypto"
import { cp, mkdtemp, rm, stat } from "node:fs/promises"
import { createServer } from "node:http"
import { createServer as createNetServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { loadConfig } from "../../server/config.ts"
import { studioCredentials } from "../../server/providers/game-studio/credentials.ts"
import { signBody, verifySignature } from "../../server/providers/game-studio/signature.ts"
import { makeStudioServer, type StudioServer } from "../../server/providers/game-studio/standalone.ts"
import { createPostgresDatabase } from "./payment-sandbox-harness.ts"

export const studioTestSecret = "studio-test-secret-0123456789abcdef0123456789"
export const keys = studioCredentials(studioTestSecret)

export interface WalletCall {
  readonly op: string
  readonly body: Record<string, unknown>
  readonly signed: boolean
}

export interface FakeCasino {
  readonly url: string
  readonly calls: Array<WalletCall>
  readonly balances: Map<string, bigint>
  /** Milliseconds to sit on a bet before answering (0 = at once). */
  betDelayMs: number
  /** Players who are self-excluded. */
  readonly blocked: Set<string>
  /** The next n win calls answer 500 (not acknowledged). */
  failWins: number
  readonly close: () => Promise<void>
}

export const startFakeCasino = async (): Promise<FakeCasino> => {
  const answers = new Map<string, { status: number; body: unknown; content: string }>()
  const rolledBack = new Set<string>()
  const bets = new Map<string, bigint>()
  const casino: FakeCasino = {
    url: "",
    calls: [],
    balances: new Map(),
    betDelayMs: 0,
    blocked: new Set(),
    failWins: 0,
    close: async () => undefined,
  }
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", async () => {
      const raw = Buffer.concat(chunks).toString("utf8")
      const op = (req.url ?? "").split("/").pop() ?? ""
      const signed = verifySignature(keys.walletSecret, String(req.headers["x-signature"] ?? ""), raw)
      const body: Record<string, unknown> = JSON.parse(raw)
      casino.calls.push({ op, body, signed })
      const send = (status: number, answer: unknown) => {
        if (!res.writableEnded && !res.destroyed) {
          res.writeHead(status, { "content-type": "application/json" })
          res.end(JSON.stringify(answer))
        }
      }
      if (!signed) return send(401, { error: "INVALID_SIGNATURE" })
      const player = String(body.playerId)
      const balance = () => casino.balances.get(player) ?? 0n
      const currency = body.currency
      if (op === "balance") return send(200, { balance: balance().toString(), currency })
      const tx = String(body.transactionId)
      const content = JSON.stringify({ ...body, transactionId: undefined })
      const first = answers.get(tx)
      if (first !== undefined)
        return first.content === content
          ? send(first.status, first.body)
          : send(409, { error: "DUPLICATE_MISMATCH" })
      const remember = (status: number, answer: unknown) => {
        answers.set(tx, { status, body: answer, content })
        send(status, answer)
      }
      if (op === "bet") {
        if (casino.betDelayMs > 0) await new Promise((r) => setTimeout(r, casino.betDelayMs))
        if (rolledBack.has(tx)) return remember(409, { error: "ROLLED_BACK" })
        if (casino.blocked.has(player)) return remember(403, { error: "PLAYER_BLOCKED" })
        const amount = BigInt(String(body.amount))
        if (amount > balance())
          return remember(402, { error: "INSUFFICIENT_FUNDS", balance: balance().toString() })
        casino.balances.set(player, balance() - amount)
        bets.set(tx, amount)
        return remember(200, { balance: balance().toString(), currency, transactionId: tx })
      }
      if (op === "win") {
        if (casino.failWins > 0) {
          casino.failWins--
          return send(500, { error: "TRY_LATER" })
        }
        casino.balances.set(player, balance() + BigInt(String(body.amount)))
        return remember(200, { balance: balance().toString(), currency, transactionId: tx })
      }
      if (op === "rollback") {
        const ref = String(body.refTransactionId)
        const amount = bets.get(ref)
        if (amount !== undefined) {
          casino.balances.set(player, balance() + amount)
          bets.delete(ref)
        } else rolledBack.add(ref)
        return remember(200, { balance: balance().toString(), currency, transactionId: tx })
      }
      return send(404, { error: "UNKNOWN_OP" })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return Object.assign(casino, {
    url: `http://127.0.0.1:${port}/api/games/wallet/studio`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
}

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const srv = createNetServer()
    srv.unref()
    srv.on("error", reject)
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      srv.close(() => resolve(port))
    })
  })

const pgliteTemplate = async (): Promise<string> => {
  const dir = join(tmpdir(), "casino-pglite-template-studio")
  if (
    await stat(join(dir, "PG_VERSION")).then(
      () => true,
      () => false,
    )
  )
    return dir
  const building = `${dir}.building-${process.pid}-${randomBytes(4).toString("hex")}`
  const db = await PGlite.create({ dataDir: building })
  await db.close()
  await cp(building, dir, { recursive: true, force: false, errorOnExist: false })
  await rm(building, { recursive: true, force: true })
  return dir
}

export interface StudioTest {
  readonly url: string
  readonly casino: FakeCasino
  readonly server: StudioServer
  readonly query: <T>(text: string, params?: ReadonlyArray<unknown>) => Promise<Array<T>>
  readonly launch: (
    body: Record<string, unknown>,
    sign?: (raw: string) => string | undefined,
  ) => Promise<Response>
  readonly close: () => Promise<void>
}

export const startStudio = async (
  backend: "pglite" | "postgres",
  betTimeoutMs = 1_500,
): Promise<StudioTest> => {
  const dataDir = await mkdtemp(join(tmpdir(), "casino-studio-test-"))
  let drop: (() => Promise<void>) | undefined
  let databaseUrl: string | undefined
  if (backend === "postgres") {
    const db = await createPostgresDatabase()
    databaseUrl = db.url
    drop = db.drop
  } else await cp(await pgliteTemplate(), join(dataDir, "pglite"), { recursive: true })
  const port = await freePort()
  const config = loadConfig({
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "None",
    NODE_ENV: "test",
    STUDIO_SECRET: studioTestSecret,
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
  })
  const casino = await startFakeCasino()
  const server = await makeStudioServer(config, {
    walletUrl: casino.url,
    betTimeoutMs,
    retryTimeoutMs: 2_000,
  })
  const query = <T>(text: string, params: ReadonlyArray<unknown> = []): Promise<Array<T>> =>
    server.run(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql.unsafe<T & object>(text, params)
        return [...rows]
      }),
    )
  return {
    url: server.url,
    casino,
    server,
    query,
    launch: (body, sign = (raw) => signBody(keys.casinoKey, raw)) => {
      const raw = JSON.stringify(body)
      const signature = sign(raw)
      return fetch(`${server.url}/studio/api/launch`, {
        method: "POST",
        body: raw,
        headers: {
          "content-type": "application/json",
          ...(signature === undefined ? {} : { "x-signature": signature }),
        },
      })
    },
    close: async () => {
      await server.close()
      await casino.close()
      if (drop !== undefined) await drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
