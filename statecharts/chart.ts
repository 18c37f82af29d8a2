/**
 * Reads an XState machine into a plain `Chart` (statecharts/types.ts): states with their entry/exit
 * actions, invokes, tags and descriptions, and every transition with a readable label. Walks
 * `machine.root` itself rather than `toDirectedGraph`, which drops `always` edges and guard names.
 *
 * Names are read from the machine's definition only, never from function names: a production build
 * minifies those, and the visualizer must show the same labels as the docs generated in Node.
 */
import {
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  and,
  not,
  or,
  stateIn,
} from "xstate"
import type { Chart, ChartEventKind, ChartInvoke, ChartState, ChartTransition } from "./types.ts"

const ALWAYS = "always"
const AFTER_PREFIX = "xstate.after."
const DONE_ACTOR_PREFIX = "xstate.done.actor."
const ERROR_ACTOR_PREFIX = "xstate.error.actor."
const DONE_STATE_PREFIX = "xstate.done.state."
/** xstate names an inline (non-string) invoke source `xstate.invoke.<generated id>`. */
const INLINE_ACTOR_PREFIX = "xstate.invoke."
/** `sendParent(...)` is `sendTo("#_parent", ...)`. */
const PARENT_TARGET = "#_parent"

const isRecord = (value: unknown): value is Record<string, unknown> =>
  (typeof value === "object" || typeof value === "function") && value !== null

const stringProp = (value: unknown, key: string): string | undefined => {
  if (!isRecord(value)) return undefined
  const v = value[key]
  return typeof v === "string" ? v : undefined
}

// ── Actions ──────────────────────────────────────────────────────────────────────────────────
const eventTypeOf = (event: unknown): string | undefined => stringProp(event, "type")

/** A built-in action creator's result is a function carrying `type: "xstate.<name>"`. */
const builtInActionName = (action: Record<string, unknown>, type: string): string => {
  const name = type.slice("xstate.".length)
  switch (name) {
    case "sendTo": {
      const to = action.to
      if (to === PARENT_TARGET) return "sendParent"
      return typeof to === "string" ? `sendTo(${to})` : "sendTo"
    }
    case "raise": {
      const event = eventTypeOf(action.event)
      return event === undefined ? "raise" : `raise(${event})`
    }
    default:
      return name
  }
}

export const actionName = (action: unknown): string => {
  if (typeof action === "string") return action
  const type = stringProp(action, "type")
  if (typeof action === "function") {
    return type?.startsWith("xstate.") && isRecord(action) ? builtInActionName(action, type) : "inline"
  }
  return type ?? "inline"
}

/**
 * `after` is implemented as an entry `raise` (delayed) and an exit `cancel` of its own event:
 * machinery, not something the machine's author wrote, so it is left out of entry/exit.
 */
const isAfterMachinery = (action: unknown, node: AnyStateNode): boolean => {
  const type = stringProp(action, "type")
  if (type === "xstate.raise") {
    const id = stringProp(action, "id")
    return id?.startsWith(AFTER_PREFIX) === true && id.endsWith(`.${node.id}`)
  }
  if (type === "xstate.cancel") {
    const sendId = stringProp(action, "sendId")
    return sendId?.startsWith(AFTER_PREFIX) === true && sendId.endsWith(`.${node.id}`)
  }
  return false
}

const actionNames = (actions: ReadonlyArray<unknown>, node?: AnyStateNode): Array<string> =>
  actions.filter((a) => node === undefined || !isAfterMachinery(a, node)).map(actionName)

// ── Guards ───────────────────────────────────────────────────────────────────────────────────
/**
 * The built-in combinators are recognised by their `check` function (shared by every instance),
 * not by their function name, which minification loses.
 */
const checkOf = (guard: unknown): unknown => (isRecord(guard) ? guard.check : undefined)
const AND_CHECK = checkOf(and([]))
const OR_CHECK = checkOf(or([]))
const NOT_CHECK = checkOf(not("x"))
const STATE_IN_CHECK = checkOf(stateIn("#x"))

const innerGuards = (guard: Record<string, unknown>): ReadonlyArray<unknown> =>
  Array.isArray(guard.guards) ? guard.guards : []

export const guardLabel = (guard: unknown): string | null => {
  if (guard === undefined || guard === null) return null
  if (typeof guard === "string") return guard
  if (typeof guard === "function" && isRecord(guard)) {
    const check = guard.check
    const inner = (): string =>
      innerGuards(guard)
        .map((g) => guardLabel(g) ?? "?")
        .join(", ")
    if (check !== undefined && check === AND_CHECK) return `and(${inner()})`
    if (check !== undefined && check === OR_CHECK) return `or(${inner()})`
    if (check !== undefined && check === NOT_CHECK) return `not(${inner()})`
    if (check !== undefined && check === STATE_IN_CHECK) {
      const value = guard.stateValue
      return `stateIn(${typeof value === "string" ? value : JSON.stringify(value)})`
    }
    return "inline guard"
  }
  return stringProp(guard, "type") ?? "inline guard"
}

