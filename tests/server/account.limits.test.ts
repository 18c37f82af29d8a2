/**
 * Responsible gaming on both backends: deposit limits (a first limit or a decrease at once, a raise
 * or removal after 24 hours — the clock driven by moving the pending row's time in SQL, never by
 * sleeping), asking for the current amount cancelling a pending change, the order daily ≤ weekly ≤
 * monthly, bounds, the reality check, `remainingDeposit` against deposited amounts, and players
 * never seeing each other's settings.
 */
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { DepositTotals } from "../../server/responsible-gaming/DepositTotals.ts"
import { ResponsibleGaming } from "../../server/responsible-gaming/ResponsibleGaming.ts"
import { ProfileMessages } from "../../services/profile-rules.ts"
import { newPlayer, type Player, PROFILE, put } from "./account-support.ts"
import { describeBackends, type TestServer } from "./harness.ts"

const RG = `${PROFILE}/profile/responsible-gaming`

interface LimitView {
  readonly amount: string | null
  readonly pending: { readonly amount: string | null; readonly effectiveAt: string } | null
  readonly used: string
  readonly remaining: string | null
}
interface RgView {
  readonly depositLimits: Record<"daily" | "weekly" | "monthly", LimitView>
  readonly remainingDeposit: string | null
  readonly realityCheckMinutes: number | null
  readonly selfExclusion: unknown
}

