/**
 * statecharts/mermaid.ts: structure of the stateDiagram-v2 text (mermaid itself is not a dependency:
 * the checks follow its state grammar — ids without `-`/`:`/spaces, labels without `:`/`;`).
 */
import { describe, expect, it } from "vitest"
import { allStates, chartOf } from "../../statecharts/chart.ts"
import { loadModels } from "../../statecharts/discover.ts"
import { mermaidIds, mermaidText, toMermaid } from "../../statecharts/mermaid.ts"
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

const braceBalance = (text: string): number =>
  text
    .split("\n")
    .reduce((n, line) => n + (line.trimEnd().endsWith("{") ? 1 : 0) - (line.trim() === "}" ? 1 : 0), 0)

describe.each(charts.map((c) => [c.name, c] as const))("toMermaid(%s)", (_, chart) => {
  const text = toMermaid(chart)
  const ids = mermaidIds(chart)
  const lines = text.split("\n")

  it("is a stateDiagram-v2 with balanced blocks and an initial arrow into the machine", () => {
    expect(lines[0]).toBe("stateDiagram-v2")
    expect(braceBalance(text)).toBe(0)
    expect(text).toContain(`[*] --> ${ids.get(chart.root.id)}`)
    expect(text).toBe(toMermaid(chart))
  })

  it("declares every state once, under a unique safe id, with its key as the label", () => {
    const safe = [...ids.values()]
    expect(new Set(safe).size).toBe(safe.length)
    for (const id of safe) expect(id).toMatch(/^s_[A-Za-z0-9_]+$/)
    for (const s of allStates(chart)) {
      const declarations = lines.filter((l) => l.trim().startsWith(`state "${s.key}" as ${ids.get(s.id)}`))
      expect(declarations).toHaveLength(1)
      if (s.initial !== null) expect(text).toContain(`[*] --> ${ids.get(s.initial)}`)
    }
  })

  it("has every state-changing transition as an arrow and every other one as a note", () => {
    for (const t of chart.transitions) {
      const label = mermaidText(t.guard === null ? t.eventLabel : `${t.eventLabel} [${t.guard}]`)
      if (t.targets.length === 0) {
        expect(text).toContain(`note right of ${ids.get(t.source)}`)
        expect(text).toContain(mermaidText(t.label))
      } else {
        for (const target of t.targets) {
          expect(text).toContain(`${ids.get(t.source)} --> ${ids.get(target)} : ${label}`)
        }
      }
    }
  })

  it("keeps arrow labels free of the characters that end a mermaid label", () => {
    for (const line of lines.filter((l) => l.includes(" --> ") && l.includes(" : "))) {
      const label = line.slice(line.indexOf(" : ") + 3)
      expect(label).not.toMatch(/[:;]/)
    }
  })
})

describe("toMermaid specifics", () => {
  it("separates parallel regions with -- and closes final states", () => {
    const text = toMermaid(chartOf(checkoutMachine, "checkout"))
    expect(text).toMatch(
      /state "paid" as s_checkout_paid\{\n\s+state "sound"[\s\S]*\n\s+--\n\s+state "receipt"/,
    )
    expect(text).toContain("s_checkout_paid_sound_settled --> [*]")
    expect(text).toContain("s_checkout_finished --> [*]")
  })

  it("gives repeated keys distinct ids", () => {
    const chart = chartOf(checkoutMachine, "checkout")
    const ids = mermaidIds(chart)
    // `sound.on` and the transition-less `receipt.shown`: same depth, different parents.
    expect(ids.get("checkout.paid.sound.on")).not.toBe(ids.get("checkout.paid.receipt.shown"))
    expect(mermaidText("done: a; b")).not.toMatch(/[:;]/)
  })
})
