/**
 * Free rounds at the game studio (docs/game-wallet-protocol.md, "Free rounds"), alone against a fake
 * casino wallet, on PostgreSQL: the signed grant (idempotent by grantId, same signature
 * and replay rules as the launch), its cancellation, and play: a real session of the granted player,
 * currency and game plays the grant's rounds at the grant's bet with no bet call and one win per
 * round carrying `freeRoundGrantId`, retried from the outbox; then normal paid play. Cancelled and
 * expired grants, other games or currencies and demo sessions play nothing free.
 * Backend: PostgreSQL only (`describeOn`): what it checks is the free-rounds protocol.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import { signBody } from "../../protocols/game-wallet/signature.ts"
import { verifyRound } from "../../services/games/verify.ts"
import { keys, type StudioTest, startStudio } from "./game-studio-harness.ts"
import { describeOn } from "./harness.ts"

const requestId = () => randomBytes(16).toString("hex")
const inADay = () => new Date(Date.now() + 86_400_000).toISOString()

const grantBody = (over: Record<string, unknown> = {}) => ({
  requestId: requestId(),
  grantId: randomUUID(),
  playerId: randomUUID(),
  currency: "EUR",
  gameId: "aurora-millions",
  rounds: 3,
  bet: "20",
  expiresAt: inADay(),
  ...over,
})

describeOn("postgres", "game studio free rounds", ({ backend }) => {
  let t: StudioTest
  beforeAll(async () => {
    t = await startStudio(backend)
  })
  afterAll(async () => {
    await t?.close()
  })

  /** A casino → studio call, signed with the casino key (or as `sign` says). */
  const signed = (
    path: string,
    body: unknown,
    sign: (raw: string) => string = (raw) => signBody(keys.casinoKey, raw),
  ) => {
    const raw = JSON.stringify(body)
    return fetch(`${t.url}/studio/api/${path}`, {
      method: "POST",
      body: raw,
      headers: { "content-type": "application/json", "x-signature": sign(raw) },
    })
  }
  const grant = (body: Record<string, unknown>) => signed("freerounds", body)
  const cancel = (grantId: string) => signed("freerounds/cancel", { requestId: requestId(), grantId })

  const post = (path: string, body?: unknown) =>
    fetch(`${t.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })

  /** A real launch of `playerId`; the page's session id. */
  const open = async (playerId: string, over: Record<string, unknown> = {}): Promise<string> => {
    const r = await t.launch({
      sessionToken: `casino-token-${playerId}`,
      playerId,
      nickname: "Ana",
      currency: "EUR",
      gameId: "aurora-millions",
      demo: false,
      lang: "en",
      platform: "desktop",
      lobbyUrl: "http://casino.example/",
      requestId: requestId(),
      ...over,
    })
    expect(r.status).toBe(200)
    const { url } = (await r.json()) as { url: string }
    return url.split("/").pop() ?? ""
  }
  const state = async (id: string) => (await fetch(`${t.url}/studio/api/session/${id}`)).json()
  const play = async (
    id: string,
    bet: string,
    options: unknown = {},
    extra: Record<string, unknown> = {},
  ) => {
    const r = await post(`/studio/api/session/${id}/round`, { bet, options, ...extra })
    return { status: r.status, body: await r.json() }
  }
  const callsOf = (playerId: string) => t.casino.calls.filter((c) => c.body.playerId === playerId)
  const grantRow = async (grantId: string) =>
    (
      await t.query<{ status: string; roundsLeft: number; rounds: number; bet: string }>(
        `SELECT status, rounds_left AS "roundsLeft", rounds, bet::text AS bet FROM studio_free_rounds
         WHERE grant_id = $1`,
        [grantId],
      )
    )[0]

  it("grant: a signed grant is taken once per grantId; forged, replayed, unknown-game and bad bodies are refused", async () => {
    const body = grantBody()
    const first = await grant(body)
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ grantId: body.grantId, status: "active", roundsLeft: 3 })
    // The same grantId again (a retry, even with other content) answers the grant as it is: one grant.
    const again = await grant({ ...body, requestId: requestId(), rounds: 50 })
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({ grantId: body.grantId, status: "active", roundsLeft: 3 })
    const rows = await t.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM studio_free_rounds WHERE grant_id = $1",
      [body.grantId],
    )
    expect(rows[0]?.n).toBe(1)
    expect(await grantRow(body.grantId)).toEqual({ status: "active", roundsLeft: 3, rounds: 3, bet: "20" })

    const forged = await signed("freerounds", grantBody(), (raw) => signBody("not-the-key", raw))
    expect(forged.status).toBe(401)
    expect(await forged.json()).toEqual({ error: "INVALID_SIGNATURE" })
    const stale = await signed("freerounds", grantBody(), (raw) =>
      signBody(keys.casinoKey, raw, Math.floor(Date.now() / 1000) - 301),
    )
    expect(stale.status).toBe(401)
    // The exact signed bytes again: a replay, refused and not applied.
    const once = grantBody()
    const raw = JSON.stringify(once)
    const header = signBody(keys.casinoKey, raw)
    const send = () =>
      fetch(`${t.url}/studio/api/freerounds`, {
        method: "POST",
        body: raw,
        headers: { "content-type": "application/json", "x-signature": header },
      })
    expect((await send()).status).toBe(200)
    const replay = await send()
    expect(replay.status).toBe(401)
    expect(await replay.json()).toEqual({ error: "REPLAYED_SIGNATURE" })
    const cancelForged = await signed(
      "freerounds/cancel",
      { requestId: requestId(), grantId: once.grantId },
      (r) => signBody("not-the-key", r),
    )
    expect(cancelForged.status).toBe(401)
    expect((await grantRow(once.grantId))?.status).toBe("active")

    const unknown = await grant(grantBody({ gameId: "no-such-game" }))
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ error: "UNKNOWN_GAME" })
    for (const bad of [
      { rounds: 0 },
      { bet: "0" },
      { bet: "1.5" },
      { playerId: "player-1" },
      { expiresAt: "tomorrow" },
      { expiresAt: "2030-01-31T23:59:59" },
      { requestId: undefined },
    ]) {
      const r = await grant(grantBody(bad))
      expect(r.status).toBe(400)
      expect((await r.json()).error).toBe("BAD_REQUEST")
    }
    const unknownGrant = await cancel(randomUUID())
    expect(unknownGrant.status).toBe(404)
    expect(await unknownGrant.json()).toEqual({ error: "UNKNOWN_GRANT" })
  })

  it("play: 3 free rounds at the grant's bet (wins only, with freeRoundGrantId, no jackpot), then a paid round", async () => {
    const player = randomUUID()
    t.casino.balances.set(player, 10_000n)
    const body = grantBody({ playerId: player, rounds: 3, bet: "20" })
    expect((await grant(body)).status).toBe(200)
    const id = await open(player)

    const before = await state(id)
    expect(before.freeRounds).toMatchObject({ status: "active", rounds: 3, roundsLeft: 3, bet: "20" })
    const page = await (await fetch(`${t.url}/studio/play/${id}`)).text()
    expect(page).toContain('role="status" aria-live="polite">Free spins: 3 of 3 left</p>')
    expect(page).toContain("Bet 0.20 EUR — free")

    const played: Array<{
      roundId: string
      nonce: number
      clientSeed: string
      multiplier: string
      detail: unknown
      win: string
      balance: string | null
    }> = []
    for (const [left, status] of [
      [2, "active"],
      [1, "active"],
      [0, "finished"],
    ] as const) {
      // The page asks 5.00: a free round is played at the grant's 0.20 whatever it asks.
      const r = await play(id, "500")
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({
        freeRound: true,
        bet: "20",
        jackpotHit: false,
        freeRounds: { status, rounds: 3, roundsLeft: left, bet: "20" },
      })
      played.push(r.body)
      if (left > 0) {
        expect((await state(id)).freeRounds).toMatchObject({ status: "active", roundsLeft: left })
        const html = await (await fetch(`${t.url}/studio/play/${id}`)).text()
        expect(html).toContain(`Free spins: ${left} of 3 left`)
      }
    }
    expect(played.map((r) => r.nonce)).toEqual([0, 1, 2])
    expect(await grantRow(body.grantId)).toEqual({ status: "finished", roundsLeft: 0, rounds: 3, bet: "20" })
    expect((await state(id)).freeRounds).toBeNull()
    const after = await (await fetch(`${t.url}/studio/play/${id}`)).text()
    // The banner is empty and hidden (the script's own words aside, the page says nothing of free
    // spins, and the round's result stays the page's only status).
    expect(after).toContain('id="free" role="status" aria-live="polite" hidden></p>')
    expect(after).toContain('<div id="betField">')

    // The wallet saw exactly 3 signed wins and no bet, each naming the grant and closing its round.
    const calls = callsOf(player).filter((c) => c.op !== "balance")
    expect(calls.map((c) => c.op)).toEqual(["win", "win", "win"])
    expect(calls.every((c) => c.signed)).toBe(true)
    calls.forEach((c, i) => {
      const round = played[i]
      if (round === undefined) throw new Error(`no round ${i}`)
      expect(c.body).toEqual({
        sessionToken: `casino-token-${player}`,
        playerId: player,
        currency: "EUR",
        transactionId: `win-${round.roundId}`,
        roundId: round.roundId,
        gameId: "aurora-millions",
        amount: round.win,
        roundClosed: true,
        freeRoundGrantId: body.grantId,
      })
    })
    const wins = played.reduce((sum, r) => sum + BigInt(r.win), 0n)
    expect(t.casino.balances.get(player)).toBe(10_000n + wins)
    expect(played[2]?.balance).toBe((10_000n + wins).toString())
    const stored = await t.query<{
      status: string
      betTx: string | null
      grant: string
      contribution: string
    }>(
      `SELECT status, bet_tx AS "betTx", free_round_grant_id::text AS grant,
         jackpot_contribution::text AS contribution
       FROM studio_rounds WHERE session_id = $1 ORDER BY nonce`,
      [id],
    )
    expect(stored).toEqual(
      [0, 1, 2].map(() => ({ status: "settled", betTx: null, grant: body.grantId, contribution: "0" })),
    )

    // The 4th round is a paid one: a bet (with its jackpot contribution), then the win.
    const paid = await play(id, "100")
    expect(paid.status).toBe(200)
    expect(paid.body).toMatchObject({ freeRound: false, bet: "100", nonce: 3, freeRounds: null })
    const paidCalls = callsOf(player).filter((c) => c.body.roundId === paid.body.roundId)
    expect(paidCalls.map((c) => c.op)).toEqual(["bet", "win"])
    expect(paidCalls[0]?.body).toMatchObject({ amount: "100", jackpotContribution: "1" })
    expect(paidCalls[1]?.body).not.toHaveProperty("freeRoundGrantId")
    expect(t.casino.balances.get(player)).toBe(10_000n + wins - 100n + BigInt(paid.body.win))

    // Free rounds follow the same provably fair seeds and nonces: each recomputes from the revealed seed,
    // and each win is the grant's bet (0.20) times the multiplier.
    const listed = await (await fetch(`${t.url}/studio/api/session/${id}/rounds`)).json()
    expect(listed.rounds.map((r: { freeRound: boolean }) => r.freeRound)).toEqual([false, true, true, true])
    const rotated = await (await post(`/studio/api/session/${id}/rotate`)).json()
    expect(rotated.revealed.nonce).toBe(4)
    for (const r of played) {
      const v = await verifyRound({
        gameId: "aurora-millions",
        options: {},
        serverSeed: rotated.revealed.serverSeed,
        clientSeed: r.clientSeed,
        nonce: r.nonce,
      })
      expect(v.multiplier.toString()).toBe(r.multiplier)
      expect(v.detail).toEqual(r.detail)
      expect(r.win).toBe(((20n * v.multiplier) / 10_000n).toString())
    }
  })

  it("play: a win the casino does not acknowledge is retried from the outbox, same body, until it is", async () => {
    const player = randomUUID()
    const body = grantBody({ playerId: player, gameId: "dice-classic", rounds: 1, bet: "50" })
    expect((await grant(body)).status).toBe(200)
    const id = await open(player, { gameId: "dice-classic" })
    t.casino.failWins = 1
    const r = await play(id, "100", { target: 50, direction: "under" })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ freeRound: true, bet: "50", balance: null })
    expect(r.body.freeRounds).toMatchObject({ status: "finished", roundsLeft: 0 })
    const deadline = Date.now() + 15_000
    let status = ""
    while (Date.now() < deadline) {
      const [row] = await t.query<{ status: string }>("SELECT status FROM studio_rounds WHERE id = $1", [
        r.body.roundId,
      ])
      status = row?.status ?? ""
      if (status === "settled") break
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    expect(status).toBe("settled")
    const wins = callsOf(player).filter((c) => c.op === "win")
    expect(wins).toHaveLength(2)
    expect(wins[1]?.body).toEqual(wins[0]?.body)
    expect(wins[0]?.body).toMatchObject({
      transactionId: `win-${r.body.roundId}`,
      freeRoundGrantId: body.grantId,
    })
    expect(callsOf(player).filter((c) => c.op === "bet")).toHaveLength(0)
    expect(t.casino.balances.get(player) ?? 0n).toBe(BigInt(r.body.win))
  })

  it("play: two rounds at once on the last free round: one is free, the other paid", async () => {
    const player = randomUUID()
    t.casino.balances.set(player, 1_000n)
    const body = grantBody({ playerId: player, gameId: "mines", rounds: 2, bet: "10" })
    expect((await grant(body)).status).toBe(200)
    const id = await open(player, { gameId: "mines" })
    const options = { mines: 3, picks: [0] }
    const results = await Promise.all([
      play(id, "30", options),
      play(id, "30", options),
      play(id, "30", options),
    ])
    expect(results.map((r) => r.status)).toEqual([200, 200, 200])
    expect(results.filter((r) => r.body.freeRound === true).map((r) => r.body.bet)).toEqual(["10", "10"])
    expect(results.filter((r) => r.body.freeRound === false).map((r) => r.body.bet)).toEqual(["30"])
    expect(new Set(results.map((r) => r.body.nonce))).toEqual(new Set([0, 1, 2]))
    expect(callsOf(player).filter((c) => c.op === "bet")).toHaveLength(1)
    expect(callsOf(player).filter((c) => c.body.freeRoundGrantId === body.grantId)).toHaveLength(2)
    expect(await grantRow(body.grantId)).toEqual({ status: "finished", roundsLeft: 0, rounds: 2, bet: "10" })
  })

  it("cancel: a cancelled grant plays nothing free, stays cancelled, and a page expecting a free round bets nothing", async () => {
    const player = randomUUID()
    t.casino.balances.set(player, 1_000n)
    const body = grantBody({ playerId: player, gameId: "dice-classic", rounds: 5 })
    expect((await grant(body)).status).toBe(200)
    const id = await open(player, { gameId: "dice-classic" })
    expect((await state(id)).freeRounds).toMatchObject({ status: "active", roundsLeft: 5 })
    const cancelled = await cancel(body.grantId)
    expect(cancelled.status).toBe(200)
    expect(await cancelled.json()).toEqual({ grantId: body.grantId, status: "cancelled", roundsLeft: 0 })
    expect(await (await cancel(body.grantId)).json()).toEqual({
      grantId: body.grantId,
      status: "cancelled",
      roundsLeft: 0,
    })
    // Granted again under the same id: still the cancelled grant, never revived.
    expect(await (await grant({ ...body, requestId: requestId() })).json()).toEqual({
      grantId: body.grantId,
      status: "cancelled",
      roundsLeft: 0,
    })
    expect((await state(id)).freeRounds).toBeNull()
    // The page still showed a free spin: nothing is bet, the player is told.
    const stale = await play(id, "20", { target: 50, direction: "under" }, { freeRound: true })
    expect(stale.status).toBe(409)
    expect(stale.body.error).toBe("FREE_ROUNDS_ENDED")
    expect(callsOf(player).filter((c) => c.op !== "balance")).toHaveLength(0)
    const paid = await play(id, "20", { target: 50, direction: "under" })
    expect(paid.status).toBe(200)
    expect(paid.body.freeRound).toBe(false)
    expect(
      callsOf(player)
        .map((c) => c.op)
        .filter((op) => op !== "balance"),
    ).toEqual(["bet", "win"])
    expect(await grantRow(body.grantId)).toEqual({ status: "cancelled", roundsLeft: 0, rounds: 5, bet: "20" })
  })

  it("expiry: a grant past its end plays nothing free and answers expired", async () => {
    const player = randomUUID()
    t.casino.balances.set(player, 1_000n)
    const body = grantBody({ playerId: player, gameId: "plinko", rounds: 4 })
    expect((await grant(body)).status).toBe(200)
    const id = await open(player, { gameId: "plinko" })
    expect((await state(id)).freeRounds).toMatchObject({ status: "active", roundsLeft: 4 })
    // Its end passes (the clock of the database decides).
    await t.query(
      "UPDATE studio_free_rounds SET expires_at = now() - interval '1 second' WHERE grant_id = $1",
      [body.grantId],
    )
    expect((await state(id)).freeRounds).toBeNull()
    const r = await play(id, "20", { rows: 12, risk: "medium" })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ freeRound: false, bet: "20", freeRounds: null })
    expect(
      callsOf(player)
        .map((c) => c.op)
        .filter((op) => op !== "balance"),
    ).toEqual(["bet", "win"])
    expect(await grantRow(body.grantId)).toEqual({ status: "expired", roundsLeft: 0, rounds: 4, bet: "20" })
    expect(await (await grant({ ...body, requestId: requestId() })).json()).toEqual({
      grantId: body.grantId,
      status: "expired",
      roundsLeft: 0,
    })
    // Cancelling an expired grant changes nothing.
    expect(await (await cancel(body.grantId)).json()).toEqual({
      grantId: body.grantId,
      status: "expired",
      roundsLeft: 0,
    })
    // A grant that arrives already past its end is recorded as expired.
    const late = grantBody({ playerId: player, expiresAt: new Date(Date.now() - 60_000).toISOString() })
    expect(await (await grant(late)).json()).toEqual({
      grantId: late.grantId,
      status: "expired",
      roundsLeft: 0,
    })
  })

  it("scope: demo sessions, other games and other currencies never use a grant", async () => {
    const player = randomUUID()
    t.casino.balances.set(player, 1_000n)
    const body = grantBody({ playerId: player, gameId: "neon-koi", rounds: 2 })
    expect((await grant(body)).status).toBe(200)
    const before = t.casino.calls.length
    const demo = await open(player, { demo: true, sessionToken: null, playerId: null, gameId: "neon-koi" })
    expect((await state(demo)).freeRounds).toBeNull()
    const d = await play(demo, "100")
    expect(d.status).toBe(200)
    expect(d.body).toMatchObject({ freeRound: false, bet: "100", freeRounds: null })
    expect(t.casino.calls.length).toBe(before)
    const other = await open(player, { gameId: "prism-garden" })
    expect((await play(other, "100")).body).toMatchObject({ freeRound: false, bet: "100" })
    const usd = await open(player, { gameId: "neon-koi", currency: "USD" })
    expect((await play(usd, "100")).body).toMatchObject({ freeRound: false, bet: "100" })
    expect(callsOf(player).filter((c) => c.op === "bet")).toHaveLength(2)
    expect(await grantRow(body.grantId)).toEqual({ status: "active", roundsLeft: 2, rounds: 2, bet: "20" })
  })
})
