/**
 * statecharts/layout.ts + statecharts/geometry.ts: every machine lays out with no overlaps, text
 * inside its boxes and labels clear of states and of each other; the checks themselves catch
 * broken layouts. One ELK instance for the whole file keeps it fast.
 */
import ELK from "elkjs/lib/elk.bundled.js"
import { beforeAll, describe, expect, it } from "vitest"
import { chartOf } from "../../statecharts/chart.ts"
import { loadModels } from "../../statecharts/discover.ts"
import { geometryProblems, lineRect } from "../../statecharts/geometry.ts"
import { layoutChart } from "../../statecharts/layout.ts"
import { textWidth } from "../../statecharts/measure.ts"
import type { ChartLayout, StateBox } from "../../statecharts/types.ts"
import { checkoutMachine } from "../model/fixtures/checkout.machine.ts"
import { kitchenSinkMachine, largeFlowMachine } from "./statecharts-fixtures.ts"

const elk = new ELK()
const models = await loadModels()
const machines = [
  ...models.map((m) => ({ name: m.flow, machine: m.model.machine })),
  { name: "checkout (fixture)", machine: checkoutMachine },
  { name: "kitchen sink (fixture)", machine: kitchenSinkMachine },
  { name: "~30-state flow (fixture)", machine: largeFlowMachine },
]
const layouts = new Map<string, ChartLayout>()
// How long this takes is measured by `npm run bench:statecharts`, never asserted here; the bound is
// for a hung layout only (every machine's layout took over vitest's 10 s default on a busy machine).
beforeAll(async () => {
  for (const { name, machine } of machines) layouts.set(name, await layoutChart(chartOf(machine, name), elk))
}, 180_000)

const layoutOf = (name: string): ChartLayout => {
  const layout = layouts.get(name)
  if (layout === undefined) throw new Error(`no layout for ${name}`)
  return layout
}

const stateOf = (layout: ChartLayout, id: string): StateBox => {
  const box = layout.states.find((s) => s.id === id)
  if (box === undefined) throw new Error(`no box ${id}`)
  return box
}

describe("layout of every machine", () => {
  it.each(machines.map((m) => [m.name]))("%s has no geometry problems", (name) => {
    expect(geometryProblems(layoutOf(name))).toEqual([])
  })

  it.each(machines.map((m) => [m.name]))("%s draws every state and every state change", (name) => {
    const layout = layoutOf(name)
    const chart = layout.chart
    const ids = (s: { id: string; children: ReadonlyArray<typeof s> }): Array<string> => [
      s.id,
      ...s.children.flatMap(ids),
    ]
    expect(layout.states.map((s) => s.id).sort()).toEqual(ids(chart.root).sort())
    const expected = chart.transitions.flatMap((t) =>
      t.targets.map((target) => (t.targets.length > 1 ? `${t.key}>${target}` : t.key)),
    )
    const drawn = layout.edges.filter((e) => e.kind === "transition")
    expect(drawn.map((e) => e.id).sort()).toEqual([...expected].sort())
    for (const e of drawn) {
      const t = chart.transitions.find((x) => x.key === e.transition)
      expect(t?.targets).toContain(e.target)
      expect(e.label?.text).toBe(t?.label)
    }
    // Targetless transitions are text inside their state, never edges.
    for (const t of chart.transitions.filter((x) => x.targets.length === 0)) {
      expect(
        stateOf(layout, t.source).lines.some((l) => l.kind === "internal" && t.label.startsWith(l.text)),
      ).toBe(true)
    }
  })

  it("is deterministic and uses absolute coordinates rounded to 0.5 px", async () => {
    const again = await layoutChart(chartOf(checkoutMachine, "checkout (fixture)"), elk)
    expect(JSON.stringify(again)).toBe(JSON.stringify(layoutOf("checkout (fixture)")))
    const values = again.states.flatMap((s) => [s.x, s.y, s.width, s.height])
    expect(values.every((v) => Number.isInteger(v * 2))).toBe(true)
    // Absolute: a nested child lies inside its parent's absolute box.
    const sound = stateOf(again, "checkout.paid.sound")
    const on = stateOf(again, "checkout.paid.sound.on")
    expect(on.x).toBeGreaterThan(sound.x)
    expect(on.y).toBeGreaterThan(sound.y)
  })
})

