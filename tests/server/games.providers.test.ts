/**
 * A second provider by configuration (docs/game-wallet-protocol.md, "Games list"), on both
 * backends: the casino with the studio's sandbox beside it (the harness's `parties: ["studio"]`),
 * plus a SECOND stand-alone studio (its own server, storage and keys) configured as the integration
 * `second` through GAME_PROVIDERS. The casino knows
 * no title of its own: each integration's signed games list is fetched and stored under its code.
 * Shown: the second studio's games in the lobby calls (ids namespaced, their own jackpot pools), a
 * launch through it, a real-money round through its wallet settled in the ledger against `second`,
 * a jackpot won there paid from its own pool; lists refused when wrongly or stalely signed, a
 * provider down at start not stopping the casino, and the last stored list kept when it goes away.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */

import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { studioProviderEntry } from "../../compose/parties/studio.ts"
import { signBody, verifySignature } from "../../protocols/game-wallet/signature.ts"
import { publishedList } from "../../providers/game-studio/catalogue.ts"
import { studioCredentials } from "../../providers/game-studio/credentials.ts"
import { Games } from "../../server/games/Games.ts"
import type { Game, GamesAndCategories } from "../../services/game-service.ts"
import { freePort } from "../support/server.ts"
import { newPlayer } from "./account-support.ts"
import { startStudioAlone } from "./game-studio-harness.ts"
import { credit, GAMES, launchBody, sign, walletCall } from "./games-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import { balanceOf, ledgerReport, userIdOf } from "./money-support.ts"
import { Browser } from "./users-support.ts"

const secondSecret = "second-studio-secret-0123456789abcdef0123456789"
const second = studioCredentials(secondSecret, { sandbox: true })
// The studio's sandbox beside the casino, on a port and secret chosen here: GAME_PROVIDERS is set
// by this test (a user's GAME_PROVIDERS wins over the composition root's), so it names the studio too.
const studioSecret = "in-house-studio-secret-0123456789abcdef0123456789"
const studioKeys = studioCredentials(studioSecret, { sandbox: true })

interface Pool {
  readonly id: string
  readonly currency: string
  readonly amount: string
  readonly gameIds: ReadonlyArray<string>
}

