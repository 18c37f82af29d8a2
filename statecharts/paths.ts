/**
 * Generated path tests from a machine's model (machines/<flow>.model.ts, contract in machines/model.ts).
 *
 * - `generatePaths(model)` walks the machine with the pure transition function (`xstate/graph`
 *   shortest paths). A vertex is keyed by `projected state + incoming event + the transitions that
 *   event fired + the projected previous state`, so the shortest paths reach every TRANSITION, not
 *   only every state. Paths that are prefixes of longer ones are dropped.
 * - Every step records the transitions it fired (all microsteps: the event's own transition, raised
 *   events, `always` transitions, a compound state's `onDone`), observed through XState's inspection
 *   events, and identified against the machine's own transition definitions.
 * - `coverageOf(model, paths)` compares those with every transition of every state node
 *   (`node.transitions`, which includes invoke outcomes and `after` timers, plus `node.always`) and
 *   checks the model's `uncovered` allow-list both ways (unexplained gaps and stale entries).
 * - `replayOnActor(model, path)` runs a path on a real actor whose invoked actors are never-resolving
 *   doubles and whose clock is simulated, so only the path's events move it.
 * - A model may name further inputs (`otherInputs`): the paths from each are generated too (their ids
 *   start with `(name)`), so a choice the machine makes on its input is covered; each path replays
 *   with the input it started from.
 *
 * The same paths drive the Playwright tests (tests/e2e/paths.spec.ts).
 */
import {
  type AnyActorScope,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  createActor,
  createEmptyActor,
  type EventObject,
  fromPromise,
  type InspectionEvent,
  SimulatedClock,
  type StateValue,
} from "xstate"
import { getShortestPaths, getStateNodes } from "xstate/graph"
import type { MachineModel, NamedInput, UncoveredTransition } from "../machines/model.ts"

export type AnyModel = MachineModel<AnyStateMachine>

/** One transition definition of the machine, identified independently of object identity. */
export interface TransitionInfo {
  /** `<source state id>|<event type or "always">|<index among that node's transitions for the event>` */
  readonly key: string
  readonly from: string
  readonly event: string
  readonly index: number
  /** Human-readable: `login.editing —SUBMIT [isValid]→ login.submitting`. */
  readonly label: string
}

export interface PathStep {
  /** `xstate.init` for the first step. */
  readonly event: EventObject
  readonly value: StateValue
  readonly status: string
  /** Ids of the active atomic (and final) state nodes, sorted: what a view binding asserts. */
  readonly stateIds: ReadonlyArray<string>
  /** The model's projection of the context (or the whole context, made JSON-safe). */
  readonly context: unknown
  /** Keys of the transitions this step fired, in order. */
  readonly fired: ReadonlyArray<string>
  /** Every state node active at some microstep of this step, transient ones included. */
  readonly visited: ReadonlyArray<string>
}

export interface GeneratedPath {
  /** Stable, readable id: the event types joined by " → " (after `(name) ` for a path from `start`). */
  readonly id: string
  /** The model's other input this path starts with (`MachineModel.otherInputs`); absent: `input`. */
  readonly start?: NamedInput
  readonly steps: ReadonlyArray<PathStep>
}

/** The input a path's actor is created with. */
export const inputOf = (model: AnyModel, path: GeneratedPath): unknown =>
  path.start === undefined ? model.input : path.start.input

export interface CoverageReport {
  readonly name: string
  readonly statesTotal: number
  readonly statesCovered: number
  readonly transitionsTotal: number
  readonly transitionsCovered: number
  readonly allowListed: number
  readonly paths: number
  readonly uncoveredStates: ReadonlyArray<string>
  readonly uncoveredTransitions: ReadonlyArray<TransitionInfo & { readonly allowListed: string | null }>
  /** Non-empty ⇒ the run fails: unexplained gaps, stale or unknown allow-list entries. */
  readonly problems: ReadonlyArray<string>
}