describe("layout details", () => {
  it("marks initial states with a marker and an initial edge inside the parent", () => {
    const layout = layoutOf("checkout (fixture)")
    const marker = layout.initials.find((m) => m.id === "initial:checkout.paid.sound.on")
    const sound = stateOf(layout, "checkout.paid.sound")
    expect(marker).toBeDefined()
    expect(marker && marker.cx > sound.x && marker.cx < sound.x + sound.width).toBe(true)
    const edge = layout.edges.find((e) => e.id === "initial:checkout.paid.sound.on")
    expect(edge).toMatchObject({ kind: "initial", transition: null, target: "checkout.paid.sound.on" })
  })

  it("draws parallel regions as regions and lists entry/exit/invoke lines inside boxes", () => {
    const checkout = layoutOf("checkout (fixture)")
    expect(stateOf(checkout, "checkout.paid.sound").isRegion).toBe(true)
    expect(stateOf(checkout, "checkout.paid").isRegion).toBe(false)
    const signingOut = stateOf(layoutOf("auth"), "auth.signingOut")
    expect(signingOut.lines.map((l) => [l.kind, l.text])).toEqual([
      ["title", "signingOut"],
      ["entry", "entry / navigateHome, showLoading"],
      ["exit", "exit / hideLoading"],
      ["invoke", "invoke signOut"],
    ])
    // Atomic boxes are as wide as their widest line plus padding, no wider than needed.
    const widest = Math.max(...signingOut.lines.map((l) => lineRect(l).width))
    expect(signingOut.width).toBeGreaterThanOrEqual(widest)
    expect(signingOut.width).toBeLessThanOrEqual(widest + 40)
  })

  it("starts a state's transitions into its own descendants at a 'from any state' chip inside it", () => {
    const layout = layoutOf("modals")
    const chip = layout.chips?.find((c) => c.state === "modals")
    expect(chip).toBeDefined()
    const edge = layout.edges.find((e) => e.id === "modals|OPEN_LOGIN|0")
    const first = edge?.points[0]
    expect(chip && first && first.x >= chip.x - 1 && first.x <= chip.x + chip.width + 1).toBe(true)
    expect(chip && first && first.y >= chip.y - 1 && first.y <= chip.y + chip.height + 1).toBe(true)
    expect(edge?.source).toBe("modals")
  })

  it("draws self transitions and multi-target transitions as separate, labelled edges", () => {
    const layout = layoutOf("kitchen sink (fixture)")
    const self = layout.edges.find((e) => e.id === "kitchen.idle|SELF|0")
    expect(self?.source).toBe("kitchen.idle")
    expect(self?.target).toBe("kitchen.idle")
    expect((self?.points.length ?? 0) >= 3).toBe(true)
    const split = layout.edges.filter((e) => e.transition === "kitchen.busy|SPLIT|0")
    expect(split.map((e) => e.id).sort()).toEqual([
      "kitchen.busy|SPLIT|0>kitchen.both.left.b",
      "kitchen.busy|SPLIT|0>kitchen.both.right.d",
    ])
    const authSelf = layoutOf("auth").edges.find((e) => e.id === "auth.authenticated|SIGNED_IN|0")
    expect(authSelf?.target).toBe("auth.authenticated")
  })

  it("keeps a ~30-state flow compact enough to read (top to bottom, a screen wide)", () => {
    const layout = layoutOf("~30-state flow (fixture)")
    expect(layout.states.length).toBeGreaterThanOrEqual(28)
    expect(layout.width).toBeLessThan(1800)
    expect(layout.height).toBeGreaterThan(layout.width)
  })

  it("measures text the same way everywhere: monospace cells × 0.61 em, wide characters twice", () => {
    expect(textWidth("abcd", 10)).toBe(Math.ceil(4 * 0.61 * 10))
    expect(textWidth("日本", 10)).toBe(Math.ceil(4 * 0.61 * 10))
  })
})

