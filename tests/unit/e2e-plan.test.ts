/**
 * The e2e path plan (tests/e2e/support/replay.ts) refuses a binding that leaves an event unbound:
 * the run fails instead of skipping it, and the only skips are the reviewed reasons. The default plan
 * (every transition) replays no fewer transitions in Chromium than the FULL=1 plan (every transition
 * and every distinct call outcome), with no more paths, for every bound machine.
 */
import { describe, expect, it } from "vitest"
import { confirmEmailBinding } from "../e2e/bindings/confirmEmail.ts"
import { forgotPasswordBinding } from "../e2e/bindings/forgotPassword.ts"
import { gamePageBinding } from "../e2e/bindings/gamePage.ts"
import { loginBinding } from "../e2e/bindings/login.ts"
import { registerBinding } from "../e2e/bindings/register.ts"
import { resetPasswordBinding } from "../e2e/bindings/resetPassword.ts"
import { verifierBinding } from "../e2e/bindings/verifier.ts"
import { type FlowBinding, planFor, unbound, unproducible } from "../e2e/support/replay.ts"
import { SkipReasons } from "../e2e/support/skip-reasons.ts"

describe("e2e path plan", () => {
  it("fails on an event no binding handles, naming it", () => {
    const forgetting = <S>(binding: FlowBinding<S>, type: string): FlowBinding<S> => ({
      ...binding,
      event: (event) => (event.type === type ? unbound<S>(event) : binding.event(event)),
    })
    expect(() => planFor(forgetting(loginBinding, "SUBMIT"))).toThrow(
      /login binding has no binding for SUBMIT/,
    )
  })

  it("skips a path only for a reason of the reviewed table, printed with its case", () => {
    const plan = planFor(loginBinding)
    expect(plan.skipped.length).toBeGreaterThan(0)
    const reviewed = Object.values(SkipReasons)
    for (const { reason } of plan.skipped) expect(reviewed.some((r) => reason.includes(r))).toBe(true)
  })

  it("an unproducible outcome names a reviewed reason", () => {
    const b = unproducible("proxyOnly", "a bare status")
    expect(b).toEqual({ kind: "unproducible", skip: { reason: "proxyOnly", detail: "a bare status" } })
  })

  it.each([
    loginBinding,
    registerBinding,
    forgotPasswordBinding,
    resetPasswordBinding,
    confirmEmailBinding,
    gamePageBinding,
    verifierBinding,
  ] as ReadonlyArray<FlowBinding<unknown>>)(
    "$model.name: the default plan fires every transition the FULL plan fires",
    (binding) => {
      const fired = (plan: ReturnType<typeof planFor>) =>
        new Set([...plan.chosen].flatMap((p) => p.steps.flatMap((s) => s.fired)))
      const previous = process.env.FULL
      try {
        process.env.FULL = "1"
        const full = planFor(binding)
        delete process.env.FULL
        const plain = planFor(binding)
        expect(full.full).toBe(true)
        expect(plain.full).toBe(false)
        expect([...fired(plain)].sort()).toEqual([...fired(full)].sort())
        expect(plain.chosen.length).toBeLessThanOrEqual(full.chosen.length)
      } finally {
        if (previous === undefined) delete process.env.FULL
        else process.env.FULL = previous
      }
    },
    // A bound for a hang, not a speed check: walking the game page's machine takes seconds of CPU.
    120_000,
  )
})
