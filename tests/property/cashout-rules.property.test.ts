/**
 * Properties of the cashout rules (services/cashout-rules.ts, spec section 5): for ANY
 * combination of failing conditions — amount below minWithdraw, not verified, not enough withdrawable,
 * address / e-mail empty — the first failing one in the spec's order is the one shown. Driven on the
 * pure rule (against a restatement of the spec as nested ifs) AND on the cashout machine, for a
 * crypto wallet (address on the amount step) and a fiat one (e-mail on the Bank Account tab). The
 * amount parsing is exact (minor units, no floats).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { createActor, fromPromise } from "xstate"
import { fixtureCurrencies } from "../../machines/flowFixtures.ts"
import { fixtureProfile } from "../../machines/profile/fixtures.ts"
import {
  type CashoutBasics,
  cashoutMachine,
  type WithdrawRequest,
} from "../../machines/wallet/cashout.machine.ts"
import { cashoutFund, requestedWithdrawal } from "../../machines/wallet/cashoutFixtures.ts"
import {
  type CashoutCheck,
  type CashoutFacts,
  cashoutChecks,
  firstFailingCheck,
  parseCashoutAmount,
} from "../../services/cashout-rules.ts"
import { formatAmount } from "../../services/money-rules.ts"

/** The spec's list, restated independently of the rule's implementation. */
const specFirst = (f: CashoutFacts): CashoutCheck | null => {
  if (f.amount === null || f.amount <= 0n || f.amount < f.minWithdraw) return "belowMinimum"
  if (!f.verified) return "notVerified"
  if (f.withdrawable - f.amount < 0n) return "notEnoughMoney"
  if (f.destination !== null && f.destination.trim() === "") return "destinationMissing"
  return null
}

/** Which conditions fail, in the spec's order. */
const failing = fc.tuple(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean())
type Failing = [boolean, boolean, boolean, boolean]

const expectedOf = (flags: Failing): CashoutCheck | null => {
  const index = flags.findIndex((f) => f)
  return index === -1 ? null : (cashoutChecks[index] ?? null)
}

/** Facts in which exactly the flagged conditions fail (amounts in minor units). */
const factsFor = (flags: Failing, minWithdraw: bigint, extra: bigint, blank: string): CashoutFacts => {
  const [below, unverified, poor, empty] = flags
  const amount = below ? minWithdraw - 1n - (extra % minWithdraw) : minWithdraw + extra
  return {
    amount,
    minWithdraw,
    verified: !unverified,
    withdrawable: poor ? amount - 1n - extra : amount + extra,
    destination: empty ? blank : "somewhere",
  }
}

const minimums = fc.bigInt({ min: 2n, max: 10n ** 12n })
const extras = fc.bigInt({ min: 0n, max: 10n ** 12n })
const blanks = fc.constantFrom("", " ", "\t", "   ")

describe("the first failing check", () => {
  it("is the first of the spec's list for any facts", () => {
    fc.assert(
      fc.property(
        fc.record({
          amount: fc.option(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n })),
          minWithdraw: fc.bigInt({ min: 0n, max: 10n ** 15n }),
          verified: fc.boolean(),
          withdrawable: fc.bigInt({ min: 0n, max: 10n ** 15n }),
          destination: fc.option(fc.oneof(blanks, fc.string())),
        }),
        (facts) => {
          expect(firstFailingCheck(facts)).toBe(specFirst(facts))
        },
      ),
    )
  })

  it("is the first flagged one for any combination of failing conditions", () => {
    fc.assert(
      fc.property(failing, minimums, extras, blanks, (flags, min, extra, blank) => {
        expect(firstFailingCheck(factsFor(flags, min, extra, blank))).toBe(expectedOf(flags))
      }),
    )
  })
})

describe("amounts as typed", () => {
  it("round-trip through minor units in every currency of the list", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("EUR", "USD", "BTC"),
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        (code, minor) => {
          const subunits = code === "BTC" ? 100_000_000n : 100n
          const text = formatAmount(minor, subunits)
          fc.pre(text.length <= 12)
          expect(parseCashoutAmount(text, fixtureCurrencies, code)).toBe(minor)
        },
      ),
    )
  })

  it("refuse what is not a plain decimal, or has more decimals than the currency", () => {
    expect(parseCashoutAmount("1e3", fixtureCurrencies, "EUR")).toBeNull()
    expect(parseCashoutAmount("-5", fixtureCurrencies, "EUR")).toBeNull()
    expect(parseCashoutAmount("10.001", fixtureCurrencies, "EUR")).toBeNull()
    expect(parseCashoutAmount("0.00000001", fixtureCurrencies, "BTC")).toBe(1n)
    expect(parseCashoutAmount("10", fixtureCurrencies, "XYZ")).toBeNull()
  })
})

/** Drives the machine through a click with the facts realised by the loads and the typing. */
const clickWith = async (currency: "EUR" | "BTC", flags: Failing, extra: bigint, blank: string) => {
  const subunits = currency === "BTC" ? 100_000_000n : 100n
  // Bounded so the typed amount fits the 12 characters of the field.
  const facts = factsFor(flags, 1000n, extra, blank)
  const basics: CashoutBasics = {
    minWithdraw: facts.minWithdraw.toString(),
    withdrawable: facts.withdrawable.toString(),
    verified: facts.verified,
    bonus: null,
  }
  const requests: Array<WithdrawRequest> = []
  const actor = createActor(
    cashoutMachine.provide({
      actors: {
        loadBasics: fromPromise(async () => basics),
        withdraw: fromPromise(async ({ input }: { input: WithdrawRequest }) => {
          requests.push(input)
          return requestedWithdrawal
        }),
      },
      actions: { toast: () => {} },
    }),
    { input: { currencies: fixtureCurrencies, fund: cashoutFund, profile: fixtureProfile } },
  )
  actor.start()
  if (currency === "BTC") actor.send({ type: "CURRENCY", currency: "BTC" })
  await new Promise((resolve) => setTimeout(resolve, 0))
  actor.send({ type: "AMOUNT", value: formatAmount(facts.amount ?? 0n, subunits) })
  if (currency === "BTC") actor.send({ type: "ADDRESS", value: facts.destination ?? "" })
  actor.send({ type: "CASHOUT" })
  if (actor.getSnapshot().matches("fiat")) {
    actor.send({ type: "TAB", tab: "bank" })
    actor.send({ type: "EMAIL", value: facts.destination ?? "" })
    actor.send({ type: "CASHOUT" })
  }
  const snapshot = actor.getSnapshot()
  actor.stop()
  return { snapshot, requests }
}

describe("the cashout machine shows the first failing check", () => {
  for (const currency of ["EUR", "BTC"] as const) {
    it(`${currency}: for any combination of failing conditions`, async () => {
      await fc.assert(
        fc.asyncProperty(
          failing,
          fc.bigInt({ min: 0n, max: 99_999n }),
          blanks,
          async (flags, extra, blank) => {
            const { snapshot, requests } = await clickWith(currency, flags, extra, blank)
            const expected = expectedOf(flags)
            if (expected === null) {
              expect(snapshot.matches("sending")).toBe(true)
              expect(requests).toHaveLength(1)
              return
            }
            expect(requests).toEqual([])
            // Check 1: nothing happens (no message, the amount step stays).
            expect(snapshot.context.failed).toBe(expected === "belowMinimum" ? null : expected)
            expect(snapshot.matches("sending")).toBe(false)
          },
        ),
        { numRuns: 60 },
      )
    })
  }
})