describeOn("postgres", "games: a second provider by configuration", ({ backend, start }) => {
  let server: TestServer
  let studioB: Awaited<ReturnType<typeof startStudioAlone>>
  let stale: { url: string; close: () => Promise<void> }
  let lobby: GamesAndCategories

  beforeAll(async () => {
    studioB = await startStudioAlone(backend, "http://127.0.0.1:9/unset", {
      env: { STUDIO_SECRET: secondSecret, STUDIO_BET_TIMEOUT_MS: "8000", STUDIO_RETRY_TIMEOUT_MS: "10000" },
    })
    // A provider whose list is signed correctly but 10 minutes ago: a replayed, stale answer.
    const staleServer = createServer((_req, res) => {
      const text = JSON.stringify(publishedList(stale.url))
      res.writeHead(200, {
        "content-type": "application/json",
        "x-signature": sign("stale-wallet-secret-0123456789", Math.floor(Date.now() / 1000) - 600, text),
      })
      res.end(text)
    })
    await new Promise<void>((resolve) => staleServer.listen(0, "127.0.0.1", resolve))
    const address = staleServer.address()
    stale = {
      url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`,
      close: () => new Promise<void>((resolve) => staleServer.close(() => resolve())),
    }
    const launchUrl = `${studioB.server.url}/studio/api/launch`
    const studioPort = await freePort()
    const providers = [
      studioProviderEntry(`http://127.0.0.1:${studioPort}`, studioKeys),
      { code: "second", launchUrl, casinoKey: second.casinoKey, walletSecret: second.walletSecret },
      // The second studio's own list, checked with a wallet secret that is not the one it signs with.
      {
        code: "rogue",
        launchUrl,
        casinoKey: second.casinoKey,
        walletSecret: "rogue-wallet-secret-0123456789",
      },
      // Nothing listens there: the casino starts all the same.
      {
        code: "offline",
        launchUrl: "http://127.0.0.1:9/launch",
        casinoKey: "offline-casino-key-0123456789",
        walletSecret: "offline-wallet-secret-0123456789",
      },
      {
        code: "stale",
        launchUrl: `${stale.url}/launch`,
        gamesUrl: `${stale.url}/list`,
        casinoKey: "stale-casino-key-0123456789",
        walletSecret: "stale-wallet-secret-0123456789",
      },
    ]
    server = await start(
      { captchaEnabled: false },
      {
        env: {
          GAME_PROVIDERS: JSON.stringify(providers),
          RATE_LIMIT_SCALE: "100",
          STUDIO_PORT: String(studioPort),
          STUDIO_SECRET: studioSecret,
        },
        parties: ["studio"],
      },
    )
    // The second studio reaches the casino's wallet, whose address is known only once the casino
    // runs: the studio reads its wallet URL at each call, so the address is filled in now.
    ;(studioB.config as { walletUrl: string }).walletUrl = `${server.url}/api/games/wallet/second`
    lobby = (await new Browser(server).get(`${GAMES}/games-and-categories/EUR`)).body as GamesAndCategories
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await studioB?.close()
    await stale?.close()
  })

  const ofSecond = (g: Game) => g.id.startsWith("second-")
  const pick = (f: (g: Game) => boolean): Game => {
    const g = lobby.games.find(f)
    if (g === undefined) throw new Error("no such game in the lobby")
    return g
  }

  it("lists the second provider's games beside the studio's, under its code", async () => {
    const mine = lobby.games.filter((g) => !ofSecond(g))
    const theirs = lobby.games.filter(ofSecond)
    expect(mine.length).toBeGreaterThanOrEqual(40)
    expect(theirs.length).toBe(mine.length)
    // The same titles, namespaced; brands, kinds, RTP and jackpot flags as published.
    for (const g of mine) {
      const twin = theirs.find((t) => t.id === `second-${g.id}`)
      expect(twin).toMatchObject({
        launchId: g.launchId,
        name: g.name,
        provider: g.provider,
        kind: g.kind,
        rtp: g.rtp,
        jackpot: g.jackpot,
        category: g.category,
      })
      expect(lobby.betLimits[`second-${g.id}`]).toEqual(lobby.betLimits[g.id])
    }
    // Each studio serves its art from its own plain-http origin: the casino's pages show images from
    // the sandbox party's origin (FRAME_ORIGINS, set by the composition root), not from an origin
    // nobody listed — there the casino draws the tile (the rule itself: games.rules.test.ts).
    const studioOrigin = new URL(server.parties.get("studio")?.publicUrl ?? "").origin
    expect(mine[0]?.image).toBe(`${studioOrigin}/studio/art/${mine[0]?.id}.svg`)
    expect(theirs[0]?.image).toBe(`${server.config.cdnBasePath}/games/${theirs[0]?.id}.svg`)
    // The integrations in GAME_PROVIDERS' order: the studio first.
    expect(lobby.games.findIndex(ofSecond)).toBe(mine.length)
    const stored = await server.query<{ integration: string; n: string }>(
      "SELECT integration, count(*)::text AS n FROM games WHERE active GROUP BY integration ORDER BY integration",
    )
    expect(stored).toEqual([
      { integration: "second", n: String(theirs.length) },
      { integration: "studio", n: String(mine.length) },
    ])
    const visitor = new Browser(server)
    const main = (await visitor.get(`${GAMES}/category/main-games`)).body as Array<Game>
    expect(main.map((g) => g.id)).toEqual(lobby.games.map((g) => g.id))
    const fresh = (await visitor.get(`${GAMES}/category/new-games`)).body as Array<Game>
    expect(fresh.some(ofSecond)).toBe(true)
    const pools = (await visitor.get(`${GAMES}/jackpots`)).body as Array<Pool>
    const theirPools = pools.filter((p) => p.id.startsWith("second-") && p.currency === "EUR")
    expect(theirPools.length).toBeGreaterThan(0)
    for (const p of theirPools) expect(p.gameIds.every((id) => id.startsWith("second-"))).toBe(true)
  })

  it("refuses wrongly or stalely signed lists, survives a provider that is down; the studio refuses replays", async () => {
    expect(lobby.games.some((g) => /^(rogue|offline|stale)-/.test(g.id))).toBe(false)
    const report = await server.run(Effect.flatMap(Games, (games) => games.refresh()))
    const outcome = (code: string) => report.find((r) => r.integration === code)
    expect(outcome("studio")?.outcome).toBe("unchanged")
    expect(outcome("second")?.outcome).toBe("unchanged")
    expect(outcome("rogue")).toMatchObject({
      outcome: "failed",
      reason: expect.stringContaining("signature"),
    })
    expect(outcome("stale")).toMatchObject({ outcome: "failed", reason: expect.stringContaining("stale") })
    expect(outcome("offline")?.outcome).toBe("failed")
    // The studio itself refuses a list request that is not signed with its casino key.
    const body = JSON.stringify({ requestId: randomUUID() })
    const ask = (signature: string) =>
      fetch(`${studioB.server.url}/studio/api/games`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "x-signature": signature },
      })
    const forged = await ask(signBody("not-the-casino-key-0123456789", body))
    expect(forged.status).toBe(401)
    expect(await forged.json()).toEqual({ error: "INVALID_SIGNATURE" })
    const staleAsk = await ask(signBody(second.casinoKey, body, Math.floor(Date.now() / 1000) - 600))
    expect(staleAsk.status).toBe(401)
    const signature = signBody(second.casinoKey, body)
    const ok = await ask(signature)
    expect(ok.status).toBe(200)
    const text = await ok.text()
    expect(verifySignature(second.walletSecret, ok.headers.get("x-signature") ?? undefined, text)).toBe(true)
    expect((JSON.parse(text) as { games: Array<unknown> }).games.length).toBe(lobby.games.length / 2)
    // The same request again: the studio takes a casino's signed request (with its requestId) once.
    const again = await ask(signature)
    expect(again.status).toBe(401)
    expect(await again.json()).toEqual({ error: "REPLAYED_SIGNATURE" })
    const launch = JSON.stringify({
      sessionToken: null,
      playerId: null,
      nickname: null,
      currency: "EUR",
      gameId: "dice-classic",
      demo: true,
      lang: "en",
      platform: "desktop",
      lobbyUrl: `${server.url}/`,
      requestId: randomUUID(),
    })
    const launchSignature = signBody(second.casinoKey, launch)
    const launchOnce = () =>
      fetch(`${studioB.server.url}/studio/api/launch`, {
        method: "POST",
        body: launch,
        headers: { "content-type": "application/json", "x-signature": launchSignature },
      })
    expect((await launchOnce()).status).toBe(200)
    const replayedLaunch = await launchOnce()
    expect(replayedLaunch.status).toBe(401)
    expect(await replayedLaunch.json()).toEqual({ error: "REPLAYED_SIGNATURE" })
  })

  it("launches through the second provider and settles its real-money round in the ledger under its code", async () => {
    const dice = pick((g) => g.id === "second-dice-classic")
    const visitor = new Browser(server)
    const demo = await visitor.post(`${GAMES}/game`, launchBody(dice, true))
    expect(demo.status).toBe(200)
    expect(String((demo.body as { url: string }).url)).toMatch(
      new RegExp(`^${studioB.server.url}/studio/play/`),
    )

    const player = await newPlayer(server, "second-provider")
    const userId = await userIdOf(server, player.email)
    await credit(server, userId, 5_000n)
    const launched = await player.browser.post(`${GAMES}/game`, launchBody(dice, false))
    expect(launched.status).toBe(200)
    const url = String((launched.body as { url: string }).url)
    expect(url).toMatch(new RegExp(`^${studioB.server.url}/studio/play/`))
    const session = url.split("/").pop() ?? ""
    const played = await fetch(`${studioB.server.url}/studio/api/session/${session}/round`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ bet: "100", options: { target: 50, direction: "under" } }),
    })
    expect(played.status).toBe(200)
    const round = (await played.json()) as { roundId: string; win: string; balance: string }
    const after = 5_000n - 100n + BigInt(round.win)
    expect(round.balance).toBe(after.toString())
    expect(await balanceOf(server, userId)).toBe(after.toString())
    const rounds = await server.query<Record<string, string>>(
      "SELECT integration, game_id, bet_total::text AS bet, win_total::text AS win, status FROM game_rounds WHERE round_id = $1",
      [round.roundId],
    )
    expect(rounds).toEqual([
      {
        integration: "second",
        game_id: "second-dice-classic",
        bet: "100",
        win: round.win,
        status: "settled",
      },
    ])
    const calls = await server.query<{ integration: string; op: string; transaction_id: string }>(
      "SELECT integration, op, transaction_id FROM game_transactions WHERE round_id = $1 ORDER BY id",
      [round.roundId],
    )
    expect(calls).toEqual([
      { integration: "second", op: "bet", transaction_id: `bet-${round.roundId}` },
      { integration: "second", op: "win", transaction_id: `win-${round.roundId}` },
    ])
    const postings = await server.query<{ key: string }>(
      "SELECT idempotency_key AS key FROM ledger_transactions WHERE metadata->>'roundId' = $1 ORDER BY created_at",
      [round.roundId],
    )
    // A win of 0 books nothing (docs/games.md): then the bet is the round's only posting.
    expect(postings.map((p) => p.key)).toEqual(
      round.win === "0"
        ? [`game:second:bet-${round.roundId}`]
        : [`game:second:bet-${round.roundId}`, `game:second:win-${round.roundId}`],
    )
    // The studio's integration cannot settle the second provider's game: its wallet names it unknown.
    const [studioSession] = await studioB.query<{ token: string }>(
      "SELECT casino_token AS token FROM studio_sessions WHERE id = $1",
      [session],
    )
    const bet = {
      sessionToken: studioSession?.token,
      playerId: userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: randomUUID(),
      gameId: dice.launchId,
      amount: "100",
    }
    expect(
      await walletCall(server.url, "bet", bet, { provider: "second", secret: "wrong-secret-0123456789" }),
    ).toEqual({
      status: 401,
      body: { error: "INVALID_SIGNATURE" },
    })
  })

  it("feeds and pays the second provider's own jackpot pool, not the studio's", async () => {
    const game = pick((g) => ofSecond(g) && g.jackpot)
    const pools = (await new Browser(server).get(`${GAMES}/jackpots`)).body as Array<Pool>
    const pool = pools.find((p) => p.currency === "EUR" && p.gameIds.includes(game.id))
    if (pool === undefined) throw new Error("no pool for the jackpot game")
    expect(pool.id).toMatch(/^second-/)
    const providerJackpot = pool.id.slice("second-".length)
    const poolBalance = async (id: string) =>
      BigInt(
        (
          await server.query<{ b: string }>(
            "SELECT balance::text AS b FROM ledger_accounts WHERE kind = 'jackpot_pool' AND code = $1 AND currency = 'EUR'",
            [id],
          )
        )[0]?.b ?? "0",
      )
    const theirs = await poolBalance(pool.id)
    const ours = await poolBalance(providerJackpot)
    const player = await newPlayer(server, "second-jackpot")
    const userId = await userIdOf(server, player.email)
    await credit(server, userId, 10_000n)
    const launched = await player.browser.post(`${GAMES}/game`, launchBody(game, false))
    expect(launched.status).toBe(200)
    const session =
      String((launched.body as { url: string }).url)
        .split("/")
        .pop() ?? ""
    const [row] = await studioB.query<{ token: string }>(
      "SELECT casino_token AS token FROM studio_sessions WHERE id = $1",
      [session],
    )
    const as = { provider: "second", secret: second.walletSecret }
    const roundId = randomUUID()
    const bet = {
      sessionToken: row?.token,
      playerId: userId,
      currency: "EUR",
      transactionId: `bet-${roundId}`,
      roundId,
      gameId: game.launchId,
      amount: "1000",
      jackpotContribution: "10",
    }
    expect((await walletCall(server.url, "bet", bet, as)).body).toMatchObject({ balance: "9000" })
    expect(await poolBalance(pool.id)).toBe(theirs + 10n)
    expect(await poolBalance(providerJackpot)).toBe(ours)
    // The provider names its own jackpot id; the casino pays the pool it keeps for that provider.
    const win = await walletCall(
      server.url,
      "win",
      {
        sessionToken: row?.token,
        playerId: userId,
        currency: "EUR",
        transactionId: `win-${roundId}`,
        roundId,
        gameId: game.launchId,
        amount: "0",
        roundClosed: true,
        jackpotId: providerJackpot,
      },
      as,
    )
    expect(win).toEqual({
      status: 200,
      body: {
        balance: String(9_000n + theirs + 10n),
        currency: "EUR",
        transactionId: `win-${roundId}`,
        jackpotAmount: String(theirs + 10n),
      },
    })
    expect(await poolBalance(pool.id)).toBe(100_000n)
    expect(await poolBalance(providerJackpot)).toBe(ours)
  })

  it("keeps the last stored list when the provider goes away", async () => {
    await studioB.close()
    const report = await server.run(Effect.flatMap(Games, (games) => games.refresh()))
    expect(report.find((r) => r.integration === "second")?.outcome).toBe("failed")
    const now = (await new Browser(server).get(`${GAMES}/games-and-categories/EUR`))
      .body as GamesAndCategories
    expect(now.games.map((g) => g.id)).toEqual(lobby.games.map((g) => g.id))
    const launch = await new Browser(server).post(`${GAMES}/game`, launchBody(pick(ofSecond), true))
    expect(launch.status).toBe(503)
  })

  it("leaves the ledger clean", async () => {
    expect((await ledgerReport(server)).clean).toBe(true)
  })
})
