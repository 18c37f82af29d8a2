/**
 * The games module on both backends: every lobby call, favorites and bet history (with their 4xx
 * and authorisation), launch (demo, real, blocked, provider down), and every rule of the seamless
 * wallet (docs/game-wallet-protocol.md) against a fake provider; ledger:check clean at the end.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { Game, GamesAndCategories } from "../../services/game-service.ts"
import { newPlayer, type Player } from "./account-support.ts"
import {
  CASINO_KEY,
  type FakeGameProvider,
  fundedPlayer,
  GAMES,
  launchBody,
  rollbackBody,
  startFakeGameProvider,
  betBody as walletBet,
  walletCall,
} from "./games-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { balanceOf, ledgerReport, PROFILE, userIdOf } from "./money-support.ts"
import { Browser } from "./users-support.ts"

describeBackends("games: lobby, favorites, history, launch, seamless wallet", ({ start }) => {
  let server: TestServer
  let fake: FakeGameProvider
  let games: ReadonlyArray<Game>
  let slot: Game
  let jackpotGame: Game
  let slotLimits: { min: string; max: string }
  let jackpotId: string
  beforeAll(async () => {
    fake = await startFakeGameProvider()
    // Many players from one address: the registration limit per IP scaled out of the way.
    server = await start({ captchaEnabled: false }, { env: { ...fake.env, RATE_LIMIT_SCALE: "100" } })
    const res = await new Browser(server).get(`${GAMES}/games-and-categories/EUR`)
    games = (res.body as GamesAndCategories).games
    const s = games.find((g) => g.kind === "slot" && !g.jackpot)
    const j = games.find((g) => g.jackpot)
    if (s === undefined || j === undefined) throw new Error("catalogue without a slot or a jackpot game")
    slot = s
    jackpotGame = j
    const limits = (res.body as GamesAndCategories).betLimits[s.id]
    if (limits === undefined) throw new Error("no bet limits")
    slotLimits = limits
    const pools = (await new Browser(server).get(`${GAMES}/jackpots`)).body as Array<{
      id: string
      gameIds: Array<string>
    }>
    jackpotId = pools.find((p) => p.gameIds.includes(j.id))?.id ?? "none"
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  const funded = (tag: string, cents: bigint, game: Game = slot) =>
    fundedPlayer(server, fake, tag, cents, game)
  const betBody = (
    p: { userId: string; token: string },
    amount: string,
    extra: Record<string, unknown> = {},
  ) => walletBet(slot, p, amount, extra)

  it("serves the catalogue with segments and bet limits in the asked currency (not 3 letters → EUR)", async () => {
    const visitor = new Browser(server)
    const eur = (await visitor.get(`${GAMES}/games-and-categories/EUR`)).body as GamesAndCategories
    expect(eur.currency).toBe("EUR")
    expect(eur.games.length).toBeGreaterThanOrEqual(40)
    expect(new Set(eur.games.map((g) => g.provider)).size).toBeGreaterThanOrEqual(4)
    expect(eur.categories.map((c) => c.slug)).toContain("slots")
    // The studio's slots take 0.10 EUR at least (EUR: 1 minor unit = 1 cent).
    expect(eur.betLimits[slot.id]?.min).toBe("10")
    expect(BigInt(slotLimits.max)).toBeGreaterThanOrEqual(1_000n)
    for (const g of eur.games) expect(g.rtp).toMatch(/^\d{2}\.\d{2}$/)
    const odd = await visitor.get(`${GAMES}/games-and-categories/euro`)
    expect(odd.status).toBe(200)
    expect((odd.body as GamesAndCategories).currency).toBe("EUR")
    const usd = (await visitor.get(`${GAMES}/games-and-categories/usd`)).body as GamesAndCategories
    expect(usd.currency).toBe("USD")
    const [rate] = await server.query<{ r: string }>(
      "SELECT eur_rate::text AS r FROM currency_rates WHERE currency = 'USD'",
    )
    // min 10 EUR cents in USD cents, rounded up: ceil(10 / rate).
    const expectedMin = Math.ceil(10 / Number(rate?.r))
    expect(Number(usd.betLimits[slot.id]?.min)).toBe(expectedMin)
    const unknown = (await visitor.get(`${GAMES}/games-and-categories/XYZ`)).body as GamesAndCategories
    expect(unknown.currency).toBe("EUR")
  })

  it("answers the sections, currencies, skin and jackpots", async () => {
    const visitor = new Browser(server)
    const main = (await visitor.get(`${GAMES}/category/main-games`)).body as Array<Game>
    expect(main.map((g) => g.id)).toEqual(games.map((g) => g.id))
    const featured = (await visitor.get(`${GAMES}/category/featured-games`)).body as Array<Game>
    expect(featured.length).toBeGreaterThan(0)
    expect(featured.every((g) => g.featured)).toBe(true)
    const fresh = (await visitor.get(`${GAMES}/category/new-games`)).body as Array<Game>
    expect(fresh.length).toBeGreaterThan(0)
    expect(fresh.every((g) => g.isNew)).toBe(true)
    const top = await visitor.get(`${GAMES}/category/top-games`)
    expect(top.status).toBe(200)
    expect((top.body as Array<Game>).length).toBe(games.length)
    const currencies = (await visitor.get(`${GAMES}/currency`)).body as Array<string>
    expect(currencies).toContain("EUR")
    expect(currencies).toContain("USD")
    const skin = (await visitor.get(`${GAMES}/skin-configuration`)).body as Record<string, unknown>
    expect(skin).toMatchObject({ pageSize: 12, productName: server.config.productName })
    const jackpots = (await visitor.get(`${GAMES}/jackpots`)).body as Array<Record<string, unknown>>
    const eurPool = jackpots.find((j) => j.currency === "EUR" && j.id === jackpotId)
    expect(eurPool).toMatchObject({ id: jackpotId, gameIds: expect.arrayContaining([jackpotGame.id]) })
    expect(BigInt(String(eurPool?.amount))).toBeGreaterThanOrEqual(100_000n)
  })

  it("keeps favorites per player: checked against the catalogue, idempotent add, delete", async () => {
    const a = await newPlayer(server, "fav-a")
    const b = await newPlayer(server, "fav-b")
    const fav = {
      id: slot.id,
      launchId: slot.launchId,
      category: slot.category,
      name: slot.name,
      provider: slot.provider,
    }
    expect((await new Browser(server).get(`${PROFILE}/profile/favoriteGame`)).status).toBe(401)
    expect((await new Browser(server).post(`${PROFILE}/profile/favoriteGame`, fav)).status).toBe(401)
    const added = await a.browser.post(`${PROFILE}/profile/favoriteGame`, fav)
    expect(added.status).toBe(200)
    expect(added.body).toEqual([fav])
    expect((await a.browser.post(`${PROFILE}/profile/favoriteGame`, fav)).body).toEqual([fav])
    const unknown = await a.browser.post(`${PROFILE}/profile/favoriteGame`, { ...fav, id: "no-such-game" })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ _tag: "GameNotFound" })
    const forged = await a.browser.post(`${PROFILE}/profile/favoriteGame`, { ...fav, launchId: "other" })
    expect(forged.status).toBe(404)
    expect((await a.browser.post(`${PROFILE}/profile/favoriteGame`, { id: "Bad Id!" })).status).toBe(400)
    expect((await b.browser.get(`${PROFILE}/profile/favoriteGame`)).body).toEqual([])
    // b deleting a's favorite changes nothing for a.
    expect((await b.browser.delete(`${PROFILE}/profile/favoriteGame/${slot.id}`)).body).toEqual([])
    expect((await a.browser.get(`${PROFILE}/profile/favoriteGame`)).body).toEqual([fav])
    expect((await a.browser.delete(`${PROFILE}/profile/favoriteGame/${slot.id}`)).body).toEqual([])
    expect((await a.browser.delete(`${PROFILE}/profile/favoriteGame/unknown`)).status).toBe(200)
  })

  it("launches a demo without a session and a real game with one; refuses what it must", async () => {
    const visitor = new Browser(server)
    const demo = await visitor.post(`${GAMES}/game`, launchBody(slot, true))
    expect(demo.status).toBe(200)
    expect(demo.body).toMatchObject({ demo: true, currency: "EUR" })
    expect(String((demo.body as { url: string }).url)).toMatch(/^http:\/\/fake-games\.test\/play\//)
    expect(fake.launches.at(-1)).toMatchObject({ sessionToken: null, playerId: null, demo: true })
    const anonymous = await visitor.post(`${GAMES}/game`, launchBody(slot, false))
    expect(anonymous.status).toBe(401)
    const p = await newPlayer(server, "launch")
    const userId = await userIdOf(server, p.email)
    const real = await p.browser.post(`${GAMES}/game`, launchBody(slot, false))
    expect(real.status).toBe(200)
    expect(real.body).toMatchObject({ demo: false, currency: "EUR" })
    const seen = fake.launches.at(-1)
    expect(seen).toMatchObject({ playerId: userId, demo: false, currency: "EUR", gameId: slot.launchId })
    expect(seen?.sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // Stored hashed, never as given.
    const stored = await server.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM game_sessions WHERE token_hash = $1",
      [seen?.sessionToken],
    )
    expect(stored[0]?.n).toBe("0")
    const noWallet = await p.browser.post(`${GAMES}/game`, launchBody(slot, false, "USD"))
    expect(noWallet.status).toBe(403)
    expect(noWallet.body).toMatchObject({ _tag: "PlayBlocked", reason: "currency" })
    const unknown = await p.browser.post(`${GAMES}/game`, { ...launchBody(slot, false), id: "no-such-game" })
    expect(unknown.status).toBe(404)
    const mismatched = await p.browser.post(`${GAMES}/game`, { ...launchBody(slot, false), launchId: "x" })
    expect(mismatched.status).toBe(404)
    expect(
      (await p.browser.post(`${GAMES}/game`, { ...launchBody(slot, false), platform: "tv" })).status,
    ).toBe(400)
    fake.mode = "down"
    const down = await p.browser.post(`${GAMES}/game`, launchBody(slot, false))
    fake.mode = "unknown"
    const gone = await p.browser.post(`${GAMES}/game`, launchBody(slot, false))
    fake.mode = "ok"
    expect(down.status).toBe(503)
    expect(down.body).toMatchObject({ _tag: "GameUnavailable" })
    expect(gone.status).toBe(404)
    await server.query(
      "UPDATE users SET self_exclusion_until = now() + interval '1 day', self_exclusion_kind = 'timeout' WHERE id = $1",
      [userId],
    )
    // A self-excluded player's sign-in no longer resolves (the account rules), so the launch is
    // refused before the games module's own exclusion check (PlayBlocked, defence in depth).
    const excluded = await p.browser.post(`${GAMES}/game`, launchBody(slot, false))
    expect(excluded.status).toBe(401)
  })

  it("sends the player's jurisdiction's play rules: the profile's country, else where the request comes from", async () => {
    const visitor = new Browser(server)
    expect((await visitor.post(`${GAMES}/game`, launchBody(slot, true))).status).toBe(200)
    // A loopback visitor is in the default country (Malta): everything allowed, no minimum.
    expect(fake.launches.at(-1)?.play).toEqual({ autoplay: true, turbo: true, minRoundMs: 0 })
    const p = await newPlayer(server, "jurisdiction")
    const userId = await userIdOf(server, p.email)
    await server.query("UPDATE users SET country = 'GB' WHERE id = $1", [userId])
    expect((await p.browser.post(`${GAMES}/game`, launchBody(slot, false))).status).toBe(200)
    // Great Britain: no autoplay, no turbo, 2.5 s per round.
    expect(fake.launches.at(-1)?.play).toEqual({ autoplay: false, turbo: false, minRoundMs: 2500 })
    await server.query("UPDATE users SET country = 'DE' WHERE id = $1", [userId])
    expect((await p.browser.post(`${GAMES}/game`, launchBody(slot, true))).status).toBe(200)
    expect(fake.launches.at(-1)?.play).toEqual({ autoplay: false, turbo: false, minRoundMs: 5000 })
  })

  it("refuses forged, stale and malformed wallet calls", async () => {
    const p = await funded("wallet-sig", 1_000n)
    const body = { sessionToken: p.token, playerId: p.userId, currency: "EUR" }
    expect((await walletCall(server.url, "balance", body)).body).toEqual({ balance: "1000", currency: "EUR" })
    const forged = await walletCall(server.url, "balance", body, { secret: CASINO_KEY })
    expect(forged).toEqual({ status: 401, body: { error: "INVALID_SIGNATURE" } })
    const stale = await walletCall(server.url, "balance", body, {
      timestamp: Math.floor(Date.now() / 1000) - 600,
    })
    expect(stale.status).toBe(401)
    expect((await walletCall(server.url, "balance", body, { signature: "nonsense" })).status).toBe(401)
    expect((await walletCall(server.url, "balance", body, { provider: "nobody" })).status).toBe(404)
    expect((await walletCall(server.url, "refund", body)).status).toBe(404)
    expect((await walletCall(server.url, "bet", "{not json")).status).toBe(400)
    expect((await walletCall(server.url, "bet", betBody(p, "-5"))).status).toBe(400)
    expect((await walletCall(server.url, "bet", betBody(p, "1.5"))).status).toBe(400)
    expect((await walletCall(server.url, "bet", { ...betBody(p, "10"), playerId: "x" })).status).toBe(400)
    expect((await walletCall(server.url, "balance", { ...body, sessionToken: "A".repeat(43) })).status).toBe(
      401,
    )
  })

  it("settles bets and wins: idempotent replays, mismatch 409, no negative balance, bet limits", async () => {
    const p = await funded("wallet-bet", 1_000n)
    const first = betBody(p, "300")
    const placed = await walletCall(server.url, "bet", first)
    expect(placed).toEqual({
      status: 200,
      body: { balance: "700", currency: "EUR", transactionId: first.transactionId },
    })
    const again = await walletCall(server.url, "bet", first)
    expect(again).toEqual(placed)
    expect(await balanceOf(server, p.userId)).toBe("700")
    const other = await walletCall(server.url, "bet", { ...first, amount: "301" })
    expect(other).toEqual({ status: 409, body: { error: "DUPLICATE_MISMATCH" } })
    const tooMuch = await walletCall(server.url, "bet", betBody(p, "800"))
    expect(tooMuch).toEqual({ status: 402, body: { error: "INSUFFICIENT_FUNDS", balance: "700" } })
    const small = await walletCall(server.url, "bet", betBody(p, String(BigInt(slotLimits.min) - 1n)))
    expect(small).toEqual({ status: 422, body: { error: "BET_LIMIT", ...slotLimits } })
    const unknownGame = await walletCall(server.url, "bet", { ...betBody(p, "10"), gameId: "nope" })
    expect(unknownGame.status).toBe(404)
    const win = {
      sessionToken: p.token,
      playerId: p.userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: first.roundId,
      gameId: slot.launchId,
      amount: "450",
      roundClosed: true,
    }
    const paid = await walletCall(server.url, "win", win)
    expect(paid).toEqual({
      status: 200,
      body: { balance: "1150", currency: "EUR", transactionId: win.transactionId },
    })
    expect(await walletCall(server.url, "win", win)).toEqual(paid)
    expect((await walletCall(server.url, "win", { ...win, amount: "451" })).status).toBe(409)
    // A win under a bet's id is another call's id: mismatch.
    expect((await walletCall(server.url, "win", { ...win, transactionId: first.transactionId })).status).toBe(
      409,
    )
    expect(
      (await walletCall(server.url, "win", { ...win, transactionId: randomUUID(), roundId: "no-round" }))
        .status,
    ).toBe(404)
    expect(await balanceOf(server, p.userId)).toBe("1150")
    const rounds = await server.query<{ bet_total: string; win_total: string; status: string }>(
      "SELECT bet_total::text, win_total::text, status FROM game_rounds WHERE round_id = $1",
      [first.roundId],
    )
    expect(rounds).toEqual([{ bet_total: "300", win_total: "450", status: "settled" }])
  })

  it("refuses a bet on an expired or revoked session and for a self-excluded player, never a win", async () => {
    const p = await funded("wallet-expired", 1_000n)
    const bet = betBody(p, "100")
    expect((await walletCall(server.url, "bet", bet)).status).toBe(200)
    await server.query(
      "UPDATE game_sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1",
      [p.userId],
    )
    const late = await walletCall(server.url, "bet", betBody(p, "100"))
    expect(late).toEqual({ status: 401, body: { error: "SESSION_EXPIRED" } })
    // The replay of the bet placed before still answers its first answer.
    expect((await walletCall(server.url, "bet", bet)).status).toBe(200)
    const win = {
      sessionToken: p.token,
      playerId: p.userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: bet.roundId,
      gameId: slot.launchId,
      amount: "250",
      roundClosed: true,
    }
    expect(await walletCall(server.url, "win", win)).toMatchObject({ status: 200, body: { balance: "1150" } })
    const q = await funded("wallet-revoked", 1_000n)
    await q.player.browser.post("/user-service/api/v1/signout", {})
    await server.query("UPDATE sessions SET revoked_at = now() WHERE user_id = $1", [q.userId])
    expect((await walletCall(server.url, "bet", betBody(q, "100"))).body).toEqual({
      error: "SESSION_EXPIRED",
    })
    const r = await funded("wallet-excluded", 1_000n)
    await server.query("UPDATE users SET self_exclusion_kind = 'indefinite' WHERE id = $1", [r.userId])
    expect(await walletCall(server.url, "bet", betBody(r, "100"))).toEqual({
      status: 403,
      body: { error: "PLAYER_BLOCKED" },
    })
    expect(await balanceOf(server, r.userId)).toBe("1000")
  })

  it("rolls back a bet once, acknowledges a rollback of an unknown bet and refuses that bet later", async () => {
    const p = await funded("wallet-rollback", 1_000n)
    const bet = betBody(p, "200")
    expect((await walletCall(server.url, "bet", bet)).body).toMatchObject({ balance: "800" })
    const rollback = rollbackBody(p, bet)
    const undone = await walletCall(server.url, "rollback", rollback)
    expect(undone).toEqual({
      status: 200,
      body: { balance: "1000", currency: "EUR", transactionId: rollback.transactionId },
    })
    expect(await walletCall(server.url, "rollback", rollback)).toEqual(undone)
    // Another rollback id for the same bet refunds nothing more.
    const twice = await walletCall(server.url, "rollback", { ...rollback, transactionId: randomUUID() })
    expect(twice.body).toMatchObject({ balance: "1000" })
    expect(await balanceOf(server, p.userId)).toBe("1000")
    const [round] = await server.query<{ status: string }>(
      "SELECT status FROM game_rounds WHERE round_id = $1",
      [bet.roundId],
    )
    expect(round?.status).toBe("rolled-back")
    const ghost = betBody(p, "100")
    const early = await walletCall(server.url, "rollback", {
      ...rollback,
      transactionId: randomUUID(),
      refTransactionId: ghost.transactionId,
      roundId: ghost.roundId,
    })
    expect(early).toMatchObject({ status: 200, body: { balance: "1000" } })
    expect(await walletCall(server.url, "bet", ghost)).toEqual({
      status: 409,
      body: { error: "ROLLED_BACK" },
    })
    expect(await balanceOf(server, p.userId)).toBe("1000")
  })

  it("feeds the jackpot pool from qualifying bets and pays the whole pool on a jackpot win", async () => {
    const p = await funded("wallet-jackpot", 10_000n, jackpotGame)
    const poolOf = async () =>
      BigInt(
        (
          await server.query<{ b: string }>(
            "SELECT balance::text AS b FROM ledger_accounts WHERE kind = 'jackpot_pool' AND code = $1 AND currency = 'EUR'",
            [jackpotId],
          )
        )[0]?.b ?? "0",
      )
    const before = await poolOf()
    const bet = { ...betBody(p, "1000"), gameId: jackpotGame.launchId, jackpotContribution: "10" }
    expect((await walletCall(server.url, "bet", bet)).body).toMatchObject({ balance: "9000" })
    expect(await poolOf()).toBe(before + 10n)
    // A contribution on a game without a jackpot is refused.
    expect(
      (await walletCall(server.url, "bet", { ...betBody(p, "100"), jackpotContribution: "1" })).status,
    ).toBe(400)
    const win = {
      sessionToken: p.token,
      playerId: p.userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: bet.roundId,
      gameId: jackpotGame.launchId,
      amount: "500",
      roundClosed: true,
      jackpotId,
    }
    const paid = await walletCall(server.url, "win", win)
    const pool = before + 10n
    expect(paid).toEqual({
      status: 200,
      body: {
        balance: String(9_000n + 500n + pool),
        currency: "EUR",
        transactionId: win.transactionId,
        jackpotAmount: String(pool),
      },
    })
    // The pool starts again from its seed (1,000.00 EUR) paid by the house.
    expect(await poolOf()).toBe(100_000n)
    expect(await walletCall(server.url, "win", win)).toEqual(paid)
    const jackpots = (await new Browser(server).get(`${GAMES}/jackpots`)).body as Array<
      Record<string, unknown>
    >
    expect(jackpots.find((j) => j.currency === "EUR" && j.id === jackpotId)?.lastWonAt).not.toBeNull()
  })

  it("shows the rounds in bet history (days, paging, provider) and winners with masked names", async () => {
    const p: { player: Player; userId: string; token: string } = await funded("history", 10_000n)
    for (let i = 0; i < 5; i++) {
      const bet = betBody(p, "100")
      await walletCall(server.url, "bet", bet)
      await walletCall(server.url, "win", {
        playerId: p.userId,
        currency: "EUR",
        transactionId: randomUUID(),
        roundId: bet.roundId,
        gameId: slot.launchId,
        amount: String(1000 + i),
        roundClosed: true,
      })
    }
    const today = new Date().toISOString().slice(0, 10)
    const page0 = await p.player.browser.get(`${PROFILE}/history/bet?from=${today}&to=${today}&size=2&page=0`)
    expect(page0.status).toBe(200)
    expect(page0.body).toMatchObject({ page: 0, size: 2, totalElements: 5, totalPages: 3 })
    const content = (page0.body as { content: Array<Record<string, unknown>> }).content
    expect(content[0]).toMatchObject({
      gameId: slot.id,
      provider: slot.provider,
      bet: "100",
      win: "1004",
      status: "settled",
    })
    const page2 = (await p.player.browser.get(`${PROFILE}/history/bet?size=2&page=2`)).body as {
      content: Array<unknown>
    }
    expect(page2.content.length).toBe(1)
    const filtered = await p.player.browser.get(
      `${PROFILE}/history/bet?provider=${encodeURIComponent("Nobody")}`,
    )
    expect(filtered.body).toMatchObject({ totalElements: 0 })
    expect((await p.player.browser.get(`${PROFILE}/history/bet?size=101`)).status).toBe(400)
    expect((await p.player.browser.get(`${PROFILE}/history/bet?page=-1`)).status).toBe(400)
    expect((await p.player.browser.get(`${PROFILE}/history/bet?from=2025-1-1`)).status).toBe(400)
    // A day that does not exist (as the fiat history): an empty page, not an error.
    expect((await p.player.browser.get(`${PROFILE}/history/bet?from=2025-13-01`)).body).toMatchObject({
      totalElements: 0,
    })
    expect((await new Browser(server).get(`${PROFILE}/history/bet`)).status).toBe(401)
    expect((await p.player.browser.get(`${PROFILE}/history/bet/provider`)).body).toEqual([slot.provider])
    expect((await new Browser(server).get(`${PROFILE}/history/bet/provider`)).status).toBe(401)
    const latest = (await new Browser(server).get(`${GAMES}/winners/latest`)).body as Array<
      Record<string, unknown>
    >
    expect(latest[0]).toMatchObject({
      player: "A***",
      gameId: slot.id,
      amount: "1004",
      currency: "EUR",
      amountInEur: "1004",
    })
    const top = (await new Browser(server).get(`${GAMES}/winners/top`)).body as Array<Record<string, unknown>>
    expect(top.length).toBeGreaterThan(0)
    expect(JSON.stringify(top)).not.toContain("@")
    const ranked = (await new Browser(server).get(`${GAMES}/category/top-games`)).body as Array<Game>
    expect(ranked[0]?.id).toBe(slot.id)
  })

  it("leaves the ledger clean", async () => {
    const report = await ledgerReport(server)
    expect(report.clean).toBe(true)
  })
})
