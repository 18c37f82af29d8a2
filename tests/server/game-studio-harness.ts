/**
 * Test harness of the game studio: the studio ALONE on its own server
 * (server/providers/game-studio/standalone.ts) on PGlite or a fresh PostgreSQL database, and a fake
 * casino wallet — a tiny HTTP server that checks the studio's signatures and keeps balances, with
 * idempotent transaction ids, as docs/game-wallet-protocol.md says the casino does.
 */
import { createServer } from "node:http"
import { studioCredentials } from "../../server/providers/game-studio/credentials.ts"
import { signBody, verifySignature } from "../../server/providers/game-studio/signature.ts"
import { makeStudioServer, type StudioServer } from "../../server/providers/game-studio/standalone.ts"
import { startStandalone } from "./standalone-harness.ts"

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
  const casino = await startFakeCasino()
  const { server, query, close } = await startStandalone({
    backend,
    name: "studio",
    env: { STUDIO_SECRET: studioTestSecret },
    logLevel: "None",
    make: (config) =>
      makeStudioServer(config, { walletUrl: casino.url, betTimeoutMs, retryTimeoutMs: 2_000 }),
  })
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
      await close()
      await casino.close()
    },
  }
}
