/**
 * The statechart visualizer and path explorer (/statecharts), for product owners and QA: pick a
 * machine, read its chart, click a state for its details and the generated test paths through it,
 * step through a path with the states highlighted, and (live mode) watch the player app's running
 * actors move, streamed from another tab. Loading, layout and the live channel are I/O the route
 * provides (`provide({ actors })`); the machine itself stays pure like every other flow.
 */
import { assign, fromCallback, fromPromise, setup } from "xstate"
import type { LiveActor, LiveMessage, LiveState } from "../statecharts/live-model.ts"
import { applyLiveMessage, emptyLiveState } from "../statecharts/live-model.ts"
import { type ChartLayout, type Highlight, noHighlight } from "../statecharts/types.ts"

// ── Data the route loads ─────────────────────────────────────────────────────────────────────
export interface CatalogEntry {
  /** The model's name (file stem of machines/<name>.model.ts). */
  readonly name: string
  /** The machine's id: what live inspection reports. */
  readonly machineId: string
  readonly states: number
  readonly transitions: number
}

export interface PathStepView {
  /** Readable event, e.g. `SUBMIT` or `xstate.error.actor.signIn(InvalidCredentials)`. */
  readonly event: string
  /** Active atomic state ids after the step. */
  readonly stateIds: ReadonlyArray<string>
  /** Every state node active at some microstep of the step. */
  readonly visited: ReadonlyArray<string>
  /** Transition keys fired by the step. */
  readonly fired: ReadonlyArray<string>
}

export interface PathView {
  readonly id: string
  readonly steps: ReadonlyArray<PathStepView>
}

export interface CoverageView {
  readonly statesCovered: number
  readonly statesTotal: number
  readonly transitionsCovered: number
  readonly transitionsTotal: number
}

export interface ChartView {
  readonly name: string
  readonly layout: ChartLayout
  /** The generated paths — the same ones the model tests and the e2e path tests run. */
  readonly paths: ReadonlyArray<PathView>
  readonly coverage: CoverageView
  readonly mermaid: string
  /** The Stately editor JSON, pretty-printed. */
  readonly stately: string
}

export type ExportFormat = "svg" | "mermaid" | "stately"

export interface Viewport {
  readonly scale: number
  /** Translation of the chart inside the canvas, in screen pixels. */
  readonly x: number
  readonly y: number
}

export interface StatechartsInput {
  /** From `?machine=`; null shows the first machine. */
  readonly machine: string | null
}

export interface StatechartsContext {
  readonly catalog: ReadonlyArray<CatalogEntry>
  readonly requested: string | null
  readonly chart: ChartView | null
  readonly loadError: string | null
  readonly selectedState: string | null
  readonly pathIndex: number | null
  readonly stepIndex: number
  readonly viewport: Viewport
  readonly live: LiveState
  readonly liveRequested: boolean
  readonly liveError: string | null
  readonly embedApp: boolean
}

export type StatechartsEvent =
  | { readonly type: "SELECT_MACHINE"; readonly name: string }
  | { readonly type: "RETRY" }
  | { readonly type: "SELECT_STATE"; readonly id: string }
  | { readonly type: "CLEAR_SELECTION" }
  | { readonly type: "SELECT_PATH"; readonly index: number }
  | { readonly type: "CLOSE_PATH" }
  | { readonly type: "NEXT_STEP" }
  | { readonly type: "PREVIOUS_STEP" }
  | { readonly type: "GO_TO_STEP"; readonly index: number }
  | { readonly type: "PLAY" }
  | { readonly type: "PAUSE" }
  | { readonly type: "ZOOM"; readonly factor: number; readonly cx: number; readonly cy: number }
  | { readonly type: "PAN"; readonly dx: number; readonly dy: number }
  | { readonly type: "FIT"; readonly width: number; readonly height: number }
  | { readonly type: "EXPORT"; readonly format: ExportFormat }
  | { readonly type: "START_LIVE" }
  | { readonly type: "STOP_LIVE" }
  | { readonly type: "LIVE_MESSAGE"; readonly message: LiveMessage }
  | { readonly type: "TOGGLE_EMBED" }

