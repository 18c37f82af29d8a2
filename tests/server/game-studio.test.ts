/**
 * The game studio as an external provider (docs/game-studio.md, docs/game-wallet-protocol.md), alone
 * against a fake casino wallet, on PGlite and PostgreSQL: launch authentication, demo play with no
 * wallet call, a real round's signed and idempotent bet + win, the insufficient-funds message, the
 * rollback of a bet that got no answer, seed rotation revealing the committed seed, and the page.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { signBody } from "../../protocols/game-wallet/signature.ts"
import { hashServerSeed } from "../../services/games/fair.ts"
import { verifyRound } from "../../services/games/verify.ts"
import { keys, type StudioTest, startStudio } from "./game-studio-harness.ts"
import { describeBackends } from "./harness.ts"

const launchBody = (over: Record<string, unknown> = {}) => ({
  sessionToken: "casino-token-1",
  playerId: "player-1",
  nickname: "Maria",
  currency: "EUR",
  gameId: "dice-classic",
  demo: false,
  lang: "en",
  platform: "desktop",
  lobbyUrl: "http://casino.example/",
  ...over,
})

const sessionOf = (url: string) => url.split("/").pop() ?? ""

describeBackends("game studio", ({ backend }) => {
  let t: StudioTest
  beforeAll(async () => {
    t = await startStudio(backend)
  })
  afterAll(async () => {
    await t?.close()
  })

  const post = (path: string, body?: unknown) =>
    fetch(`${t.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })

  const open = async (over: Record<string, unknown> = {}): Promise<string> => {
    const r = await t.launch(launchBody(over))
    expect(r.status).toBe(200)
    const { url } = (await r.json()) as { url: string }
    expect(url).toMatch(new RegExp(`^${t.url}/studio/play/[A-Za-z0-9_-]{32}$`))
    return sessionOf(url)
  }

  it("launch: refuses missing, forged and stale signatures; unknown games; bad bodies", async () => {
    expect((await t.launch(launchBody(), () => undefined)).status).toBe(401)
    const forged = await t.launch(launchBody(), (raw) => signBody("not-the-key", raw))
    expect(forged.status).toBe(401)
    expect(await forged.json()).toEqual({ error: "INVALID_SIGNATURE" })
    const stale = await t.launch(launchBody(), (raw) =>
      signBody(keys.casinoKey, raw, Math.floor(Date.now() / 1000) - 301),
    )
    expect(stale.status).toBe(401)
    const unknown = await t.launch(launchBody({ gameId: "no-such-game" }))
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ error: "UNKNOWN_GAME" })
    expect((await t.launch(launchBody({ currency: "euro" }))).status).toBe(400)
    expect((await t.launch(launchBody({ sessionToken: null }))).status).toBe(400)
    expect((await t.launch({ nonsense: true })).status).toBe(400)
  })

  it("demo: plays on 1,000.00 of play money and never calls the wallet", async () => {
    const before = t.casino.calls.length
    const id = await open({ demo: true, sessionToken: null, playerId: null, gameId: "european-roulette" })
    const state = await (await fetch(`${t.url}/studio/api/session/${id}`)).json()
    expect(state).toMatchObject({
      demo: true,
      balance: "100000",
      currency: "EUR",
      game: { rtp: "97.29", kind: "roulette" },
    })
    expect(state.seed.nonce).toBe(0)
    const r = await post(`/studio/api/session/${id}/round`, {
      bet: "1000",
      options: { bets: [{ type: "red", chips: 1 }] },
    })
    expect(r.status).toBe(200)
    const round = await r.json()
    expect(round.balance).toBe((100_000n - 1_000n + BigInt(round.win)).toString())
    expect(["0", "2000"]).toContain(round.win)
    expect(t.casino.calls.length).toBe(before)
    // Bad input: a clear 4xx.
    expect((await post(`/studio/api/session/${id}/round`, { bet: "-5" })).status).toBe(400)
    expect(
      (await post(`/studio/api/session/${id}/round`, { bet: "100", options: { bets: [{ type: "purple" }] } }))
        .status,
    ).toBe(400)
    const tooMuch = await post(`/studio/api/session/${id}/round`, {
      bet: "100000000",
      options: { bets: [{ type: "red", chips: 1 }] },
    })
    expect(tooMuch.status).toBe(402)
    expect((await tooMuch.json()).message).toMatch(/play-money balance is too low/)
    expect((await post("/studio/api/session/nonexistent-session-id-000/round", { bet: "1" })).status).toBe(
      404,
    )
  })

  it("a round's gameRound counts the player's rounds of that game: across the player's sessions, apart per game; a demo session its own", async () => {
    t.casino.balances.set("player-rounds", 100_000n)
    const gameRounds = async (id: string, n: number, options: unknown): Promise<Array<number>> => {
      const out: Array<number> = []
      for (let i = 0; i < n; i++) {
        const r = await post(`/studio/api/session/${id}/round`, { bet: "100", options })
        expect(r.status).toBe(200)
        out.push((await r.json()).gameRound)
      }
      return out
    }
    const dice = { target: 50, direction: "under" }
    const first = await open({ playerId: "player-rounds", gameId: "dice-classic" })
    expect(await gameRounds(first, 2, dice)).toEqual([1, 2])
    // A new session of the same game goes on counting; another game starts at 1.
    const second = await open({ playerId: "player-rounds", gameId: "dice-classic" })
    expect(await gameRounds(second, 1, dice)).toEqual([3])
    const other = await open({ playerId: "player-rounds", gameId: "plinko" })
    expect(await gameRounds(other, 1, { rows: 8, risk: "low" })).toEqual([1])
    const demo = await open({ demo: true, sessionToken: null, playerId: null, gameId: "dice-classic" })
    expect(await gameRounds(demo, 2, dice)).toEqual([1, 2])
  })

  it("real: a round sends a signed bet then a signed win, with idempotent ids, and answers the casino's balance", async () => {
    t.casino.balances.set("player-1", 10_000n)
    const id = await open({ gameId: "aurora-millions" })
    const state = await (await fetch(`${t.url}/studio/api/session/${id}`)).json()
    expect(state.balance).toBe("10000")
    const r = await post(`/studio/api/session/${id}/round`, { bet: "200", options: {} })
    expect(r.status).toBe(200)
    const round = await r.json()
    const calls = t.casino.calls.filter((c) => c.body.roundId === round.roundId)
    expect(calls.map((c) => c.op)).toEqual(["bet", "win"])
    expect(calls.every((c) => c.signed)).toBe(true)
    const [bet, win] = calls
    expect(bet?.body).toMatchObject({
      sessionToken: "casino-token-1",
      playerId: "player-1",
      currency: "EUR",
      transactionId: `bet-${round.roundId}`,
      gameId: "aurora-millions",
      amount: "200",
      jackpotContribution: "2",
    })
    expect(win?.body).toMatchObject({
      transactionId: `win-${round.roundId}`,
      amount: round.win,
      roundClosed: true,
    })
    expect(round.balance).toBe((10_000n - 200n + BigInt(round.win)).toString())
    expect(t.casino.balances.get("player-1")).toBe(BigInt(round.balance))
    const [row] = await t.query<{ status: string }>("SELECT status FROM studio_rounds WHERE id = $1", [
      round.roundId,
    ])
    expect(row?.status).toBe("settled")
    // The outbox holds the win as delivered: a retry would send the same bytes (same transaction id).
    const [outbox] = await t.query<{ delivered: boolean }>(
      `SELECT delivered_at IS NOT NULL AS delivered FROM studio_outbox WHERE transaction_id = $1`,
      [`win-${round.roundId}`],
    )
    expect(outbox?.delivered).toBe(true)
  })

  it("real: insufficient funds and self-exclusion come back as clear messages", async () => {
    t.casino.balances.set("player-2", 50n)
    const id = await open({ playerId: "player-2", gameId: "mines" })
    const r = await post(`/studio/api/session/${id}/round`, { bet: "100", options: { mines: 3, picks: [0] } })
    expect(r.status).toBe(402)
    const body = await r.json()
    expect(body.error).toBe("INSUFFICIENT_FUNDS")
    expect(body.message).toMatch(/balance is too low/)
    t.casino.blocked.add("player-2")
    const blocked = await post(`/studio/api/session/${id}/round`, {
      bet: "10",
      options: { mines: 3, picks: [0] },
    })
    expect(blocked.status).toBe(403)
    expect((await blocked.json()).message).toMatch(/excluded/)
    expect(t.casino.calls.filter((c) => c.body.playerId === "player-2" && c.op === "win")).toHaveLength(0)
  })

  it("real: a bet with no answer in time is rolled back, and the balance is unchanged", async () => {
    t.casino.balances.set("player-3", 1_000n)
    const id = await open({ playerId: "player-3", gameId: "comet-crash" })
    t.casino.betDelayMs = 2_500
    try {
      const r = await post(`/studio/api/session/${id}/round`, { bet: "100", options: { target: 2 } })
      expect(r.status).toBe(503)
      expect((await r.json()).error).toBe("BET_NOT_CONFIRMED")
    } finally {
      t.casino.betDelayMs = 0
    }
    const mine = t.casino.calls.filter((c) => c.body.playerId === "player-3")
    const bet = mine.find((c) => c.op === "bet")
    const rollback = mine.find((c) => c.op === "rollback")
    expect(rollback?.body.refTransactionId).toBe(bet?.body.transactionId)
    expect(rollback?.signed).toBe(true)
    // The slow bet landed after its rollback or was refunded by it: either way the money is back.
    await new Promise((r) => setTimeout(r, 1_500))
    expect(t.casino.balances.get("player-3")).toBe(1_000n)
    const [row] = await t.query<{ status: string }>("SELECT status FROM studio_rounds WHERE id = $1", [
      String(bet?.body.roundId),
    ])
    expect(row?.status).toBe("rolled-back")
  })

  it("seeds: the client seed changes, rotation reveals the committed seed, and every round verifies", async () => {
    const id = await open({ demo: true, sessionToken: null, playerId: null, gameId: "plinko" })
    const state = await (await fetch(`${t.url}/studio/api/session/${id}`)).json()
    const committed = state.seed.serverSeedHash
    expect((await post(`/studio/api/session/${id}/seed`, { clientSeed: "with space" })).status).toBe(400)
    const seed = await (await post(`/studio/api/session/${id}/seed`, { clientSeed: "my-lucky-seed" })).json()
    expect(seed).toEqual({ serverSeedHash: committed, clientSeed: "my-lucky-seed", nonce: 0 })
    const played = []
    for (let i = 0; i < 5; i++) {
      const options = { rows: 8 + i, risk: "high" }
      const r = await (await post(`/studio/api/session/${id}/round`, { bet: "100", options })).json()
      expect(r.nonce).toBe(i)
      played.push({ options, r })
    }
    const rotated = await (await post(`/studio/api/session/${id}/rotate`)).json()
    expect(rotated.revealed.serverSeedHash).toBe(committed)
    expect(await hashServerSeed(rotated.revealed.serverSeed)).toBe(committed)
    expect(rotated.revealed.nonce).toBe(5)
    expect(rotated.next.nonce).toBe(0)
    expect(rotated.next.serverSeedHash).not.toBe(committed)
    for (const { options, r } of played) {
      const v = await verifyRound({
        gameId: "plinko",
        options,
        serverSeed: rotated.revealed.serverSeed,
        clientSeed: "my-lucky-seed",
        nonce: r.nonce,
      })
      expect(v.multiplier.toString()).toBe(r.multiplier)
      expect(v.detail).toEqual(r.detail)
    }
    const rounds = await (await fetch(`${t.url}/studio/api/session/${id}/rounds`)).json()
    expect(rounds.rounds[0].serverSeed).toBe(rotated.revealed.serverSeed)
  })

  it("play rules: a launch without them offers autoplay and turbo; with Great Britain's, neither, and a round sooner than the least time after the last is refused", async () => {
    const free = await open({ demo: true, sessionToken: null, playerId: null, gameId: "neon-koi" })
    const freeHtml = await (await fetch(`${t.url}/studio/play/${free}`)).text()
    expect(freeHtml).toContain('id="autoStart"')
    expect(freeHtml).toContain('id="turbo"')
    expect(await (await fetch(`${t.url}/studio/api/session/${free}`)).json()).toMatchObject({
      play: { autoplay: true, turbo: true, minRoundMs: 0 },
    })

    const gb = await open({
      demo: true,
      sessionToken: null,
      playerId: null,
      gameId: "neon-koi",
      play: { autoplay: false, turbo: false, minRoundMs: 2500 },
    })
    const gbHtml = await (await fetch(`${t.url}/studio/play/${gb}`)).text()
    expect(gbHtml).not.toContain('id="autoStart"')
    expect(gbHtml).not.toContain('id="turbo"')
    expect(gbHtml).toContain(
      "Autoplay and turbo are not offered where you play. Rounds here are at least 2.5 s apart.",
    )
    // A minute apart, so that however slow this machine the second call comes too soon.
    const slow = await open({
      demo: true,
      sessionToken: null,
      playerId: null,
      gameId: "neon-koi",
      play: { autoplay: false, turbo: false, minRoundMs: 60_000 },
    })
    const first = await post(`/studio/api/session/${slow}/round`, { bet: "100", options: {} })
    expect(first.status).toBe(200)
    const balance = ((await first.json()) as { balance: string }).balance
    const second = await post(`/studio/api/session/${slow}/round`, { bet: "100", options: {} })
    expect(second.status).toBe(429)
    expect(await second.json()).toMatchObject({
      error: "TOO_FAST",
      message: "Rounds here are at least 60 s apart. Please wait a moment.",
    })
    // Nothing was bet by the refused round.
    const state = (await (await fetch(`${t.url}/studio/api/session/${slow}`)).json()) as { balance: string }
    expect(state.balance).toBe(balance)

    // Rules outside the protocol's range are a bad launch, not a session.
    expect(
      (await t.launch(launchBody({ play: { autoplay: true, turbo: true, minRoundMs: -1 } }))).status,
    ).toBe(400)
    expect(
      (await t.launch(launchBody({ play: { autoplay: "yes", turbo: true, minRoundMs: 0 } }))).status,
    ).toBe(400)
  })

  it("pages: the game page with its CSP nonce, a 404 page, and the generated art", async () => {
    const id = await open({ demo: true, sessionToken: null, playerId: null, gameId: "neon-koi" })
    const page = await fetch(`${t.url}/studio/play/${id}`)
    expect(page.status).toBe(200)
    const csp = page.headers.get("content-security-policy") ?? ""
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1]
    expect(nonce).toBeDefined()
    // Framed by the casino origins it is configured with (STUDIO_FRAME_ANCESTORS), no other.
    expect(csp).toContain("frame-ancestors 'self' http://casino.example;")
    const html = await page.text()
    expect(html).toContain(`<script nonce="${nonce}">`)
    // A test environment says so on its page.
    expect(html).toContain(">Sandbox</span>")
    expect(html).toContain("Neon Koi")
    expect(html).toContain("studio:balance")
    // A refused round is told to the casino's page too (its low-balance message), and the page keeps
    // its own history of the session's rounds.
    expect(html).toContain("studio:error")
    expect(html).toContain('<table id="roundsTable" hidden>')
    expect(html).toMatch(/RTP <strong>96\.\d\d %<\/strong>/)
    expect((await fetch(`${t.url}/studio/play/${"x".repeat(32)}`)).status).toBe(404)
    const art = await fetch(`${t.url}/studio/art/neon-koi.svg`)
    expect(art.headers.get("content-type")).toContain("image/svg+xml")
    expect(await art.text()).toContain("<svg")
    expect((await fetch(`${t.url}/studio/art/nope.svg`)).status).toBe(404)
  })
})
