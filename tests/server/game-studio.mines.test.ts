/**
 * Mines tile by tile at the game studio (providers/game-studio/minesRounds.ts, docs/game-studio.md
 * "Mines, tile by tile"), alone against a fake casino wallet, on PostgreSQL: the bet at the
 * start, safe tiles raising the offer, the cash-out through the wallet's win, a mine closing the round
 * with a win of 0, the last safe tile cashing out by itself, the verifier recomputing the stored
 * options, clear 4xx refusals, concurrent clicks settling once, free rounds, and the sweep of rounds
 * left open past the session lifetime.
 *
 * The seeds are fixed so the mines are known in advance: server seed SEED, client seed "mines-steps".
 * The fields below were drawn by the rule of docs/fairness.md (HMAC-SHA256 floats, draw i takes index
 * ⌊fᵢ × (25 − i)⌋ of the free tiles) written out with node:crypto apart from services/games:
 *   3 mines,  nonce 0: 11, 16, 23      nonce 1: 6, 16, 21      nonce 2: 0, 9, 23
 *   24 mines, nonce 2: every tile but 20
 * Multipliers in 1/10,000 (0.99 × C(25, k) / C(25 − m, k), floored), 3 mines: 1 tile 11250 (0.99 ×
 * 25/22), 2 tiles 12857 (0.99 × 300/231 = 1.28571…), 3 tiles 14785 (0.99 × 2300/1540 = 1.47857…);
 * 24 mines, 1 tile: 247500 (0.99 × 25). Wins of a 1.00 bet (100): 112, 128, 2475.
 * Backend: PostgreSQL only (`describeOn`): what it checks is the mines rounds against the wallet
 * protocol.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signBody } from "../../protocols/game-wallet/signature.ts"
import { verifyRound } from "../../services/games/verify.ts"
import { keys, type StudioTest, startStudio } from "./game-studio-harness.ts"
import { describeOn } from "./harness.ts"

const SEED = "5eed".repeat(16)
const CLIENT_SEED = "mines-steps"

interface Answer {
  readonly status: number
  readonly body: Readonly<Record<string, unknown>>
}

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === "object" && v !== null

/** A JSON answer's body: an object (the studio answers nothing else). */
const bodyOf = async (r: Response): Promise<Readonly<Record<string, unknown>>> => {
  const body: unknown = await r.json()
  if (!isRecord(body)) throw new Error(`not a JSON object: ${JSON.stringify(body)}`)
  return body
}

