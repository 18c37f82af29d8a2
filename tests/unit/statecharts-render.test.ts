/**
 * statecharts/render.tsx: a self-contained SVG with hooks for tests and interaction, highlighting
 * what is active, visited, fired and selected, and text drawn where the layout measured it.
 */
import ELK from "elkjs/lib/elk.bundled.js"
import { createElement } from "react"
import { renderToStaticMarkup } from "react-dom/server"
import { describe, expect, it } from "vitest"
import { chartOf } from "../../statecharts/chart.ts"
import { layoutChart } from "../../statecharts/layout.ts"
import { CHART_FONT_FAMILY } from "../../statecharts/measure.ts"
import { ChartSvg, edgePath } from "../../statecharts/render.tsx"
import { renderChartSvgString } from "../../statecharts/render-static.ts"
import type { Highlight } from "../../statecharts/types.ts"
import { checkoutMachine } from "../model/fixtures/checkout.machine.ts"

const layout = await layoutChart(chartOf(checkoutMachine, "checkout"), new ELK())

const highlight: Highlight = {
  active: new Set(["checkout.paying"]),
  visited: new Set(["checkout.form", "checkout.form.editing"]),
  edges: new Set(["checkout.form.editing|SUBMIT|0"]),
  selected: "checkout.failed",
}

describe("ChartSvg", () => {
  const plain = renderChartSvgString(layout)

  it("is a standalone SVG: prolog, namespace, viewBox, white background, styling as attributes", () => {
    expect(
      plain.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"'),
    ).toBe(true)
    expect(plain).toContain(`viewBox="0 0 ${layout.width} ${layout.height}"`)
    expect(plain).toContain('fill="#ffffff"')
    expect(plain).not.toContain("class=")
    expect(plain).toContain(`font-family="${CHART_FONT_FAMILY.replaceAll('"', "&quot;")}"`)
    expect(plain).toContain('text-anchor="start"')
  })

  it("has a group per state and per edge, with their ids and transition keys", () => {
    for (const s of layout.states) expect(plain).toContain(`data-state-id="${s.id}"`)
    for (const e of layout.edges) expect(plain).toContain(`data-edge-id="${e.id}"`)
    expect(plain).toContain('data-transition="checkout.paying|xstate.done.actor.pay|0"')
    expect(plain).not.toContain("data-active")
  })

  it("marks active, visited, fired and selected elements", () => {
    const html = renderToStaticMarkup(createElement(ChartSvg, { layout, highlight, idPrefix: "a-" }))
    expect(html).toMatch(/data-state-id="checkout.paying"[^>]*data-active="true"/)
    expect(html).toMatch(/data-state-id="checkout.form.editing"[^>]*data-visited="true"/)
    expect(html).toMatch(/data-state-id="checkout.failed"[^>]*data-selected="true"/)
    expect(html).toMatch(/data-edge-id="checkout.form.editing\|SUBMIT\|0"[^>]*data-fired="true"/)
    expect(html).toContain('marker-end="url(#a-arrow-fired)"')
    expect(html).toContain('fill="#fde68a"')
    // Two charts on a page: marker ids carry the prefix.
    expect(html).toContain('id="a-arrow"')
    expect(html).not.toContain('id="arrow"')
  })

  it("makes states and edge labels buttons only when they can be selected", () => {
    expect(plain).not.toContain('role="button"')
    const html = renderToStaticMarkup(
      createElement(ChartSvg, { layout, onSelectState: () => {}, onSelectEdge: () => {} }),
    )
    expect(html).toMatch(/data-state-id="checkout.paying"[^>]*role="button"[^>]*tabindex="0"/)
    expect(html).toMatch(/data-edge-label="checkout.paying\|xstate.done.actor.pay\|0"[^>]*role="button"/)
    // Buttons inside role="img" would be hidden from assistive technology (axe nested-interactive).
    expect(plain).toMatch(/<svg[^>]*role="img"/)
    expect(html).toMatch(/<svg[^>]*role="group"/)
  })

  it("draws every text line at the position the layout measured", () => {
    const paying = layout.states.find((s) => s.id === "checkout.paying")
    const title = paying?.lines[0]
    expect(title?.text).toBe("paying")
    expect(plain).toContain(`x="${title?.x}" y="${title?.y}"`)
  })

  it("rounds the corners of orthogonal routes", () => {
    expect(
      edgePath([
        { x: 0, y: 0 },
        { x: 10, y: 0 },
      ]),
    ).toBe("M 0 0 L 10 0")
    expect(
      edgePath([
        { x: 0, y: 0 },
        { x: 20, y: 0 },
        { x: 20, y: 20 },
      ]),
    ).toBe("M 0 0 L 14 0 Q 20 0 20 6 L 20 20")
  })
})