const ALWAYS = "always"
const DEFAULT_TRAVERSAL_LIMIT = 20_000

// ── JSON-safe, deterministic serialization ───────────────────────────────────────────────────
const isActorRefLike = (v: object): v is { readonly id: string; readonly sessionId: string } =>
  "sessionId" in v && "send" in v && "id" in v

const sortedKeys = (o: object): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(o).sort()) out[k] = (o as Record<string, unknown>)[k]
  return out
}

/** JSON that never throws: bigint, Error, Map, Set, actor refs and functions get a stable form. */
export const safeJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "bigint") return `${v.toString()}n`
    if (typeof v === "function" || typeof v === "symbol") return undefined
    if (v instanceof Error) return { error: v.name, message: v.message, ...sortedKeys(v) }
    if (v instanceof Map) return { map: [...v.entries()] }
    if (v instanceof Set) return { set: [...v.values()] }
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      if (isActorRefLike(v)) return `[actor ${v.id}]`
      return sortedKeys(v)
    }
    return v
  }) ?? "undefined"

/** A JSON round-trip of `safeJson`, so expected and observed projections compare structurally. */
const plain = (value: unknown): unknown => {
  const json = safeJson(value)
  return json === "undefined" ? undefined : (JSON.parse(json) as unknown)
}

// ── Transitions of a machine ─────────────────────────────────────────────────────────────────
const guardName = (t: AnyTransitionDefinition): string | undefined => {
  const g: unknown = t.guard
  if (g === undefined) return undefined
  if (typeof g === "string") return g
  if (typeof g === "object" && g !== null && "type" in g && typeof g.type === "string") return g.type
  if (typeof g === "function") return g.name !== "" ? g.name : "inline guard"
  return "guard"
}

const targetLabel = (t: AnyTransitionDefinition): string =>
  t.target === undefined || t.target.length === 0
    ? "(no target)"
    : t.target.map((n: AnyStateNode) => n.id).join(", ")

export const allStateNodes = (machine: AnyStateMachine): ReadonlyArray<AnyStateNode> =>
  getStateNodes(machine.root)

export interface TransitionIndex {
  readonly all: ReadonlyArray<TransitionInfo>
  readonly byDefinition: Map<AnyTransitionDefinition, TransitionInfo>
}

export const indexTransitions = (machine: AnyStateMachine): TransitionIndex => {
  const all: Array<TransitionInfo> = []
  const byDefinition = new Map<AnyTransitionDefinition, TransitionInfo>()
  const add = (node: AnyStateNode, event: string, list: ReadonlyArray<AnyTransitionDefinition>): void => {
    list.forEach((t, index) => {
      const guard = guardName(t)
      const info: TransitionInfo = {
        key: `${node.id}|${event}|${index}`,
        from: node.id,
        event,
        index,
        label: `${node.id} —${event}${guard === undefined ? "" : ` [${guard}]`}→ ${targetLabel(t)}`,
      }
      all.push(info)
      byDefinition.set(t, info)
    })
  }
  for (const node of [machine.root, ...allStateNodes(machine)]) {
    for (const [event, list] of node.transitions) add(node, event, list)
    if (node.always !== undefined) add(node, ALWAYS, node.always)
  }
  return { all, byDefinition }
}

// ── Pure, traced transitions ─────────────────────────────────────────────────────────────────
/** A fresh inert scope per call (like xstate's own `transition()`), whose inspection we observe. */
interface MicrostepLog {
  readonly transitions: Array<AnyTransitionDefinition>
  readonly visited: Set<string>
}

const newLog = (): MicrostepLog => ({ transitions: [], visited: new Set() })

/** Records a microstep: the transitions it took and every state node active after it. */
const record = (log: MicrostepLog, event: InspectionEvent): void => {
  if (event.type !== "@xstate.microstep") return
  log.transitions.push(...event._transitions)
  const snapshot = event.snapshot
  if (
    typeof snapshot === "object" &&
    snapshot !== null &&
    "_nodes" in snapshot &&
    Array.isArray(snapshot._nodes)
  ) {
    for (const node of snapshot._nodes as ReadonlyArray<AnyStateNode>) log.visited.add(node.id)
  }
}

