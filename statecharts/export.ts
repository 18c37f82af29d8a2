/**
 * The static statechart docs (docs/statecharts/), rendered in memory: for every machine model an
 * SVG, a mermaid file and a Stately JSON config, plus a README with a table and every diagram.
 * `npm run docs:statecharts` (scripts/statecharts.ts) writes them; tests/unit/statecharts-docs.test.ts
 * compares them with the committed files. Node only (ELK and react-dom/server).
 */
import ELK from "elkjs/lib/elk.bundled.js"
import { allStates, chartOf } from "./chart.ts"
import type { LoadedModel } from "./discover.ts"
import { type ElkLike, layoutChart } from "./layout.ts"
import { toMermaid } from "./mermaid.ts"
import { renderChartSvgString } from "./render-static.ts"
import { toStatelyConfig } from "./stately.ts"
import type { Chart } from "./types.ts"

/** Relative to the repository root. */
export const STATECHART_DOCS_DIR = "docs/statecharts"

/** The files one machine gets, relative to STATECHART_DOCS_DIR. */
export const machineFiles = (flow: string) =>
  ({ svg: `${flow}.svg`, mermaid: `${flow}.mmd`, stately: `${flow}.stately.json` }) as const

export interface RenderedMachine {
  readonly flow: string
  readonly chart: Chart
}

const readme = (machines: ReadonlyArray<RenderedMachine>): string => {
  const rows = machines.map(({ flow, chart }) => {
    const f = machineFiles(flow)
    const states = allStates(chart).length - 1
    return `| [${flow}](#${flow.toLowerCase()}) | \`${chart.id}\` | ${states} | ${chart.transitions.length} | [SVG](${f.svg}) · [mermaid](${f.mermaid}) · [Stately JSON](${f.stately}) |`
  })
  const sections = machines.flatMap(({ flow }) => {
    const f = machineFiles(flow)
    return [`## ${flow}`, "", `![${flow} statechart](${f.svg})`, ""]
  })
  return [
    "# Statecharts",
    "",
    "Generated from every `<machine>.model.ts` under `machines/` by `npm run docs:statecharts` (scripts/statecharts.ts);",
    "do not edit by hand. `tests/unit/statecharts-docs.test.ts` fails when these files are stale.",
    "",
    "- **SVG**: the diagram the /statecharts page draws (states with their entry/exit actions, invoked",
    '  actors and transitions that change no state; a "from any state" chip starts a state\'s',
    "  transitions into its own children).",
    "- **mermaid**: `stateDiagram-v2` text, for any mermaid viewer.",
    "- **Stately JSON**: a machine config to paste into Stately's editor (actions, guards and actors by",
    "  name).",
    "",
    "States count every state node below the machine's root; transitions count every transition",
    "definition (each guarded alternative, invoke outcome and timer), as the model coverage does.",
    "",
    "| machine | id | states | transitions | files |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    ...sections,
  ].join("\n")
}

/**
 * Every docs file, path (relative to STATECHART_DOCS_DIR) → content, in a stable order. One ELK
 * instance serves all machines.
 */
export const renderStatechartDocs = async (
  models: ReadonlyArray<LoadedModel>,
  elk: ElkLike = new ELK(),
): Promise<Map<string, string>> => {
  const files = new Map<string, string>()
  const machines: Array<RenderedMachine> = []
  for (const { flow, model } of [...models].sort((a, b) => a.flow.localeCompare(b.flow))) {
    const chart = chartOf(model.machine, flow)
    const layout = await layoutChart(chart, elk)
    const f = machineFiles(flow)
    files.set(f.svg, renderChartSvgString(layout))
    files.set(f.mermaid, toMermaid(chart))
    files.set(f.stately, `${JSON.stringify(toStatelyConfig(chart), null, 2)}\n`)
    machines.push({ flow, chart })
  }
  files.set("README.md", readme(machines))
  return files
}

export interface DocsDiff {
  readonly missing: ReadonlyArray<string>
  readonly stale: ReadonlyArray<string>
  /** Files in the directory that no machine produces any more. */
  readonly extra: ReadonlyArray<string>
}

/** Compares rendered files with what the directory holds (`existing`: name → content). */
export const diffDocs = (
  rendered: ReadonlyMap<string, string>,
  existing: ReadonlyMap<string, string>,
): DocsDiff => ({
  missing: [...rendered.keys()].filter((k) => !existing.has(k)).sort(),
  stale: [...rendered]
    .filter(([k, v]) => existing.has(k) && existing.get(k) !== v)
    .map(([k]) => k)
    .sort(),
  extra: [...existing.keys()].filter((k) => !rendered.has(k)).sort(),
})

export const isFresh = (diff: DocsDiff): boolean =>
  diff.missing.length + diff.stale.length + diff.extra.length === 0

export const describeDiff = (diff: DocsDiff): Array<string> => [
  ...diff.missing.map((f) => `missing: ${STATECHART_DOCS_DIR}/${f}`),
  ...diff.stale.map((f) => `stale: ${STATECHART_DOCS_DIR}/${f}`),
  ...diff.extra.map((f) => `no longer generated: ${STATECHART_DOCS_DIR}/${f}`),
]
