/**
 * The bonus code checked as it is typed, on a real actor with a simulated clock: nothing is sent
 * before a 450 ms pause, one call per pause (typing again restarts it), the grant or the server's
 * reason shown, a failed check said plainly, a blank field silent.
 */
import { describe, expect, it } from "vitest"
import { createActor, SimulatedClock } from "xstate"
import { couponCheckMachine, couponFeedback } from "../../../machines/couponCheck.machine.ts"
import { transportError } from "../../../machines/flowFixtures.ts"
import { welcomeOffer } from "../../../machines/profile/fixtures.ts"
import type { CouponCheck } from "../../../services/bonus-service.ts"
import { CouponRejected } from "../../../services/errors.ts"
import { controlled, settle } from "./doubles.ts"

const start = () => {
  const clock = new SimulatedClock()
  const check = controlled<CouponCheck, string>()
  const actor = createActor(couponCheckMachine.provide({ actors: { check: check.logic } }), { clock })
  actor.start()
  return { actor, clock, check }
}

describe("a bonus code checked as it is typed", () => {
  it("waits for a pause in the typing, then says what the code grants", async () => {
    const { actor, clock, check } = start()
    actor.send({ type: "CODE", value: "wel" })
    clock.increment(300)
    actor.send({ type: "CODE", value: " welcome1 " })
    clock.increment(449)
    expect(check.calls).toHaveLength(0)
    clock.increment(1)
    expect(check.calls.map((c) => c.input)).toEqual(["welcome1"])
    expect(couponFeedback(actor.getSnapshot())).toEqual({ tone: "info", text: "Checking the code…" })
    check.last().resolve({ couponName: "WELCOME1", promotion: welcomeOffer })
    await settle()
    expect(couponFeedback(actor.getSnapshot())).toEqual({
      tone: "ok",
      text: "WELCOME1: Welcome bonus: 50 % up to 16.00 EUR (+100 free spins) · 125 % up to 50.00 EUR (+125 free spins) · 200 % above that (+150 free spins)",
    })
  })

  it("shows the server's reason for a code that grants nothing, and a failed check plainly", async () => {
    const { actor, clock, check } = start()
    actor.send({ type: "CODE", value: "NOPE" })
    clock.increment(450)
    check.last().reject(new CouponRejected({ message: "This bonus code does not exist.", reason: "unknown" }))
    await settle()
    expect(couponFeedback(actor.getSnapshot())).toEqual({
      tone: "error",
      text: "This bonus code does not exist.",
    })
    actor.send({ type: "CODE", value: "WELCOME2" })
    expect(couponFeedback(actor.getSnapshot())).toBeNull()
    clock.increment(450)
    check.last().reject(transportError())
    await settle()
    expect(couponFeedback(actor.getSnapshot())).toEqual({
      tone: "info",
      text: "The code could not be checked now; it is checked again when you continue.",
    })
  })

  it("a blank field says nothing and sends nothing; typing during a check drops its answer", async () => {
    const { actor, clock, check } = start()
    actor.send({ type: "CODE", value: "   " })
    clock.increment(1_000)
    expect(check.calls).toHaveLength(0)
    expect(actor.getSnapshot().value).toBe("empty")
    actor.send({ type: "CODE", value: "WELCOME1" })
    clock.increment(450)
    const first = check.last()
    actor.send({ type: "CODE", value: "" })
    expect(first.signal.aborted).toBe(true)
    first.resolve({ couponName: "WELCOME1", promotion: welcomeOffer })
    await settle()
    expect(couponFeedback(actor.getSnapshot())).toBeNull()
  })
})