const tracingScope = (log: MicrostepLog): AnyActorScope => {
  const self = createEmptyActor()
  // Child machines created during the step report their own microsteps: keep only ours.
  self.system.inspect((event: InspectionEvent) => {
    if (event.actorRef === self) record(log, event)
  })
  return {
    self,
    id: "",
    sessionId: "",
    logger: () => {},
    defer: () => {},
    emit: () => {},
    system: self.system,
    stopChild: () => {},
    actionExecutor: () => {},
  }
}

const keysOf = (index: TransitionIndex, transitions: ReadonlyArray<AnyTransitionDefinition>): Array<string> =>
  transitions.map((t) => {
    const info = index.byDefinition.get(t)
    if (info === undefined)
      throw new Error(`A fired transition is not among the machine's own: ${safeJson(t)}`)
    return info.key
  })

export interface Traced {
  readonly snapshot: AnyMachineSnapshot
  readonly fired: ReadonlyArray<string>
  /** Every state node active at some microstep of this step (transient ones included), sorted. */
  readonly visited: ReadonlyArray<string>
}

/**
 * The start's first microstep (entering the initial states) is not reported: when eventless
 * transitions leave the initial states at once, those states (and their ancestors) are known only as
 * the sources of the transitions the start fired.
 */
const recordInitialSources = (log: MicrostepLog): void => {
  for (const t of log.transitions) {
    for (let node: AnyStateNode | undefined = t.source; node !== undefined; node = node.parent) {
      log.visited.add(node.id)
    }
  }
}

const tracedOf = (index: TransitionIndex, log: MicrostepLog, snapshot: AnyMachineSnapshot): Traced => {
  for (const node of snapshot._nodes) log.visited.add(node.id)
  return { snapshot, fired: keysOf(index, log.transitions), visited: [...log.visited].sort() }
}

export const tracedInitial = (
  model: AnyModel,
  index: TransitionIndex,
  input: unknown = model.input,
): Traced => {
  const log = newLog()
  const snapshot = model.machine.getInitialSnapshot(tracingScope(log), input) as AnyMachineSnapshot
  recordInitialSources(log)
  return tracedOf(index, log, snapshot)
}

export const tracedTransition = (
  model: AnyModel,
  index: TransitionIndex,
  snapshot: AnyMachineSnapshot,
  event: EventObject,
): Traced => {
  const log = newLog()
  const next = model.machine.transition(snapshot, event, tracingScope(log)) as AnyMachineSnapshot
  return tracedOf(index, log, next)
}

// ── Projections ──────────────────────────────────────────────────────────────────────────────
export const projectedContext = (model: AnyModel, snapshot: AnyMachineSnapshot): unknown =>
  plain(model.projectContext === undefined ? snapshot.context : model.projectContext(snapshot))

export const activeStateIds = (snapshot: AnyMachineSnapshot): Array<string> =>
  snapshot._nodes
    .filter((n: AnyStateNode) => n.type === "atomic" || n.type === "final")
    .map((n: AnyStateNode) => n.id)
    .sort()

const stateKey = (model: AnyModel, snapshot: AnyMachineSnapshot): string =>
  safeJson({ value: snapshot.value, status: snapshot.status, context: projectedContext(model, snapshot) })

const modelEvents = (model: AnyModel, snapshot: AnyMachineSnapshot): ReadonlyArray<EventObject> =>
  typeof model.events === "function" ? model.events(snapshot) : model.events

/** An event the machine would act on right now (some transition enabled, guards included). */
export const canHandle = (model: AnyModel, snapshot: AnyMachineSnapshot, event: EventObject): boolean =>
  snapshot.status === "active" && model.machine.getTransitionData(snapshot, event).length > 0

