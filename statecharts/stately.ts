/**
 * A chart as a plain XState machine config (JSON) that a product owner can paste into Stately's
 * editor: states, `on`, `after`, `always`, `invoke` with its `onDone`/`onError`, a compound state's
 * `onDone`, entry/exit and actions by name, guards by name (combinators as their readable text,
 * e.g. `and(a, b)`), `type`, `description`, `tags`. Targets read like hand-written ones: a sibling
 * by key, a child as `.child`, anything else as `#<full id>`. Keys come in a fixed order, so the
 * output is deterministic.
 */
import { afterDelay, allStates, parentsOf } from "./chart.ts"
import type { Chart, ChartState, ChartTransition } from "./types.ts"

export type JsonValue =
  | string
  | number
  | boolean
  | null
  | ReadonlyArray<JsonValue>
  | { readonly [k: string]: JsonValue }
type JsonObject = { [k: string]: JsonValue }

const DONE_ACTOR = "xstate.done.actor."
const ERROR_ACTOR = "xstate.error.actor."
const DONE_STATE = "xstate.done.state."

/** One transition or, when the event has several (guarded alternatives), the list in order. */
const oneOrMany = (list: ReadonlyArray<JsonObject>): JsonValue => (list.length === 1 ? (list[0] ?? {}) : list)

const nonEmpty = (o: JsonObject, key: string, value: ReadonlyArray<string>): void => {
  if (value.length === 1) o[key] = value[0] ?? ""
  else if (value.length > 1) o[key] = [...value]
}

export const toStatelyConfig = (chart: Chart): JsonObject => {
  const parents = parentsOf(chart)
  const states = new Map(allStates(chart).map((s): [string, ChartState] => [s.id, s]))

  const targetRef = (source: string, target: string): string => {
    const t = states.get(target)
    if (t === undefined) return `#${target}`
    const sourceParent = parents.get(source) ?? null
    const targetParent = parents.get(target) ?? null
    if (sourceParent !== null && targetParent === sourceParent) return t.key
    if (targetParent === source) return `.${t.key}`
    return `#${target}`
  }

  const transitionOf = (t: ChartTransition): JsonObject => {
    const o: JsonObject = {}
    if (t.targets.length === 1) o.target = targetRef(t.source, t.targets[0] ?? "")
    else if (t.targets.length > 1) o.target = t.targets.map((target) => targetRef(t.source, target))
    if (t.guard !== null) o.guard = t.guard
    nonEmpty(o, "actions", t.actions)
    if (t.reenter) o.reenter = true
    return o
  }

  /** Transitions of one state, grouped by where they go in the config, in document order. */
  const groupsOf = (s: ChartState) => {
    const on = new Map<string, Array<JsonObject>>()
    const after = new Map<string, Array<JsonObject>>()
    const always: Array<JsonObject> = []
    const onDone: Array<JsonObject> = []
    const invokeDone = new Map<string, Array<JsonObject>>()
    const invokeError = new Map<string, Array<JsonObject>>()
    const invokeIds = new Set(s.invokes.map((i) => i.id))
    const push = (map: Map<string, Array<JsonObject>>, key: string, value: JsonObject): void => {
      const list = map.get(key) ?? []
      list.push(value)
      map.set(key, list)
    }
    for (const t of chart.transitions) {
      if (t.source !== s.id) continue
      const value = transitionOf(t)
      const actorId = t.event.startsWith(DONE_ACTOR)
        ? t.event.slice(DONE_ACTOR.length)
        : t.event.startsWith(ERROR_ACTOR)
          ? t.event.slice(ERROR_ACTOR.length)
          : null
      if (t.kind === "always") always.push(value)
      else if (t.kind === "after") push(after, String(afterDelay(t)), value)
      else if (t.kind === "done.state" && t.event === `${DONE_STATE}${s.id}`) onDone.push(value)
      else if (t.kind === "done.invoke" && actorId !== null && invokeIds.has(actorId))
        push(invokeDone, actorId, value)
      else if (t.kind === "error.invoke" && actorId !== null && invokeIds.has(actorId))
        push(invokeError, actorId, value)
      else push(on, t.event, value)
    }
    return { on, after, always, onDone, invokeDone, invokeError }
  }

  const stateConfig = (s: ChartState, isRoot: boolean): JsonObject => {
    const o: JsonObject = {}
    if (isRoot) o.id = chart.id
    if (s.type === "parallel" || s.type === "final" || s.type === "history") o.type = s.type
    if (s.description !== null) o.description = s.description
    nonEmpty(o, "tags", s.tags)
    if (s.initial !== null) o.initial = states.get(s.initial)?.key ?? s.initial
    nonEmpty(o, "entry", s.entry)
    nonEmpty(o, "exit", s.exit)
    const g = groupsOf(s)
    const invokes = s.invokes.map((inv): JsonObject => {
      const i: JsonObject = { id: inv.id, src: inv.src }
      const done = g.invokeDone.get(inv.id)
      const error = g.invokeError.get(inv.id)
      if (done !== undefined) i.onDone = oneOrMany(done)
      if (error !== undefined) i.onError = oneOrMany(error)
      return i
    })
    if (invokes.length === 1) o.invoke = invokes[0] ?? {}
    else if (invokes.length > 1) o.invoke = invokes
    if (g.on.size > 0) o.on = Object.fromEntries([...g.on].map(([event, list]) => [event, oneOrMany(list)]))
    if (g.after.size > 0) {
      o.after = Object.fromEntries([...g.after].map(([delay, list]) => [delay, oneOrMany(list)]))
    }
    if (g.always.length > 0) o.always = oneOrMany(g.always)
    if (g.onDone.length > 0) o.onDone = oneOrMany(g.onDone)
    if (s.children.length > 0) {
      o.states = Object.fromEntries(s.children.map((c) => [c.key, stateConfig(c, false)]))
    }
    return o
  }

  return stateConfig(chart.root, true)
}
