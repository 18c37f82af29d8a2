/**
 * Money with a bonus is conserved, on both backends. Each run: a player with some cash and a first-
 * deposit bonus (its wagering lowered at random, so some runs convert it mid-way) plays a random
 * sequence of bets, wins, rollbacks, forfeits, expiries and free rounds (the deposit bonus's spins,
 * and the welcome spins of the free-spin wallet) through the signed seamless-wallet protocol. Stated
 * without the split rules themselves:
 * - an accepted bet takes exactly its amount from cash + bonus money (whatever part came from which,
 *   and whether it completed the wagering and converted the bonus);
 * - a win, or a refund, adds exactly its amount while the bonus was never forfeited nor expired
 *   (after that, at most its amount: the bonus's share stays with the house); a win on a round whose
 *   bet was rolled back before any win adds nothing;
 * - a free round of the bonus's spins adds exactly its win while the bonus was never forfeited nor
 *   expired (nothing after); a free round of the welcome spins adds exactly its win to the held
 *   free-spin winnings and nothing to cash or bonus money;
 * - a refused bet, a forfeit and an expiry never change cash; a bonus that ended holds no money;
 * - no balance is ever negative, and ledger:check is clean (every transaction sums to 0) after each run.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Bonuses } from "../../server/bonuses/Bonuses.ts"
import type { Game } from "../../services/game-service.ts"
import { gameOfKind, grantFirstDepositBonus, walletOf } from "./bonuses-support.ts"
import {
  type FakeGameProvider,
  fundedPlayer,
  rollbackBody,
  startFakeGameProvider,
  walletCall,
} from "./games-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport, PROFILE } from "./money-support.ts"

type Step =
  | { readonly op: "bet"; readonly amount: number }
  | { readonly op: "win"; readonly amount: number }
  | { readonly op: "rollback" }
  | { readonly op: "forfeit" }
  | { readonly op: "expire" }
  | { readonly op: "freeRound"; readonly amount: number }
  | { readonly op: "welcomeSpin"; readonly amount: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ op: fc.constant("bet" as const), amount: fc.integer({ min: 1, max: 700 }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("win" as const), amount: fc.integer({ min: 0, max: 2_500 }) }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("rollback" as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("forfeit" as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("expire" as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant("freeRound" as const), amount: fc.integer({ min: 0, max: 900 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("welcomeSpin" as const),
      amount: fc.integer({ min: 0, max: 900 }),
    }),
  },
)

describeBackends("bonuses: money is conserved in play", ({ start }) => {
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

  const wallet = async (userId: string) => {
    const w = await walletOf(server, userId)
    return { cash: w.cash ?? 0n, bonus: w.bonus ?? 0n }
  }
  const heldWinnings = async (userId: string) =>
    BigInt(
      (
        await server.query<{ balance: string }>(
          "SELECT balance::text AS balance FROM ledger_accounts WHERE user_id = $1 AND kind = 'player_free_spins' AND currency = 'EUR'",
          [userId],
        )
      )[0]?.balance ?? "0",
    )
  const grantOf = async (userId: string, game: string) => {
    const rows = await server.query<{ id: string }>(
      "SELECT id::text AS id FROM free_round_grants WHERE user_id = $1 AND game_id = $2",
      [userId, game],
    )
    const id = rows[0]?.id
    if (id === undefined) throw new Error(`no ${game} grant for ${userId}`)
    return id
  }

  it("bets, wins, rollbacks, forfeits and expiries move exactly their amounts", async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 3_000 }),
        fc.integer({ min: 2_000, max: 6_000 }),
        fc.array(step, { minLength: 1, maxLength: 18 }),
        // A smaller wagering than the seeded 10 × (set on the bonus), so runs also convert mid-way.
        fc.integer({ min: 300, max: 4_000 }),
        async (cash, depositCents, steps, wagering) => {
          n += 1
          const p = await fundedPlayer(server, fake, `bonus-prop-${n}`, BigInt(cash), slot)
          await grantFirstDepositBonus(server, p.userId, String(depositCents))
          await server.query("UPDATE player_bonuses SET wagering_required = $2 WHERE user_id = $1", [
            p.userId,
            String(wagering),
          ])
          let ended = false
          let round = randomUUID()
          /** Whether `round` exists (its bet was accepted; a rollback keeps it). */
          let roundKnown = false
          /** Whether `round` had a win call; a round rolled back before any is void (its wins pay nothing). */
          let roundWon = false
          let roundVoid = false
          let lastBet: {
            readonly transactionId: string
            readonly roundId: string
            readonly amount: bigint
          } | null = null
          for (const s of steps) {
            const before = await wallet(p.userId)
            expect(before.cash >= 0n && before.bonus >= 0n).toBe(true)
            const total = (w: { cash: bigint; bonus: bigint }) => w.cash + w.bonus
            if (s.op === "bet") {
              round = randomUUID()
              const transactionId = randomUUID()
              const res = await walletCall(server.url, "bet", {
                sessionToken: p.token,
                playerId: p.userId,
                currency: "EUR",
                transactionId,
                roundId: round,
                gameId: slot.launchId,
                amount: String(s.amount),
              })
              const after = await wallet(p.userId)
              roundKnown = res.status === 200
              roundWon = false
              roundVoid = false
              if (res.status === 200) {
                expect(total(after)).toBe(total(before) - BigInt(s.amount))
                expect(res.body.balance).toBe(total(after).toString())
                lastBet = { transactionId, roundId: round, amount: BigInt(s.amount) }
              } else {
                expect([402, 422]).toContain(res.status)
                expect(after).toEqual(before)
              }
            } else if (s.op === "win") {
              const res = await walletCall(server.url, "win", {
                sessionToken: p.token,
                playerId: p.userId,
                currency: "EUR",
                transactionId: randomUUID(),
                roundId: round,
                gameId: slot.launchId,
                amount: String(s.amount),
                roundClosed: true,
              })
              const after = await wallet(p.userId)
              if (!roundKnown) {
                expect(res.status).toBe(404)
                continue
              }
              expect(res.status).toBe(200)
              // A win of 0 leaves the round's win total at 0: its rollback still voids it.
              if (s.amount > 0 && !roundVoid) roundWon = true
              if (roundVoid) expect(total(after)).toBe(total(before))
              else if (!ended) expect(total(after)).toBe(total(before) + BigInt(s.amount))
              else
                expect(
                  total(after) >= total(before) && total(after) <= total(before) + BigInt(s.amount),
                ).toBe(true)
            } else if (s.op === "freeRound" || s.op === "welcomeSpin") {
              const game = s.op === "freeRound" ? "aurora-vault" : "viking-voyage"
              const heldBefore = await heldWinnings(p.userId)
              const res = await walletCall(server.url, "win", {
                sessionToken: p.token,
                playerId: p.userId,
                currency: "EUR",
                transactionId: randomUUID(),
                roundId: randomUUID(),
                gameId: game,
                amount: String(s.amount),
                roundClosed: true,
                freeRoundGrantId: await grantOf(p.userId, game),
              })
              expect(res.status).toBe(200)
              const after = await wallet(p.userId)
              const heldAfter = await heldWinnings(p.userId)
              if (s.op === "welcomeSpin") {
                expect(after).toEqual(before)
                expect(heldAfter).toBe(heldBefore + BigInt(s.amount))
              } else {
                expect(total(after)).toBe(ended ? total(before) : total(before) + BigInt(s.amount))
                expect(heldAfter).toBe(heldBefore)
              }
            } else if (s.op === "rollback") {
              if (lastBet === null) continue
              const bet = lastBet
              lastBet = null
              const res = await walletCall(server.url, "rollback", rollbackBody(p, bet))
              expect(res.status).toBe(200)
              if (bet.roundId === round && !roundWon) roundVoid = true
              const after = await wallet(p.userId)
              if (!ended) expect(total(after)).toBe(total(before) + bet.amount)
              else
                expect(total(after) >= total(before) && total(after) <= total(before) + bet.amount).toBe(true)
            } else {
              if (s.op === "forfeit") {
                const bonuses = (await p.player.browser.get(`${PROFILE}/profile/promotion`)).body as {
                  bonuses: ReadonlyArray<{ id: string; status: string }>
                }
                const active = bonuses.bonuses.find((b) => b.status === "active")
                if (active !== undefined)
                  await p.player.browser.call("DELETE", `${PROFILE}/profile/promotion`, { id: active.id })
              } else {
                await server.query(
                  "UPDATE player_bonuses SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND status = 'active'",
                  [p.userId],
                )
                await server.run(
                  Effect.gen(function* () {
                    const bonuses = yield* Bonuses
                    return yield* bonuses.expireDue
                  }),
                )
              }
              const after = await wallet(p.userId)
              expect(after.cash).toBe(before.cash)
              const statuses = (
                (await p.player.browser.get(`${PROFILE}/profile/promotion`)).body as {
                  bonuses: ReadonlyArray<{ status: string }>
                }
              ).bonuses.map((b) => b.status)
              if (!statuses.includes("active")) {
                expect(after.bonus).toBe(0n)
                if (statuses.some((x) => x === "forfeited" || x === "expired")) ended = true
              }
            }
          }
          const last = await wallet(p.userId)
          expect(last.cash >= 0n && last.bonus >= 0n).toBe(true)
          const statuses = (
            (await p.player.browser.get(`${PROFILE}/profile/promotion`)).body as {
              bonuses: ReadonlyArray<{ status: string }>
            }
          ).bonuses.map((b) => b.status)
          if (!statuses.includes("active")) expect(last.bonus).toBe(0n)
        },
      ),
      { numRuns: 12 },
    )
    expect((await ledgerReport(server)).clean).toBe(true)
  })
})