const stepOf = (model: AnyModel, event: EventObject, traced: Traced): PathStep => ({
  event,
  value: plain(traced.snapshot.value) as StateValue,
  status: traced.snapshot.status,
  stateIds: activeStateIds(traced.snapshot),
  context: projectedContext(model, traced.snapshot),
  fired: traced.fired,
  visited: traced.visited,
})

/**
 * Replays events with the pure, traced transition function, from `input` (default: the model's).
 * Throws on an event the machine ignores.
 */
export const replayPure = (
  model: AnyModel,
  events: ReadonlyArray<EventObject>,
  input: unknown = model.input,
): Array<PathStep> => {
  const index = indexTransitions(model.machine)
  let current = tracedInitial(model, index, input)
  const steps: Array<PathStep> = [stepOf(model, { type: "xstate.init" }, current)]
  for (const event of events) {
    if (!canHandle(model, current.snapshot, event)) {
      throw new Error(`${model.name}: ${event.type} is not handled in ${safeJson(current.snapshot.value)}`)
    }
    current = tracedTransition(model, index, current.snapshot, event)
    steps.push(stepOf(model, event, current))
  }
  return steps
}

/**
 * `replayPure` for many sequences from one input: shortest paths share their prefixes (they form a
 * tree), so each prefix is traced once and its steps are shared by every path through it.
 */
const sharedReplay = (
  model: AnyModel,
  index: TransitionIndex,
  input: unknown,
): ((events: ReadonlyArray<EventObject>) => Array<PathStep>) => {
  interface Node {
    readonly traced: Traced
    readonly step: PathStep
    readonly next: Map<string, Node>
  }
  const initial = tracedInitial(model, index, input)
  const root: Node = {
    traced: initial,
    step: stepOf(model, { type: "xstate.init" }, initial),
    next: new Map(),
  }
  return (events) => {
    let node = root
    const steps: Array<PathStep> = [root.step]
    for (const event of events) {
      const key = safeJson(event)
      let child = node.next.get(key)
      if (child === undefined) {
        if (!canHandle(model, node.traced.snapshot, event)) {
          throw new Error(
            `${model.name}: ${event.type} is not handled in ${safeJson(node.traced.snapshot.value)}`,
          )
        }
        const traced = tracedTransition(model, index, node.traced.snapshot, event)
        child = { traced, step: stepOf(model, event, traced), next: new Map() }
        node.next.set(key, child)
      }
      steps.push(child.step)
      node = child
    }
    return steps
  }
}

// ── Path generation ──────────────────────────────────────────────────────────────────────────
/** `TYPE`, `TYPE {"value":"x"}`, or for an invoke failure `xstate.error.actor.id(Tag)`. */
export const eventLabel = (event: EventObject): string => {
  const { type, ...payload } = event
  if (Object.keys(payload).length === 0) return type
  const error: unknown = "error" in payload ? payload.error : undefined
  if (typeof error === "object" && error !== null) {
    const tag = "_tag" in error && typeof error._tag === "string" ? error._tag : error.constructor.name
    // The client's own failures name their reason: ClientError.Transport, ClientError.Status.
    const reason = !("reason" in error)
      ? ""
      : typeof error.reason === "string"
        ? `.${error.reason}`
        : typeof error.reason === "object" && error.reason !== null && "_tag" in error.reason
          ? `.${String(error.reason._tag)}`
          : ""
    return `${type}(${tag}${reason})`
  }
  const json = safeJson(payload)
  return `${type} ${json.length > 48 ? `${json.slice(0, 47)}…` : json}`
}

export const pathId = (events: ReadonlyArray<EventObject>, withPayloads = true): string =>
  events.length === 0
    ? "(initial state)"
    : events.map((e) => (withPayloads ? eventLabel(e) : e.type)).join(" → ")

const pathIdWith = (events: ReadonlyArray<EventObject>, label: (e: EventObject) => string): string =>
  events.length === 0 ? "(initial state)" : events.map(label).join(" → ")

