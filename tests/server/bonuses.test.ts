/**
 * Bonuses end to end on both backends: the offers a player may take, a deposit bonus paid by the
 * ledger only when the deposit names it (never by default), the spec's tiers
 * (section 9: first deposit 30 EUR → 125 % and 125 free spins), the minimum, forfeits, bonus codes,
 * opting out, and every refusal with its status. Expected amounts are written out as literals.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { describeBackends, type TestServer } from "./harness.ts"
import {
  balanceOf,
  type FakeProvider,
  ledgerReport,
  newCompletePlayer,
  PROFILE,
  sendWebhook,
  startFakeProvider,
  userIdOf,
  webhookBody,
} from "./money-support.ts"
import { Browser, register, uniqueEmail, uniqueIp } from "./users-support.ts"

const USER = "/user-service/api/v1"

interface BonusView {
  readonly id: string
  readonly promotionId: string
  readonly status: string
  readonly amount: string
  readonly balance: string
  readonly endedAmount: string | null
}

describeBackends("bonuses: offers, deposit bonuses, forfeits, codes", ({ start }) => {
  let server: TestServer
  let fake: FakeProvider
  beforeAll(async () => {
    fake = await startFakeProvider()
    server = await start(
      { captchaEnabled: false },
      {
        env: {
          PAYMENT_GATEWAYS: fake.gatewaysEnv,
          // Every case registers its own players, all from this machine.
          RATE_LIMITS: JSON.stringify({ registerPerIp: { max: 100, windowSeconds: 3600 } }),
        },
      },
    )
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  /** A card deposit completed by the provider's signed webhook. */
  const deposit = async (b: Browser, amount: string, promotionCoupon?: string) => {
    const res = await b.post(`${PROFILE}/profile/paystudio/deposit`, {
      amount,
      currency: "EUR",
      language: "en",
      ...(promotionCoupon === undefined ? {} : { promotionCoupon }),
    })
    expect(res.status).toBe(200)
    const { depositId } = res.body as { depositId: string }
    const ok = await sendWebhook(
      server.url,
      "paystudio",
      fake.webhookSecret,
      webhookBody({ reference: depositId, amount, currency: "EUR" }),
    )
    expect(ok.status).toBe(200)
    return depositId
  }
  const fundOf = async (b: Browser) => (await b.get(`${PROFILE}/profile/currency`)).body
  const bonusesOf = async (b: Browser) =>
    ((await b.get(`${PROFILE}/profile/promotion`)).body as { bonuses: ReadonlyArray<BonusView> }).bonuses

  it("offers a new player the first-deposit tiers of the spec, with their terms", async () => {
    const p = await newCompletePlayer(server, "offers")
    const res = await p.browser.get(`${PROFILE}/profile/promotion-eligible`)
    expect(res.status).toBe(200)
    const body = res.body as { optedOut: boolean; promotions: ReadonlyArray<Record<string, unknown>> }
    expect(body.optedOut).toBe(false)
    expect(body.promotions.map((o) => o.id)).toEqual(["welcome-1"])
    expect(body.promotions[0]).toMatchObject({
      kind: "deposit_bonus",
      code: "WELCOME1",
      depositNumber: 1,
      bands: [
        { upToEurCents: "1600", percent: 50, freeSpins: 100 },
        { upToEurCents: "5000", percent: 125, freeSpins: 125 },
        { upToEurCents: null, percent: 200, freeSpins: 150 },
      ],
      maxBonusEurCents: "800000",
      wageringMultiple: 10,
      accepted: null,
    })
  })

  it("a first deposit of 30 EUR naming the offer earns 37.50 EUR of bonus and 125 free spins", async () => {
    const p = await newCompletePlayer(server, "first30")
    const userId = await userIdOf(server, p.email)
    await deposit(p.browser, "3000", "welcome1")
    expect(await balanceOf(server, userId)).toBe("3000")
    expect(await fundOf(p.browser)).toEqual([
      { currency: "EUR", default: true, balance: "3000", bonusBalance: "3750", freeSpinWallet: null },
    ])
    const [bonus, ...others] = await bonusesOf(p.browser)
    expect(others).toEqual([])
    expect(bonus).toMatchObject({
      promotionId: "welcome-1",
      status: "active",
      currency: "EUR",
      amount: "3750",
      percent: 125,
      freeSpins: 125,
      wageringRequired: "37500",
      wagered: "0",
      maxBet: "500",
      balance: "3750",
      endedAt: null,
    })
    // The next offer is the second deposit's.
    const next = (await p.browser.get(`${PROFILE}/profile/promotion-eligible`)).body as {
      promotions: ReadonlyArray<{ id: string }>
    }
    expect(next.promotions.map((o) => o.id)).toEqual(["welcome-2"])
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("pays only a deposit that names its bonus: never by default, an accepted offer is the deposit step's choice", async () => {
    const taker = await newCompletePlayer(server, "accepts")
    const accepted = await taker.browser.post(`${PROFILE}/profile/promotion`, {
      id: "welcome-1",
      accepted: true,
    })
    expect(accepted).toMatchObject({ status: 200, body: { id: "welcome-1", accepted: true } })
    const offers = (await taker.browser.get(`${PROFILE}/profile/promotion-eligible`)).body as {
      promotions: ReadonlyArray<{ id: string; accepted: boolean | null }>
    }
    expect(offers.promotions).toMatchObject([{ id: "welcome-1", accepted: true }])
    // The deposit step sends the offer's code when the player keeps it chosen.
    await deposit(taker.browser, "10000", "WELCOME1")
    // 100 EUR is above 50 EUR: 200 % and 150 spins.
    expect(await bonusesOf(taker.browser)).toMatchObject([{ amount: "20000", percent: 200, freeSpins: 150 }])

    // Accepted, but the deposit names no bonus (the player chose "No bonus" on the step): none.
    const changedMind = await newCompletePlayer(server, "changed-mind")
    await changedMind.browser.post(`${PROFILE}/profile/promotion`, { id: "welcome-1", accepted: true })
    await deposit(changedMind.browser, "10000")
    expect(await bonusesOf(changedMind.browser)).toEqual([])

    const silent = await newCompletePlayer(server, "silent")
    await deposit(silent.browser, "10000")
    expect(await bonusesOf(silent.browser)).toEqual([])

    const decliner = await newCompletePlayer(server, "declines")
    expect(
      (await decliner.browser.post(`${PROFILE}/profile/promotion`, { id: "welcome-1", accepted: false }))
        .status,
    ).toBe(200)
    const declined = (await decliner.browser.get(`${PROFILE}/profile/promotion-eligible`)).body as {
      promotions: ReadonlyArray<{ id: string; accepted: boolean | null }>
    }
    expect(declined.promotions).toMatchObject([{ id: "welcome-1", accepted: false }])
    await deposit(decliner.browser, "10000")
    expect(await bonusesOf(decliner.browser)).toEqual([])
    expect(await fundOf(decliner.browser)).toMatchObject([{ balance: "10000", bonusBalance: "0" }])
  })

  it("pays nothing below the currency's promotion minimum (20 EUR)", async () => {
    const p = await newCompletePlayer(server, "small")
    await deposit(p.browser, "1500", "WELCOME1")
    expect(await bonusesOf(p.browser)).toEqual([])
    // That deposit counted: the next offer is the second deposit's.
    const next = (await p.browser.get(`${PROFILE}/profile/promotion-eligible`)).body as {
      promotions: ReadonlyArray<{ id: string }>
    }
    expect(next.promotions.map((o) => o.id)).toEqual(["welcome-2"])
  })

  it("a forfeit returns the bonus to the house and leaves the cash alone", async () => {
    const p = await newCompletePlayer(server, "forfeit")
    const userId = await userIdOf(server, p.email)
    await deposit(p.browser, "3000", "WELCOME1")
    const [bonus] = await bonusesOf(p.browser)
    if (bonus === undefined) throw new Error("no bonus")
    const res = await p.browser.call("DELETE", `${PROFILE}/profile/promotion`, { id: bonus.id })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: bonus.id, status: "forfeited", endedAmount: "3750", balance: "0" })
    expect(await fundOf(p.browser)).toEqual([
      { currency: "EUR", default: true, balance: "3000", bonusBalance: "0", freeSpinWallet: null },
    ])
    expect(await balanceOf(server, userId)).toBe("3000")
    const again = await p.browser.call("DELETE", `${PROFILE}/profile/promotion`, { id: bonus.id })
    expect(again.status).toBe(404)
    expect(again.body).toMatchObject({
      _tag: "PromotionNotFound",
      message: "There is no such bonus among yours.",
    })
    // Another player cannot forfeit it either.
    const other = await newCompletePlayer(server, "forfeit-other")
    expect(
      (await other.browser.call("DELETE", `${PROFILE}/profile/promotion`, { id: bonus.id })).status,
    ).toBe(404)
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("one active bonus per currency: a second deposit while one is active earns none", async () => {
    const p = await newCompletePlayer(server, "one-active")
    await deposit(p.browser, "3000", "WELCOME1")
    await deposit(p.browser, "5000", "WELCOME2")
    const bonuses = await bonusesOf(p.browser)
    expect(bonuses.map((b) => b.promotionId)).toEqual(["welcome-1"])
  })

  describe("bonus codes", () => {
    it("checks a code for a visitor and for a player, and says why one grants nothing", async () => {
      const visitor = new Browser(server)
      const ok = await visitor.post(`${USER}/promotion/coupon`, { couponName: " welcome1 " })
      expect(ok.status).toBe(200)
      expect(ok.body).toMatchObject({ couponName: "WELCOME1", promotion: { id: "welcome-1" } })

      const unknown = await visitor.post(`${USER}/promotion/coupon`, { couponName: "NOSUCHCODE" })
      expect(unknown.status).toBe(422)
      expect(unknown.body).toMatchObject({
        _tag: "CouponRejected",
        reason: "unknown",
        message: "This bonus code does not exist.",
      })

      const malformed = await visitor.post(`${USER}/promotion/coupon`, { couponName: "a!" })
      expect(malformed.status).toBe(400)

      const p = await newCompletePlayer(server, "codes")
      await deposit(p.browser, "3000", "WELCOME1")
      const used = await p.browser.post(`${USER}/promotion/coupon`, { couponName: "WELCOME1" })
      expect(used.status).toBe(422)
      expect(used.body).toMatchObject({
        reason: "already-used",
        message: "You have already used this bonus code.",
      })

      const early = await newCompletePlayer(server, "codes-early")
      const notYet = await early.browser.post(`${USER}/promotion/coupon`, { couponName: "WELCOME2" })
      expect(notYet.status).toBe(422)
      expect(notYet.body).toMatchObject({
        reason: "not-eligible",
        message: "This bonus code is not for your next deposit.",
      })
    })

    it("a code past its end, used up in all, or for other currencies grants nothing, with the reason", async () => {
      // Operators' codes for any deposit: one ended yesterday, one granted once at most, one for USD.
      await server.query(
        `INSERT INTO promotions (id, kind, name, code, max_bonus_eur_cents, wagering_multiple, max_bet_eur_cents,
                                 valid_days, starts_at, ends_at, max_uses, currencies)
         VALUES ('ended', 'deposit_bonus', 'Ended', 'ENDED1', 1000, 1, 500, 1, now() - interval '2 days',
                 now() - interval '1 day', NULL, NULL),
                ('once', 'deposit_bonus', 'Once', 'ONCE1', 1000, 1, 500, 1, NULL, NULL, 1, NULL),
                ('dollars', 'deposit_bonus', 'Dollars', 'DOLLARS1', 1000, 1, 500, 1, NULL, NULL, NULL, '{USD}')`,
      )
      await server.query(
        `INSERT INTO promotion_bands (promotion_id, up_to_eur_cents, percent, free_spins)
         VALUES ('ended', NULL, 10, 0), ('once', NULL, 10, 0), ('dollars', NULL, 10, 0)`,
      )
      const visitor = new Browser(server)
      expect(await visitor.post(`${USER}/promotion/coupon`, { couponName: "ended1" })).toMatchObject({
        status: 422,
        body: { reason: "expired", message: "This bonus code is not valid at the moment." },
      })
      // The first player's deposit takes ONCE1: nobody else can.
      const first = await newCompletePlayer(server, "code-once")
      await deposit(first.browser, "3000", "ONCE1")
      expect((await bonusesOf(first.browser)).map((b) => b.promotionId)).toEqual(["once"])
      const second = await newCompletePlayer(server, "code-once-2")
      expect(
        await second.browser.call("PUT", `${PROFILE}/profile/redeem-promotion-coupon`, {
          promotionCoupon: "ONCE1",
        }),
      ).toMatchObject({
        status: 422,
        body: { reason: "used-up", message: "This bonus code has been used up." },
      })
      // A EUR player has no wallet a USD code could pay into.
      expect(await second.browser.post(`${USER}/promotion/coupon`, { couponName: "DOLLARS1" })).toMatchObject(
        {
          status: 422,
          body: { reason: "currency", message: "This bonus code is not valid for this currency." },
        },
      )
      expect((await ledgerReport(server)).clean).toBe(true)
    })

    it("a redeemed code makes its offer the deposit step's choice", async () => {
      const p = await newCompletePlayer(server, "redeem")
      const res = await p.browser.call("PUT", `${PROFILE}/profile/redeem-promotion-coupon`, {
        promotionCoupon: "welcome1",
      })
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({
        couponName: "WELCOME1",
        promotion: { id: "welcome-1", accepted: true },
      })
      const offers = (await p.browser.get(`${PROFILE}/profile/promotion-eligible`)).body as {
        promotions: ReadonlyArray<{ id: string; accepted: boolean | null }>
      }
      expect(offers.promotions).toMatchObject([{ id: "welcome-1", accepted: true }])
      await deposit(p.browser, "2000", "WELCOME1")
      // 20 EUR: the 125 % band (above 16 EUR), 25 EUR of bonus.
      expect(await bonusesOf(p.browser)).toMatchObject([{ amount: "2500", freeSpins: 125 }])
    })
  })

  it("a registration's bonus code is taken for the first deposit; one that grants nothing is ignored", async () => {
    const withCode = new Browser(server, uniqueIp())
    expect(
      (await register(withCode, uniqueEmail("reg-code"), { registrationCode: " welcome1 " })).status,
    ).toBe(200)
    const offers = (await withCode.get(`${PROFILE}/profile/promotion-eligible`)).body as {
      promotions: ReadonlyArray<{ id: string; accepted: boolean | null }>
    }
    expect(offers.promotions).toMatchObject([{ id: "welcome-1", accepted: true }])

    const badCode = new Browser(server, uniqueIp())
    expect((await register(badCode, uniqueEmail("reg-bad"), { registrationCode: "NOSUCHCODE" })).status).toBe(
      200,
    )
    const none = (await badCode.get(`${PROFILE}/profile/promotion-eligible`)).body as {
      promotions: ReadonlyArray<{ id: string; accepted: boolean | null }>
    }
    expect(none.promotions).toMatchObject([{ id: "welcome-1", accepted: null }])
  })

  it("opting out of offers empties them (nothing to choose on the deposit step)", async () => {
    const p = await newCompletePlayer(server, "opt-out")
    await p.browser.post(`${PROFILE}/profile/promotion`, { id: "welcome-1", accepted: true })
    const out = await p.browser.call("DELETE", `${PROFILE}/profile/promotion-eligible`)
    expect(out).toMatchObject({ status: 200, body: { optedOut: true, promotions: [] } })
    expect((await p.browser.get(`${PROFILE}/profile/promotion-eligible`)).body).toEqual({
      optedOut: true,
      promotions: [],
    })
    await deposit(p.browser, "3000")
    expect(await bonusesOf(p.browser)).toEqual([])
    // Taking an offer again opts back in.
    await p.browser.post(`${PROFILE}/profile/promotion`, { id: "welcome-2", accepted: true })
    expect(
      ((await p.browser.get(`${PROFILE}/profile/promotion-eligible`)).body as { optedOut: boolean }).optedOut,
    ).toBe(false)
  })

  it("refuses what cannot be done, with the right status", async () => {
    const visitor = new Browser(server)
    for (const [method, path] of [
      ["GET", `${PROFILE}/profile/promotion`],
      ["GET", `${PROFILE}/profile/promotion-eligible`],
      ["DELETE", `${PROFILE}/profile/promotion-eligible`],
    ] as const)
      expect((await visitor.call(method, path)).status, `${method} ${path}`).toBe(401)
    const p = await newCompletePlayer(server, "refusals")
    const unknown = await p.browser.post(`${PROFILE}/profile/promotion`, {
      id: "no-such-offer",
      accepted: true,
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ _tag: "PromotionNotFound", message: "There is no such offer." })
    const notNow = await p.browser.post(`${PROFILE}/profile/promotion`, { id: "welcome-2", accepted: true })
    expect(notNow.status).toBe(409)
    expect(notNow.body).toMatchObject({
      _tag: "PromotionUnavailable",
      message: "This offer is not available to you now.",
    })
    expect(
      (await p.browser.post(`${PROFILE}/profile/promotion`, { id: "Bad Id!", accepted: true })).status,
    ).toBe(400)
    expect((await p.browser.post(`${PROFILE}/profile/promotion`, { id: "welcome-1" })).status).toBe(400)
    const notUuid = await p.browser.call("DELETE", `${PROFILE}/profile/promotion`, { id: "not-a-bonus" })
    expect(notUuid.status).toBe(404)
  })
})
