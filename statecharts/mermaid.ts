/**
 * A chart as mermaid `stateDiagram-v2` text: the machine is one outer composite state, nested
 * states are `state "key" as <safe id>{ ... }` blocks (keys repeat across parents, so ids come from
 * the full state id), parallel regions are separated by `--`, a transition is declared in the block
 * of the innermost state holding both ends, and transitions that change no state are notes on their
 * state. Deterministic: the same chart gives the same text.
 *
 * mermaid's state lexer is strict: a transition's text ends at `:`, `;` or a newline, ids may not
 * contain `-`, `:` or spaces, and an id starting with `default` is read as a keyword. Ids are
 * therefore `s_` plus the state id with every other character replaced, and labels swap `:` and
 * `;` for look-alikes.
 */
import { allStates, ancestry, parentsOf } from "./chart.ts"
import type { Chart, ChartState, ChartTransition } from "./types.ts"

/** Look-alikes for the characters that end a mermaid label. */
export const mermaidText = (text: string): string =>
  text
    .replaceAll(":", "\u2236")
    .replaceAll(";", "\u037e")
    .replaceAll('"', "'")
    .replaceAll(/[\r\n]+/g, " ")
    .replaceAll("%%", "% %")

/** `s_` + the state id, `.` → `_`, anything else outside [A-Za-z0-9_] → `_`; unique per chart. */
export const mermaidIds = (chart: Chart): Map<string, string> => {
  const ids = new Map<string, string>()
  const used = new Set<string>()
  const visit = (s: ChartState): void => {
    const base = `s_${s.id.replaceAll(/[^A-Za-z0-9_]/g, "_")}`
    let candidate = base
    for (let n = 2; used.has(candidate); n++) candidate = `${base}_${n}`
    used.add(candidate)
    ids.set(s.id, candidate)
    for (const c of s.children) visit(c)
  }
  visit(chart.root)
  return ids
}

/** `EVENT [guard]`: what mermaid shows on an arrow (actions stay in the SVG and the JSON). */
const arrowText = (t: ChartTransition): string =>
  mermaidText(t.guard === null ? t.eventLabel : `${t.eventLabel} [${t.guard}]`)

export const toMermaid = (chart: Chart): string => {
  const ids = mermaidIds(chart)
  const parents = parentsOf(chart)
  const states = new Map(allStates(chart).map((s): [string, ChartState] => [s.id, s]))
  const idOf = (stateId: string): string => {
    const id = ids.get(stateId)
    if (id === undefined) throw new Error(`unknown state ${stateId}`)
    return id
  }

  // Each transition goes into the block of the innermost state containing both ends, never a
  // parallel state's own block (its body is only regions and `--` dividers).
  const blockOf = (t: ChartTransition, target: string): string => {
    const a = ancestry(parents, t.source)
    const b = ancestry(parents, target)
    let lca = chart.root.id
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] === b[i]) lca = a[i] ?? lca
      else break
    }
    // A self transition belongs to the block its state is declared in.
    if (t.source === target) lca = parents.get(t.source) ?? chart.root.id
    while (states.get(lca)?.type === "parallel" && parents.get(lca) !== null) {
      lca = parents.get(lca) ?? chart.root.id
    }
    return lca
  }
  const arrowsIn = new Map<string, Array<string>>()
  const notesOf = new Map<string, Array<string>>()
  for (const t of chart.transitions) {
    if (t.targets.length === 0) {
      const list = notesOf.get(t.source) ?? []
      list.push(mermaidText(t.label))
      notesOf.set(t.source, list)
      continue
    }
    for (const target of t.targets) {
      const block = blockOf(t, target)
      const list = arrowsIn.get(block) ?? []
      list.push(`${idOf(t.source)} --> ${idOf(target)} : ${arrowText(t)}`)
      arrowsIn.set(block, list)
    }
  }

  const lines: Array<string> = ["stateDiagram-v2", "  direction LR"]
  const describe = (s: ChartState): Array<string> => [
    ...(s.entry.length === 0 ? [] : [`entry / ${s.entry.join(", ")}`]),
    ...(s.exit.length === 0 ? [] : [`exit / ${s.exit.join(", ")}`]),
    ...s.invokes.map((i) => (i.id === i.src ? `invoke ${i.src}` : `invoke ${i.src} (${i.id})`)),
  ]
  const emitNote = (s: ChartState, pad: string): void => {
    const notes = notesOf.get(s.id)
    if (notes === undefined) return
    lines.push(`${pad}note right of ${idOf(s.id)}`, ...notes.map((n) => `${pad}  ${n}`), `${pad}end note`)
  }
  const emit = (s: ChartState, depth: number): void => {
    const pad = "  ".repeat(depth)
    const id = idOf(s.id)
    const label = mermaidText(s.key)
    if (s.children.length === 0) {
      lines.push(`${pad}state "${label}" as ${id}`)
      for (const d of describe(s)) lines.push(`${pad}${id} : ${mermaidText(d)}`)
    } else {
      lines.push(`${pad}state "${label}" as ${id}{`)
      const inner = `${pad}  `
      if (s.initial !== null) lines.push(`${inner}[*] --> ${idOf(s.initial)}`)
      s.children.forEach((c, i) => {
        if (s.type === "parallel" && i > 0) lines.push(`${inner}--`)
        emit(c, depth + 1)
      })
      if (s.type !== "parallel") {
        for (const c of s.children) if (c.type === "final") lines.push(`${inner}${idOf(c.id)} --> [*]`)
      }
      for (const arrow of arrowsIn.get(s.id) ?? []) lines.push(`${inner}${arrow}`)
      lines.push(`${pad}}`)
    }
    emitNote(s, pad)
  }
  lines.push(`  [*] --> ${idOf(chart.root.id)}`)
  emit(chart.root, 1)
  if (chart.root.type === "final") lines.push(`  ${idOf(chart.root.id)} --> [*]`)
  return `${lines.join("\n")}\n`
}