/**
 * Readable ids that tell the paths apart, as short as possible: the event types (invoke failures
 * with their tag, e.g. `xstate.error.actor.signIn(AccountLocked)`); then with every payload; then
 * numbered.
 */
export const distinctIds = (sequences: ReadonlyArray<ReadonlyArray<EventObject>>): Array<string> => {
  const levels: ReadonlyArray<(e: EventObject) => string> = [
    (e) => (e.type.startsWith("xstate.error.") ? eventLabel(e) : e.type),
    eventLabel,
  ]
  const ids = sequences.map(() => "")
  let pending = sequences.map((_, i) => i)
  for (const label of levels) {
    const candidates = new Map(pending.map((i) => [i, pathIdWith(sequences[i] ?? [], label)]))
    const counts = new Map<string, number>()
    for (const id of candidates.values()) counts.set(id, (counts.get(id) ?? 0) + 1)
    for (const [i, id] of candidates) if (counts.get(id) === 1) ids[i] = id
    pending = pending.filter((i) => ids[i] === "")
  }
  const seen = new Map<string, number>()
  for (const i of pending) {
    const id = pathIdWith(sequences[i] ?? [], eventLabel)
    const n = (seen.get(id) ?? 0) + 1
    seen.set(id, n)
    ids[i] = `${id} #${n}`
  }
  return ids
}

/** Drops every path whose event sequence is a prefix of another path's. */
export const dedupePrefixes = (
  sequences: ReadonlyArray<ReadonlyArray<EventObject>>,
): Array<ReadonlyArray<EventObject>> => {
  const serialized = sequences
    .map((events) => ({ events, keys: events.map((e) => safeJson(e)) }))
    .sort((a, b) => b.keys.length - a.keys.length)
  const kept: Array<{ events: ReadonlyArray<EventObject>; keys: Array<string> }> = []
  for (const candidate of serialized) {
    const isPrefix = kept.some(
      (k) => candidate.keys.length <= k.keys.length && candidate.keys.every((key, i) => k.keys[i] === key),
    )
    if (!isPrefix) kept.push(candidate)
  }
  // Stable, readable order: by the path id.
  return kept.map((k) => k.events).sort((a, b) => pathId(a).localeCompare(pathId(b)))
}

export interface GenerateOptions {
  /** Upper bound on traversal steps; exceeding it means the projection lets the graph explode. */
  readonly limit?: number
}

