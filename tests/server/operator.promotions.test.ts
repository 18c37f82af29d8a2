/**
 * `npm run operator -- promotions …` (scripts/operator.ts): a client of the back-office API (`/settings/promotions`, server/bonuses/Promotions.ts behind it) with a
 * marketing operator's token. The seeded welcome tiers are listed with their bands; a promotion
 * created with a code is answered at once by the server's coupon check (it reads promotions on every
 * call), its bands updated, deactivated (the check then refuses it) and activated again; every change
 * has its audit row naming the token; refusals exit 1 with their message, usage errors 2.
 * Expected values are written out as literals.
 * The refusal with --json (on stdout, exit 1) spawns the real process (`spawnOperator`); the other
 * commands run the same CLI function in-process (`runOperator`), which saves a Node start-up each and
 * changes nothing tested.
 * Backend: PostgreSQL only (`describeOn`): the database is not what it tests (HTTP, validation,
 * rules, permissions over plain reads and writes); the ledger, money, concurrency, migration and
 * crash suites run on both (docs/testing.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bandText, eurText, parseBands, parseEurCents } from "../../server/bonuses/Promotions.ts"
import { BO, TestClock } from "./backoffice-support.ts"
import { type FakeGameProvider, startFakeGameProvider } from "./games-support.ts"
import { describeOn, type TestServer } from "./harness.ts"
import {
  cliEnv,
  emptyConfigHome,
  operatorToken,
  type Run,
  runOperator,
  spawnOperator,
} from "./operator-cli-support.ts"
import { Browser } from "./users-support.ts"

const USER = "/user-service/api/v1"

interface View {
  readonly id: string
  readonly code: string | null
  readonly depositNumber: number | null
  readonly bands: ReadonlyArray<{ upToEur: string | null; percent: number; freeSpins: number }>
  readonly active: boolean
}

/** The terms of `spring-50`: a coupon promotion for any deposit, in EUR (bands given apart). */
const spring: Readonly<Record<string, string>> = {
  "--id": "spring-50",
  "--kind": "deposit_bonus",
  "--name": "Spring bonus",
  "--description": "100 % up to 50 EUR with 20 free spins, 50 % above.",
  "--code": "spring50",
  "--max-bonus-eur": "200",
  "--wagering": "20",
  "--max-bet-eur": "2.50",
  "--valid-days": "14",
  "--free-spin-game": "aurora-vault",
  "--free-spin-bet-eur": "0.20",
  "--currencies": "eur",
  "--starts": "2026-01-01",
  "--ends": "2099-01-01T00:00:00Z",
  "--max-uses": "500",
  "--max-uses-per-player": "1",
}
const springBands = ["--band", "50:100:20", "--band", "above:50:0"]

/** `promotions create` with spring's options, some replaced, and these bands. */
const createArgs = (
  overrides: Readonly<Record<string, string>> = {},
  bands: ReadonlyArray<string> = springBands,
): ReadonlyArray<string> => [
  "promotions",
  "create",
  ...Object.entries({ ...spring, ...overrides }).flat(),
  ...bands,
]