// ── Pure helpers the machine and the views share ─────────────────────────────────────────────
export const MIN_SCALE = 0.1
export const MAX_SCALE = 4
const FIT_MARGIN = 24

const clampScale = (scale: number): number => Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale))

/** Zoom by `factor` keeping the screen point (cx, cy) fixed under the cursor. */
export const zoomAt = (viewport: Viewport, factor: number, cx: number, cy: number): Viewport => {
  const scale = clampScale(viewport.scale * factor)
  const applied = scale / viewport.scale
  return { scale, x: cx - (cx - viewport.x) * applied, y: cy - (cy - viewport.y) * applied }
}

/** The whole chart visible and centred in a canvas of the given size, never enlarged past 1:1. */
export const fitViewport = (layout: ChartLayout, width: number, height: number): Viewport => {
  if (width <= 0 || height <= 0 || layout.width <= 0 || layout.height <= 0) return { scale: 1, x: 0, y: 0 }
  const scale = clampScale(
    Math.min(1, (width - 2 * FIT_MARGIN) / layout.width, (height - 2 * FIT_MARGIN) / layout.height),
  )
  return {
    scale,
    x: (width - layout.width * scale) / 2,
    y: Math.max(FIT_MARGIN, (height - layout.height * scale) / 2),
  }
}

export const initialViewport: Viewport = { scale: 1, x: 0, y: 0 }

/** Index of the catalog entry to show for a requested name (unknown or none → the first). */
export const catalogIndexOf = (catalog: ReadonlyArray<CatalogEntry>, name: string | null): number => {
  const found = name === null ? -1 : catalog.findIndex((entry) => entry.name === name)
  return found === -1 ? 0 : found
}

export const currentPath = (context: StatechartsContext): PathView | null =>
  context.chart === null || context.pathIndex === null
    ? null
    : (context.chart.paths[context.pathIndex] ?? null)

export const currentStep = (context: StatechartsContext): PathStepView | null =>
  currentPath(context)?.steps[context.stepIndex] ?? null

/** The generated paths that pass through a state (active at some microstep of some step). */
export const pathsThrough = (chart: ChartView, stateId: string): Array<number> =>
  chart.paths.flatMap((path, index) =>
    path.steps.some((step) => step.visited.includes(stateId)) ? [index] : [],
  )

/** The running actor of the charted machine most recently heard from (else the last stopped one). */
export const liveActorOf = (context: StatechartsContext): LiveActor | null => {
  const chart = context.chart
  if (chart === null) return null
  const machineId = chart.layout.chart.id
  let latest: LiveActor | null = null
  for (const actor of context.live.actors.values()) {
    if (actor.machine !== machineId) continue
    const better =
      latest === null ||
      (latest.stopped && !actor.stopped) ||
      (latest.stopped === actor.stopped && actor.updatedAt >= latest.updatedAt)
    if (better) latest = actor
  }
  return latest
}

export const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === "string" ? error : "Unknown error"

// ── Actors the route provides ────────────────────────────────────────────────────────────────
const notProvided = (name: string) => () =>
  Promise.reject(new Error(`${name} is provided by the /statecharts route`))

