/**
 * statecharts/chart.ts: a machine read into plain data. Keys must equal the generated paths' keys
 * (statecharts/paths.ts `indexTransitions`) for every machine, since the visualizer highlights the
 * edges a path fired by them.
 */
import { describe, expect, it } from "vitest"
import { allStates, chartOf, formatDelay, guardLabel } from "../../statecharts/chart.ts"
import { loadModels } from "../../statecharts/discover.ts"
import { indexTransitions } from "../../statecharts/paths.ts"
import type { Chart, ChartTransition } from "../../statecharts/types.ts"
import { checkoutMachine } from "../model/fixtures/checkout.machine.ts"
import { kitchenSinkMachine, largeFlowMachine } from "./statecharts-fixtures.ts"

const models = await loadModels()

const byKey = (chart: Chart, key: string): ChartTransition => {
  const t = chart.transitions.find((x) => x.key === key)
  if (t === undefined)
    throw new Error(`no transition ${key} in ${chart.transitions.map((x) => x.key).join(", ")}`)
  return t
}

describe("chartOf keys", () => {
  it.each(models.map((m) => [m.flow, m] as const))(
    "%s: transition keys equal indexTransitions, in order",
    (_, m) => {
      const chart = chartOf(m.model.machine, m.flow)
      expect(chart.transitions.map((t) => t.key)).toEqual(
        indexTransitions(m.model.machine).all.map((t) => t.key),
      )
      expect(chart.transitions.length).toBeGreaterThan(0)
    },
  )

  it("the fixture machines' keys equal indexTransitions too", () => {
    for (const machine of [checkoutMachine, kitchenSinkMachine, largeFlowMachine]) {
      expect(chartOf(machine, "x").transitions.map((t) => t.key)).toEqual(
        indexTransitions(machine).all.map((t) => t.key),
      )
    }
  })
})

describe("chartOf on the checkout fixture", () => {
  const chart = chartOf(checkoutMachine, "checkout")

  it("reads the state tree with types and initial children", () => {
    expect(chart.id).toBe("checkout")
    expect(chart.name).toBe("checkout")
    expect(chart.root.key).toBe("checkout")
    expect(chart.root.initial).toBe("checkout.form")
    const states = new Map(allStates(chart).map((s) => [s.id, s]))
    expect(states.get("checkout.paid")?.type).toBe("parallel")
    expect(states.get("checkout.paid")?.initial).toBeNull()
    expect(states.get("checkout.paid.sound")?.initial).toBe("checkout.paid.sound.on")
    expect(states.get("checkout.finished")?.type).toBe("final")
    expect(states.get("checkout.form.editing")?.key).toBe("editing")
    expect(states.get("checkout.paying")?.invokes).toEqual([{ id: "pay", src: "pay" }])
  })

  it("labels after, done, error, done.state and always transitions", () => {
    const after = byKey(chart, "checkout.paying|xstate.after.10000.checkout.paying|0")
    expect(after).toMatchObject({ kind: "after", eventLabel: "after 10 s", label: "after 10 s / assign" })
    expect(byKey(chart, "checkout.paying|xstate.done.actor.pay|0")).toMatchObject({
      kind: "done.invoke",
      eventLabel: "done: pay",
      targets: ["checkout.paid"],
    })
    expect(byKey(chart, "checkout.paying|xstate.error.actor.pay|0")).toMatchObject({
      kind: "error.invoke",
      label: "error: pay / assign",
    })
    expect(byKey(chart, "checkout.paid|xstate.done.state.checkout.paid|0")).toMatchObject({
      kind: "done.state",
      eventLabel: "done",
      targets: ["checkout.finished"],
    })
    expect(byKey(chart, "checkout.failed|always|0")).toMatchObject({
      kind: "always",
      guard: "outOfAttempts",
      label: "always [outOfAttempts]",
    })
    expect(byKey(chart, "checkout.failed|always|1")).toMatchObject({ guard: null, label: "always" })
  })

  it("keeps guarded alternatives apart, with their guards", () => {
    expect(byKey(chart, "checkout.form.editing|SUBMIT|0")).toMatchObject({
      guard: "emailLooksValid",
      targets: ["checkout.paying"],
      label: "SUBMIT [emailLooksValid]",
    })
    expect(byKey(chart, "checkout.form.editing|SUBMIT|1")).toMatchObject({
      guard: null,
      targets: ["checkout.form.invalid"],
    })
  })
})

