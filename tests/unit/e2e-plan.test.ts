/**
 * The e2e path plan (tests/e2e/support/replay.ts) refuses a binding that leaves an event unbound:
 * the run fails instead of skipping it, and the only skips are the reviewed reasons.
 */
import { describe, expect, it } from "vitest"
import { loginBinding } from "../e2e/bindings/login.ts"
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
})
