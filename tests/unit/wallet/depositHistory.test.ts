/**
 * The deposits tab on a real actor with doubles: the default range (the last 30 UTC days,
 * today included, as the server's own default), the query it sends, a refused range that asks
 * nothing, a new range shown, Try again with the same range, a gone session; and the view's labels.
 */
import { describe, expect, it } from "vitest"
import { createActor } from "xstate"
import {
  DepositHistoryMessages,
  dayValue,
  defaultRange,
  depositHistoryMachine,
  rangeProblem,
} from "../../../machines/wallet/depositHistory.machine.ts"
import { fixtureDepositHistory } from "../../../machines/wallet/fixtures.ts"
import { Unauthenticated } from "../../../services/errors.ts"
import { depositStatuses, type FiatHistory } from "../../../services/wallet-service.ts"
import { depositStatusLabels, methodText } from "../../../ui/profile/DepositsTab.tsx"
import { controlled, settle } from "../account/doubles.ts"

type Range = { readonly from: string; readonly to: string }

const start = (today = "2026-11-23") => {
  const load = controlled<FiatHistory, Range>()
  const actor = createActor(depositHistoryMachine.provide({ actors: { load: load.logic } }), {
    input: { today },
  })
  actor.start()
  return { actor, load }
}

describe("the range", () => {
  it("defaults to the 30 days ending today, across month and leap-year ends", () => {
    expect(defaultRange("2026-11-23")).toEqual({ from: "2026-10-25", to: "2026-11-23" })
    expect(defaultRange("2024-03-01")).toEqual({ from: "2024-02-01", to: "2024-03-01" })
    expect(defaultRange("2027-01-10")).toEqual({ from: "2026-12-12", to: "2027-01-10" })
  })

  it("accepts real days in order only", () => {
    expect(dayValue("2025-02-29")).toBeNull()
    expect(dayValue("2024-02-29")).not.toBeNull()
    expect(dayValue("2024-2-9")).toBeNull()
    expect(rangeProblem("2026-11-01", "2026-11-01")).toBeNull()
    expect(rangeProblem("2026-11-02", "2026-11-01")).toBe(DepositHistoryMessages.fromAfterTo)
    expect(rangeProblem("", "2026-11-01")).toBe(DepositHistoryMessages.badDates)
  })
})

describe("the deposits tab", () => {
  it("asks for the default range and lists the answer", async () => {
    const { actor, load } = start()
    expect(load.last().input).toEqual({ from: "2026-10-25", to: "2026-11-23" })
    load.last().resolve(fixtureDepositHistory)
    await settle()
    expect(actor.getSnapshot().value).toBe("ready")
    expect(actor.getSnapshot().context.deposits).toEqual(fixtureDepositHistory)
  })

  it("refuses a start after the end without asking, then shows a corrected range", async () => {
    const { actor, load } = start()
    load.last().resolve([])
    await settle()
    actor.send({ type: "FROM", value: "2026-12-01" })
    actor.send({ type: "SHOW" })
    expect(actor.getSnapshot().context.rangeError).toBe(DepositHistoryMessages.fromAfterTo)
    expect(load.calls).toHaveLength(1)
    // Typing again clears the message; the shown range is still the old one.
    actor.send({ type: "FROM", value: "2026-01-01" })
    expect(actor.getSnapshot().context.rangeError).toBeNull()
    expect(actor.getSnapshot().context.shown).toEqual({ from: "2026-10-25", to: "2026-11-23" })
    actor.send({ type: "SHOW" })
    expect(load.last().input).toEqual({ from: "2026-01-01", to: "2026-11-23" })
    expect(actor.getSnapshot().context.shown).toEqual({ from: "2026-01-01", to: "2026-11-23" })
  })

  it("a failed load offers Try again with the same range", async () => {
    const { actor, load } = start()
    load.last().reject(new Error("offline"))
    await settle()
    expect(actor.getSnapshot().value).toBe("loadFailed")
    actor.send({ type: "RETRY" })
    expect(load.calls).toHaveLength(2)
    expect(load.last().input).toEqual({ from: "2026-10-25", to: "2026-11-23" })
  })

  it("a gone session ends the tab (the area re-checks the session)", async () => {
    const { actor, load } = start()
    load.last().reject(new Unauthenticated({ message: "Session expired" }))
    await settle()
    expect(actor.getSnapshot().output).toEqual({ type: "sessionEnded" })
  })

  it("aborts the call when the tab closes", () => {
    const { actor, load } = start()
    actor.stop()
    expect(load.last().signal.aborted).toBe(true)
  })
})

describe("the view's words", () => {
  it("names every status", () => {
    for (const status of depositStatuses) expect(depositStatusLabels[status]).toMatch(/^[A-Z][a-z]+$/)
  })

  it("names a card's gateway, and an e-wallet once", () => {
    const [skrill, card] = fixtureDepositHistory
    if (skrill === undefined || card === undefined) throw new Error("fixture")
    expect(methodText(card)).toBe("Card · payweb")
    expect(methodText(skrill)).toBe("Skrill")
    expect(methodText({ ...skrill, method: "jeton-cash", provider: "jeton" })).toBe("Jeton Cash")
  })
})
