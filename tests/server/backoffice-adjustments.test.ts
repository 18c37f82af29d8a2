/**
 * The two-person rule on balance adjustments (docs/backoffice.md, "Two people above a threshold")
 * cannot be split or self-approved, through the real back-office API:
 *
 * - the threshold (10000 EUR cents here) counts what one operator posted alone to one player over
 *   the last 24 hours, credits and debits in absolute value, each in EUR at the rate recorded when
 *   it was made: eleven adjustments just under it post once, then wait for a second operator;
 * - an approver is another operator who held their role before the request was made: one the
 *   requester created afterwards, or whose role was raised afterwards, is refused (409).
 */
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, expect, it } from "vitest"
import { defaultRateLimits, scaleRateLimits } from "../../server/config.ts"
import { newPlayer } from "./account-support.ts"
import { BO, createOperator, signIn, TestClock } from "./backoffice-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"
import { balanceOf, userIdOf } from "./money-support.ts"
import type { Browser, Reply } from "./users-support.ts"

const PASSWORD = "correct horse battery staple"

interface AdjustmentAnswer {
  readonly id: string
  readonly status: string
  readonly needsApproval: boolean
}

describeBackends("back-office adjustments: the two-person rule", ({ start }) => {
  const clock = new TestClock()
  let server: TestServer
  let admin: Browser
  let payments: Browser
  let colleague: Browser
  let veteran: Browser
  let clerk: Browser
  let clerkId = ""

  beforeAll(async () => {
    server = await start({
      captchaEnabled: false,
      backofficeClock: clock.read,
      backofficeAdjustApprovalMinor: 10000,
      rateLimits: scaleRateLimits(defaultRateLimits, 100),
    })
    const operators = [
      ["admin@adjust.example", "admin"],
      ["payments@adjust.example", "payments"],
      ["colleague@adjust.example", "payments"],
      ["veteran@adjust.example", "payments"],
      ["clerk@adjust.example", "support"],
    ] as const
    const browsers: Array<Browser> = []
    for (const [email, role] of operators) {
      const created = await createOperator(server, { email, role, password: PASSWORD })
      if (role === "support") clerkId = created.operator.id
      browsers.push(await signIn(server, clock, email, PASSWORD))
    }
    ;[admin, payments, colleague, veteran, clerk] = browsers as [Browser, Browser, Browser, Browser, Browser]
  })
  afterAll(() => server?.close())

  const playerId = async (tag: string): Promise<string> => {
    const player = await newPlayer(server, tag)
    return userIdOf(server, player.email)
  }
  const adjust = (browser: Browser, userId: string, amount: string, currency = "EUR"): Promise<Reply> =>
    browser.post(`${BO}/players/${userId}/adjustments`, {
      currency,
      amount,
      reason: "goodwill",
      idempotencyKey: `key-${randomUUID()}`,
    })
  const statusOf = async (browser: Browser, userId: string, amount: string, currency = "EUR") => {
    const reply = await adjust(browser, userId, amount, currency)
    expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    return reply.body as AdjustmentAnswer
  }

  it("posts the first of eleven adjustments just under the threshold; the rest wait for a second operator", async () => {
    const player = await playerId("split")
    const statuses: Array<string> = []
    for (let i = 0; i < 11; i++) statuses.push((await statusOf(payments, player, "9999")).status)
    expect(statuses).toEqual([
      "posted",
      "pending",
      "pending",
      "pending",
      "pending",
      "pending",
      "pending",
      "pending",
      "pending",
      "pending",
      "pending",
    ])
    expect(await balanceOf(server, player)).toBe("9999")
    // Per player and per operator: the same operator on another player, another operator on this one.
    expect((await statusOf(payments, await playerId("split-other"), "9999")).status).toBe("posted")
    expect((await statusOf(colleague, player, "9999")).status).toBe("posted")
    expect(await balanceOf(server, player)).toBe("19998")
  })

  it("adds credits and debits in absolute value", async () => {
    const player = await playerId("both-ways")
    expect((await statusOf(veteran, player, "6000")).status).toBe("posted")
    const debit = await statusOf(veteran, player, "-6000")
    expect(debit).toMatchObject({ status: "pending", needsApproval: true })
    expect(await balanceOf(server, player)).toBe("6000")
  })

  it("counts a rolling 24 hours: what an operator posted alone longer ago no longer counts", async () => {
    const player = await playerId("rolling")
    expect((await statusOf(payments, player, "9000")).status).toBe("posted")
    expect((await statusOf(payments, player, "2000")).status).toBe("pending")
    await server.query(
      "UPDATE balance_adjustments SET requested_at = requested_at - interval '24 hours 1 minute' WHERE user_id = $1 AND status = 'posted'",
      [player],
    )
    expect((await statusOf(payments, player, "9000")).status).toBe("posted")
    expect((await statusOf(payments, player, "1001")).status).toBe("pending")
  })

  it("does not count what a second operator approved", async () => {
    const player = await playerId("approved")
    const held = await statusOf(payments, player, "25000")
    expect(held.status).toBe("pending")
    const approved = await veteran.post(`${BO}/adjustments/${held.id}/approve`)
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    expect((await statusOf(payments, player, "9999")).status).toBe("posted")
    expect(await balanceOf(server, player)).toBe("34999")
  })

  it("values each adjustment in EUR at the rate recorded when it was made", async () => {
    const player = await playerId("rates")
    await server.query("INSERT INTO wallets (user_id, currency, is_default) VALUES ($1, 'USD', false)", [
      player,
    ])
    await server.query("UPDATE currency_rates SET eur_rate = 0.5 WHERE currency = 'USD'")
    // 150.00 USD at 0.5 is 75.00 EUR: 7500 of the 10000.
    expect((await statusOf(colleague, player, "15000", "USD")).status).toBe("posted")
    // The rate doubles afterwards: what was recorded counts (7500 + 2500 is the threshold, not above).
    await server.query("UPDATE currency_rates SET eur_rate = 2 WHERE currency = 'USD'")
    expect((await statusOf(colleague, player, "2500")).status).toBe("posted")
    expect((await statusOf(colleague, player, "1")).status).toBe("pending")
    await server.query("UPDATE currency_rates SET eur_rate = 0.92 WHERE currency = 'USD'")
  })

  it("refuses an approval by an operator created, or given the role, after the request; one who held it before approves", async () => {
    const player = await playerId("self-approval")
    const request = await statusOf(admin, player, "50000")
    expect(request).toMatchObject({ status: "pending", needsApproval: true })

    // The admin makes a second operator (with a password of their choosing) and signs in as them.
    const made = await admin.post(`${BO}/operators`, {
      email: "sock@adjust.example",
      name: "Sock Puppet",
      role: "payments",
      password: PASSWORD,
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const sock = await signIn(server, clock, "sock@adjust.example", PASSWORD)
    const bySock = await sock.post(`${BO}/adjustments/${request.id}/approve`)
    expect(bySock.status).toBe(409)
    expect(bySock.body).toMatchObject({
      _tag: "AdjustmentRefused",
      reason: "approver-too-recent",
      message: "Only an operator who held their role before this adjustment was requested may approve it.",
    })

    // An operator who existed before, but held no approving role until after the request.
    const raised = await admin.call("PATCH", `${BO}/operators/${clerkId}`, { role: "payments" })
    expect(raised.status, JSON.stringify(raised.body)).toBe(200)
    const byClerk = await clerk.post(`${BO}/adjustments/${request.id}/approve`)
    expect(byClerk.status).toBe(409)
    expect(byClerk.body).toMatchObject({ _tag: "AdjustmentRefused", reason: "approver-too-recent" })
    expect(await balanceOf(server, player)).toBe("0")

    const byVeteran = await veteran.post(`${BO}/adjustments/${request.id}/approve`)
    expect(byVeteran.status, JSON.stringify(byVeteran.body)).toBe(200)
    expect(byVeteran.body).toMatchObject({ status: "posted", decidedBy: "veteran@adjust.example" })
    expect(await balanceOf(server, player)).toBe("50000")

    // A request made after the operator got the role is theirs to approve.
    const later = await statusOf(admin, player, "50000")
    const bySockLater = await sock.post(`${BO}/adjustments/${later.id}/approve`)
    expect(bySockLater.status, JSON.stringify(bySockLater.body)).toBe(200)
  })
})