export const statechartsMachine = setup({
  types: {
    input: {} as StatechartsInput,
    context: {} as StatechartsContext,
    events: {} as StatechartsEvent,
  },
  actors: {
    loadCatalog: fromPromise<ReadonlyArray<CatalogEntry>>(notProvided("loadCatalog")),
    loadChart: fromPromise<ChartView, { readonly name: string }>(notProvided("loadChart")),
    /** Listens on the live channel, says hello, and sends LIVE_MESSAGE for each valid message. */
    liveChannel: fromCallback<StatechartsEvent>(() => {
      throw new Error("liveChannel is provided by the /statecharts route")
    }),
  },
  actions: {
    /** Keeps `?machine=` in the address bar, so a link shows the same chart. */
    syncUrl: (_, _params: { machine: string; live: boolean }) => {},
    /** Saves the export as a file (the route serializes the drawn SVG itself). */
    download: (_, _params: { format: ExportFormat; name: string; content: string }) => {},
  },
  guards: {
    hasCatalog: ({ context }) => context.catalog.length > 0,
    isKnownMachine: ({ context, event }) =>
      event.type === "SELECT_MACHINE" && context.catalog.some((entry) => entry.name === event.name),
    isKnownPath: ({ context, event }) =>
      event.type === "SELECT_PATH" &&
      context.chart !== null &&
      event.index >= 0 &&
      event.index < context.chart.paths.length,
    isKnownState: ({ context, event }) =>
      event.type === "SELECT_STATE" &&
      context.chart !== null &&
      context.chart.layout.states.some((box) => box.id === event.id),
    hasNextStep: ({ context }) => {
      const path = currentPath(context)
      return path !== null && context.stepIndex < path.steps.length - 1
    },
    hasPreviousStep: ({ context }) => context.stepIndex > 0,
    isStepInPath: ({ context, event }) => {
      const path = currentPath(context)
      return (
        event.type === "GO_TO_STEP" && path !== null && event.index >= 0 && event.index < path.steps.length
      )
    },
  },
  delays: {
    /** How long each step of a playing path stays on screen. */
    stepDelay: 900,
  },
}).createMachine({
  id: "statecharts",
  context: ({ input }) => ({
    catalog: [],
    requested: input.machine,
    chart: null,
    loadError: null,
    selectedState: null,
    pathIndex: null,
    stepIndex: 0,
    viewport: initialViewport,
    live: emptyLiveState,
    liveRequested: false,
    liveError: null,
    embedApp: false,
  }),
  // Two independent regions: the chart being read, and the live connection to player tabs (which
  // may start before the catalog has loaded, e.g. from `?live=1`).
  type: "parallel",
  states: {
    chart: {
      initial: "loadingCatalog",
      on: {
        SELECT_MACHINE: {
          guard: "isKnownMachine",
          target: ".loading",
          actions: assign({ requested: ({ event }) => event.name }),
        },
      },
      states: {
        loadingCatalog: {
          invoke: {
            id: "loadCatalog",
            src: "loadCatalog",
            onDone: {
              target: "checkingCatalog",
              actions: assign({ catalog: ({ event }) => event.output, loadError: null }),
            },
            onError: {
              target: "catalogFailed",
              actions: assign({ loadError: ({ event }) => errorMessage(event.error) }),
            },
          },
        },
        /** An empty catalog is a failure too: the build found no machines. */
        checkingCatalog: {
          always: [
            { guard: "hasCatalog", target: "loading" },
            { target: "catalogFailed", actions: assign({ loadError: "No machine models were found." }) },
          ],
        },
        catalogFailed: {
          on: { RETRY: "loadingCatalog" },
        },
        loading: {
          entry: assign({
            selectedState: null,
            pathIndex: null,
            stepIndex: 0,
            loadError: null,
            requested: ({ context }) =>
              context.catalog[catalogIndexOf(context.catalog, context.requested)]?.name ?? null,
          }),
          invoke: {
            id: "loadChart",
            src: "loadChart",
            input: ({ context }) => ({ name: context.requested ?? "" }),
            onDone: {
              target: "ready",
              actions: [
                assign({ chart: ({ event }) => event.output, viewport: initialViewport }),
                {
                  type: "syncUrl",
                  params: ({ context, event }) => ({
                    machine: event.output.name,
                    live: context.liveRequested,
                  }),
                },
              ],
            },
            onError: {
              target: "failed",
              actions: assign({ chart: null, loadError: ({ event }) => errorMessage(event.error) }),
            },
          },
        },
        failed: {
          on: { RETRY: "loading" },
        },
        ready: {
          initial: "exploring",
          on: {
            SELECT_STATE: {
              guard: "isKnownState",
              actions: assign({ selectedState: ({ event }) => event.id }),
            },
            CLEAR_SELECTION: { actions: assign({ selectedState: null }) },
            SELECT_PATH: {
              guard: "isKnownPath",
              target: ".stepping",
              actions: assign({ pathIndex: ({ event }) => event.index, stepIndex: 0 }),
            },
            ZOOM: {
              actions: assign({
                viewport: ({ context, event }) => zoomAt(context.viewport, event.factor, event.cx, event.cy),
              }),
            },
            PAN: {
              actions: assign({
                viewport: ({ context, event }) => ({
                  ...context.viewport,
                  x: context.viewport.x + event.dx,
                  y: context.viewport.y + event.dy,
                }),
              }),
            },
            FIT: {
              actions: assign({
                viewport: ({ context, event }) =>
                  context.chart === null
                    ? context.viewport
                    : fitViewport(context.chart.layout, event.width, event.height),
              }),
            },
            EXPORT: {
              actions: {
                type: "download",
                params: ({ context, event }) => ({
                  format: event.format,
                  name: context.chart?.name ?? "chart",
                  content:
                    event.format === "mermaid"
                      ? (context.chart?.mermaid ?? "")
                      : event.format === "stately"
                        ? (context.chart?.stately ?? "")
                        : "",
                }),
              },
            },
          },
          states: {
            exploring: {},
            stepping: {
              on: {
                NEXT_STEP: {
                  guard: "hasNextStep",
                  actions: assign({ stepIndex: ({ context }) => context.stepIndex + 1 }),
                },
                PREVIOUS_STEP: {
                  guard: "hasPreviousStep",
                  actions: assign({ stepIndex: ({ context }) => context.stepIndex - 1 }),
                },
                GO_TO_STEP: {
                  guard: "isStepInPath",
                  actions: assign({ stepIndex: ({ event }) => event.index }),
                },
                PLAY: "playing",
                CLOSE_PATH: { target: "exploring", actions: assign({ pathIndex: null, stepIndex: 0 }) },
              },
            },
            /** Steps forward on a timer until the path ends or the person pauses. */
            playing: {
              after: {
                stepDelay: [
                  {
                    guard: "hasNextStep",
                    target: "playing",
                    reenter: true,
                    actions: assign({ stepIndex: ({ context }) => context.stepIndex + 1 }),
                  },
                  { target: "stepping" },
                ],
              },
              on: {
                PAUSE: "stepping",
                CLOSE_PATH: { target: "exploring", actions: assign({ pathIndex: null, stepIndex: 0 }) },
              },
            },
          },
        },
      },
    },
    live: {
      initial: "off",
      states: {
        off: {
          entry: assign({ liveRequested: false, live: emptyLiveState, embedApp: false }),
          on: {
            START_LIVE: { target: "listening", actions: assign({ liveRequested: true, liveError: null }) },
          },
        },
        listening: {
          invoke: {
            id: "liveChannel",
            src: "liveChannel",
            onError: {
              target: "unavailable",
              actions: assign({ liveError: ({ event }) => errorMessage(event.error) }),
            },
          },
          on: {
            LIVE_MESSAGE: {
              actions: assign({
                live: ({ context, event }) => applyLiveMessage(context.live, event.message),
              }),
            },
            TOGGLE_EMBED: { actions: assign({ embedApp: ({ context }) => !context.embedApp }) },
            STOP_LIVE: { target: "off", actions: assign({ liveError: null }) },
          },
        },
        unavailable: {
          entry: assign({ live: emptyLiveState, embedApp: false }),
          on: {
            START_LIVE: { target: "listening", actions: assign({ liveError: null }) },
            STOP_LIVE: { target: "off", actions: assign({ liveError: null }) },
          },
        },
      },
    },
  },
})

/**
 * What the diagram emphasizes: the current step of the path being stepped through (its states,
 * the states it passed through, the transitions it fired), otherwise the live actor's current
 * states, plus the selected state.
 */
export const highlightOf = (context: StatechartsContext, liveListening: boolean): Highlight => {
  const chart = context.chart
  if (chart === null) return { ...noHighlight, selected: context.selectedState }
  const leaves = new Set(
    chart.layout.states.filter((box) => box.type === "atomic" || box.type === "final").map((box) => box.id),
  )
  const step = currentStep(context)
  if (step !== null) {
    return {
      active: new Set(step.stateIds),
      visited: new Set(step.visited.filter((id) => leaves.has(id) && !step.stateIds.includes(id))),
      edges: new Set(step.fired),
      selected: context.selectedState,
    }
  }
  const actor = liveListening ? liveActorOf(context) : null
  if (actor !== null) {
    return {
      active: new Set(actor.stateIds.filter((id) => leaves.has(id))),
      visited: new Set(),
      edges: new Set(),
      selected: context.selectedState,
    }
  }
  return { ...noHighlight, selected: context.selectedState }
}
