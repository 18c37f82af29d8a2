/**
 * Free spins as free rounds, on both backends: a first deposit of 30.00 EUR naming WELCOME1 earns 125
 * spins of Aurora Vault at 0.20 EUR (the seeded promotion); the grant reaches the game's provider
 * signed (the provider's outbox, retried until taken); each free round's win comes back through the
 * seamless wallet naming the grant — no bet — and is paid as bonus money under the bonus's wagering;
 * the grant counts its rounds and refuses what is not its own; a forfeit withdraws the spins left
 * (a late win stays with the house). Amounts are literals.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import type { Game } from "../../services/game-service.ts"
import { eventually, gameOfKind, grantFirstDepositBonus, walletOf } from "./bonuses-support.ts"
import { type FakeGameProvider, fundedPlayer, startFakeGameProvider, walletCall } from "./games-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport, PROFILE } from "./money-support.ts"

interface FreeRoundsView {
  readonly gameId: string
  readonly gameName: string
  readonly rounds: number
  readonly played: number
  readonly bet: string
  readonly won: string
  readonly status: string
}

describeBackends("bonuses: free spins as free rounds", ({ start }) => {
  let server: TestServer
  let fake: FakeGameProvider
  let slot: Game
  beforeAll(async () => {
    fake = await startFakeGameProvider()
    server = await start({ captchaEnabled: false }, { env: { ...fake.env, RATE_LIMIT_SCALE: "100" } })
    slot = await gameOfKind(server, "slot")
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  const freeWin = (
    p: { userId: string; token: string },
    grantId: string,
    amount: string,
    extra: Record<string, unknown> = {},
  ) =>
    walletCall(server.url, "win", {
      sessionToken: p.token,
      playerId: p.userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: randomUUID(),
      gameId: "aurora-vault",
      amount,
      roundClosed: true,
      freeRoundGrantId: grantId,
      ...extra,
    })

  it("grants the deposit's 125 spins to the provider and pays each free round's win as bonus money", async () => {
    const p = await fundedPlayer(server, fake, "free-rounds", 1_000n, slot)
    await grantFirstDepositBonus(server, p.userId, "3000")
    const grant = await eventually(() =>
      fake.freeRounds.find(
        (g) => !g.cancel && g.body.playerId === p.userId && g.body.gameId === "aurora-vault",
      ),
    )
    expect(grant.body).toMatchObject({
      playerId: p.userId,
      currency: "EUR",
      gameId: "aurora-vault",
      rounds: 125,
      bet: "20",
    })
    const grantId = String(grant.body.grantId)
    const mine = async () =>
      (
        (await p.player.browser.get(`${PROFILE}/profile/promotion`)).body as {
          bonuses: ReadonlyArray<{ freeRounds: FreeRoundsView | null; wageringRequired: string }>
        }
      ).bonuses[0]
    const active = await eventually(async () => {
      const b = await mine()
      return b?.freeRounds?.status === "active" ? b : undefined
    })
    expect(active.freeRounds).toEqual({
      gameId: "aurora-vault",
      gameName: "Aurora Vault",
      rounds: 125,
      played: 0,
      bet: "20",
      won: "0",
      status: "active",
    })

    // A free round won 1.50 EUR: bonus money (37.50 + 1.50), no bet taken; the answer is cash + bonus.
    const first = await freeWin(p, grantId, "150")
    expect(first).toMatchObject({ status: 200, body: { balance: "4900", currency: "EUR" } })
    expect(await walletOf(server, p.userId)).toEqual({ cash: 1_000n, bonus: 3_900n })
    // A losing free round: nothing moves, one more round played.
    expect((await freeWin(p, grantId, "0")).status).toBe(200)
    expect((await mine())?.freeRounds).toMatchObject({ played: 2, won: "150", status: "active" })
    // The wagering asked of the bonus is unchanged (10 × 37.50 EUR).
    expect((await mine())?.wageringRequired).toBe("37500")

    // The same transaction again: the first answer; nothing paid twice.
    const body = {
      sessionToken: p.token,
      playerId: p.userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: randomUUID(),
      gameId: "aurora-vault",
      amount: "40",
      roundClosed: true,
      freeRoundGrantId: grantId,
    }
    const once = await walletCall(server.url, "win", body)
    const twice = await walletCall(server.url, "win", body)
    expect(twice).toEqual(once)
    expect(await walletOf(server, p.userId)).toEqual({ cash: 1_000n, bonus: 3_940n })

    // Not this grant's game, not this player's grant, an unknown grant: refused, nothing paid.
    expect(await freeWin(p, grantId, "100", { gameId: "fjord-fortunes" })).toMatchObject({
      status: 404,
      body: { error: "UNKNOWN_GRANT" },
    })
    const other = await fundedPlayer(server, fake, "free-rounds-other", 0n, slot)
    expect(await freeWin(other, grantId, "100")).toMatchObject({
      status: 404,
      body: { error: "UNKNOWN_GRANT" },
    })
    expect(await freeWin(p, randomUUID(), "100")).toMatchObject({
      status: 404,
      body: { error: "UNKNOWN_GRANT" },
    })
    expect(await walletOf(server, p.userId)).toEqual({ cash: 1_000n, bonus: 3_940n })
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("a forfeit withdraws the spins left from the provider; a late free-round win stays with the house", async () => {
    const p = await fundedPlayer(server, fake, "free-rounds-forfeit", 1_000n, slot)
    await grantFirstDepositBonus(server, p.userId, "3000")
    const grant = await eventually(() =>
      fake.freeRounds.find(
        (g) => !g.cancel && g.body.playerId === p.userId && g.body.gameId === "aurora-vault",
      ),
    )
    const grantId = String(grant.body.grantId)
    const bonuses = (await p.player.browser.get(`${PROFILE}/profile/promotion`)).body as {
      bonuses: ReadonlyArray<{ id: string }>
    }
    const bonusId = bonuses.bonuses[0]?.id ?? ""
    expect(
      (await p.player.browser.call("DELETE", `${PROFILE}/profile/promotion`, { id: bonusId })).status,
    ).toBe(200)
    const cancel = await eventually(() => fake.freeRounds.find((g) => g.cancel && g.body.grantId === grantId))
    expect(Object.keys(cancel.body).sort()).toEqual(["grantId", "requestId"])
    // Played before the cancel arrived: acknowledged, but the forfeited bonus's spins win nothing.
    expect(await freeWin(p, grantId, "500")).toMatchObject({ status: 200, body: { balance: "1000" } })
    expect(await walletOf(server, p.userId)).toEqual({ cash: 1_000n, bonus: 0n })
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("counts the grant's rounds: none is paid past the last", async () => {
    const p = await fundedPlayer(server, fake, "free-rounds-count", 0n, slot)
    await grantFirstDepositBonus(server, p.userId, "3000")
    const grant = await eventually(() =>
      fake.freeRounds.find(
        (g) => !g.cancel && g.body.playerId === p.userId && g.body.gameId === "aurora-vault",
      ),
    )
    expect(grant.body.rounds).toBe(125)
    const grantId = String(grant.body.grantId)
    await server.query("UPDATE free_round_grants SET played = 124 WHERE id = $1", [grantId])
    expect((await freeWin(p, grantId, "10")).status).toBe(200)
    expect(await freeWin(p, grantId, "10")).toMatchObject({
      status: 409,
      body: { error: "FREE_ROUNDS_USED_UP" },
    })
    const rows = await server.query<{ status: string; played: number }>(
      "SELECT status, played FROM free_round_grants WHERE id = $1",
      [grantId],
    )
    expect(rows).toEqual([{ status: "finished", played: 125 }])
  })
})
