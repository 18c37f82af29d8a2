/**
 * The back office's `reports` and `settings` groups through the real API, on both backends.
 * Reports: money moved through the real services (a card deposit by the provider's signed webhook,
 * a real-money launch, the provider's signed bets and wins); the dashboard's GGR equals the GGR
 * report's and the house's balances (whose equality to their entries the ledger check proves); the
 * CSV's headers and body; bad windows 400. Settings: a restricted country blocks a visitor from it
 * and unblocks once removed; a disabled game leaves the lobby; a rate set is the player's rate; a
 * promotion created and activated is listed; bad input a typed 4xx.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Game } from "../../services/game-service.ts"
import { BO, createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { gameOfKind } from "./bonuses-support.ts"
import {
  type FakeGameProvider,
  GAMES,
  launchReal,
  startFakeGameProvider,
  walletCall,
} from "./games-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import {
  type FakeProvider,
  ledgerReport,
  newCompletePlayer,
  PROFILE,
  sendWebhook,
  startFakeProvider,
  userIdOf,
  webhookBody,
} from "./money-support.ts"
import { Browser, USER } from "./users-support.ts"

const PASSWORD = "correct horse battery staple"

describeBackends("back office: reports and settings", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  let games: FakeGameProvider
  let payments: FakeProvider
  let admin: Browser
  let slot: Game
  beforeAll(async () => {
    games = await startFakeGameProvider()
    payments = await startFakeProvider()
    server = await start(
      { captchaEnabled: false, backofficeClock: clock.read },
      { env: { ...games.env, PAYMENT_GATEWAYS: payments.gatewaysEnv, RATE_LIMIT_SCALE: "100" } },
    )
    slot = await gameOfKind(server, "slot")
    await createOperator(server, { email: "admin@reports.example", role: "admin", password: PASSWORD })
    admin = await signIn(server, clock, "admin@reports.example", PASSWORD)
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await games?.close()
    await payments?.close()
  })

  describe("reports", () => {
    it("the dashboard's GGR is the report's and the house's; the CSV is the same rows", async () => {
      const player = await newCompletePlayer(server, "bo-reports")
      const userId = await userIdOf(server, player.email)
      const dep = await player.browser.post(`${PROFILE}/profile/paystudio/deposit`, {
        amount: "5000",
        currency: "EUR",
        language: "en",
      })
      expect(dep.status).toBe(200)
      const { depositId } = dep.body as { depositId: string }
      const hook = webhookBody({ reference: depositId, amount: "5000", currency: "EUR" })
      expect((await sendWebhook(server.url, "paystudio", payments.webhookSecret, hook)).status).toBe(200)
      const token = await launchReal(games, player, slot)
      const call = (roundId: string, extra: Record<string, unknown>) => ({
        sessionToken: token,
        playerId: userId,
        currency: "EUR",
        transactionId: randomUUID(),
        roundId,
        gameId: slot.launchId,
        ...extra,
      })
      const round = randomUUID()
      expect((await walletCall(server.url, "bet", call(round, { amount: "300" }))).status).toBe(200)
      expect(
        (await walletCall(server.url, "win", call(round, { amount: "120", roundClosed: true }))).status,
      ).toBe(200)

      const day = new Date().toISOString().slice(0, 10)
      const dash = await admin.get(`${BO}/dashboard`)
      expect(dash.status).toBe(200)
      const body = dash.body as {
        today: {
          games: Array<{ currency: string; ggr: string }>
          deposits: Array<{ currency: string; amount: string }>
        }
        last30Days: { games: Array<{ currency: string; ggr: string }> }
      }
      const ggrOf = (list: Array<{ currency: string; ggr: string }>) =>
        list.find((g) => g.currency === "EUR")?.ggr
      expect(ggrOf(body.today.games)).toBe("180")
      expect(body.today.deposits.find((d) => d.currency === "EUR")?.amount).toBe("5000")

      const report = await admin.get(`${BO}/reports/ggr?from=${day}&to=${day}&currency=EUR`)
      expect(report.status).toBe(200)
      const rows = (report.body as { rows: Array<{ gameId: string | null; ggr: string; bets: string }> }).rows
      const reportGgr = rows.reduce((s, r) => s + BigInt(r.ggr), 0n)
      expect(String(reportGgr)).toBe(ggrOf(body.today.games))
      expect(rows.find((r) => r.gameId === slot.id)).toMatchObject({ bets: "300", ggr: "180" })

      expect((await ledgerReport(server)).clean).toBe(true)
      const [house] = await server.query<{ games: string }>(
        `SELECT coalesce(sum(balance) FILTER (WHERE kind IN ('jackpot_pool') OR (kind = 'house' AND code = 'games')), 0)::text AS games
         FROM ledger_accounts WHERE currency = 'EUR'`,
      )
      expect(String(reportGgr)).toBe(house?.games)

      const csv = await admin.get(`${BO}/reports/ggr.csv?from=${day}&to=${day}&currency=EUR`)
      expect(csv.status).toBe(200)
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8")
      expect(csv.headers.get("content-disposition")).toBe(`attachment; filename="ggr-${day}-${day}.csv"`)
      const text = String(csv.body)
      expect(
        text.startsWith(
          "day,game,provider,integration,currency,bets,refunds,wins,ggr,bonus_cost,ngr,rounds\r\n",
        ),
      ).toBe(true)
      expect(text).toContain(
        `${day},${slot.id},${slot.provider},studio,EUR,3.00,0.00,1.20,1.80,0.00,1.80,1\r\n`,
      )
    })

    it("answers a bad window 400 ReportRangeRefused, never 500", async () => {
      for (const q of [
        "from=2026-02-30&to=2026-03-01",
        "from=2026-11-02&to=2026-11-01",
        "from=2025-01-01&to=2026-12-31",
      ]) {
        const reply = await admin.get(`${BO}/reports/ggr?${q}`)
        expect(reply.status, q).toBe(400)
        expect((reply.body as { _tag: string })._tag).toBe("ReportRangeRefused")
        expect((await admin.get(`${BO}/reports/ggr.csv?${q}`)).status).toBe(400)
      }
      for (const q of [
        "from=yesterday&to=2026-11-01",
        "from=2026-11-01",
        "from=2026-11-01&to=2026-11-02&currency=eur",
      ])
        expect((await admin.get(`${BO}/reports/ggr?${q}`)).status, q).toBe(400)
    })
  })

  describe("settings", () => {
    it("a country added blocks its visitors; removed, they are let in again", async () => {
      const visitor = new Browser(server)
      const { isoCode } = (await visitor.get("/ip-service/api/v1/user/currentIp")).body as { isoCode: string }
      const login = () =>
        visitor.post(`${USER}/signin`, {
          email: "nobody@reports.example",
          password: "wrong password",
          captcha: "",
        })
      expect((await login()).status).toBe(401)
      const added = await admin.post(`${BO}/settings/countries`, { code: isoCode.toLowerCase() })
      expect(added.status).toBe(200)
      expect((added.body as { countries: Array<{ code: string }> }).countries.map((c) => c.code)).toContain(
        isoCode,
      )
      const refused = await login()
      expect(refused.status).toBe(403)
      expect((refused.body as { _tag: string })._tag).toBe("CountryRestricted")
      const served = await fetch(`${server.url}${server.config.cdnBasePath}/restricted-countries.json`)
      expect(JSON.stringify(await served.json())).toContain(isoCode)
      expect((await admin.post(`${BO}/settings/countries`, { code: isoCode })).status).toBe(409)
      expect((await admin.call("DELETE", `${BO}/settings/countries/${isoCode}`)).status).toBe(200)
      expect((await login()).status).toBe(401)
      expect((await admin.call("DELETE", `${BO}/settings/countries/${isoCode}`)).status).toBe(404)
      expect((await admin.post(`${BO}/settings/countries`, { code: "XX" })).status).toBe(404)
      expect((await admin.post(`${BO}/settings/countries`, { code: "DEU" })).status).toBe(400)
      const [row] = await server.query<Record<string, unknown>>(
        "SELECT action, operator_email, before, after FROM operator_audit ORDER BY id DESC LIMIT 1",
      )
      expect(row).toMatchObject({ action: "countries.remove", operator_email: "admin@reports.example" })
    })

    it("a disabled game leaves the lobby; enabled, it comes back in its order", async () => {
      const lobby = async () =>
        (
          (await new Browser(server).get(`${GAMES}/games-and-categories/EUR`)).body as {
            games: Array<{ id: string }>
          }
        ).games.map((g) => g.id)
      expect(await lobby()).toContain(slot.id)
      const off = await admin.call("PATCH", `${BO}/settings/games/${slot.id}`, { enabled: false })
      expect(off.status).toBe(200)
      expect(off.body).toMatchObject({ id: slot.id, enabled: false })
      expect(await lobby()).not.toContain(slot.id)
      expect(
        (await admin.call("PATCH", `${BO}/settings/games/${slot.id}`, { enabled: true, order: 0 })).status,
      ).toBe(200)
      expect((await lobby())[0]).toBe(slot.id)
      const listed = (await admin.get(`${BO}/settings/games`)).body as {
        games: Array<{ id: string; order: number }>
      }
      expect(listed.games[0]).toMatchObject({ id: slot.id, order: 0 })
      expect((await admin.call("PATCH", `${BO}/settings/games/${slot.id}`, {})).status).toBe(400)
      expect((await admin.call("PATCH", `${BO}/settings/games/no-such-game`, { enabled: true })).status).toBe(
        404,
      )
      expect((await admin.call("PATCH", `${BO}/settings/games/${slot.id}`, { order: -1 })).status).toBe(400)
    })

    it("a rate set is the player's rate", async () => {
      const set = await admin.call("PUT", `${BO}/settings/rates/EUR`, { minDeposit: "1234" })
      expect(set.status).toBe(200)
      const player = (await new Browser(server).get(`${PROFILE}/rate/deposit/EUR`)).body as {
        minDeposit: string
      }
      expect(String(player.minDeposit)).toMatch(/^12\.34$|^1234$/)
      expect((await admin.call("PUT", `${BO}/settings/rates/EUR`, {})).status).toBe(400)
      expect((await admin.call("PUT", `${BO}/settings/rates/EUR`, { eurRate: "-1" })).status).toBe(400)
      expect((await admin.call("PUT", `${BO}/settings/rates/ZZZ`, { minDeposit: "1" })).status).toBe(404)
    })

    it("a promotion created and activated is listed; bad input is a typed 4xx", async () => {
      const body = {
        id: "bo-spring",
        kind: "deposit_bonus",
        name: "Spring",
        code: "spring26",
        bands: ["above:50"],
        maxBonusEur: "100",
        wagering: "30",
        maxBetEur: "5",
        validDays: "30",
      }
      const created = await admin.post(`${BO}/settings/promotions`, body)
      expect(created.status).toBe(201)
      expect((await admin.post(`${BO}/settings/promotions`, body)).status).toBe(409)
      const active = (created.body as { active: boolean }).active
      if (!active)
        expect(
          (await admin.post(`${BO}/settings/promotions/bo-spring/active`, { active: true })).status,
        ).toBe(200)
      const list = (await admin.get(`${BO}/settings/promotions`)).body as {
        promotions: Array<{ id: string; active: boolean; code: string | null }>
      }
      expect(list.promotions.find((p) => p.id === "bo-spring")).toMatchObject({
        active: true,
        code: "SPRING26",
      })
      expect((await admin.post(`${BO}/settings/promotions/bo-spring/active`, { active: true })).status).toBe(
        409,
      )
      expect(
        (await admin.post(`${BO}/settings/promotions`, { ...body, id: "x2", kind: "nope" })).status,
      ).toBe(400)
      expect((await admin.call("PATCH", `${BO}/settings/promotions/nope`, { name: "N" })).status).toBe(404)
      expect(
        (await admin.call("PATCH", `${BO}/settings/promotions/bo-spring`, { wagering: "many" })).status,
      ).toBe(400)
      expect((await admin.get(`${BO}/settings/promotions/BAD%20ID`)).status).toBe(400)
    })
  })
})