export const generatePaths = (model: AnyModel, options: GenerateOptions = {}): Array<GeneratedPath> => {
  const index = indexTransitions(model.machine)
  // Each edge is computed once, traced: the traversal's own transition function is the traced one
  // (it is the machine's `transition` with a recording scope), and what it fired is kept for the
  // edge's key. Without this every edge ran twice, once untraced by the traversal and once here.
  // Keyed by the pair: an event that changes nothing may hand back the very same snapshot object,
  // so the result snapshot cannot be used to look this up.
  const firedCache = new WeakMap<AnyMachineSnapshot, Map<EventObject, ReadonlyArray<string>>>()
  const remember = (previous: AnyMachineSnapshot, event: EventObject, fired: ReadonlyArray<string>): void => {
    let byEvent = firedCache.get(previous)
    if (byEvent === undefined) {
      byEvent = new Map()
      firedCache.set(previous, byEvent)
    }
    byEvent.set(event, fired)
  }
  const firedBetween = (previous: AnyMachineSnapshot, event: EventObject): ReadonlyArray<string> => {
    const cached = firedCache.get(previous)?.get(event)
    if (cached !== undefined) return cached
    // The traversal may look an edge up from another snapshot object of the same state.
    const fired = tracedTransition(model, index, previous, event).fired
    remember(previous, event, fired)
    return fired
  }
  const tracedLogic = new Proxy(model.machine, {
    get: (target, property, receiver) =>
      property === "transition"
        ? (snapshot: AnyMachineSnapshot, event: EventObject): AnyMachineSnapshot => {
            const traced = tracedTransition(model, index, snapshot, event)
            remember(snapshot, event, traced.fired)
            return traced.snapshot
          }
        : Reflect.get(target, property, receiver),
  })
  // A state's key is asked for once per edge in and out: computed once per snapshot object.
  const keys = new WeakMap<AnyMachineSnapshot, string>()
  const keyOf = (snapshot: AnyMachineSnapshot): string => {
    const known = keys.get(snapshot)
    if (known !== undefined) return known
    const key = stateKey(model, snapshot)
    keys.set(snapshot, key)
    return key
  }
  /** The shortest paths from one input, prefixes dropped. */
  const sequencesFrom = (input: unknown): Array<ReadonlyArray<EventObject>> => {
    const initial = tracedInitial(model, index, input)
    const found = getShortestPaths(tracedLogic, {
      input,
      fromState: initial.snapshot,
      limit: options.limit ?? DEFAULT_TRAVERSAL_LIMIT,
      events: (snapshot: AnyMachineSnapshot) =>
        modelEvents(model, snapshot).filter((event) => canHandle(model, snapshot, event)),
      serializeState: (
        snapshot: AnyMachineSnapshot,
        event: EventObject | undefined,
        previous?: AnyMachineSnapshot,
      ) => {
        const here = keyOf(snapshot)
        if (event === undefined || previous === undefined) return here
        const fired = firedBetween(previous, event)
        return `${here} <= ${event.type} {${fired.join(", ")}} <= ${keyOf(previous)}`
      },
    })
    return dedupePrefixes(found.map((p) => p.steps.slice(1).map((step): EventObject => step.event)))
  }
  const starts: ReadonlyArray<NamedInput | undefined> = [undefined, ...(model.otherInputs ?? [])]
  try {
    return starts.flatMap((start) => {
      const input = start === undefined ? model.input : start.input
      const sequences = sequencesFrom(input)
      const ids = distinctIds(sequences)
      const replay = sharedReplay(model, index, input)
      return sequences.map((events, i): GeneratedPath => {
        const id = ids[i] ?? pathId(events)
        const steps = replay(events)
        return start === undefined ? { id, steps } : { id: `(${start.name}) ${id}`, start, steps }
      })
    })
  } catch (error) {
    if (error instanceof Error && error.message === "Traversal limit exceeded") {
      throw new Error(
        `${model.name}: the state graph has more than ${options.limit ?? DEFAULT_TRAVERSAL_LIMIT} vertices; ` +
          "narrow projectContext to what distinguishes states.",
      )
    }
    throw error
  }
}

// ── Coverage ─────────────────────────────────────────────────────────────────────────────────
const matchesEntry = (t: TransitionInfo, entry: UncoveredTransition): boolean =>
  t.from === entry.from && (t.event === entry.event || (t.event === ALWAYS && entry.event === ""))

export const coverageOf = (model: AnyModel, paths: ReadonlyArray<GeneratedPath>): CoverageReport => {
  const index = indexTransitions(model.machine)
  const nodes = allStateNodes(model.machine)
  const visitedStates = new Set<string>()
  const firedKeys = new Set<string>()
  for (const path of paths) {
    for (const step of path.steps) {
      for (const key of step.fired) firedKeys.add(key)
    }
  }
  for (const path of paths) {
    for (const step of path.steps) {
      for (const id of step.visited) visitedStates.add(id)
    }
  }
  const allowList = model.uncovered ?? []
  const problems: Array<string> = []
  const uncoveredTransitions = index.all
    .filter((t) => !firedKeys.has(t.key))
    .map((t) => {
      const entry = allowList.find((e) => matchesEntry(t, e))
      return { ...t, allowListed: entry === undefined ? null : entry.reason }
    })
  for (const t of uncoveredTransitions) {
    if (t.allowListed === null) {
      problems.push(
        `${model.name}: uncovered transition ${t.label} (add events to the model, or allow-list it with a reason)`,
      )
    }
  }
  for (const entry of allowList) {
    const matching = index.all.filter((t) => matchesEntry(t, entry))
    if (matching.length === 0) {
      problems.push(
        `${model.name}: allow-list entry ${entry.from} / ${entry.event} names no transition of the machine`,
      )
    } else if (matching.every((t) => firedKeys.has(t.key))) {
      problems.push(
        `${model.name}: stale allow-list entry ${entry.from} / ${entry.event}: the generated paths cover it now`,
      )
    }
    if (entry.reason.trim() === "") {
      problems.push(`${model.name}: allow-list entry ${entry.from} / ${entry.event} has no reason`)
    }
  }
  return {
    name: model.name,
    statesTotal: nodes.length,
    statesCovered: nodes.filter((n) => visitedStates.has(n.id)).length,
    transitionsTotal: index.all.length,
    transitionsCovered: index.all.filter((t) => firedKeys.has(t.key)).length,
    allowListed: uncoveredTransitions.filter((t) => t.allowListed !== null).length,
    paths: paths.length,
    uncoveredStates: nodes.filter((n) => !visitedStates.has(n.id)).map((n) => n.id),
    uncoveredTransitions,
    problems,
  }
}

