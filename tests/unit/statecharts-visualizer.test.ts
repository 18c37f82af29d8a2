/**
 * The visualizer machine's pure helpers (machines/statecharts.machine.ts): zoom keeps the point
 * under the cursor still, fit shows the whole chart, the highlight follows the stepped path before
 * the live actor, and the live actor followed is the running one heard from last.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"

import {
  type ChartView,
  fitViewport,
  highlightOf,
  liveActorOf,
  pathsThrough,
  type StatechartsContext,
  zoomAt,
} from "../../machines/statecharts.machine.ts"
import { fixtureCatalog, fixtureChart } from "../../machines/statecharts.model.ts"
import { applyLiveMessage, emptyLiveState } from "../../statecharts/live-model.ts"
import type { LiveMessage } from "../../statecharts/types.ts"

/** The visualizer with the model's fixture chart loaded and nothing selected. */
const loaded = (): StatechartsContext => ({
  catalog: fixtureCatalog,
  requested: fixtureChart.name,
  chart: fixtureChart,
  loadError: null,
  selectedState: null,
  pathIndex: null,
  stepIndex: 0,
  viewport: { scale: 1, x: 0, y: 0 },
  live: emptyLiveState,
  liveRequested: false,
  liveError: null,
  embedApp: false,
})

const snapshotMessage = (sessionId: string, stateIds: ReadonlyArray<string>, at: number): LiveMessage => ({
  type: "snapshot",
  tab: "t",
  sessionId,
  machine: "door",
  systemId: null,
  event: "OPEN",
  status: "active",
  stateIds,
  context: {},
  at,
})

describe("zoomAt", () => {
  it("keeps the chart point under the cursor where it was", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.2, max: 3, noNaN: true }),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.integer({ min: -500, max: 500 }),
        fc.integer({ min: -500, max: 500 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 800 }),
        (scale, factor, x, y, cx, cy) => {
          const before = { scale, x, y }
          const after = zoomAt(before, factor, cx, cy)
          // The chart coordinate under (cx, cy) before and after the zoom.
          expect((cx - after.x) / after.scale).toBeCloseTo((cx - before.x) / before.scale, 6)
          expect((cy - after.y) / after.scale).toBeCloseTo((cy - before.y) / before.scale, 6)
        },
      ),
    )
  })

  it("stays within the scale limits", () => {
    expect(zoomAt({ scale: 1, x: 0, y: 0 }, 1000, 0, 0).scale).toBe(4)
    expect(zoomAt({ scale: 1, x: 0, y: 0 }, 0.0001, 0, 0).scale).toBe(0.1)
  })
})

describe("fitViewport", () => {
  it("shows the whole chart inside the canvas, never enlarged past 1:1", () => {
    const { chart } = loaded()
    if (chart === null) throw new Error("no chart")
    const big = fitViewport(chart.layout, 4000, 3000)
    expect(big.scale).toBe(1)
    const small = fitViewport(chart.layout, 300, 200)
    expect(small.scale).toBeLessThan(1)
    expect(small.x).toBeGreaterThanOrEqual(0)
    expect(small.x + chart.layout.width * small.scale).toBeLessThanOrEqual(300)
  })
})

describe("highlightOf", () => {
  it("shows the current step of a path: its states, the transitions it fired", () => {
    const context = { ...loaded(), pathIndex: 0, stepIndex: 1 }
    const h = highlightOf(context, false)
    expect([...h.active]).toEqual(["door.open"])
    expect([...h.edges]).toEqual(["door.closed|OPEN|0"])
  })

  it("otherwise follows the live actor's leaf states while listening, and nothing when not", () => {
    const base = loaded()
    const context = {
      ...base,
      live: applyLiveMessage(emptyLiveState, snapshotMessage("x:1", ["door", "door.open"], 5)),
    }
    expect([...highlightOf(context, true).active]).toEqual(["door.open"])
    expect([...highlightOf(context, false).active]).toEqual([])
  })
})

describe("liveActorOf", () => {
  it("follows the actor of the charted machine heard from last", () => {
    let live = applyLiveMessage(emptyLiveState, snapshotMessage("x:1", ["door", "door.open"], 5))
    live = applyLiveMessage(live, snapshotMessage("x:2", ["door", "door.closed"], 9))
    expect(liveActorOf({ ...loaded(), live })?.sessionId).toBe("x:2")
  })

  it("prefers a running actor to a stopped one", () => {
    let live = applyLiveMessage(emptyLiveState, snapshotMessage("x:1", ["door", "door.open"], 5))
    live = applyLiveMessage(live, snapshotMessage("x:2", ["door", "door.closed"], 9))
    live = applyLiveMessage(live, { type: "stopped", tab: "t", sessionId: "x:2", machine: "door" })
    expect(liveActorOf({ ...loaded(), live })?.sessionId).toBe("x:1")
  })
})

describe("pathsThrough", () => {
  it("lists the paths whose steps visit the state", () => {
    const chart: ChartView | null = loaded().chart
    if (chart === null) throw new Error("no chart")
    expect(pathsThrough(chart, "door.open")).toEqual([0])
    expect(pathsThrough(chart, "door.closed")).toEqual([0, 1])
  })
})
