/**
 * What the /statecharts route provides to the visualizer machine: the machine catalog (every
 * <machine>.model.ts under machines/, found by the bundler — a new machine shows up with no edit here), a chart
 * (chart data, elkjs layout, the generated paths and their coverage, the exports), the live channel
 * from player tabs, and the DOM effects (address bar, downloads).
 */

import { Effect, Schema } from "effect"
import { fromCallback } from "xstate"
import {
  type CatalogEntry,
  type ChartView,
  type ExportFormat,
  errorMessage,
  type PathView,
  type StatechartsEvent,
} from "../../machines/statecharts.machine.ts"
import { fromEffect } from "../../services/bridge.ts"
import { chartOf } from "../../statecharts/chart.ts"
import { layoutChart } from "../../statecharts/layout.ts"
import { isLiveMessage } from "../../statecharts/live-model.ts"
import { toMermaid } from "../../statecharts/mermaid.ts"
import { flowOfFile, pickModel } from "../../statecharts/models.ts"
import {
  type AnyModel,
  allStateNodes,
  coverageOf,
  eventLabel,
  generatePaths,
  indexTransitions,
} from "../../statecharts/paths.ts"
import { toStatelyConfig } from "../../statecharts/stately.ts"
import { LIVE_CHANNEL } from "../../statecharts/types.ts"

/** A model module could not be loaded, or a chart could not be drawn. */
export class ChartUnavailable extends Schema.TaggedError<ChartUnavailable>()("ChartUnavailable", {
  message: Schema.String,
}) {}

// Lazy: each model is its own import, so the catalog costs only what the machines already cost.
const modelModules = import.meta.glob("../../machines/**/*.model.ts")

interface LoadedModel {
  readonly flow: string
  readonly model: AnyModel
}

const loadModel = (file: string, load: () => Promise<unknown>) =>
  Effect.tryPromise({
    try: async (): Promise<LoadedModel> => ({ flow: flowOfFile(file), model: pickModel(await load(), file) }),
    catch: (cause) => new ChartUnavailable({ message: `${flowOfFile(file)}: ${errorMessage(cause)}` }),
  })

const loadModels = Effect.forEach(
  Object.entries(modelModules).sort(([a], [b]) => flowOfFile(a).localeCompare(flowOfFile(b))),
  ([file, load]) => loadModel(file, load),
  { concurrency: "unbounded" },
).pipe(Effect.cached)

export const loadCatalog = Effect.flatten(loadModels).pipe(
  Effect.map(
    (models): ReadonlyArray<CatalogEntry> =>
      models.map(({ flow, model }) => ({
        name: flow,
        machineId: model.machine.id,
        states: allStateNodes(model.machine).length,
        transitions: indexTransitions(model.machine).all.length,
      })),
  ),
)

// elkjs is most of the route's weight: its own chunk, fetched once, on the first chart.
const elk = Effect.tryPromise({
  try: async () => new (await import("elkjs/lib/elk.bundled.js")).default(),
  catch: (cause) =>
    new ChartUnavailable({ message: `The layout engine did not load: ${errorMessage(cause)}` }),
}).pipe(Effect.cached)

const pathViews = (
  model: AnyModel,
): { paths: ReadonlyArray<PathView>; generated: ReturnType<typeof generatePaths> } => {
  const generated = generatePaths(model)
  return {
    generated,
    paths: generated.map((path) => ({
      id: path.id,
      steps: path.steps.map((step) => ({
        event: eventLabel(step.event),
        stateIds: step.stateIds,
        visited: step.visited,
        fired: step.fired,
      })),
    })),
  }
}

export const loadChart = (name: string) =>
  Effect.gen(function* () {
    const models = yield* Effect.flatten(loadModels)
    const found = models.find((m) => m.flow === name)
    if (found === undefined) return yield* new ChartUnavailable({ message: `No machine named ${name}` })
    const chart = yield* Effect.try({
      try: () => chartOf(found.model.machine, found.flow),
      catch: (cause) => new ChartUnavailable({ message: `${name}: ${errorMessage(cause)}` }),
    })
    const engine = yield* Effect.flatten(elk)
    const layout = yield* Effect.tryPromise({
      try: () => layoutChart(chart, engine),
      catch: (cause) => new ChartUnavailable({ message: `${name}: layout failed: ${errorMessage(cause)}` }),
    })
    const { paths, generated } = yield* Effect.try({
      try: () => pathViews(found.model),
      catch: (cause) =>
        new ChartUnavailable({ message: `${name}: path generation failed: ${errorMessage(cause)}` }),
    })
    const coverage = coverageOf(found.model, generated)
    const view: ChartView = {
      name,
      layout,
      paths,
      coverage: {
        statesCovered: coverage.statesCovered,
        statesTotal: coverage.statesTotal,
        transitionsCovered: coverage.transitionsCovered,
        transitionsTotal: coverage.transitionsTotal,
      },
      mermaid: toMermaid(chart),
      stately: `${JSON.stringify(toStatelyConfig(chart), null, 2)}\n`,
    }
    return view
  })

export const loadCatalogActor = fromEffect(() => loadCatalog)
export const loadChartActor = fromEffect((input: { readonly name: string }) => loadChart(input.name))

/**
 * Listens to player tabs in live mode. On start it says hello, so tabs already open answer with
 * their actors' current states. Messages are untrusted input: anything malformed is dropped.
 */
export const liveChannelActor = fromCallback<StatechartsEvent>(({ sendBack }) => {
  if (typeof BroadcastChannel === "undefined") throw new Error("This browser has no BroadcastChannel.")
  const channel = new BroadcastChannel(LIVE_CHANNEL)
  channel.onmessage = (message: MessageEvent<unknown>) => {
    if (isLiveMessage(message.data)) sendBack({ type: "LIVE_MESSAGE", message: message.data })
  }
  channel.postMessage({ type: "hello" })
  return () => channel.close()
})

// ── DOM effects ──────────────────────────────────────────────────────────────────────────────
export const syncUrl = (machine: string, live: boolean): void => {
  const url = new URL(window.location.href)
  if (machine === "") url.searchParams.delete("machine")
  else url.searchParams.set("machine", machine)
  if (live) url.searchParams.set("live", "1")
  else url.searchParams.delete("live")
  const next = `${url.pathname}${url.search}${url.hash}`
  if (next !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
    window.history.replaceState(null, "", next)
  }
}

const EXTENSIONS: Record<ExportFormat, { readonly suffix: string; readonly mime: string }> = {
  svg: { suffix: ".svg", mime: "image/svg+xml" },
  mermaid: { suffix: ".mmd", mime: "text/plain" },
  stately: { suffix: ".stately.json", mime: "application/json" },
}

/** The drawn chart as a standalone SVG file (the renderer puts every style in attributes). */
const drawnSvg = (name: string): string => {
  const svg = document.querySelector(`svg[data-chart="${CSS.escape(name)}"]`)
  if (svg === null) return ""
  const copy = svg.cloneNode(true)
  if (copy instanceof SVGSVGElement) copy.removeAttribute("style")
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}\n`
}

export const download = (format: ExportFormat, name: string, content: string): void => {
  const { suffix, mime } = EXTENSIONS[format]
  const body = format === "svg" ? drawnSvg(name) : content
  if (body === "") return
  const url = URL.createObjectURL(new Blob([body], { type: mime }))
  const link = document.createElement("a")
  link.href = url
  link.download = `${name}${suffix}`
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