describeOn("postgres", "game studio: mines tile by tile", ({ backend }) => {
  let t: StudioTest
  beforeAll(async () => {
    t = await startStudio(backend)
  })
  afterAll(async () => {
    await t?.close()
  })

  const call = async (method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> => {
    const r = await fetch(`${t.url}/studio/api/session/${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: r.status, body: await bodyOf(r) }
  }

  /** A launch of mines (real for `playerId`, else demo) on the fixed seeds; the session id. */
  const launch = async (playerId: string | null, gameId = "mines"): Promise<string> => {
    const r = await t.launch({
      sessionToken: playerId === null ? null : `token-${playerId}`,
      playerId,
      nickname: null,
      currency: "EUR",
      gameId,
      demo: playerId === null,
      lang: "en",
      platform: "desktop",
      lobbyUrl: "http://casino.example/",
    })
    expect(r.status).toBe(200)
    const id =
      String((await r.json()).url)
        .split("/")
        .pop() ?? ""
    // The state call commits the player's first seed; the test then puts its own in its place.
    expect((await call("GET", id)).status).toBe(200)
    const key = playerId === null ? `demo:${id}` : `player:${playerId}`
    await t.query(
      "UPDATE studio_seeds SET server_seed = $1, hash = $2 WHERE player_key = $3 AND revealed_at IS NULL",
      [SEED, createHash("sha256").update(SEED).digest("hex"), key],
    )
    expect((await call("POST", `${id}/seed`, { clientSeed: CLIENT_SEED })).status).toBe(200)
    return id
  }

  const callsOf = (roundId: string) =>
    t.casino.calls
      .filter((c) => c.body.roundId === roundId)
      .map((c) => ({ op: c.op, amount: c.body.amount, signed: c.signed }))

  it("real money: the bet at the start, two safe tiles, the cash-out pays 1.00 × 1.2857 = 1.28 through the win call", async () => {
    t.casino.balances.set("mines-cash", 10_000n)
    const id = await launch("mines-cash")
    const started = await call("POST", `${id}/mines/start`, { bet: "100", mines: 3 })
    expect(started.status).toBe(200)
    const roundId = String(started.body.roundId)
    expect(started.body).toMatchObject({
      state: "playing",
      nonce: 0,
      mines: 3,
      picks: [],
      multiplier: null,
      cashout: null,
      next: "11250",
      win: null,
      detail: null,
      balance: "9900",
    })
    // The bet went at the start, signed, under the round's ids; nothing else yet.
    expect(callsOf(roundId)).toEqual([{ op: "bet", amount: "100", signed: true }])
    expect(t.casino.calls.find((c) => c.body.roundId === roundId)?.body.transactionId).toBe(`bet-${roundId}`)

    const first = await call("POST", `${id}/mines/open`, { roundId, tile: 0 })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      state: "playing",
      tile: { index: 0, safe: true },
      picks: [0],
      multiplier: "11250",
      cashout: "112",
      next: "12857",
    })
    // While it is played the answer never says where the mines are.
    expect(JSON.stringify(first.body)).not.toContain("11,16,23")
    const second = await call("POST", `${id}/mines/open`, { roundId, tile: 24 })
    expect(second.body).toMatchObject({ picks: [0, 24], multiplier: "12857", cashout: "128", next: "14785" })

    // A page that reloads gets the round in play back.
    const state = await call("GET", id)
    expect(state.body.minesRound).toMatchObject({ roundId, state: "playing", picks: [0, 24], cashout: "128" })

    const cashed = await call("POST", `${id}/mines/cashout`, { roundId })
    expect(cashed.status).toBe(200)
    expect(cashed.body).toMatchObject({
      state: "cashed",
      multiplier: "12857",
      win: "128",
      balance: "10028",
      detail: { mines: [11, 16, 23], picks: [0, 24], opened: 2, hit: null, win: true },
    })
    expect(callsOf(roundId)).toEqual([
      { op: "bet", amount: "100", signed: true },
      { op: "win", amount: "128", signed: true },
    ])
    const win = t.casino.calls.find((c) => c.body.roundId === roundId && c.op === "win")
    expect(win?.body).toMatchObject({ transactionId: `win-${roundId}`, roundClosed: true })
    expect(t.casino.balances.get("mines-cash")).toBe(10_028n)
    const [row] = await t.query<{ status: string; steps: string; options: unknown }>(
      "SELECT status, steps, options FROM studio_rounds WHERE id = $1",
      [roundId],
    )
    expect(row).toMatchObject({ status: "settled", steps: "ended" })
    expect(typeof row?.options === "string" ? JSON.parse(row.options) : row?.options).toEqual({
      mines: 3,
      picks: [0, 24],
    })
    expect((await call("GET", id)).body.minesRound).toBeNull()
  })

  it("real money: a mine closes the round with a win of 0; the last safe tile cashes out by itself; the verifier recomputes both", async () => {
    t.casino.balances.set("mines-hit", 10_000n)
    const id = await launch("mines-hit")
    // Nonce 0 (mines 11, 16, 23): one safe tile then a cash-out, to have a nonce ahead.
    const a = (await call("POST", `${id}/mines/start`, { bet: "100", mines: 3 })).body
    await call("POST", `${id}/mines/open`, { roundId: a.roundId, tile: 12 })
    expect((await call("POST", `${id}/mines/cashout`, { roundId: a.roundId })).body).toMatchObject({
      state: "cashed",
      win: "112",
      multiplier: "11250",
    })

    // Nonce 1 (mines 6, 16, 21): tile 0 safe, tile 16 a mine.
    const b = (await call("POST", `${id}/mines/start`, { bet: "100", mines: 3 })).body
    expect(b.nonce).toBe(1)
    expect((await call("POST", `${id}/mines/open`, { roundId: b.roundId, tile: 0 })).body.state).toBe(
      "playing",
    )
    const hit = await call("POST", `${id}/mines/open`, { roundId: b.roundId, tile: 16 })
    expect(hit.status).toBe(200)
    expect(hit.body).toMatchObject({
      state: "lost",
      tile: { index: 16, safe: false },
      picks: [0, 16],
      multiplier: "0",
      win: "0",
      cashout: null,
      next: null,
      detail: { mines: [6, 16, 21], picks: [0, 16], opened: 1, hit: 16, win: false },
    })
    expect(callsOf(String(b.roundId))).toEqual([
      { op: "bet", amount: "100", signed: true },
      { op: "win", amount: "0", signed: true },
    ])

    // Nonce 2, 24 mines (every tile but 20): the one safe tile is the last, the round cashes out.
    const c = (await call("POST", `${id}/mines/start`, { bet: "100", mines: 24 })).body
    expect(c.next).toBe("247500")
    const last = await call("POST", `${id}/mines/open`, { roundId: c.roundId, tile: 20 })
    expect(last.body).toMatchObject({ state: "cashed", picks: [20], multiplier: "247500", win: "2475" })
    expect(callsOf(String(c.roundId)).map((x) => `${x.op} ${x.amount}`)).toEqual(["bet 100", "win 2475"])
    // 10,000 − 3 × 100 + 112 + 0 + 2,475.
    expect(t.casino.balances.get("mines-hit")).toBe(12_287n)

    // Rotated: the seed is revealed and every round recomputes from its stored options.
    expect((await call("POST", `${id}/rotate`)).body).toMatchObject({ revealed: { serverSeed: SEED } })
    const rounds = (await call("GET", `${id}/rounds`)).body.rounds
    const listed = Array.isArray(rounds) ? rounds.filter(isRecord) : []
    const expected = [
      { roundId: a.roundId, nonce: 0, options: { mines: 3, picks: [12] }, multiplier: 11250n },
      { roundId: b.roundId, nonce: 1, options: { mines: 3, picks: [0, 16] }, multiplier: 0n },
      { roundId: c.roundId, nonce: 2, options: { mines: 24, picks: [20] }, multiplier: 247_500n },
    ]
    for (const e of expected) {
      const stored = listed.find((r) => r.roundId === e.roundId)
      expect(stored?.options).toEqual(e.options)
      expect(stored?.serverSeed).toBe(SEED)
      const v = await verifyRound({
        gameId: "mines",
        options: stored?.options,
        serverSeed: SEED,
        clientSeed: CLIENT_SEED,
        nonce: e.nonce,
      })
      expect(v.multiplier).toBe(e.multiplier)
    }
    const verifiedHit = await verifyRound({
      gameId: "mines",
      options: { mines: 3, picks: [0, 16] },
      serverSeed: SEED,
      clientSeed: CLIENT_SEED,
      nonce: 1,
    })
    expect(verifiedHit.detail).toEqual(hit.body.detail)
  })

  it("refusals are 4xx { error, message }: bad input, a second start, a tile twice, a cash-out with none, a finished round, someone else's round, rotating mid-round", async () => {
    const id = await launch(null)
    const other = await launch(null)
    const refused = async (a: Promise<Answer>, status: number, error: string) => {
      const r = await a
      expect({ status: r.status, error: r.body.error }).toEqual({ status, error })
      // What the page shows as it is: a sentence, never empty.
      expect(String(r.body.message)).toMatch(/^\S.{10,}\.$/)
    }
    await refused(call("POST", `${id}/mines/open`, { roundId: randomUUID(), tile: 0 }), 404, "UNKNOWN_ROUND")
    await refused(call("POST", `${id}/mines/start`, { bet: "100", mines: 0 }), 400, "BAD_OPTIONS")
    await refused(call("POST", `${id}/mines/start`, { bet: "100", mines: 25 }), 400, "BAD_OPTIONS")
    await refused(call("POST", `${id}/mines/start`, { bet: "100", mines: "3" }), 400, "BAD_OPTIONS")
    await refused(call("POST", `${id}/mines/start`, { bet: "-1", mines: 3 }), 400, "BAD_BET")
    await refused(
      call("POST", `${id}/mines/start`, { bet: "100000000", mines: 3 }),
      402,
      "INSUFFICIENT_FUNDS",
    )

    const started = await call("POST", `${id}/mines/start`, { bet: "100", mines: 3 })
    expect(started.body).toMatchObject({ state: "playing", balance: "99900" })
    const roundId = String(started.body.roundId)
    await refused(call("POST", `${id}/mines/start`, { bet: "100", mines: 3 }), 409, "ROUND_OPEN")
    await refused(call("POST", `${id}/mines/cashout`, { roundId }), 409, "NO_TILE_OPENED")
    for (const tile of [25, -1, "3", 2.5, null])
      await refused(call("POST", `${id}/mines/open`, { roundId, tile }), 400, "BAD_TILE")
    await refused(call("POST", `${id}/mines/open`, { tile: 0 }), 400, "BAD_REQUEST")
    await refused(call("POST", `${id}/mines/open`, { roundId: "not-a-round", tile: 0 }), 404, "UNKNOWN_ROUND")
    // Another session (another player's, here another demo) cannot touch it.
    await refused(call("POST", `${other}/mines/open`, { roundId, tile: 0 }), 404, "UNKNOWN_ROUND")
    await refused(call("POST", `${other}/mines/cashout`, { roundId }), 404, "UNKNOWN_ROUND")
    // Its seed decides the mines: not revealed while it is played.
    await refused(call("POST", `${id}/rotate`), 409, "ROUND_OPEN")

    expect((await call("POST", `${id}/mines/open`, { roundId, tile: 0 })).body.state).toBe("playing")
    await refused(call("POST", `${id}/mines/open`, { roundId, tile: 0 }), 409, "TILE_OPEN")
    const cashed = await call("POST", `${id}/mines/cashout`, { roundId })
    expect(cashed.body).toMatchObject({ state: "cashed", win: "112", balance: "100012" })
    await refused(call("POST", `${id}/mines/cashout`, { roundId }), 409, "ROUND_OVER")
    await refused(call("POST", `${id}/mines/open`, { roundId, tile: 1 }), 409, "ROUND_OVER")
    // Not a mines game: no tiles to open.
    const dice = await t.launch({
      sessionToken: null,
      playerId: null,
      nickname: null,
      currency: "EUR",
      gameId: "dice-classic",
      demo: true,
      lang: "en",
      platform: "desktop",
      lobbyUrl: null,
    })
    const diceId =
      String((await dice.json()).url)
        .split("/")
        .pop() ?? ""
    await refused(call("POST", `${diceId}/mines/start`, { bet: "100", mines: 3 }), 400, "NOT_MINES")
    // Play money only: the casino heard of none of it.
    expect(t.casino.calls.some((c) => c.body.roundId === roundId)).toBe(false)
    expect((await call("POST", `${id}/rotate`)).status).toBe(200)
  })

  it("concurrent clicks: of four cash-outs one pays, three are told the round is over; the same tile twice opens once", async () => {
    t.casino.balances.set("mines-race", 10_000n)
    const id = await launch("mines-race")
    const a = (await call("POST", `${id}/mines/start`, { bet: "100", mines: 3 })).body
    await call("POST", `${id}/mines/open`, { roundId: a.roundId, tile: 0 })
    const outs = await Promise.all(
      Array.from({ length: 4 }, () => call("POST", `${id}/mines/cashout`, { roundId: a.roundId })),
    )
    expect(outs.map((o) => o.status).sort()).toEqual([200, 409, 409, 409])
    expect(outs.filter((o) => o.status === 409).every((o) => o.body.error === "ROUND_OVER")).toBe(true)
    expect(callsOf(String(a.roundId)).map((x) => `${x.op} ${x.amount}`)).toEqual(["bet 100", "win 112"])
    expect(t.casino.balances.get("mines-race")).toBe(10_012n)

    const b = (await call("POST", `${id}/mines/start`, { bet: "100", mines: 3 })).body
    const opens = await Promise.all(
      Array.from({ length: 3 }, () => call("POST", `${id}/mines/open`, { roundId: b.roundId, tile: 1 })),
    )
    expect(opens.map((o) => o.status).sort()).toEqual([200, 409, 409])
    expect(opens.filter((o) => o.status === 409).every((o) => o.body.error === "TILE_OPEN")).toBe(true)
    const [row] = await t.query<{ options: unknown }>("SELECT options FROM studio_rounds WHERE id = $1", [
      b.roundId,
    ])
    expect(typeof row?.options === "string" ? JSON.parse(row.options) : row?.options).toEqual({
      mines: 3,
      picks: [1],
    })
  })

  it("free rounds: a granted round starts with no bet call at the grant's bet and its win names the grant", async () => {
    const playerId = randomUUID()
    const grantId = randomUUID()
    const raw = JSON.stringify({
      requestId: randomBytes(16).toString("hex"),
      grantId,
      playerId,
      currency: "EUR",
      gameId: "mines",
      rounds: 1,
      bet: "50",
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    })
    const granted = await fetch(`${t.url}/studio/api/freerounds`, {
      method: "POST",
      body: raw,
      headers: { "content-type": "application/json", "x-signature": signBody(keys.casinoKey, raw) },
    })
    expect(granted.status).toBe(200)
    const id = await launch(playerId)
    const started = await call("POST", `${id}/mines/start`, { bet: "100", mines: 3, freeRound: true })
    expect(started.body).toMatchObject({ bet: "50", freeRound: true, freeRounds: { status: "finished" } })
    await call("POST", `${id}/mines/open`, { roundId: started.body.roundId, tile: 0 })
    const cashed = await call("POST", `${id}/mines/cashout`, { roundId: started.body.roundId })
    // 0.50 × 1.125 = 0.5625, floored: 56.
    expect(cashed.body).toMatchObject({ state: "cashed", win: "56", freeRound: true })
    const calls = t.casino.calls.filter((c) => c.body.roundId === started.body.roundId)
    expect(calls.map((c) => c.op)).toEqual(["win"])
    expect(calls[0]?.body).toMatchObject({ amount: "56", freeRoundGrantId: grantId, roundClosed: true })
    // The grant is used up: a round the page shows as free is refused, nothing bet.
    const again = await call("POST", `${id}/mines/start`, { bet: "100", mines: 3, freeRound: true })
    expect({ status: again.status, error: again.body.error }).toEqual({
      status: 409,
      error: "FREE_ROUNDS_ENDED",
    })
  })

  describe("the sweep", () => {
    let short: StudioTest
    beforeAll(async () => {
      short = await startStudio(backend, 1_500, { env: { STUDIO_SESSION_SECONDS: "4" } })
    })
    afterAll(async () => {
      await short?.close()
    })

    it("a round left open past a 4 s session lifetime is cashed out with a safe tile, refunded without one (a rollback; play money at once)", async () => {
      const post = async (path: string, body?: unknown): Promise<Answer> => {
        const r = await fetch(`${short.url}/studio/api/session/${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
        return { status: r.status, body: await bodyOf(r) }
      }
      const open = async (playerId: string | null) => {
        const r = await short.launch({
          sessionToken: playerId === null ? null : `token-${playerId}`,
          playerId,
          nickname: null,
          currency: "EUR",
          gameId: "mines",
          demo: playerId === null,
          lang: "en",
          platform: "desktop",
          lobbyUrl: null,
        })
        const id =
          String((await r.json()).url)
            .split("/")
            .pop() ?? ""
        expect((await post(id)).status).toBe(200)
        await short.query(
          "UPDATE studio_seeds SET server_seed = $1, hash = $2 WHERE player_key = $3 AND revealed_at IS NULL",
          [
            SEED,
            createHash("sha256").update(SEED).digest("hex"),
            playerId === null ? `demo:${id}` : `player:${playerId}`,
          ],
        )
        expect((await post(`${id}/seed`, { clientSeed: CLIENT_SEED })).status).toBe(200)
        return id
      }
      short.casino.balances.set("sweep-tile", 1_000n)
      short.casino.balances.set("sweep-none", 1_000n)
      const withTile = await open("sweep-tile")
      const withNone = await open("sweep-none")
      const demo = await open(null)
      const a = (await post(`${withTile}/mines/start`, { bet: "100", mines: 3 })).body
      expect((await post(`${withTile}/mines/open`, { roundId: a.roundId, tile: 0 })).body.cashout).toBe("112")
      const b = (await post(`${withNone}/mines/start`, { bet: "100", mines: 3 })).body
      const c = (await post(`${demo}/mines/start`, { bet: "100", mines: 3 })).body
      expect(c.balance).toBe("99900")
      expect([a.state, b.state, c.state]).toEqual(["playing", "playing", "playing"])

      // The sweep runs every 2 s; the rounds are due 4 s after they started.
      const ended = async () =>
        (
          await short.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM studio_rounds WHERE id = ANY($1::uuid[]) AND steps = 'ended'",
            [[a.roundId, b.roundId, c.roundId]],
          )
        )[0]?.n
      await expect.poll(ended, { timeout: 30_000, interval: 500 }).toBe(3)

      const opsOf = (roundId: unknown) =>
        short.casino.calls
          .filter((x) => x.body.roundId === roundId)
          .map((x) => `${x.op} ${x.body.amount ?? ""}`)
      await expect.poll(() => opsOf(a.roundId), { timeout: 10_000 }).toEqual(["bet 100", "win 112"])
      await expect.poll(() => opsOf(b.roundId), { timeout: 10_000 }).toEqual(["bet 100", "rollback "])
      const rollback = short.casino.calls.find((x) => x.body.roundId === b.roundId && x.op === "rollback")
      expect(rollback?.body.refTransactionId).toBe(`bet-${b.roundId}`)
      expect(short.casino.balances.get("sweep-tile")).toBe(1_012n)
      expect(short.casino.balances.get("sweep-none")).toBe(1_000n)
      const rows = await short.query<{ id: string; status: string; win: string }>(
        "SELECT id::text AS id, status, win::text AS win FROM studio_rounds WHERE id = ANY($1::uuid[])",
        [[a.roundId, b.roundId, c.roundId]],
      )
      const byId = new Map(rows.map((r) => [r.id, r]))
      expect(byId.get(String(a.roundId))).toMatchObject({ status: "settled", win: "112" })
      expect(byId.get(String(b.roundId))).toMatchObject({ status: "rolled-back", win: "0" })
      expect(byId.get(String(c.roundId))).toMatchObject({ status: "rolled-back", win: "0" })
      const [session] = await short.query<{ balance: string }>(
        "SELECT demo_balance::text AS balance FROM studio_sessions WHERE id = $1",
        [demo],
      )
      expect(session?.balance).toBe("100000")
      // Swept: a late cash-out is told so.
      const late = await post(`${withTile}/mines/cashout`, { roundId: a.roundId })
      expect({ status: late.status, error: late.body.error }).toEqual({ status: 409, error: "ROUND_OVER" })
    })
  })
})