// ── Events ───────────────────────────────────────────────────────────────────────────────────
/** `300 ms`, `5 s`, `1.5 s`, `5 min`. */
export const formatDelay = (ms: number): string => {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(3))} s`
  return `${ms} ms`
}

const delayOf = (t: AnyTransitionDefinition, event: string): string | number => {
  const delay: unknown = isRecord(t) ? t.delay : undefined
  if (typeof delay === "number" || typeof delay === "string") return delay
  // Fallback: `xstate.after.<delay>.<state id>`; the state id follows the delay.
  const rest = event.slice(AFTER_PREFIX.length)
  const source = t.source.id
  const raw = rest.endsWith(`.${source}`) ? rest.slice(0, -source.length - 1) : rest
  return Number.isNaN(Number(raw)) ? raw : Number(raw)
}

interface EventInfo {
  readonly kind: ChartEventKind
  readonly label: string
}

const eventInfo = (machine: AnyStateMachine, t: AnyTransitionDefinition, event: string): EventInfo => {
  if (event === ALWAYS) return { kind: "always", label: "always" }
  if (event.startsWith(AFTER_PREFIX)) {
    const delay = delayOf(t, event)
    if (typeof delay === "number") return { kind: "after", label: `after ${formatDelay(delay)}` }
    const value: unknown = machine.implementations.delays[delay]
    const resolved = typeof value === "number" ? ` (${formatDelay(value)})` : ""
    return { kind: "after", label: `after ${delay}${resolved}` }
  }
  if (event.startsWith(DONE_ACTOR_PREFIX)) {
    return { kind: "done.invoke", label: `done: ${event.slice(DONE_ACTOR_PREFIX.length)}` }
  }
  if (event.startsWith(ERROR_ACTOR_PREFIX)) {
    return { kind: "error.invoke", label: `error: ${event.slice(ERROR_ACTOR_PREFIX.length)}` }
  }
  if (event.startsWith(DONE_STATE_PREFIX)) return { kind: "done.state", label: "done" }
  return { kind: "event", label: event }
}

export const transitionLabel = (
  eventLabel: string,
  guard: string | null,
  actions: ReadonlyArray<string>,
): string =>
  [eventLabel, guard === null ? "" : `[${guard}]`, actions.length === 0 ? "" : `/ ${actions.join(", ")}`]
    .filter((part) => part !== "")
    .join(" ")

// ── States ───────────────────────────────────────────────────────────────────────────────────
const childNodes = (node: AnyStateNode): Array<AnyStateNode> => Object.values(node.states)

/** Pre-order, document order: the order statecharts/paths.ts `indexTransitions` numbers them in. */
export const stateNodesOf = (machine: AnyStateMachine): Array<AnyStateNode> => {
  const out: Array<AnyStateNode> = []
  const visit = (node: AnyStateNode): void => {
    out.push(node)
    for (const child of childNodes(node)) visit(child)
  }
  visit(machine.root)
  return out
}

const invokesOf = (node: AnyStateNode): Array<ChartInvoke> =>
  node.invoke.map((def) => ({
    id: def.id,
    src: typeof def.src === "string" && !def.src.startsWith(INLINE_ACTOR_PREFIX) ? def.src : "inline actor",
  }))

const stateOf = (node: AnyStateNode): ChartState => ({
  id: node.id,
  key: node.parent === undefined ? node.id : node.key,
  type: node.type,
  initial: node.type === "compound" ? (node.initial?.target[0]?.id ?? null) : null,
  entry: actionNames(node.entry, node),
  exit: actionNames(node.exit, node),
  invokes: invokesOf(node),
  tags: [...node.tags],
  description: node.description ?? null,
  children: childNodes(node).map(stateOf),
})

// ── Transitions ──────────────────────────────────────────────────────────────────────────────
const transitionsOf = (
  machine: AnyStateMachine,
  node: AnyStateNode,
  event: string,
  list: ReadonlyArray<AnyTransitionDefinition>,
): Array<ChartTransition> =>
  list.map((t, index) => {
    const info = eventInfo(machine, t, event)
    const guard = guardLabel(t.guard)
    const actions = actionNames(t.actions)
    return {
      key: `${node.id}|${event}|${index}`,
      source: node.id,
      targets: (t.target ?? []).map((target: AnyStateNode) => target.id),
      event,
      kind: info.kind,
      eventLabel: info.label,
      guard,
      actions,
      label: transitionLabel(info.label, guard, actions),
      reenter: t.reenter,
    }
  })

export const chartOf = (machine: AnyStateMachine, name: string): Chart => {
  const transitions: Array<ChartTransition> = []
  for (const node of stateNodesOf(machine)) {
    for (const [event, list] of node.transitions)
      transitions.push(...transitionsOf(machine, node, event, list))
    if (node.always !== undefined) transitions.push(...transitionsOf(machine, node, ALWAYS, node.always))
  }
  return { id: machine.root.id, name, root: stateOf(machine.root), transitions }
}

/** The delay of an `after` transition: its milliseconds or the name of a configured delay. */
export const afterDelay = (transition: ChartTransition): string | number | null => {
  if (transition.kind !== "after") return null
  const rest = transition.event.slice(AFTER_PREFIX.length)
  const raw = rest.endsWith(`.${transition.source}`) ? rest.slice(0, -transition.source.length - 1) : rest
  return Number.isNaN(Number(raw)) || raw === "" ? raw : Number(raw)
}

// ── Queries over a Chart ─────────────────────────────────────────────────────────────────────
export const allStates = (chart: Chart): Array<ChartState> => {
  const out: Array<ChartState> = []
  const visit = (s: ChartState): void => {
    out.push(s)
    for (const c of s.children) visit(c)
  }
  visit(chart.root)
  return out
}

/** Parent id of every state (null for the root). */
export const parentsOf = (chart: Chart): Map<string, string | null> => {
  const parents = new Map<string, string | null>()
  const visit = (s: ChartState, parent: string | null): void => {
    parents.set(s.id, parent)
    for (const c of s.children) visit(c, s.id)
  }
  visit(chart.root, null)
  return parents
}

/** Ids from the root down to `id`, inclusive. */
export const ancestry = (parents: ReadonlyMap<string, string | null>, id: string): Array<string> => {
  const out: Array<string> = []
  let current: string | null | undefined = id
  while (current !== null && current !== undefined) {
    out.unshift(current)
    current = parents.get(current)
  }
  return out
}
