/**
 * Generated-path model of machines/statecharts.machine.ts (the visualizer): catalog and chart
 * outcomes, selecting, stepping and playing a path, zoom/pan/fit/export, and the live channel.
 * Live events are offered only while the chart is plainly explored, and chart events only while
 * live mode is off, so the paths reach every transition without multiplying the two regions.
 */

import { defineModel } from "./model.ts"
import type { CatalogEntry, ChartView } from "./statecharts.machine.ts"
import { statechartsMachine } from "./statecharts.machine.ts"

export const fixtureCatalog: ReadonlyArray<CatalogEntry> = [
  { name: "door", machineId: "door", states: 3, transitions: 2 },
  { name: "lamp", machineId: "lamp", states: 3, transitions: 2 },
]

/** A two-state chart with two generated paths: enough to select, step, play and highlight. */
export const fixtureChart: ChartView = {
  name: "door",
  layout: {
    chart: {
      id: "door",
      name: "door",
      root: {
        id: "door",
        key: "door",
        type: "compound",
        initial: "door.closed",
        entry: [],
        exit: [],
        invokes: [],
        tags: [],
        description: null,
        children: ["closed", "open"].map((key) => ({
          id: `door.${key}`,
          key,
          type: "atomic" as const,
          initial: null,
          entry: [],
          exit: [],
          invokes: [],
          tags: [],
          description: null,
          children: [],
        })),
      },
      transitions: [],
    },
    width: 400,
    height: 200,
    states: [
      {
        id: "door",
        type: "compound",
        x: 0,
        y: 0,
        width: 400,
        height: 200,
        depth: 0,
        parent: null,
        isRegion: false,
        lines: [],
      },
      {
        id: "door.closed",
        type: "atomic",
        x: 20,
        y: 40,
        width: 120,
        height: 40,
        depth: 1,
        parent: "door",
        isRegion: false,
        lines: [],
      },
      {
        id: "door.open",
        type: "atomic",
        x: 240,
        y: 40,
        width: 120,
        height: 40,
        depth: 1,
        parent: "door",
        isRegion: false,
        lines: [],
      },
    ],
    edges: [],
    initials: [],
  },
  paths: [
    {
      id: "OPEN → CLOSE",
      steps: [
        { event: "xstate.init", stateIds: ["door.closed"], visited: ["door", "door.closed"], fired: [] },
        {
          event: "OPEN",
          stateIds: ["door.open"],
          visited: ["door", "door.open"],
          fired: ["door.closed|OPEN|0"],
        },
        {
          event: "CLOSE",
          stateIds: ["door.closed"],
          visited: ["door", "door.closed"],
          fired: ["door.open|CLOSE|0"],
        },
      ],
    },
    {
      id: "",
      steps: [
        { event: "xstate.init", stateIds: ["door.closed"], visited: ["door", "door.closed"], fired: [] },
      ],
    },
  ],
  coverage: { statesCovered: 3, statesTotal: 3, transitionsCovered: 2, transitionsTotal: 2 },
  mermaid: "stateDiagram-v2\n  [*] --> closed\n",
  stately: '{ "id": "door" }\n',
}

export const model = defineModel({
  name: "statecharts",
  machine: statechartsMachine.provide({ actions: { syncUrl: () => {}, download: () => {} } }),
  input: { machine: "lamp" },
  // Events are offered by phase (the harness drops unhandled ones anyway, but offering everything
  // everywhere multiplies the two regions' combinations past the traversal limit).
  events: (snapshot) => {
    const c = snapshot.context
    const ready = snapshot.matches({ chart: "ready" })
    const plain = snapshot.matches({ chart: { ready: "exploring" } }) && c.selectedState === null
    const stepping =
      snapshot.matches({ chart: { ready: "stepping" } }) || snapshot.matches({ chart: { ready: "playing" } })
    const liveOff = snapshot.matches({ live: "off" })
    const chartEvents = [
      ...(plain || snapshot.matches({ chart: "failed" })
        ? [
            { type: "SELECT_MACHINE", name: "door" },
            { type: "SELECT_MACHINE", name: "nosuch" },
          ]
        : []),
      ...(ready && c.pathIndex === null
        ? [
            { type: "SELECT_STATE", id: c.selectedState === null ? "door.open" : "door.nosuch" },
            ...(c.selectedState === null ? [] : [{ type: "CLEAR_SELECTION" }]),
            { type: "SELECT_PATH", index: 0 },
            { type: "SELECT_PATH", index: 9 },
          ]
        : []),
      ...(stepping
        ? [
            { type: "NEXT_STEP" },
            { type: "PREVIOUS_STEP" },
            { type: "GO_TO_STEP", index: 2 },
            { type: "GO_TO_STEP", index: 9 },
            { type: "PLAY" },
            { type: "PAUSE" },
            { type: "CLOSE_PATH" },
            { type: "xstate.after.stepDelay.statecharts.chart.ready.playing" },
          ]
        : []),
      ...(plain
        ? [
            { type: "ZOOM", factor: 2, cx: 100, cy: 100 },
            { type: "PAN", dx: 10, dy: -5 },
            { type: "FIT", width: 800, height: 600 },
            { type: "EXPORT", format: "mermaid" },
          ]
        : []),
    ]
    const liveEvents = plain
      ? [
          { type: "START_LIVE" },
          { type: "STOP_LIVE" },
          { type: "TOGGLE_EMBED" },
          {
            type: "LIVE_MESSAGE",
            message: {
              type: "snapshot",
              tab: "tab-1",
              sessionId: "x:1",
              machine: "door",
              systemId: null,
              event: "OPEN",
              status: "active",
              stateIds: ["door", "door.open"],
              context: {},
              at: 1,
            },
          },
          { type: "xstate.error.actor.liveChannel", error: new Error("no BroadcastChannel") },
        ]
      : []
    return [
      { type: "xstate.done.actor.loadCatalog", output: fixtureCatalog },
      { type: "xstate.done.actor.loadCatalog", output: [] },
      { type: "xstate.error.actor.loadCatalog", error: new Error("chunk failed") },
      { type: "RETRY" },
      { type: "xstate.done.actor.loadChart", output: fixtureChart },
      { type: "xstate.error.actor.loadChart", error: new Error("layout failed") },
      ...(liveOff ? chartEvents : []),
      ...liveEvents,
    ]
  },
  projectContext: (snapshot) => {
    const c = snapshot.context
    return {
      catalog: c.catalog.length,
      chart: c.chart?.name ?? null,
      failed: c.loadError !== null,
      selected: c.selectedState,
      path: c.pathIndex,
      step: c.stepIndex,
      live: c.live.actors.size,
      embed: c.embedApp,
      liveRequested: c.liveRequested,
    }
  },
})