describe("chartOf on the real machines", () => {
  const chartFor = (flow: string): Chart => {
    const m = models.find((x) => x.flow === flow)
    if (m === undefined) throw new Error(`no model ${flow}`)
    return chartOf(m.model.machine, flow)
  }

  it("auth: a named delay shows its name and its resolved duration; entry/exit/invoke are read", () => {
    const chart = chartFor("auth")
    const stale = byKey(
      chart,
      "auth.authenticated.account.ready|xstate.after.queryStale.auth.authenticated.account.ready|0",
    )
    expect(stale.eventLabel).toBe("after queryStale (5 min)")
    const signingOut = allStates(chart).find((s) => s.id === "auth.signingOut")
    expect(signingOut?.entry).toEqual(["navigateHome", "showLoading"])
    expect(signingOut?.exit).toEqual(["hideLoading"])
    expect(signingOut?.invokes).toEqual([{ id: "signOut", src: "signOut" }])
    // The raise/cancel pair that implements `after` is machinery, not the author's entry/exit.
    const ready = allStates(chart).find((s) => s.id === "auth.authenticated.account.ready")
    expect(ready?.entry).toEqual([])
    expect(ready?.exit).toEqual([])
    expect(byKey(chart, "auth.authenticated|SIGNED_IN|0")).toMatchObject({
      reenter: true,
      targets: ["auth.authenticated"],
      actions: ["assign", "rememberUser"],
    })
  })

  it("modals: root-level transitions target descendants; always alternatives; invoke outcomes", () => {
    const chart = chartFor("modals")
    expect(byKey(chart, "modals|OPEN_LOGIN|0")).toMatchObject({ source: "modals", targets: ["modals.login"] })
    expect(byKey(chart, "modals.opening|always|0").label).toBe("always [requestsResetPassword]")
    expect(byKey(chart, "modals.login.active|xstate.done.actor.login|0").label).toBe(
      "done: login / routeOutcome",
    )
    expect(byKey(chart, "modals.login.loading|xstate.done.actor.loadFlow|0").targets).toEqual([
      "modals.login.active",
    ])
    expect(byKey(chart, "modals.register.active.video|OPEN_VIDEO|0").targets).toEqual([])
    const closed = allStates(chart).find((s) => s.id === "modals.closed")
    expect(closed?.entry).toEqual(["clearContent"])
  })

  it("shell: sendTo shows its target actor; targetless transitions have no targets", () => {
    const chart = chartFor("shell")
    expect(byKey(chart, "shell.ready|SIGNED_IN|0")).toMatchObject({ targets: [], actions: ["sendTo(auth)"] })
    expect(byKey(chart, "shell.booting|xstate.done.actor.boot|0").guard).toBe("isRestricted")
  })
})

describe("chartOf on every construct", () => {
  const chart = chartOf(kitchenSinkMachine, "kitchen")

  it("names guard combinators, stateIn and inline guards", () => {
    expect(byKey(chart, "kitchen.idle|GO|0").guard).toBe("and(isReady, not(isOpen))")
    expect(byKey(chart, "kitchen.idle|EITHER|0").guard).toBe("or(isReady, stateIn(#kitchen.idle))")
    expect(byKey(chart, "kitchen.idle|INLINE|0").guard).toBe("inline guard")
  })

  it("names built-in and inline actions", () => {
    expect(byKey(chart, "kitchen.idle|PING|0").actions).toEqual(["raise(PONG)", "inline"])
    expect(byKey(chart, "kitchen.idle|SHOUT|0").actions).toEqual(["emit", "sendParent"])
    const idle = allStates(chart).find((s) => s.id === "kitchen.idle")
    expect(idle).toMatchObject({
      entry: ["track", "assign"],
      exit: ["log"],
      tags: ["start", "calm"],
      description: "Waiting for GO",
    })
    const busy = allStates(chart).find((s) => s.id === "kitchen.busy")
    expect(busy?.invokes).toEqual([
      { id: "load", src: "fetcher" },
      { id: "side", src: "inline actor" },
    ])
  })

  it("labels numeric and named delays, wildcards and multi-target transitions", () => {
    expect(byKey(chart, "kitchen.idle|xstate.after.300.kitchen.idle|0").eventLabel).toBe("after 300 ms")
    expect(byKey(chart, "kitchen.idle|xstate.after.slow.kitchen.idle|0").label).toBe(
      "after slow (2.5 s) / track",
    )
    expect(byKey(chart, "kitchen|*|0")).toMatchObject({ event: "*", eventLabel: "*", label: "* / track" })
    expect(byKey(chart, "kitchen.busy|SPLIT|0").targets).toEqual([
      "kitchen.both.left.b",
      "kitchen.both.right.d",
    ])
  })

  it("formats delays and unknown guards predictably", () => {
    expect([formatDelay(300), formatDelay(1000), formatDelay(1500), formatDelay(300_000)]).toEqual([
      "300 ms",
      "1 s",
      "1.5 s",
      "5 min",
    ])
    expect(guardLabel(undefined)).toBeNull()
    expect(guardLabel({ type: "isValid", params: { a: 1 } })).toBe("isValid")
  })
})