describe("promotions: amounts and bands as typed", () => {
  it("EUR amounts are parsed exactly into cents, anything else refused", () => {
    expect(parseEurCents("8000")).toBe(800000n)
    expect(parseEurCents("0.20")).toBe(20n)
    expect(parseEurCents("16.5")).toBe(1650n)
    expect(parseEurCents(" 50 ")).toBe(5000n)
    expect(parseEurCents("0.205")).toBeUndefined()
    expect(parseEurCents("1e3")).toBeUndefined()
    expect(parseEurCents("-5")).toBeUndefined()
    expect(parseEurCents("5,00")).toBeUndefined()
    expect(parseEurCents("")).toBeUndefined()
    expect(eurText(800000n)).toBe("8000.00")
    expect(eurText(20n)).toBe("0.20")
  })

  it("bands: bounds increasing, one open band last, percent 0 … 1000", () => {
    expect(parseBands(["16:50:100", "50:125:125", "above:200:150"]).map(bandText)).toEqual([
      "16.00:50:100",
      "50.00:125:125",
      "above:200:150",
    ])
    expect(parseBands(["above:100"]).map(bandText)).toEqual(["above:100:0"])
    const refusal = (bands: ReadonlyArray<string>) => {
      try {
        parseBands(bands)
        return "accepted"
      } catch (error) {
        return (error as { message: string }).message
      }
    }
    expect(refusal(["50:10", "20:10", "above:5"])).toBe(
      "bands: the bounds must increase (20.00 EUR comes after 50.00 EUR)",
    )
    expect(refusal(["50:10", "50:20", "above:5"])).toBe(
      "bands: the bounds must increase (50.00 EUR comes after 50.00 EUR)",
    )
    expect(refusal(["50:10"])).toBe(
      'bands: exactly one open band ("above:PERCENT:SPINS"), the last (got 50:10)',
    )
    expect(refusal(["above:10", "50:10"])).toBe(
      'bands: exactly one open band ("above:PERCENT:SPINS"), the last (got above:10 50:10)',
    )
    expect(refusal(["above:1001"])).toBe('bands: "above:1001": the percent must be a whole number 0 … 1000')
    expect(refusal(["0:10", "above:5"])).toBe(
      'bands: "0:10": the bound must be an amount in EUR above 0 (e.g. 16 or 50.50) or "above"',
    )
    expect(refusal([])).toBe(
      "bands: give at least one --band UPTO_EUR:PERCENT:SPINS (the last: above:PERCENT:SPINS)",
    )
  })
})