describe("geometryProblems catches broken layouts", () => {
  const base = (): ChartLayout => layoutOf("checkout (fixture)")

  it("reports overlapping sibling states", () => {
    const layout = base()
    const a = stateOf(layout, "checkout.retryable")
    const moved = layout.states.map((s) =>
      s.id === "checkout.locked" ? { ...s, x: a.x + 5, y: a.y + 5 } : s,
    )
    const problems = geometryProblems({ ...layout, states: moved })
    expect(problems.some((p) => p.includes("overlap") && p.includes("checkout.locked"))).toBe(true)
  })

  it("reports a child outside its parent", () => {
    const layout = base()
    const moved = layout.states.map((s) => (s.id === "checkout.form.invalid" ? { ...s, x: 0, y: 0 } : s))
    expect(
      geometryProblems({ ...layout, states: moved }).some((p) => p.includes("not inside its parent")),
    ).toBe(true)
  })

  it("reports a text line that does not fit its box", () => {
    const layout = base()
    const states = layout.states.map((s) =>
      s.id === "checkout.paying"
        ? {
            ...s,
            lines: s.lines.map((l, i) => (i === 0 ? { ...l, text: `${l.text} and a much longer title` } : l)),
          }
        : s,
    )
    expect(
      geometryProblems({ ...layout, states }).some((p) => p.includes("is not inside state checkout.paying")),
    ).toBe(true)
  })

  it("reports an edge label on a state box it does not belong in, and labels on each other", () => {
    const layout = base()
    const target = stateOf(layout, "checkout.retryable")
    const labelled = layout.edges.filter((e) => e.label !== null)
    const [first, second] = labelled
    if (first?.label == null || second?.label == null) throw new Error("fixture needs two labels")
    const onBox = { ...first.label, x: target.x + 2, y: target.y + 2 }
    const onLabel = { ...second.label, x: onBox.x + 1, y: onBox.y + 1 }
    const edges = layout.edges.map((e) =>
      e.id === first.id ? { ...e, label: onBox } : e.id === second.id ? { ...e, label: onLabel } : e,
    )
    const problems = geometryProblems({ ...layout, edges })
    expect(
      problems.some((p) => p.startsWith(`label of ${first.id}`) && p.includes("checkout.retryable")),
    ).toBe(true)
    expect(
      problems.some((p) => p.includes(`labels of`) && p.includes(first.id) && p.includes(second.id)),
    ).toBe(true)
  })

  it("reports a route through a state's text", () => {
    const layout = base()
    const paying = stateOf(layout, "checkout.paying")
    const title = paying.lines[0]
    if (title === undefined) throw new Error("no title")
    const edges = layout.edges.map((e, i) =>
      i === 0
        ? {
            ...e,
            points: [{ x: title.x - 5, y: title.y - 4 }, { x: title.x + 40, y: title.y - 4 }, ...e.points],
          }
        : e,
    )
    expect(
      geometryProblems({ ...layout, edges }).some((p) => p.includes('runs through the text "paying"')),
    ).toBe(true)
  })

  it("reports an arrow that does not reach its target", () => {
    const layout = base()
    const edges = layout.edges.map((e, i) =>
      i === 0 ? { ...e, points: [...e.points.slice(0, -1), { x: 1, y: 1 }] } : e,
    )
    expect(geometryProblems({ ...layout, edges }).some((p) => p.includes("off its target"))).toBe(true)
  })
})
