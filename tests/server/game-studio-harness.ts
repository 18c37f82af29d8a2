/**
 * Test harness of the game studio: the studio ALONE (providers/game-studio/server.ts, configured
 * from its own STUDIO_* variables) on its own storage — a PGlite folder, or the schema game_studio
 * of a fresh PostgreSQL database — and a fake casino wallet: a tiny HTTP server that checks the
 * studio's signatures and keeps balances, with idempotent transaction ids, as
 * docs/game-wallet-protocol.md says the casino does.
 */
import { createServer } from "node:http"
import { signBody, verifySignature } from "../../protocols/game-wallet/signature.ts"
import { loadStudioConfig, type StudioConfig } from "../../providers/game-studio/config.ts"
import { studioCredentials } from "../../providers/game-studio/credentials.ts"
import { type StudioServer, startStudio as startStudioServer } from "../../providers/game-studio/server.ts"
import { freePort } from "../support/server.ts"
import { queryThrough } from "./harness.ts"
import { type Backend, providerStorage } from "./standalone-harness.ts"

export const studioTestSecret = "studio-test-secret-0123456789abcdef0123456789"
/** The keys of a studio in sandbox mode (the tests' NODE_ENV=test): `test_…`. */
export const keys = studioCredentials(studioTestSecret, { sandbox: true })

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

export interface StudioTest {
  readonly url: string
  readonly casino: FakeCasino
  readonly server: StudioServer
  readonly config: StudioConfig
  readonly query: <T>(text: string, params?: ReadonlyArray<unknown>) => Promise<Array<T>>
  readonly launch: (
    body: Record<string, unknown>,
    sign?: (raw: string) => string | undefined,
  ) => Promise<Response>
  readonly close: () => Promise<void>
}

export interface StudioAloneOptions {
  /** The studio's own variables besides those the harness sets (STUDIO_SANDBOX, STUDIO_SECRET…). */
  readonly env?: Readonly<Record<string, string>>
  /** The casino's wallet it calls (default: a fake casino started for it). */
  readonly walletUrl?: string
  /** Share an existing PostgreSQL database (a second studio on the same data). */
  readonly databaseUrl?: string
}

/** The studio alone on its own storage, from its own configuration (config.ts). */
export const startStudioAlone = async (
  backend: Backend,
  walletUrl: string,
  options: Omit<StudioAloneOptions, "walletUrl"> & { readonly betTimeoutMs?: number } = {},
) => {
  const storage = await providerStorage({
    backend,
    name: "studio",
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
  })
  const port = await freePort()
  const config = loadStudioConfig({
    NODE_ENV: "test",
    STUDIO_PORT: String(port),
    STUDIO_HOST: "127.0.0.1",
    STUDIO_PUBLIC_URL: `http://127.0.0.1:${port}`,
    STUDIO_DATA_DIR: storage.dataDir,
    ...(storage.databaseUrl === undefined ? {} : { STUDIO_DATABASE_URL: storage.databaseUrl }),
    STUDIO_SECRET: studioTestSecret,
    STUDIO_WALLET_URL: walletUrl,
    STUDIO_FRAME_ANCESTORS: "http://casino.example",
    STUDIO_LOG_LEVEL: process.env.LOG_LEVEL ?? "None",
    STUDIO_BET_TIMEOUT_MS: String(options.betTimeoutMs ?? 1_500),
    STUDIO_RETRY_TIMEOUT_MS: "2000",
    ...options.env,
  })
  let server: StudioServer
  try {
    server = await startStudioServer(config)
  } catch (error) {
    await storage.close()
    throw error
  }
  let closing: Promise<void> | undefined
  return {
    server,
    config,
    storage,
    query: queryThrough(server.run),
    close: () => {
      closing ??= server.close().then(storage.close)
      return closing
    },
  }
}

export const startStudio = async (
  backend: Backend,
  betTimeoutMs = 1_500,
  options: Omit<StudioAloneOptions, "walletUrl"> = {},
): Promise<StudioTest> => {
  const casino = await startFakeCasino()
  const alone = await startStudioAlone(backend, casino.url, { ...options, betTimeoutMs }).catch(
    async (error: unknown) => {
      await casino.close()
      throw error
    },
  )
  const { server, config, query } = alone
  return {
    url: server.url,
    casino,
    server,
    config,
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
      await alone.close()
      await casino.close()
    },
  }
}