// ── Replay on a real actor ───────────────────────────────────────────────────────────────────
/** Every actor the machine can invoke or spawn, by the name it is provided under. */
export const invokedSources = (machine: AnyStateMachine): Array<string> => {
  const names = new Set<string>(Object.keys(machine.implementations.actors))
  for (const node of allStateNodes(machine)) {
    for (const def of node.invoke) {
      if (typeof def.src === "string") names.add(def.src)
    }
  }
  return [...names].sort()
}

const neverResolving = fromPromise<never, unknown>(() => new Promise<never>(() => {}))

/** The machine with every invoked actor replaced by a promise that never settles. */
export const withNeverResolvingActors = (machine: AnyStateMachine): AnyStateMachine =>
  machine.provide({
    actors: Object.fromEntries(invokedSources(machine).map((name) => [name, neverResolving])),
  })

export interface ObservedStep {
  readonly value: StateValue
  readonly status: string
  readonly stateIds: ReadonlyArray<string>
  readonly context: unknown
  readonly fired: ReadonlyArray<string>
  readonly visited: ReadonlyArray<string>
}

export const expectedOf = (step: PathStep): ObservedStep => ({
  value: step.value,
  status: step.status,
  stateIds: step.stateIds,
  context: step.context,
  fired: step.fired,
  visited: step.visited,
})

/**
 * Runs the path on a real actor (invoked actors never settle, timers never fire on their own) and
 * returns what it observed after the start and after each event, for comparison with `expectedOf`.
 */
export const replayOnActor = (model: AnyModel, path: GeneratedPath): Array<ObservedStep> => {
  const machine = withNeverResolvingActors(model.machine)
  const index = indexTransitions(machine)
  let log = newLog()
  const errors: Array<unknown> = []
  // Inspection also reports the children's events; only the machine's own microsteps count. The
  // initial microsteps (e.g. an `always` out of the initial state) run inside `createActor`, before
  // the actor is known here: the root actor is the one whose session is the system's root.
  const actor = createActor(machine, {
    input: inputOf(model, path),
    clock: new SimulatedClock(),
    inspect: (event: InspectionEvent) => {
      if (event.actorRef.sessionId === event.rootId) record(log, event)
    },
  })
  actor.subscribe({ error: (error) => errors.push(error) })
  const observe = (): ObservedStep => {
    const snapshot = actor.getSnapshot()
    const step: ObservedStep = {
      value: plain(snapshot.value) as StateValue,
      status: snapshot.status,
      stateIds: activeStateIds(snapshot),
      context: projectedContext(model, snapshot),
      fired: keysOf(index, log.transitions),
      visited: [...log.visited, ...snapshot._nodes.map((n: AnyStateNode) => n.id)]
        .filter((id, i, all) => all.indexOf(id) === i)
        .sort(),
    }
    log = newLog()
    return step
  }
  const observed: Array<ObservedStep> = []
  try {
    actor.start()
    recordInitialSources(log)
    observed.push(observe())
    for (const step of path.steps.slice(1)) {
      actor.send(step.event)
      observed.push(observe())
    }
  } finally {
    actor.stop()
  }
  if (errors.length > 0) throw new Error(`${model.name}: the actor failed: ${safeJson(errors)}`)
  return observed
}

