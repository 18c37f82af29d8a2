/**
 * Thousands of rounds played by the studio (over its page API, demo sessions on every title of the
 * catalogue, options drawn at random) and then recomputed by the verifier (services/games/verify.ts)
 * from the revealed server seeds: every outcome and multiplier must match. Plus the outbox: a win
 * the casino did not acknowledge is retried until it is, and the round is then settled.
 * Backend: PostgreSQL only (`describeOn`): what it checks is the fairness arithmetic of the
 * studio's rounds.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { catalogue, type GameDefinition } from "../../services/games/catalogue.ts"
import { verifyRound } from "../../services/games/verify.ts"
import { type StudioTest, startStudio } from "./game-studio-harness.ts"
import { describeOn } from "./harness.ts"

const rng = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31
  return seed / 2 ** 31
}

const randomOptions = (def: GameDefinition, r: () => number): unknown => {
  const int = (min: number, max: number) => min + Math.floor(r() * (max - min + 1))
  switch (def.kind) {
    case "dice":
      return { target: int(200, 9700) / 100, direction: r() < 0.5 ? "under" : "over" }
    case "crash":
      return { target: int(101, 1000) / 100 }
    case "mines": {
      const mines = int(1, 10)
      const picks = [...new Set(Array.from({ length: int(1, 5) }, () => int(0, 24)))]
      return { mines, picks }
    }
    case "plinko":
      return { rows: int(8, 16), risk: ["low", "medium", "high"][int(0, 2)] }
    case "roulette":
      return {
        bets: [
          { type: "straight", numbers: [int(0, 36)], chips: int(1, 3) },
          { type: ["red", "black", "odd", "even"][int(0, 3)], chips: int(1, 3) },
        ],
      }
    case "slot":
      return {}
  }
}

describeOn("postgres", "game studio rounds through the verifier", ({ backend }) => {
  let t: StudioTest
  beforeAll(async () => {
    t = await startStudio(backend)
  })
  afterAll(async () => {
    await t?.close()
  })

  const post = async (path: string, body?: unknown) => {
    const r = await fetch(`${t.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    return { status: r.status, body: await r.json() }
  }

  it(`2,150 rounds over ${catalogue.length} titles verify exactly`, { timeout: 240_000 }, async () => {
    const r = rng(backend === "pglite" ? 7 : 11)
    let verified = 0
    for (const def of catalogue) {
      const launched = await t.launch({
        sessionToken: null,
        playerId: null,
        nickname: null,
        currency: "EUR",
        gameId: def.launchId,
        demo: true,
        lang: "en",
        platform: "mobile",
        lobbyUrl: null,
      })
      const id =
        String((await launched.json()).url)
          .split("/")
          .pop() ?? ""
      await post(`/studio/api/session/${id}/seed`, { clientSeed: `client-${def.id}` })
      const played: Array<{ options: unknown; round: Record<string, unknown> }> = []
      for (let i = 0; i < 50; i++) {
        const options = randomOptions(def, r)
        const answer = await post(`/studio/api/session/${id}/round`, { bet: "1", options })
        expect(answer.status, JSON.stringify(answer.body)).toBe(200)
        played.push({ options, round: answer.body })
      }
      const { body: rotated } = await post(`/studio/api/session/${id}/rotate`)
      for (const { options, round } of played) {
        const v = await verifyRound({
          gameId: def.id,
          options,
          serverSeed: rotated.revealed.serverSeed,
          clientSeed: `client-${def.id}`,
          nonce: Number(round.nonce),
        })
        expect(v.multiplier.toString()).toBe(round.multiplier)
        expect(v.detail).toEqual(round.detail)
        expect(v.jackpotHit).toBe(round.jackpotHit)
        verified++
      }
    }
    expect(verified).toBe(catalogue.length * 50)
    expect(verified).toBeGreaterThanOrEqual(2_000)
  })

  it("a win the casino did not acknowledge is retried from the outbox until it is", {
    timeout: 30_000,
  }, async () => {
    t.casino.balances.set("player-9", 5_000n)
    t.casino.failWins = 2
    const launched = await t.launch({
      sessionToken: "token-9",
      playerId: "player-9",
      nickname: null,
      currency: "EUR",
      gameId: "dice-classic",
      demo: false,
      lang: "en",
      platform: "desktop",
      lobbyUrl: null,
    })
    const id =
      String((await launched.json()).url)
        .split("/")
        .pop() ?? ""
    const { status, body } = await post(`/studio/api/session/${id}/round`, {
      bet: "100",
      options: { target: 98, direction: "under" },
    })
    expect(status).toBe(200)
    const roundId = String(body.roundId)
    // Wait for the fiber's retries (2 s period, backoff 1 s then 2 s).
    for (let i = 0; i < 40; i++) {
      const [row] = await t.query<{ status: string }>("SELECT status FROM studio_rounds WHERE id = $1", [
        roundId,
      ])
      if (row?.status === "settled") break
      await new Promise((res) => setTimeout(res, 500))
    }
    const [row] = await t.query<{ status: string }>("SELECT status FROM studio_rounds WHERE id = $1", [
      roundId,
    ])
    expect(row?.status).toBe("settled")
    const wins = t.casino.calls.filter((c) => c.op === "win" && c.body.roundId === roundId)
    expect(wins.length).toBeGreaterThanOrEqual(3)
    // Every retry is the same call: same transaction id, same body.
    expect(new Set(wins.map((w) => JSON.stringify(w.body))).size).toBe(1)
    expect(t.casino.balances.get("player-9")).toBe(5_000n - 100n + BigInt(String(body.win)))
  })
})