describeOn("postgres", "operator: promotions", ({ start }) => {
  const clock = new TestClock()
  const configHome = emptyConfigHome()
  let server: TestServer
  let fake: FakeGameProvider
  let token: string
  beforeAll(async () => {
    // The studio's games list (with aurora-vault, the free-spin game) from a fake provider.
    fake = await startFakeGameProvider()
    server = await start({ captchaEnabled: false, backofficeClock: clock.read }, { env: fake.env })
    token = await operatorToken(server, clock, { email: "mia@promo.example", role: "marketing" })
    for (let i = 0; ; i++) {
      const rows = await server.query("SELECT id FROM games WHERE id = 'aurora-vault'")
      if (rows.length > 0) break
      if (i > 100) throw new Error("the games list never arrived")
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  const operator = (args: ReadonlyArray<string>): Promise<Run> =>
    runOperator(cliEnv(token, configHome), [...args, "--server", server.url])

  it("without a token, or with a forged one, the promotions of the back-office API answer 401 and change nothing", async () => {
    expect((await fetch(`${server.url}${BO}/settings/promotions`)).status).toBe(401)
    const forged = await fetch(`${server.url}${BO}/settings/promotions/welcome-1/active`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer bo_forged" },
      body: JSON.stringify({ active: false }),
    })
    expect(forged.status).toBe(401)
    expect(await server.query("SELECT id FROM promotions WHERE id = 'welcome-1' AND active")).toHaveLength(1)
  })

  // Several commands one after the other: a busy machine may need minutes.
  it("lists the five seeded welcome promotions with their bands", { timeout: 240_000 }, async () => {
    const res = await operator(["promotions", "list", "--json"])
    expect(res.stderr).toBe("")
    expect(res.code).toBe(0)
    const promotions = (JSON.parse(res.stdout) as { promotions: ReadonlyArray<View> }).promotions
    expect(
      promotions
        .filter((p) => /^welcome-\d$/.test(p.id))
        .map((p) => ({
          id: p.id,
          code: p.code,
          depositNumber: p.depositNumber,
          bands: p.bands,
          active: p.active,
        })),
    ).toEqual([
      {
        id: "welcome-1",
        code: "WELCOME1",
        depositNumber: 1,
        bands: [
          { upToEur: "16.00", percent: 50, freeSpins: 100 },
          { upToEur: "50.00", percent: 125, freeSpins: 125 },
          { upToEur: null, percent: 200, freeSpins: 150 },
        ],
        active: true,
      },
      {
        id: "welcome-2",
        code: "WELCOME2",
        depositNumber: 2,
        bands: [{ upToEur: null, percent: 150, freeSpins: 100 }],
        active: true,
      },
      {
        id: "welcome-3",
        code: "WELCOME3",
        depositNumber: 3,
        bands: [{ upToEur: null, percent: 100, freeSpins: 100 }],
        active: true,
      },
      {
        id: "welcome-4",
        code: "WELCOME4",
        depositNumber: 4,
        bands: [{ upToEur: null, percent: 100, freeSpins: 100 }],
        active: true,
      },
      {
        id: "welcome-5",
        code: "WELCOME5",
        depositNumber: 5,
        bands: [{ upToEur: null, percent: 200, freeSpins: 100 }],
        active: true,
      },
    ])

    const text = await operator(["promotions", "show", "welcome-1"])
    expect(text.code).toBe(0)
    expect(text.stdout).toBe(
      [
        'welcome-1  deposit_bonus  active  code WELCOME1  deposit #1  "Welcome bonus"',
        "  text      Your first deposit: 50 % up to 16 EUR, 125 % up to 50 EUR, 200 % above, with free spins.",
        "  bands     up to 16.00 EUR: 50% + 100 spins | up to 50.00 EUR: 125% + 125 spins | above: 200% + 150 spins",
        "  terms     max bonus 8000.00 EUR, wagering 10×, max bet 5.00 EUR, valid 30 days",
        "  spins     aurora-vault at 0.20 EUR",
        "  offered   currencies all, from - until -",
        "  usage     0 granted / no limit, 1 per player",
        "",
      ].join("\n"),
    )
  })

  // Several commands one after the other: a busy machine may need minutes.
  it("shows the welcome free spins with their unlock terms, and changes them", {
    timeout: 240_000,
  }, async () => {
    const shown = await operator(["promotions", "show", "welcome-spins"])
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain(
      'welcome-spins  free_spins  active  code -  deposit any  "Welcome free spins"',
    )
    expect(shown.stdout).toContain("  bands     above: 0% + 125 spins")
    expect(shown.stdout).toContain("  spins     viking-voyage at 0.10 EUR")
    expect(shown.stdout).toContain(
      "  unlock    winnings unlocked by a deposit of 20.00 EUR or more, +25% of it as extra bonus",
    )
    const changed = await operator([
      "promotions",
      "update",
      "welcome-spins",
      "--unlock-deposit-eur",
      "30",
      "--extra-bonus-percent",
      "50",
      "--json",
    ])
    expect(changed.code).toBe(0)
    expect(JSON.parse(changed.stdout)).toMatchObject({ unlockDepositEur: "30.00", extraBonusPercent: 50 })
    const wrong = await operator(["promotions", "update", "welcome-spins", "--extra-bonus-percent", "2000"])
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toContain("--extra-bonus-percent")
    // Back to the seeded terms for the tests after this one.
    const back = await operator([
      "promotions",
      "update",
      "welcome-spins",
      "--unlock-deposit-eur",
      "20",
      "--extra-bonus-percent",
      "25",
    ])
    expect(back.code).toBe(0)
  })

  // Several commands one after the other: a busy machine may need minutes.
  it("a created coupon promotion is answered by the coupon check; its bands updated; deactivated it is refused; all audited", {
    timeout: 240_000,
  }, async () => {
    const visitor = new Browser(server)
    const check = () => visitor.post(`${USER}/promotion/coupon`, { couponName: "Spring50" })
    const before = await check()
    expect(before.status).toBe(422)
    expect(before.body).toMatchObject({ reason: "unknown", message: "This bonus code does not exist." })

    const created = await operator([...createArgs(), "--json"])
    expect(created.stderr).toBe("")
    expect(created.code).toBe(0)
    expect(JSON.parse(created.stdout)).toEqual({
      id: "spring-50",
      kind: "deposit_bonus",
      name: "Spring bonus",
      description: "100 % up to 50 EUR with 20 free spins, 50 % above.",
      code: "SPRING50",
      depositNumber: null,
      bands: [
        { upToEur: "50.00", percent: 100, freeSpins: 20 },
        { upToEur: null, percent: 50, freeSpins: 0 },
      ],
      maxBonusEur: "200.00",
      wageringMultiple: 20,
      maxBetEur: "2.50",
      validDays: 14,
      freeSpinGame: "aurora-vault",
      freeSpinBetEur: "0.20",
      unlockDepositEur: null,
      extraBonusPercent: 0,
      currencies: ["EUR"],
      startsAt: "2026-01-01T00:00:00.000Z",
      endsAt: "2099-01-01T00:00:00.000Z",
      uses: 0,
      maxUses: 500,
      maxUsesPerPlayer: 1,
      active: true,
      createdAt: expect.any(String),
    })
    // Stored as EUR cents, exactly.
    expect(
      await server.query(
        `SELECT code, max_bonus_eur_cents::text AS max_bonus, max_bet_eur_cents::text AS max_bet,
                free_spin_bet_eur_cents::text AS spin_bet, currencies::text AS currencies
         FROM promotions WHERE id = 'spring-50'`,
      ),
    ).toEqual([{ code: "SPRING50", max_bonus: "20000", max_bet: "250", spin_bet: "20", currencies: "{EUR}" }])

    const answered = await check()
    expect(answered.status).toBe(200)
    expect(answered.body).toEqual({
      couponName: "SPRING50",
      promotion: {
        id: "spring-50",
        kind: "deposit_bonus",
        name: "Spring bonus",
        description: "100 % up to 50 EUR with 20 free spins, 50 % above.",
        code: "SPRING50",
        depositNumber: null,
        bands: [
          { upToEurCents: "5000", percent: 100, freeSpins: 20 },
          { upToEurCents: null, percent: 50, freeSpins: 0 },
        ],
        maxBonusEurCents: "20000",
        wageringMultiple: 20,
        maxBetEurCents: "250",
        validDays: 14,
        freeSpinGame: "aurora-vault",
        currencies: ["EUR"],
        endsAt: "2099-01-01T00:00:00.000Z",
        accepted: null,
      },
    })

    const updated = await operator([
      "promotions",
      "update",
      "spring-50",
      "--band",
      "20:150:10",
      "--band",
      "100.50:100:30",
      "--band",
      "above:25",
      "--max-bonus-eur",
      "300",
    ])
    expect(updated.stderr).toBe("")
    expect(updated.code).toBe(0)
    expect(updated.stdout).toContain(
      "  bands     up to 20.00 EUR: 150% + 10 spins | up to 100.50 EUR: 100% + 30 spins | above: 25%\n",
    )
    const afterUpdate = await check()
    expect(afterUpdate.status).toBe(200)
    expect(afterUpdate.body).toMatchObject({
      promotion: {
        bands: [
          { upToEurCents: "2000", percent: 150, freeSpins: 10 },
          { upToEurCents: "10050", percent: 100, freeSpins: 30 },
          { upToEurCents: null, percent: 25, freeSpins: 0 },
        ],
        maxBonusEurCents: "30000",
        wageringMultiple: 20,
      },
    })

    const off = await operator(["promotions", "deactivate", "spring-50"])
    expect(off.code).toBe(0)
    expect(off.stdout).toContain(
      'spring-50  deposit_bonus  INACTIVE  code SPRING50  deposit any  "Spring bonus"',
    )
    const refused = await check()
    expect(refused.status).toBe(422)
    expect(refused.body).toMatchObject({ reason: "unknown", message: "This bonus code does not exist." })
    const again = await operator(["promotions", "deactivate", "spring-50"])
    expect(again.code).toBe(1)
    expect(again.stderr).toBe("refused (NothingToChange): spring-50 is already inactive\n")

    expect((await operator(["promotions", "activate", "spring-50"])).code).toBe(0)
    expect((await check()).status).toBe(200)

    const audit = await server.query<{ actor: string; action: string; details: Record<string, unknown> }>(
      "SELECT actor, action, details FROM operator_audit WHERE subject = 'spring-50' ORDER BY id",
    )
    // The audit names the token and its operator.
    const actor = "token:mia@promo.example (cli tests)"
    expect(audit.map((a) => [a.actor, a.action])).toEqual([
      [actor, "promotions.create"],
      [actor, "promotions.update"],
      [actor, "promotions.deactivate"],
      [actor, "promotions.activate"],
    ])
    expect(audit[0]?.details).toMatchObject({
      "after.code": "SPRING50",
      "after.bands": "50.00:100:20 above:50:0",
      "after.maxBonusEur": "200.00",
      "after.active": true,
    })
    expect(audit[1]?.details).toEqual({
      "before.bands": "50.00:100:20 above:50:0",
      "after.bands": "20.00:150:10 100.50:100:30 above:25:0",
      "before.maxBonusEur": "200.00",
      "after.maxBonusEur": "300.00",
    })
    expect(audit[2]?.details).toEqual({ "before.active": true, "after.active": false })
    expect(audit[3]?.details).toEqual({ "before.active": false, "after.active": true })
  })

  // Several commands one after the other: a busy machine may need minutes.
  it("refuses with exit 1 and its message: duplicate id or code, bad bands and values, unknown id, game, currency", {
    timeout: 600_000,
  }, async () => {
    const create =
      (overrides: Record<string, string>, bands: ReadonlyArray<string> = springBands) =>
      () =>
        operator(createArgs(overrides, bands))
    const run = (args: ReadonlyArray<string>) => () => operator(args)
    const cases: ReadonlyArray<readonly [() => Promise<Run>, string]> = [
      [
        create({ "--id": "other", "--code": "welcome1" }),
        "refused (DuplicateCode): the code WELCOME1 already names promotion welcome-1\n",
      ],
      [
        create({ "--id": "welcome-1", "--code": "FRESH1" }),
        'refused (DuplicateId): a promotion "welcome-1" exists already\n',
      ],
      [
        create({ "--id": "bad-bands", "--code": "BADBANDS" }, [
          "--band",
          "50:10",
          "--band",
          "20:10",
          "--band",
          "above:5",
        ]),
        "refused (BadInput): bands: the bounds must increase (20.00 EUR comes after 50.00 EUR)\n",
      ],
      [
        create({ "--id": "bad-bands", "--code": "BADBANDS" }, ["--band", "above:10", "--band", "above:20"]),
        'refused (BadInput): bands: exactly one open band ("above:PERCENT:SPINS"), the last (got above:10 above:20)\n',
      ],
      [
        create({ "--id": "bad-bands", "--code": "BADBANDS" }, ["--band", "above:1500"]),
        'refused (BadInput): bands: "above:1500": the percent must be a whole number 0 … 1000\n',
      ],
      [
        create({ "--id": "bad", "--code": "BADW", "--wagering": "101" }),
        'refused (BadInput): --wagering must be a whole number 0 … 100 (got "101")\n',
      ],
      [
        create({ "--id": "bad", "--code": "BADD", "--valid-days": "366" }),
        'refused (BadInput): --valid-days must be a whole number 1 … 365 (got "366")\n',
      ],
      [
        create({ "--id": "bad", "--code": "BADB", "--max-bet-eur": "0" }),
        'refused (BadInput): --max-bet-eur must be an amount in EUR above 0, at most 2 decimals, e.g. 5 or 0.20 (got "0")\n',
      ],
      [
        create({ "--id": "bad", "--code": "BADM", "--max-bonus-eur": "10.001" }),
        'refused (BadInput): --max-bonus-eur must be an amount in EUR, at most 2 decimals, e.g. 5 or 0.20 (got "10.001")\n',
      ],
      [
        create({ "--id": "bad", "--code": "BADG", "--free-spin-game": "no-such-game" }),
        'refused (BadInput): there is no game "no-such-game" (--free-spin-game takes a game id of the catalogue)\n',
      ],
      [
        create({ "--id": "bad", "--code": "BADC", "--currencies": "EUR,XYZ" }),
        "refused (BadInput): not a currency of the list: XYZ\n",
      ],
      [
        create({ "--id": "bad", "--code": "BADE", "--ends": "2025-12-31" }),
        "refused (BadInput): the end (2025-12-31T00:00:00.000Z) must be after the start (2026-01-01T00:00:00.000Z)\n",
      ],
      [
        create({ "--id": "bad", "--code": "x!" }),
        'refused (BadInput): --code must be 3 to 32 letters, digits, _ or - (stored upper-case) (got "x!")\n',
      ],
      [
        run(["promotions", "update", "no-such-promo", "--wagering", "5"]),
        'refused (NotFound): there is no promotion "no-such-promo" (see: promotions list)\n',
      ],
      [
        run(["promotions", "show", "no-such-promo"]),
        'refused (NotFound): there is no promotion "no-such-promo" (see: promotions list)\n',
      ],
      [
        run(["promotions", "deactivate", "no-such-promo"]),
        'refused (NotFound): there is no promotion "no-such-promo" (see: promotions list)\n',
      ],
      [
        run(["promotions", "update", "welcome-2", "--code", "WELCOME3"]),
        "refused (DuplicateCode): the code WELCOME3 already names promotion welcome-3\n",
      ],
      [
        run(["promotions", "update", "welcome-2", "--free-spin-game", "none"]),
        "refused (BadInput): its bands grant free spins: give --free-spin-game and --free-spin-bet-eur (or bands with 0 spins)\n",
      ],
      [
        run(["promotions", "update", "welcome-2", "--wagering", "10"]),
        "refused (NothingToChange): welcome-2 already has these values: nothing changes\n",
      ],
    ]
    // One at a time.
    for (const [command, stderr] of cases) {
      const res = await command()
      expect(res.stderr).toBe(stderr)
      expect(res.code, stderr).toBe(1)
      expect(res.stdout).toBe("")
    }
    // --json: the refusal on stdout, still exit 1 (a real process).
    const json = await spawnOperator(cliEnv(token, configHome), [
      "promotions",
      "show",
      "no-such-promo",
      "--json",
      "--server",
      server.url,
    ])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toEqual({
      refused: true,
      error: "NotFound",
      message: 'there is no promotion "no-such-promo" (see: promotions list)',
    })
    // Nothing refused was written, nor audited.
    expect(
      await server.query("SELECT id FROM promotions WHERE id IN ('other', 'bad-bands', 'bad') ORDER BY id"),
    ).toEqual([])
    expect(
      await server.query(
        "SELECT code, wagering_multiple FROM promotions WHERE id IN ('welcome-1', 'welcome-2') ORDER BY id",
      ),
    ).toEqual([
      { code: "WELCOME1", wagering_multiple: 10 },
      { code: "WELCOME2", wagering_multiple: 10 },
    ])
    expect(
      await server.query(
        "SELECT action FROM operator_audit WHERE subject IN ('other', 'bad-bands', 'bad', 'welcome-1', 'welcome-2', 'no-such-promo')",
      ),
    ).toEqual([])
  })

  // Several commands one after the other: a busy machine may need minutes.
  it("usage errors exit 2 with the usage", { timeout: 240_000 }, async () => {
    for (const args of [
      ["promotions", "create", "--id", "x", "--kind", "deposit_bonus"],
      ["promotions", "update", "welcome-1"],
      ["promotions", "update", "welcome-1", "--kind", "free_spins"],
      ["promotions", "show"],
      ["promotions", "frobnicate"],
    ]) {
      const res = await operator(args)
      expect(res.code, args.join(" ")).toBe(2)
      expect(res.stderr).toContain("usage: npm run operator")
    }
    const missing = await operator(["promotions", "create", "--id", "x", "--kind", "deposit_bonus"])
    expect(missing.stderr).toContain(
      "operator: promotions create needs --name, --band, --max-bonus-eur, --wagering, --max-bet-eur, --valid-days\n",
    )
  })
})
