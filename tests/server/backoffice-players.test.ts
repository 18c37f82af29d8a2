/**
 * The back office's players group through the real API: search, a player's page, lock/unlock and
 * sign-out as the player sees them, notes, and balance adjustments through the ledger (posted at
 * once up to BACKOFFICE_ADJUST_APPROVAL_MINOR, else pending until a second operator decides),
 * with their refusals answering typed 4xx and changing nothing.
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import { defaultRateLimits, scaleRateLimits } from "../../server/config.ts"
import { newPlayer, PASSWORD as PLAYER_PASSWORD, type Player } from "./account-support.ts"
import { BO, createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { completeProfile, insertDeposit, ledgerReport, PROFILE, put, userIdOf } from "./money-support.ts"
import { type Browser, signIn as playerSignIn, USER } from "./users-support.ts"

const PASSWORD = "correct horse battery staple"

describeBackends("back-office players", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  let support: Browser
  let payments: Browser
  let second: Browser
  let kyc: Browser
  let player: Player
  let playerId = ""

  beforeAll(async () => {
    server = await start({
      captchaEnabled: false,
      backofficeClock: clock.read,
      rateLimits: scaleRateLimits(defaultRateLimits, 100),
    })
    const operators = [
      ["support@players.example", "support"],
      ["payments@players.example", "payments"],
      ["second@players.example", "payments"],
      ["kyc@players.example", "kyc"],
    ] as const
    const browsers: Array<Browser> = []
    for (const [email, role] of operators) {
      await createOperator(server, { email, role, password: PASSWORD })
      browsers.push(await signIn(server, clock, email, PASSWORD))
    }
    ;[support, payments, second, kyc] = browsers as [Browser, Browser, Browser, Browser]
    player = await newPlayer(server, "bo-players", "Grace Hopper")
    playerId = await userIdOf(server, player.email)
    // The registration set the names already (they are locked once set).
    const { firstName: _f, lastName: _l, ...rest } = completeProfile
    const profile = await put(player.browser, `${PROFILE}/profile`, rest)
    expect(profile.status, JSON.stringify(profile.body)).toBe(200)
  })
  afterAll(() => server?.close())

  const cash = async (browser: Browser = player.browser): Promise<bigint> => {
    const reply = await browser.get(`${PROFILE}/profile/currency`)
    expect(reply.status).toBe(200)
    const eur = (reply.body as Array<{ currency: string; balance: string }>).find((w) => w.currency === "EUR")
    return BigInt(eur?.balance ?? "0")
  }
  const entries = async () =>
    (await server.query<{ n: number }>("SELECT count(*)::int AS n FROM ledger_entries"))[0]?.n ?? 0
  const adjust = (browser: Browser, body: Record<string, unknown>, id = playerId) =>
    browser.post(`${BO}/players/${id}/adjustments`, {
      currency: "EUR",
      reason: "goodwill",
      idempotencyKey: `key-${randomUUID()}`,
      ...body,
    })

  it("finds a player by e-mail prefix, name, id and phone", async () => {
    const ids = async (q: string) => {
      const reply = await support.get(`${BO}/players?q=${encodeURIComponent(q)}`)
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      return (reply.body as { players: Array<{ id: string; kyc: string; locked: boolean }> }).players.map(
        (p) => p.id,
      )
    }
    expect(await ids(player.email.slice(0, 12).toUpperCase())).toContain(playerId)
    expect(await ids("grace hop")).toContain(playerId)
    expect(await ids(playerId.toUpperCase())).toEqual([playerId])
    expect(await ids("2123 4567")).toContain(playerId)
    expect(await ids("nobody-like-this%")).toEqual([])
    expect((await support.get(`${BO}/players?q=`)).status).toBe(400)
    expect((await support.get(`${BO}/players?q=${"x".repeat(101)}`)).status).toBe(400)
  })

  it("shows a deposit, a bet with its round id and a session on the player's page", async () => {
    const depositId = await insertDeposit(server, playerId, "2500")
    // A settled round as the game wallet records it (the Bets tab reads the same table).
    await server.query(
      "INSERT INTO game_categories (slug, name, sort) VALUES ('bo-table', 'Table', 1) ON CONFLICT DO NOTHING",
    )
    const category = { slug: "bo-table" }
    await server.query(
      `INSERT INTO games (id, launch_id, name, brand, integration, category, kind, volatility, rtp, image,
                          min_bet_eur, max_bet_eur, sort)
       VALUES ('bo-dice', 'bo-dice', 'Back-office Dice', 'Studio', 'studio', $1, 'dice', 'low', '99.00',
               'dice.png', 1, 100000, 1)`,
      [category?.slug],
    )
    const game = { id: "bo-dice" }
    const roundId = `round-${randomUUID()}`
    await server.query(
      `INSERT INTO game_rounds (integration, round_id, user_id, game_id, currency, bet_total, win_total, status)
       VALUES ('studio', $1, $2, $3, 'EUR', 100, 250, 'settled')`,
      [roundId, playerId, game?.id],
    )
    const reply = await kyc.get(`${BO}/players/${playerId}`)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    const page = reply.body as {
      profile: { email: string; phone: string; locked: unknown; kyc: string }
      wallets: Array<{ currency: string; cash: string }>
      deposits: Array<{ id: string; amount: string }>
      bets: Array<{ roundId: string; gameId: string; bet: string; win: string }>
      sessions: Array<{ ip: string; active: boolean; userAgent: string | null }>
      documents: { id: { status: string } }
      loyalty: { level: number }
    }
    expect(page.profile).toMatchObject({
      email: player.email,
      phone: "+356 21234567",
      locked: null,
      kyc: "none",
    })
    expect(page.wallets.map((w) => w.currency)).toContain("EUR")
    expect(page.deposits.find((d) => d.id === depositId)?.amount).toBe("2500")
    expect(page.bets[0]).toMatchObject({ roundId, gameId: game?.id, bet: "100", win: "250" })
    expect(page.sessions.some((s) => s.active)).toBe(true)
    expect(page.documents.id.status).toBe("NONE")
    expect((await kyc.get(`${BO}/players/${randomUUID()}`)).status).toBe(404)
    expect((await kyc.get(`${BO}/players/not-a-uuid`)).status).toBe(400)
  })

  it("lock: the player's session ends and sign-in answers 423; unlock lets them in again", async () => {
    expect((await player.browser.get(`${PROFILE}/profile/currency`)).status).toBe(200)
    const locked = await support.post(`${BO}/players/${playerId}/lock`, { reason: "chargeback" })
    expect(locked.status, JSON.stringify(locked.body)).toBe(200)
    expect(locked.body).toMatchObject({ locked: true, reason: "chargeback" })
    expect((locked.body as { sessionsEnded: number }).sessionsEnded).toBeGreaterThan(0)
    expect((await player.browser.get(`${PROFILE}/profile/currency`)).status).toBe(401)
    const [live] = await server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM sessions WHERE user_id = $1 AND revoked_at IS NULL",
      [playerId],
    )
    expect(live?.n).toBe(0)
    const refused = await playerSignIn(player.browser, player.email, PLAYER_PASSWORD)
    expect(refused.status).toBe(423)
    expect(
      (refused.body as { _tag?: string; error?: string }).error ?? (refused.body as { _tag: string })._tag,
    ).toBe("AccountLocked")
    const [row] = await server.query<Record<string, unknown>>(
      "SELECT action, operator_email, before->>'locked' AS was, after->>'locked' AS now FROM operator_audit ORDER BY id DESC LIMIT 1",
    )
    expect(row).toEqual({
      action: "players.lock",
      operator_email: "support@players.example",
      was: "false",
      now: "true",
    })
    expect((await support.post(`${BO}/players/${playerId}/lock`, { reason: "  " })).status).toBe(400)
    const unlocked = await support.post(`${BO}/players/${playerId}/unlock`, { reason: "resolved" })
    expect(unlocked.body).toMatchObject({ locked: false, reason: null })
    expect((await playerSignIn(player.browser, player.email, PLAYER_PASSWORD)).status).toBe(200)
    expect((await player.browser.get(`${PROFILE}/profile/currency`)).status).toBe(200)
  })

  it("sign-out ends every session of the player", async () => {
    const reply = await support.post(`${BO}/players/${playerId}/sign-out`)
    expect(reply.status).toBe(200)
    expect((reply.body as { sessionsEnded: number }).sessionsEnded).toBeGreaterThan(0)
    expect((await player.browser.get(`${PROFILE}/profile/currency`)).status).toBe(401)
    expect((await playerSignIn(player.browser, player.email, PLAYER_PASSWORD)).status).toBe(200)
  })

  it("stores a note with its author, 1 to 2000 characters", async () => {
    const reply = await kyc.post(`${BO}/players/${playerId}/notes`, { body: "Asked for a new ID scan." })
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({
      body: "Asked for a new ID scan.",
      operatorEmail: "kyc@players.example",
    })
    const page = (await kyc.get(`${BO}/players/${playerId}`)).body as { notes: Array<{ body: string }> }
    expect(page.notes[0]?.body).toBe("Asked for a new ID scan.")
    expect((await kyc.post(`${BO}/players/${playerId}/notes`, { body: "" })).status).toBe(400)
    expect((await kyc.post(`${BO}/players/${playerId}/notes`, { body: "x".repeat(2001) })).status).toBe(400)
    expect((await kyc.post(`${BO}/players/${randomUUID()}/notes`, { body: "hi" })).status).toBe(404)
  })

  it("posts an adjustment up to the threshold at once, exactly once per idempotency key", async () => {
    const before = await cash()
    const key = `goodwill-${randomUUID()}`
    const first = await adjust(payments, { amount: "500", idempotencyKey: key })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body).toMatchObject({ status: "posted", needsApproval: false, amount: "500" })
    expect(await cash()).toBe(before + 500n)
    const count = await entries()
    const replay = await adjust(payments, { amount: "500", idempotencyKey: key })
    expect(replay.status).toBe(200)
    expect((replay.body as { id: string }).id).toBe((first.body as { id: string }).id)
    expect(await entries()).toBe(count)
    expect(await cash()).toBe(before + 500n)
    const reused = await adjust(payments, { amount: "700", idempotencyKey: key })
    expect(reused.status).toBe(409)
    expect(reused.body).toMatchObject({ _tag: "AdjustmentRefused", reason: "key-reused" })
    const debit = await adjust(payments, { amount: "-200" })
    expect(debit.status).toBe(200)
    expect(await cash()).toBe(before + 300n)
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("holds an adjustment above the threshold until another operator approves it", async () => {
    const before = await cash()
    const requested = await adjust(payments, { amount: "20000" })
    expect(requested.status).toBe(200)
    const id = (requested.body as { id: string; status: string }).id
    expect(requested.body).toMatchObject({ status: "pending", needsApproval: true })
    expect(await cash()).toBe(before)
    const list = await second.get(`${BO}/adjustments?status=pending`)
    expect((list.body as { adjustments: Array<{ id: string }> }).adjustments.map((a) => a.id)).toContain(id)
    const own = await payments.post(`${BO}/adjustments/${id}/approve`)
    expect(own.status).toBe(409)
    expect(own.body).toMatchObject({ _tag: "AdjustmentRefused", reason: "own-request" })
    expect(await cash()).toBe(before)
    const approved = await second.post(`${BO}/adjustments/${id}/approve`)
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    expect(approved.body).toMatchObject({ status: "posted", decidedBy: "second@players.example" })
    expect(await cash()).toBe(before + 20000n)
    expect((await second.post(`${BO}/adjustments/${id}/approve`)).status).toBe(409)
    // A rejected one posts nothing.
    const other = await adjust(payments, { amount: "30000" })
    const otherId = (other.body as { id: string }).id
    expect((await second.post(`${BO}/adjustments/${otherId}/reject`, { reason: "" })).status).toBe(400)
    const rejected = await second.post(`${BO}/adjustments/${otherId}/reject`, { reason: "no ticket" })
    expect(rejected.body).toMatchObject({ status: "rejected", decisionReason: "no ticket" })
    expect(await cash()).toBe(before + 20000n)
    expect((await second.post(`${BO}/adjustments/${randomUUID()}/approve`)).status).toBe(404)
    expect((await second.post(`${BO}/adjustments/nope/approve`)).status).toBe(400)
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("refuses bad input with a typed 4xx and a debit beyond the balance, posting nothing", async () => {
    const before = await cash()
    const count = await entries()
    const bad: Array<Record<string, unknown>> = [
      { amount: "1.5" },
      { amount: "0" },
      { amount: "-0" },
      { amount: "9".repeat(40) },
      { amount: 100 },
      { amount: "100", currency: "XXX" },
      { amount: "100", currency: "eur" },
      { amount: "100", reason: "" },
      { amount: "100", reason: undefined },
      { amount: "100", idempotencyKey: "short" },
    ]
    for (const body of bad) {
      const reply = await adjust(payments, body)
      expect(reply.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400)
      expect(reply.status, JSON.stringify(body)).toBeLessThan(500)
      const answer = reply.body as { _tag?: string; error?: string }
      expect(answer._tag ?? answer.error, JSON.stringify(answer)).toBeTypeOf("string")
    }
    expect((await adjust(payments, { amount: "100" }, "not-a-uuid")).status).toBe(400)
    expect((await adjust(payments, { amount: "100" }, randomUUID())).status).toBe(404)
    const overdraw = await adjust(payments, { amount: (-(before + 1n)).toString() })
    expect(overdraw.status).toBe(409)
    expect(overdraw.body).toMatchObject({ _tag: "AdjustmentRefused", reason: "insufficient-funds" })
    expect(await cash()).toBe(before)
    expect(await entries()).toBe(count)
    expect((await ledgerReport(server)).clean).toBe(true)
  })

  it("answers 403 to a role without players.adjust and changes nothing", async () => {
    const before = await cash()
    const reply = await support.post(`${BO}/players/${playerId}/adjustments`, {
      currency: "EUR",
      amount: "100",
      reason: "x",
      idempotencyKey: "support-try-1",
    })
    expect(reply.status).toBe(403)
    expect(await cash()).toBe(before)
    expect(USER).toBeTruthy()
  })
})
