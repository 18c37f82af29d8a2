/**
 * Helpers for the games tests (tests/server/games*.test.ts): a fake game provider (checks the
 * casino's signed launch with its casinoKey, serves a launch URL, remembers the session tokens, and
 * publishes the studio's games list signed with its walletSecret, as every integration does) set
 * as the `studio` integration through GAME_PROVIDERS, wallet calls signed with its walletSecret,
 * and credits booked through the ledger.
 */
import { createHmac, randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { Effect } from "effect"
import { publishedList } from "../../providers/game-studio/catalogue.ts"
import { Ledger } from "../../server/ledger/Ledger.ts"
import { newPlayer, type Player } from "./account-support.ts"
import type { TestServer } from "./harness.ts"
import { userIdOf } from "./money-support.ts"

export const GAMES = "/game-aggregator-service/api/v1"
export const CASINO_KEY = "fake-casino-key-0123456789abcdef"
export const WALLET_SECRET = "fake-wallet-secret-0123456789abcdef"

export interface LaunchSeen {
  readonly sessionToken: string | null
  readonly playerId: string | null
  readonly currency: string
  readonly gameId: string
  readonly demo: boolean
  readonly play?: { readonly autoplay: boolean; readonly turbo: boolean; readonly minRoundMs: number }
}

export interface FakeGameProvider {
  readonly url: string
  /** GAME_PROVIDERS making this fake the `studio` integration. */
  readonly env: Record<string, string>
  readonly launches: Array<LaunchSeen>
  /** "ok" answers a URL; "down" 503; "unknown" 404 UNKNOWN_GAME (launches only). */
  mode: "ok" | "down" | "unknown"
  /** The games list requests it answered (POST {url}/games). */
  readonly listRequests: Array<string>
  /** The free-round grants and cancels it took (POST {url}/freerounds, …/freerounds/cancel). */
  readonly freeRounds: Array<{ readonly cancel: boolean; readonly body: Record<string, unknown> }>
  readonly close: () => Promise<void>
}

export const sign = (key: string, t: number, body: string) =>
  `t=${t},v1=${createHmac("sha256", key).update(`${t}.${body}`).digest("hex")}`

export const startFakeGameProvider = async (): Promise<FakeGameProvider> => {
  const launches: Array<LaunchSeen> = []
  const listRequests: Array<string> = []
  const freeRounds: FakeGameProvider["freeRounds"] = []
  const fake: { mode: FakeGameProvider["mode"] } = { mode: "ok" }
  let listText = ""
  const server = createServer((req, res) => {
    let raw = ""
    req.on("data", (c: Buffer) => {
      raw += c.toString("utf8")
    })
    req.on("end", () => {
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" })
        res.end(JSON.stringify(json))
      }
      const header = String(req.headers["x-signature"] ?? "")
      const t = Number(/t=(\d+)/.exec(header)?.[1] ?? "0")
      if (header !== sign(CASINO_KEY, t, raw)) return send(401, { error: "INVALID_SIGNATURE" })
      if (req.url === "/games") {
        // The studio's titles, as the studio publishes them; the answer signed with the wallet secret.
        listRequests.push(raw)
        res.writeHead(200, {
          "content-type": "application/json",
          "x-signature": sign(WALLET_SECRET, Math.floor(Date.now() / 1000), listText),
        })
        res.end(listText)
        return
      }
      if (req.url === "/freerounds" || req.url === "/freerounds/cancel") {
        if (fake.mode === "down") return send(503, { error: "down" })
        const body = JSON.parse(raw) as Record<string, unknown>
        const cancel = req.url.endsWith("/cancel")
        freeRounds.push({ cancel, body })
        return send(200, {
          grantId: body.grantId,
          status: cancel ? "cancelled" : "active",
          roundsLeft: cancel ? 0 : body.rounds,
        })
      }
      if (fake.mode === "down") return send(503, { error: "down" })
      if (fake.mode === "unknown") return send(404, { error: "UNKNOWN_GAME" })
      const body = JSON.parse(raw) as LaunchSeen
      launches.push(body)
      return send(200, { url: `http://fake-games.test/play/${body.gameId}?n=${launches.length}` })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const url = `http://127.0.0.1:${port}`
  // Computed before any casino asks (the exact RTPs take seconds, once per process).
  listText = JSON.stringify(publishedList(url))
  return {
    url,
    listRequests,
    freeRounds,
    env: {
      GAME_PROVIDERS: JSON.stringify([
        { code: "studio", launchUrl: `${url}/launch`, casinoKey: CASINO_KEY, walletSecret: WALLET_SECRET },
      ]),
    },
    launches,
    get mode() {
      return fake.mode
    },
    set mode(m) {
      fake.mode = m
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export interface WalletReply {
  readonly status: number
  readonly body: Record<string, unknown>
}

/** Seconds each (key, body) was signed with by `walletCall`: never the same signature twice. */
const signedAt = new Map<string, Set<number>>()

/**
 * A provider's wallet call, signed with the wallet secret (or `signature` as given). Without a
 * `timestamp`, each call is signed anew as a provider's retry is: the same body sent again within a
 * second takes an earlier second (the casino refuses an exact signature it has accepted).
 */
export const walletCall = async (
  baseUrl: string,
  op: string,
  body: unknown,
  options: {
    readonly secret?: string
    readonly timestamp?: number
    readonly signature?: string
    readonly provider?: string
  } = {},
): Promise<WalletReply> => {
  const raw = typeof body === "string" ? body : JSON.stringify(body)
  const secret = options.secret ?? WALLET_SECRET
  let t = options.timestamp ?? Math.floor(Date.now() / 1000)
  if (options.timestamp === undefined && options.signature === undefined) {
    const key = `${secret}\n${raw}`
    const used = signedAt.get(key) ?? new Set<number>()
    while (used.has(t)) t--
    used.add(t)
    signedAt.set(key, used)
  }
  const res = await fetch(`${baseUrl}/api/games/wallet/${options.provider ?? "studio"}/${op}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-signature": options.signature ?? sign(secret, t, raw),
    },
    body: raw,
  })
  const text = await res.text()
  return { status: res.status, body: (text === "" ? {} : JSON.parse(text)) as Record<string, unknown> }
}

/** Credits a player's wallet through the ledger (as a completed deposit would). */
export const credit = (server: TestServer, userId: string, amount: bigint, currency = "EUR"): Promise<void> =>
  server.run(
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const player = yield* ledger.playerAccount(userId, currency)
      if (player === undefined) return yield* Effect.die(new Error(`no ${currency} wallet`))
      const clearing = yield* ledger.systemAccountId("gateway_clearing", "test", currency)
      yield* ledger.post({
        kind: "deposit",
        idempotencyKey: `test-credit:${userId}:${currency}:${Math.random()}`,
        entries: [
          { accountId: clearing, currency, amount: -amount },
          { accountId: player.id, currency, amount },
        ],
      })
    }).pipe(Effect.orDie),
  )

/** The launch payload of a catalogue game. */
export const launchBody = (
  game: {
    readonly id: string
    readonly launchId: string
    readonly name: string
    readonly provider: string
    readonly category: string
  },
  demo: boolean,
  currency?: string,
) => ({
  id: game.id,
  gameName: game.name,
  demo,
  lang: "en",
  launchId: game.launchId,
  imageId: game.id,
  platform: "desktop",
  provider: game.provider,
  category: game.category,
  ...(currency === undefined ? {} : { currency }),
})

/** Launches a real-money game for `player` and answers the session token the provider received. */
export const launchReal = async (
  fake: FakeGameProvider,
  player: Player,
  game: Parameters<typeof launchBody>[0],
  currency?: string,
): Promise<string> => {
  const res = await player.browser.post(`${GAMES}/game`, launchBody(game, false, currency))
  if (res.status !== 200) throw new Error(`launch: ${res.status} ${JSON.stringify(res.body)}`)
  const token = fake.launches.at(-1)?.sessionToken
  if (token === undefined || token === null) throw new Error("no session token reached the provider")
  return token
}

/** A new signed-in player with `cents` in EUR and a live real-money session of `game`. */
export const fundedPlayer = async (
  server: TestServer,
  fake: FakeGameProvider,
  tag: string,
  cents: bigint,
  game: Parameters<typeof launchBody>[0],
) => {
  const player = await newPlayer(server, tag)
  const userId = await userIdOf(server, player.email)
  if (cents > 0n) await credit(server, userId, cents)
  const token = await launchReal(fake, player, game)
  return { player, userId, token }
}

/** A bet's wallet body for a player's session of `game`, with fresh transaction and round ids. */
export const betBody = (
  game: { readonly launchId: string },
  p: { readonly userId: string; readonly token: string },
  amount: string,
  extra: Record<string, unknown> = {},
) => ({
  sessionToken: p.token,
  playerId: p.userId,
  currency: "EUR",
  transactionId: randomUUID(),
  roundId: randomUUID(),
  gameId: game.launchId,
  amount,
  ...extra,
})

/** A win's wallet body for a player's round of `game` (closing it), with a fresh transaction id. */
export const winBody = (
  game: { readonly launchId: string },
  p: { readonly userId: string; readonly token: string },
  roundId: string,
  amount: string,
) => ({
  sessionToken: p.token,
  playerId: p.userId,
  currency: "EUR",
  transactionId: randomUUID(),
  roundId,
  gameId: game.launchId,
  amount,
  roundClosed: true,
})

/** A rollback's wallet body for a player's bet, with a fresh transaction id. */
export const rollbackBody = (
  p: { readonly userId: string; readonly token: string },
  bet: { readonly transactionId: string; readonly roundId: string },
) => ({
  sessionToken: p.token,
  playerId: p.userId,
  currency: "EUR",
  transactionId: randomUUID(),
  roundId: bet.roundId,
  refTransactionId: bet.transactionId,
})
