/**
 * Crypto deposits earn bonuses, on both backends, through the real watcher on the UTXO sandbox
 * chain: the bonus code named with the address request (POST …/crypto/deposit's promotionCoupon,
 * spec section 7) is paid on the next transfer credited in that currency — 0.0005 BTC at the seeded
 * 60,000 EUR is 30.00 EUR, the first deposit's 125 % band: 0.000625 BTC of bonus money — once; a
 * request without a code pays none; a credited crypto deposit counts towards the next tier.
 * Amounts are literals.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Watcher } from "../../server/crypto/Watcher.ts"
import { newPlayer, type Player } from "./account-support.ts"
import { chainsOf } from "./crypto-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { ledgerReport, PROFILE, userIdOf } from "./money-support.ts"

const env = {
  CRYPTO_WATCHER: "off",
  CHAIN_SANDBOX_BLOCK_SECONDS: "0",
  CRYPTO_CONFIRMATIONS: "BTC=2,LTC=3,DOG=3",
}

describeBackends("bonuses: crypto deposits", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false }, { env, parties: ["chains"] })
    await tick() // the first step places the cursor at the tip
  })
  afterAll(() => server?.close())

  const tick = () =>
    server.run(
      Effect.gen(function* () {
        return yield* (yield* Watcher).tick("bitcoin")
      }),
    )
  const chain = async () => chainsOf(server).utxo("bitcoin")
  /** A transfer to `address`, mined and confirmed twice (BTC=2): credited by the watcher. */
  const deposit = async (address: string, sats: bigint) => {
    const c = await chain()
    await c.send(address, sats)
    await c.mine(2)
    await tick()
  }
  const addressOf = async (p: Player, coupon?: string) => {
    const res = await p.browser.post(`${PROFILE}/profile/crypto/deposit`, {
      currency: "BTC",
      ...(coupon === undefined ? {} : { promotionCoupon: coupon }),
    })
    expect(res.status).toBe(200)
    return (res.body as { address: string }).address
  }
  const accountsOf = async (userId: string) => {
    const rows = await server.query<{ kind: string; balance: string }>(
      "SELECT kind, balance::text AS balance FROM ledger_accounts WHERE user_id = $1 AND currency = 'BTC'",
      [userId],
    )
    const of = (kind: string) => rows.find((r) => r.kind === kind)?.balance ?? null
    return { cash: of("player_cash"), bonus: of("player_bonus") }
  }
  const bonusesOf = async (p: Player) =>
    (
      (await p.browser.get(`${PROFILE}/profile/promotion`)).body as {
        bonuses: ReadonlyArray<{
          promotionId: string
          currency: string
          amount: string
          percent: number
          wageringRequired: string
          status: string
        }>
      }
    ).bonuses

  it("pays the code named with the address request on the transfer credited next, once", async () => {
    const p = await newPlayer(server, "crypto-bonus")
    const userId = await userIdOf(server, p.email)
    const address = await addressOf(p, " welcome1 ")
    await deposit(address, 50_000n)

    expect(await accountsOf(userId)).toEqual({ cash: "50000", bonus: "62500" })
    expect(await bonusesOf(p)).toMatchObject([
      {
        promotionId: "welcome-1",
        currency: "BTC",
        amount: "62500",
        percent: 125,
        wageringRequired: "625000",
        status: "active",
      },
    ])
    const rows = await server.query<{ crypto: string | null; fiat: string | null }>(
      "SELECT crypto_deposit_id::text AS crypto, deposit_id::text AS fiat FROM player_bonuses WHERE user_id = $1",
      [userId],
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]?.crypto).not.toBeNull()
    expect(rows[0]?.fiat).toBeNull()

    // The choice went with that credit: a second transfer is credited without a bonus.
    await deposit(address, 40_000n)
    expect(await accountsOf(userId)).toEqual({ cash: "90000", bonus: "62500" })
    expect(await bonusesOf(p)).toHaveLength(1)
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("a request without a code pays none; a credited crypto deposit counts towards the next tier", async () => {
    const p = await newPlayer(server, "crypto-no-bonus")
    const userId = await userIdOf(server, p.email)
    // A code named, then the request made again without one: "No bonus" is the last word.
    await addressOf(p, "WELCOME1")
    const address = await addressOf(p)
    await deposit(address, 50_000n)
    expect(await accountsOf(userId)).toEqual({ cash: "50000", bonus: null })
    expect(await bonusesOf(p)).toEqual([])

    // That transfer was the player's first deposit: the offer now is the second deposit's.
    const eligible = (await p.browser.get(`${PROFILE}/profile/promotion-eligible`)).body as {
      promotions: ReadonlyArray<{ id: string }>
    }
    expect(eligible.promotions.map((o) => o.id)).toEqual(["welcome-2"])
    // …and the second transfer, named WELCOME2, is paid its 150 %.
    await deposit(await addressOf(p, "WELCOME2"), 50_000n)
    expect(await accountsOf(userId)).toEqual({ cash: "100000", bonus: "75000" })
    expect((await ledgerReport(server)).clean).toBe(true)
  })
})
