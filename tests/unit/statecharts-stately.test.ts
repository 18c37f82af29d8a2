/**
 * statecharts/stately.ts: the exported config round-trips through xstate's own `createMachine`
 * into a machine with the same states and the same (source, event, targets) transitions.
 */
import { describe, expect, it } from "vitest"
import { type AnyStateMachine, type AnyStateNode, createMachine } from "xstate"
import { allStates, chartOf } from "../../statecharts/chart.ts"
import { loadModels } from "../../statecharts/discover.ts"
import { toStatelyConfig } from "../../statecharts/stately.ts"
import type { Chart } from "../../statecharts/types.ts"
import { checkoutMachine } from "../model/fixtures/checkout.machine.ts"
import { kitchenSinkMachine, largeFlowMachine } from "./statecharts-fixtures.ts"

const models = await loadModels()
const charts: Array<Chart> = [
  ...models.map((m) => chartOf(m.model.machine, m.flow)),
  chartOf(checkoutMachine, "checkout"),
  chartOf(kitchenSinkMachine, "kitchen"),
  chartOf(largeFlowMachine, "deposit"),
]

const nodesOf = (machine: AnyStateMachine): Array<AnyStateNode> => {
  const out: Array<AnyStateNode> = []
  const visit = (n: AnyStateNode): void => {
    out.push(n)
    for (const c of Object.values(n.states)) visit(c)
  }
  visit(machine.root)
  return out
}

/** `source|event|targets` for every transition, sorted: what must survive the round trip. */
const triplesOfMachine = (machine: AnyStateMachine): Array<string> =>
  nodesOf(machine)
    .flatMap((n) => [
      ...[...n.transitions].flatMap(([event, list]) =>
        list.map((t) => `${n.id}|${event}|${(t.target ?? []).map((x: AnyStateNode) => x.id).join(",")}`),
      ),
      ...(n.always ?? []).map(
        (t) => `${n.id}|always|${(t.target ?? []).map((x: AnyStateNode) => x.id).join(",")}`,
      ),
    ])
    .sort()

const triplesOfChart = (chart: Chart): Array<string> =>
  chart.transitions.map((t) => `${t.source}|${t.event}|${t.targets.join(",")}`).sort()

describe.each(charts.map((c) => [c.name, c] as const))("toStatelyConfig(%s)", (_, chart) => {
  const config = toStatelyConfig(chart)

  it("is plain, deterministic JSON", () => {
    const json = JSON.stringify(config)
    expect(JSON.parse(json)).toEqual(config)
    expect(JSON.stringify(toStatelyConfig(chart))).toBe(json)
  })

  it("round-trips through createMachine: same states, same transitions", () => {
    const machine = createMachine(config)
    expect(machine.id).toBe(chart.id)
    expect(
      nodesOf(machine)
        .map((n) => n.id)
        .sort(),
    ).toEqual(
      allStates(chart)
        .map((s) => s.id)
        .sort(),
    )
    expect(triplesOfMachine(machine)).toEqual(triplesOfChart(chart))
    const types = new Map(nodesOf(machine).map((n) => [n.id, n.type]))
    for (const s of allStates(chart)) expect(types.get(s.id)).toBe(s.type)
  })
})

describe("toStatelyConfig specifics", () => {
  it("puts invoke outcomes into the invoke, timers into after, a compound's done into onDone", () => {
    const config = toStatelyConfig(chartOf(checkoutMachine, "checkout"))
    expect(config).toMatchObject({
      id: "checkout",
      initial: "form",
      states: {
        paying: {
          invoke: { id: "pay", src: "pay", onDone: { target: "paid" }, onError: { target: "failed" } },
          after: { "10000": { target: "failed", actions: "assign" } },
        },
        failed: { always: [{ guard: "outOfAttempts", target: "locked" }, { target: "retryable" }] },
        paid: { type: "parallel", onDone: { target: "finished" } },
        finished: { type: "final" },
        form: {
          on: { TYPE: { target: ".editing" } },
          states: {
            editing: { on: { SUBMIT: [{ target: "#checkout.paying", guard: "emailLooksValid" }, {}] } },
          },
        },
      },
    })
  })

  it("keeps named delays, entry/exit, reenter and descriptions", () => {
    const config = toStatelyConfig(chartOf(kitchenSinkMachine, "kitchen"))
    expect(config).toMatchObject({
      on: { RESET: { target: ".idle" }, "*": { actions: "track" } },
      states: {
        idle: {
          description: "Waiting for GO",
          tags: ["start", "calm"],
          entry: ["track", "assign"],
          exit: "log",
          after: { "300": { target: "busy" }, slow: { target: "busy", actions: "track" } },
          on: { SELF: { target: "idle", reenter: true }, GO: { guard: "and(isReady, not(isOpen))" } },
        },
      },
    })
  })
})