describeBackends("responsible gaming", ({ start }) => {
  let server: TestServer
  beforeAll(async () => {
    server = await start({ captchaEnabled: false })
  })
  afterAll(() => server?.close())

  const view = async (player: Player): Promise<RgView> => {
    const res = await player.browser.get(RG)
    expect(res.status).toBe(200)
    return res.body as RgView
  }
  const update = (player: Player, payload: unknown) => put(player.browser, RG, payload)
  /** The pending change of `period` becomes due: its time moves into the past. */
  const makeDue = (player: Player, period: string) =>
    server.query(
      `UPDATE deposit_limit_changes SET effective_at = now() - interval '1 second'
       WHERE period = $2 AND user_id = (SELECT id FROM users WHERE email = $1)`,
      [player.email, period],
    )

  it("starts with no limits, no reminder and no exclusion; needs a session", async () => {
    const player = await newPlayer(server, "rg-fresh")
    const none = { amount: null, pending: null, used: "0", remaining: null }
    expect(await view(player)).toEqual({
      currency: "EUR",
      depositLimits: { daily: none, weekly: none, monthly: none },
      remainingDeposit: null,
      realityCheckMinutes: null,
      selfExclusion: null,
    })
    expect((await fetch(`${server.url}${RG}`)).status).toBe(401)
  })

  it("a first limit and a decrease apply at once; a raise waits 24 hours and applies once due", async () => {
    const player = await newPlayer(server, "rg-raise")
    const first = await update(player, { depositLimits: { daily: "5000" } })
    expect(first.status).toBe(200)
    expect((first.body as RgView).depositLimits.daily).toEqual({
      amount: "5000",
      pending: null,
      used: "0",
      remaining: "5000",
    })
    expect((first.body as RgView).remainingDeposit).toBe("5000")

    const lower = await update(player, { depositLimits: { daily: "2000" } })
    expect((lower.body as RgView).depositLimits.daily.amount).toBe("2000")

    const [before] = await server.query<{ now: Date }>("SELECT now() AS now")
    const raise = await update(player, { depositLimits: { daily: "10000" } })
    expect(raise.status).toBe(200)
    const daily = (raise.body as RgView).depositLimits.daily
    expect(daily.amount).toBe("2000")
    expect(daily.pending?.amount).toBe("10000")
    const delay = Date.parse(daily.pending?.effectiveAt ?? "") - (before?.now.getTime() ?? 0)
    expect(delay).toBeGreaterThanOrEqual(24 * 3_600_000)
    expect(delay).toBeLessThan(24 * 3_600_000 + 60_000)
    expect((raise.body as RgView).remainingDeposit).toBe("2000")

    // Not yet due: still 2000 on the next read.
    expect((await view(player)).depositLimits.daily.amount).toBe("2000")
    await makeDue(player, "daily")
    const applied = await view(player)
    expect(applied.depositLimits.daily).toEqual({
      amount: "10000",
      pending: null,
      used: "0",
      remaining: "10000",
    })
    const rows = await server.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM deposit_limit_changes WHERE user_id = (SELECT id FROM users WHERE email = $1)",
      [player.email],
    )
    expect(rows).toEqual([{ n: 0 }])
  })

  it("removing a limit waits 24 hours; asking for the current amount cancels a pending change", async () => {
    const player = await newPlayer(server, "rg-remove")
    await update(player, { depositLimits: { weekly: "30000" } })
    const removal = await update(player, { depositLimits: { weekly: null } })
    expect((removal.body as RgView).depositLimits.weekly).toMatchObject({
      amount: "30000",
      pending: { amount: null },
    })

    const cancelled = await update(player, { depositLimits: { weekly: "30000" } })
    expect((cancelled.body as RgView).depositLimits.weekly).toMatchObject({ amount: "30000", pending: null })

    await update(player, { depositLimits: { weekly: null } })
    await makeDue(player, "weekly")
    expect((await view(player)).depositLimits.weekly).toEqual({
      amount: null,
      pending: null,
      used: "0",
      remaining: null,
    })

    // A decrease while a raise waits replaces it and applies at once.
    await update(player, { depositLimits: { monthly: "50000" } })
    await update(player, { depositLimits: { monthly: "90000" } })
    const decreased = await update(player, { depositLimits: { monthly: "40000" } })
    expect((decreased.body as RgView).depositLimits.monthly).toMatchObject({ amount: "40000", pending: null })
  })

  it("keeps daily ≤ weekly ≤ monthly, counting pending changes, and bounds each limit", async () => {
    const player = await newPlayer(server, "rg-order")
    await update(player, { depositLimits: { daily: "20000", weekly: "50000" } })
    const cases: ReadonlyArray<readonly [unknown, string, string]> = [
      [{ weekly: "10000" }, "depositLimits.daily", ProfileMessages.limitOrder("daily", "weekly")],
      [{ monthly: "30000" }, "depositLimits.weekly", ProfileMessages.limitOrder("weekly", "monthly")],
      [{ daily: "99" }, "depositLimits.daily", ProfileMessages.limitTooSmall],
      [{ monthly: "1000000000001" }, "depositLimits.monthly", ProfileMessages.limitTooLarge],
    ]
    for (const [depositLimits, field, message] of cases) {
      const res = await update(player, { depositLimits })
      expect(res.status, JSON.stringify(depositLimits)).toBe(400)
      expect(res.body).toEqual({ _tag: "ValidationFailed", field, message })
    }
    // A pending raise of the daily limit counts: the weekly limit may not go below it.
    await update(player, { depositLimits: { daily: "40000" } })
    const belowPending = await update(player, { depositLimits: { weekly: "30000" } })
    expect(belowPending.body).toMatchObject({ field: "depositLimits.daily" })
    // Lowering both together is fine.
    const both = await update(player, { depositLimits: { daily: "10000", weekly: "30000" } })
    expect(both.status).toBe(200)
    expect((both.body as RgView).depositLimits).toMatchObject({
      daily: { amount: "10000", pending: null },
      weekly: { amount: "30000", pending: null },
    })
    for (const bad of [{ daily: "-1" }, { daily: "1.5" }, { daily: 100 }, { daily: "" }]) {
      const res = await update(player, { depositLimits: bad })
      expect(res.status, JSON.stringify(bad)).toBe(400)
    }
    expect((await view(player)).depositLimits.daily.amount).toBe("10000")
  })

  it("stores the reality-check interval, or off", async () => {
    const player = await newPlayer(server, "rg-reality")
    expect(((await update(player, { realityCheckMinutes: 30 })).body as RgView).realityCheckMinutes).toBe(30)
    expect((await view(player)).realityCheckMinutes).toBe(30)
    expect(
      ((await update(player, { realityCheckMinutes: null })).body as RgView).realityCheckMinutes,
    ).toBeNull()
    expect((await update(player, { realityCheckMinutes: 17 })).status).toBe(400)
  })

  it("remainingDeposit: the tightest limit minus what its rolling window holds", async () => {
    const player = await newPlayer(server, "rg-remaining")
    await update(player, { depositLimits: { daily: "10000", weekly: "30000", monthly: "50000" } })
    const [user] = await server.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [player.email])
    const remaining = (deposited: { daily: bigint; weekly: bigint; monthly: bigint }) =>
      server.run(
        Effect.gen(function* () {
          const rg = yield* ResponsibleGaming
          return yield* rg.remainingDeposit(user?.id ?? "")
        }).pipe(
          Effect.provide(
            // fresh: not the server's memoised instance, which reads the real (empty) deposits.
            Layer.fresh(ResponsibleGaming.layer).pipe(
              Layer.provide(Layer.succeed(DepositTotals, { deposited: () => Effect.succeed(deposited) })),
            ),
          ),
        ),
      )
    expect(await remaining({ daily: 0n, weekly: 0n, monthly: 0n })).toBe(10000n)
    expect(await remaining({ daily: 2500n, weekly: 25000n, monthly: 25000n })).toBe(5000n)
    expect(await remaining({ daily: 0n, weekly: 0n, monthly: 49000n })).toBe(1000n)
    expect(await remaining({ daily: 12000n, weekly: 12000n, monthly: 12000n })).toBe(0n)
    // Today nothing has been deposited (no deposits exist yet): the server's own service says so.
    const real = await server.run(
      Effect.gen(function* () {
        const rg = yield* ResponsibleGaming
        return yield* rg.remainingDeposit(user?.id ?? "")
      }),
    )
    expect(real).toBe(10000n)
    const unlimited = await newPlayer(server, "rg-unlimited")
    const [other] = await server.query<{ id: string }>("SELECT id FROM users WHERE email = $1", [
      unlimited.email,
    ])
    expect(
      await server.run(Effect.flatMap(ResponsibleGaming, (rg) => rg.remainingDeposit(other?.id ?? ""))),
    ).toBeNull()
  })

  it("one player's limits are invisible to and unchanged by another", async () => {
    const a = await newPlayer(server, "rg-a")
    const b = await newPlayer(server, "rg-b")
    await update(a, { depositLimits: { daily: "7000" }, realityCheckMinutes: 60 })
    const seenByB = await view(b)
    expect(seenByB.depositLimits.daily.amount).toBeNull()
    expect(seenByB.realityCheckMinutes).toBeNull()
    await update(b, { depositLimits: { daily: "100" } })
    expect((await view(a)).depositLimits.daily.amount).toBe("7000")
  })
})
