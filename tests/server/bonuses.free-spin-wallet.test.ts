/**
 * The free-spin wallet, on both backends: joining grants the welcome banner's 125 free spins of
 * Viking Voyage at 0.10 EUR (the seeded `welcome-spins`); what they win is held apart — not cash,
 * not bonus money, not playable — and the fund entry says which deposit unlocks it
 * (`freeSpinWallet.winUnlockConfig`: 20.00 EUR, +25 %). A deposit of 20 EUR or more that takes a
 * bonus moves the winnings and 25 % of itself into that bonus, under its wagering; a deposit below,
 * or one without a bonus, unlocks nothing; winnings above 100 EUR go back to the house; a wallet
 * past its end gives its winnings back and withdraws its spins. Amounts are literals.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Bonuses } from "../../server/bonuses/Bonuses.ts"
import { FreeSpinWallets } from "../../server/bonuses/FreeSpinWallets.ts"
import type { Game } from "../../services/game-service.ts"
import { eventually, gameById } from "./bonuses-support.ts"
import { type FakeGameProvider, fundedPlayer, startFakeGameProvider, walletCall } from "./games-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { insertDeposit, ledgerReport, PROFILE } from "./money-support.ts"

interface WalletView {
  readonly promotionId: string
  readonly status: string
  readonly balance: string
  readonly winUnlockConfig: Record<string, unknown>
  readonly maxUnlock: string
  readonly unlockedWinnings: string | null
  readonly extraBonus: string | null
  readonly bonusId: string | null
  readonly freeRounds: Record<string, unknown> | null
}

interface BonusView {
  readonly id: string
  readonly amount: string
  readonly wageringRequired: string
  readonly balance: string
}

describeBackends("bonuses: the free-spin wallet", ({ start }) => {
  let server: TestServer
  let fake: FakeGameProvider
  let slot: Game
  beforeAll(async () => {
    fake = await startFakeGameProvider()
    server = await start({ captchaEnabled: false }, { env: { ...fake.env, RATE_LIMIT_SCALE: "100" } })
    slot = await gameById(server, "viking-voyage")
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  type Player = Awaited<ReturnType<typeof fundedPlayer>>

  const accounts = async (userId: string) => {
    const rows = await server.query<{ kind: string; balance: string }>(
      "SELECT kind, balance::text AS balance FROM ledger_accounts WHERE user_id = $1 AND currency = 'EUR'",
      [userId],
    )
    const of = (kind: string) => rows.find((r) => r.kind === kind)?.balance ?? null
    return { cash: of("player_cash"), bonus: of("player_bonus"), freeSpins: of("player_free_spins") }
  }

  const mine = async (p: Player) =>
    (await p.player.browser.get(`${PROFILE}/profile/promotion`)).body as {
      bonuses: ReadonlyArray<BonusView>
      freeSpinWallets: ReadonlyArray<WalletView>
    }

  /** The welcome grant as the provider received it (sent by the outbox once registration committed). */
  const welcomeGrant = (p: Player) =>
    eventually(() =>
      fake.freeRounds.find(
        (g) => !g.cancel && g.body.playerId === p.userId && g.body.gameId === "viking-voyage",
      ),
    )

  const freeWin = (p: Player, grantId: string, amount: string) =>
    walletCall(server.url, "win", {
      sessionToken: p.token,
      playerId: p.userId,
      currency: "EUR",
      transactionId: randomUUID(),
      roundId: randomUUID(),
      gameId: "viking-voyage",
      amount,
      roundClosed: true,
      freeRoundGrantId: grantId,
    })

  /** A deposit of `cents` EUR completing, with the bonus code it names (null: "No bonus"). */
  const deposit = async (p: Player, cents: string, coupon: string | null) => {
    const depositId = await insertDeposit(server, p.userId, cents)
    return server.run(
      Effect.gen(function* () {
        const bonuses = yield* Bonuses
        return yield* bonuses.awardForDeposit({
          source: "fiat",
          id: depositId,
          userId: p.userId,
          currency: "EUR",
          amount: BigInt(cents),
          amountEurCents: BigInt(cents),
          promotionCoupon: coupon,
        })
      }).pipe(Effect.orDie),
    )
  }

  describe("joining", () => {
    it("grants 125 spins of Viking Voyage at 0.10 EUR, held for a deposit of 20.00 EUR (+25 %)", async () => {
      const p = await fundedPlayer(server, fake, "fsw-join", 0n, slot)
      const grant = await welcomeGrant(p)
      expect(grant.body).toMatchObject({ currency: "EUR", rounds: 125, bet: "10" })
      const [wallet] = (await mine(p)).freeSpinWallets
      expect(wallet).toMatchObject({
        promotionId: "welcome-spins",
        status: "locked",
        balance: "0",
        winUnlockConfig: {
          depositAmount: "2000",
          depositAmountInEur: "2000",
          depositCurrency: "EUR",
          extraBonusPercent: 25,
        },
        maxUnlock: "10000",
        unlockedWinnings: null,
        bonusId: null,
        freeRounds: { gameId: "viking-voyage", gameName: "Viking Voyage", rounds: 125, played: 0, bet: "10" },
      })
      // The fund entry (spec section 3) carries the same unlock terms.
      const fund = (await p.player.browser.get(`${PROFILE}/profile/currency`)).body as ReadonlyArray<{
        currency: string
        freeSpinWallet: unknown
      }>
      expect(fund.find((f) => f.currency === "EUR")?.freeSpinWallet).toEqual({
        winUnlockConfig: {
          depositAmount: "2000",
          depositAmountInEur: "2000",
          depositCurrency: "EUR",
          extraBonusPercent: 25,
        },
        balance: "0",
      })
      // No offer to take at a deposit: free spins are granted, never chosen.
      const eligible = (await p.player.browser.get(`${PROFILE}/profile/promotion-eligible`)).body as {
        promotions: ReadonlyArray<{ id: string }>
      }
      expect(eligible.promotions.map((o) => o.id)).toEqual(["welcome-1"])
    })
  })

  describe("winnings", () => {
    it("are held apart, then a 30 EUR deposit taking WELCOME1 moves them and 7.50 EUR extra into its bonus", async () => {
      const p = await fundedPlayer(server, fake, "fsw-unlock", 500n, slot)
      const grantId = String((await welcomeGrant(p)).body.grantId)
      await eventually(async () =>
        (await mine(p)).freeSpinWallets[0]?.freeRounds?.status === "active" ? 1 : undefined,
      )

      // A free round won 3.40 EUR: held — the answer's balance is cash + bonus money only.
      expect(await freeWin(p, grantId, "340")).toMatchObject({ status: 200, body: { balance: "500" } })
      expect(await accounts(p.userId)).toEqual({ cash: "500", bonus: null, freeSpins: "340" })
      expect((await mine(p)).freeSpinWallets[0]).toMatchObject({ status: "locked", balance: "340" })

      // "No bonus" unlocks nothing.
      expect((await deposit(p, "3000", null)) ?? null).toBeNull()
      expect((await mine(p)).freeSpinWallets[0]?.status).toBe("locked")

      // 30.00 EUR taking WELCOME1: 125 % (37.50 EUR), plus the 3.40 EUR winnings and 25 % of
      // 30 EUR (7.50 EUR) — 48.40 EUR of bonus money.
      const grant = await deposit(p, "3000", "WELCOME1")
      expect(grant?.amount).toBe(3_750n)
      expect(grant?.unlocked).toMatchObject({ winnings: 340n, extra: 750n })
      expect(await accounts(p.userId)).toEqual({ cash: "500", bonus: "4840", freeSpins: "0" })
      const after = await mine(p)
      expect(after.freeSpinWallets[0]).toMatchObject({
        status: "unlocked",
        balance: "0",
        unlockedWinnings: "340",
        extraBonus: "750",
        bonusId: after.bonuses[0]?.id,
      })
      // The bonus grew by 10.90 EUR, its wagering by 10 × that.
      expect(after.bonuses[0]).toMatchObject({ amount: "4840", wageringRequired: "48400", balance: "4840" })
      expect((await mine(p)).freeSpinWallets[0]?.winUnlockConfig).toMatchObject({ extraBonusPercent: 25 })
      const fund = (await p.player.browser.get(`${PROFILE}/profile/currency`)).body as ReadonlyArray<{
        currency: string
        freeSpinWallet: unknown
      }>
      expect(fund.find((f) => f.currency === "EUR")?.freeSpinWallet).toBeNull()

      // A spin left of the welcome grant now pays into that bonus.
      expect(await freeWin(p, grantId, "60")).toMatchObject({ status: 200, body: { balance: "5400" } })
      expect(await accounts(p.userId)).toEqual({ cash: "500", bonus: "4900", freeSpins: "0" })
      expect((await ledgerReport(server)).clean).toBe(true)
    })

    it("a deposit below 20.00 EUR unlocks nothing; above 100 EUR of winnings go back to the house", async () => {
      const small = await fundedPlayer(server, fake, "fsw-small", 0n, slot)
      const smallGrant = String((await welcomeGrant(small)).body.grantId)
      await freeWin(small, smallGrant, "200")
      // 19.99 EUR is below EUR's minPromotion (20 EUR): no bonus, so nothing to unlock into.
      expect((await deposit(small, "1999", "WELCOME1")) ?? null).toBeNull()
      expect(await accounts(small.userId)).toMatchObject({ bonus: null, freeSpins: "200" })
      expect((await mine(small)).freeSpinWallets[0]).toMatchObject({ status: "locked", balance: "200" })

      const lucky = await fundedPlayer(server, fake, "fsw-cap", 0n, slot)
      const luckyGrant = String((await welcomeGrant(lucky)).body.grantId)
      await freeWin(lucky, luckyGrant, "12000")
      const capped = await deposit(lucky, "2000", "WELCOME1")
      // 125 % of 20 EUR = 25 EUR; of the 120 EUR won, 100 EUR (the cap) — nothing left for the extra.
      expect(capped?.amount).toBe(2_500n)
      expect(capped?.unlocked).toMatchObject({ winnings: 10_000n, extra: 0n })
      expect(await accounts(lucky.userId)).toMatchObject({ bonus: "12500", freeSpins: "0" })
      // Spins that won nothing leave nothing to unlock: the deposit's bonus is its own, the
      // wallet keeps waiting.
      const unlucky = await fundedPlayer(server, fake, "fsw-nothing", 0n, slot)
      await freeWin(unlucky, String((await welcomeGrant(unlucky)).body.grantId), "0")
      const own = await deposit(unlucky, "3000", "WELCOME1")
      expect(own).toMatchObject({ amount: 3_750n, balance: 3_750n, unlocked: undefined })
      expect((await mine(unlucky)).freeSpinWallets[0]).toMatchObject({ status: "locked", balance: "0" })
      expect((await ledgerReport(server)).clean).toBe(true)
    })
  })

  describe("the end", () => {
    it("a wallet past its end gives its winnings back to the house and withdraws its spins", async () => {
      const p = await fundedPlayer(server, fake, "fsw-expire", 0n, slot)
      const grantId = String((await welcomeGrant(p)).body.grantId)
      await freeWin(p, grantId, "90")
      await server.query(
        "UPDATE free_spin_wallets SET expires_at = now() - interval '1 minute' WHERE user_id = $1",
        [p.userId],
      )
      const ended = await server.run(
        Effect.gen(function* () {
          return yield* (yield* FreeSpinWallets).expireDue
        }),
      )
      expect(ended).toBeGreaterThanOrEqual(1)
      expect(await accounts(p.userId)).toMatchObject({ freeSpins: "0" })
      expect((await mine(p)).freeSpinWallets[0]).toMatchObject({ status: "expired", balance: "0" })
      // The provider is told to stop the spins left.
      await eventually(() => fake.freeRounds.find((g) => g.cancel && g.body.grantId === grantId))
      // A late win of the withdrawn grant stays with the house.
      expect((await freeWin(p, grantId, "50")).status).toBe(200)
      expect(await accounts(p.userId)).toMatchObject({ freeSpins: "0", bonus: null })
      expect((await ledgerReport(server)).clean).toBe(true)
    })

    it("a free-spins code grants its spins once the welcome ones are done; twice is refused", async () => {
      await server.query(
        `INSERT INTO promotions (id, kind, name, code, max_bonus_eur_cents, wagering_multiple, max_bet_eur_cents,
                                 valid_days, free_spin_game, free_spin_bet_eur_cents, unlock_deposit_eur_cents,
                                 extra_bonus_percent)
         VALUES ('spins-code', 'free_spins', 'Fifty spins', 'FIFTYSPINS', 5000, 5, 500, 3, 'viking-voyage', 20, 1000, 0)`,
      )
      await server.query(
        "INSERT INTO promotion_bands (promotion_id, up_to_eur_cents, percent, free_spins) VALUES ('spins-code', NULL, 0, 50)",
      )
      const p = await fundedPlayer(server, fake, "fsw-code", 0n, slot)
      await welcomeGrant(p)
      const redeem = () =>
        p.player.browser.call("PUT", `${PROFILE}/profile/redeem-promotion-coupon`, {
          promotionCoupon: "fiftyspins",
        })
      // The welcome spins still wait in EUR: one waiting wallet per currency.
      expect(await redeem()).toMatchObject({ status: 422, body: { reason: "not-eligible" } })
      await server.query(
        "UPDATE free_spin_wallets SET expires_at = now() - interval '1 minute' WHERE user_id = $1",
        [p.userId],
      )
      await server.run(
        Effect.gen(function* () {
          return yield* (yield* FreeSpinWallets).expireDue
        }),
      )
      const taken = await redeem()
      expect(taken).toMatchObject({
        status: 200,
        body: { couponName: "FIFTYSPINS", promotion: { kind: "free_spins", unlockDepositEurCents: "1000" } },
      })
      const wallets = (await mine(p)).freeSpinWallets
      expect(wallets[0]).toMatchObject({
        promotionId: "spins-code",
        status: "locked",
        winUnlockConfig: { depositAmount: "1000", extraBonusPercent: 0 },
        freeRounds: { rounds: 50, bet: "20" },
      })
      expect(await redeem()).toMatchObject({ status: 422, body: { reason: "already-used" } })
    })
  })
})