// ── Reporting ────────────────────────────────────────────────────────────────────────────────
export const coverageTable = (reports: ReadonlyArray<CoverageReport>): string => {
  const header = ["machine", "states covered/total", "transitions covered/total", "allow-listed", "paths"]
  const rows = reports.map((r) => [
    r.name,
    `${r.statesCovered}/${r.statesTotal}`,
    `${r.transitionsCovered}/${r.transitionsTotal}`,
    String(r.allowListed),
    String(r.paths),
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>): string =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n")
}

/** Markdown lines naming every uncovered transition (with its allow-list reason) and state, per machine. */
export const coverageGaps = (reports: ReadonlyArray<CoverageReport>): Array<string> =>
  reports.flatMap((r) => {
    const gaps = r.uncoveredTransitions.map(
      (t) => `- ${t.label}: ${t.allowListed === null ? "**NOT COVERED, no reason given**" : t.allowListed}`,
    )
    const states = r.uncoveredStates.map((s) => `- state ${s} never visited`)
    return gaps.length + states.length === 0 ? [] : [`### ${r.name}`, "", ...gaps, ...states, ""]
  })

export const coverageMarkdown = (reports: ReadonlyArray<CoverageReport>): string => {
  const details = coverageGaps(reports)
  return [
    "# Model coverage",
    "",
    "Generated by tests/model/models.test.ts from every <machine>.model.ts under machines/.",
    "",
    coverageTable(reports),
    "",
    ...(details.length === 0
      ? ["Every transition of every machine is covered."]
      : ["## Gaps", "", ...details]),
    "",
  ].join("\n")
}

// ── Covering subsets ─────────────────────────────────────────────────────────────────────────
/**
 * Greedy set cover: the fewest paths (approximately) whose steps together hit every goal that the
 * whole set hits. `goalsOf` names the goals a step reaches. Ties go to the shorter path.
 */
export const coveringSubset = (
  paths: ReadonlyArray<GeneratedPath>,
  goalsOf: (step: PathStep) => ReadonlyArray<string>,
): Array<GeneratedPath> => {
  const goals = paths.map((p) => new Set(p.steps.slice(1).flatMap(goalsOf)))
  const remaining = new Set(goals.flatMap((g) => [...g]))
  const chosen: Array<GeneratedPath> = []
  const used = new Set<number>()
  while (remaining.size > 0) {
    let best = -1
    let bestGain = 0
    goals.forEach((g, i) => {
      if (used.has(i)) return
      let gain = 0
      for (const goal of g) if (remaining.has(goal)) gain++
      const path = paths[i]
      const bestPath = paths[best]
      if (
        gain > bestGain ||
        (gain === bestGain &&
          gain > 0 &&
          path !== undefined &&
          bestPath !== undefined &&
          path.steps.length < bestPath.steps.length)
      ) {
        best = i
        bestGain = gain
      }
    })
    const picked = paths[best]
    if (best === -1 || picked === undefined) break
    used.add(best)
    chosen.push(picked)
    for (const goal of goals[best] ?? []) remaining.delete(goal)
  }
  return chosen.sort((a, b) => a.id.localeCompare(b.id))
}

/** Goal: every transition. */
export const transitionGoals = (step: PathStep): ReadonlyArray<string> => step.fired

/** Goal: every transition together with each distinct place it leads to (state and projected context). */
export const outcomeGoals = (step: PathStep): ReadonlyArray<string> =>
  step.fired.map((key) => `${key} ⇒ ${safeJson({ value: step.value, context: step.context })}`)
