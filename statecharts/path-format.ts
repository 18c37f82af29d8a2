/**
 * Readable generated paths (statecharts/paths.ts) for people: one line per step, state → event →
 * state, with the guards of the transitions that actually fired.
 *
 *     3. CHANGE_EMAIL → SUBMIT
 *       (start) editing
 *       editing ──CHANGE_EMAIL──▶ editing   with {"value":"ada@blocked.example"}
 *       editing ──SUBMIT [emailIsBlocked]──▶ editing
 *
 * State names are relative to the machine (`login.editing` → `editing`); parallel regions (several
 * active leaves) are joined with ` + `. When one event fires more than one transition in a row (an
 * `always` choice, a compound state's `onDone`, a raised event), the line goes through the state each
 * further transition leaves: `paying ──xstate.error.actor.pay(Error)──▶ failed ──always [outOfAttempts]──▶ locked`.
 *
 * Pure and browser-safe (xstate only, no Node imports): used by scripts/paths.ts, the per-machine
 * coverage reports (statecharts/coverage-report.ts) and the visualizer.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition, EventObject } from "xstate"
import { eventLabel, type GeneratedPath, indexTransitions, type PathStep, safeJson } from "./paths.ts"

/** One transition definition of the machine, as a path step shows it. */
export interface FiredTransition {
  /** The `PathStep.fired` key: `<source id>|<event or "always">|<index>`. */
  readonly key: string
  /** Source state id, full (`login.editing`). */
  readonly from: string
  /** Event type, or `always`. */
  readonly event: string
  /** The guard's name (`isValid`, `and(a, b)`, `not(a)`), or null when unguarded. */
  readonly guard: string | null
  /** Target state ids, full; empty for a targetless transition. */
  readonly targets: ReadonlyArray<string>
  /** `TransitionInfo.label`: `login.editing —SUBMIT [isValid]→ login.submitting`. */
  readonly label: string
}

export interface StepView {
  /** 0 for the initial state. */
  readonly index: number
  /** The event type (`xstate.init` for the initial step). */
  readonly event: string
  /** What the arrow shows for the event: its type, or for an invoke failure `type(Tag)`. */
  readonly eventText: string
  /** The event's payload as compact JSON (null when it has none, or when `eventText` names it). */
  readonly payload: string | null
  /** Short names of the states before the step (null for the initial step). */
  readonly from: string | null
  /** Short names of the states after the step. */
  readonly to: string
  /** The transitions this step fired, in order. */
  readonly fired: ReadonlyArray<FiredTransition>
  /** Every guard of the fired transitions, in order, without repeats. */
  readonly guards: ReadonlyArray<string>
  /** The model's projection of the context after the step. */
  readonly context: unknown
  /** The readable line, without indentation. */
  readonly line: string
}

export interface PathView {
  /** 1-based position in the listing. */
  readonly number: number
  readonly id: string
  readonly steps: ReadonlyArray<StepView>
}

export interface PathFormatOptions {
  /** Also print the projected context under each step. */
  readonly context?: boolean
}

// ── Names ────────────────────────────────────────────────────────────────────────────────────
/** `login.editing` → `editing` for machine `login`; the root itself stays as it is. */
export const shortStateId = (machineId: string, id: string): string =>
  id.startsWith(`${machineId}.`) ? id.slice(machineId.length + 1) : id

/** The active leaves, short, joined with ` + ` (parallel regions); `(none)` for an empty list. */
export const statesLabel = (machineId: string, ids: ReadonlyArray<string>): string =>
  ids.length === 0 ? "(none)" : ids.map((id) => shortStateId(machineId, id)).join(" + ")

const isRecord = (value: unknown): value is Record<string, unknown> =>
  (typeof value === "object" || typeof value === "function") && value !== null

/** `isValid`; `{ type: "isSignedIn", params }` → `isSignedIn`; `and([a, b])` → `and(a, b)`. */
export const guardName = (guard: unknown): string | null => {
  if (guard === undefined || guard === null) return null
  if (typeof guard === "string") return guard
  if (typeof guard === "function") {
    const inner: unknown = isRecord(guard) ? guard.guards : undefined
    if (Array.isArray(inner)) {
      const name = guard.name === "" ? "guard" : guard.name
      return `${name}(${inner.map((g: unknown) => guardName(g) ?? "?").join(", ")})`
    }
    return guard.name === "" ? "inline guard" : guard.name
  }
  if (isRecord(guard) && typeof guard.type === "string") return guard.type
  return "guard"
}

// ── Transitions of a machine, by key ─────────────────────────────────────────────────────────
const byMachine = new WeakMap<AnyStateMachine, ReadonlyMap<string, FiredTransition>>()

/** Every transition of the machine by its `PathStep.fired` key (cached per machine). */
export const transitionsByKey = (machine: AnyStateMachine): ReadonlyMap<string, FiredTransition> => {
  const cached = byMachine.get(machine)
  if (cached !== undefined) return cached
  const map = new Map<string, FiredTransition>()
  for (const [definition, info] of indexTransitions(machine).byDefinition) {
    const t: AnyTransitionDefinition = definition
    map.set(info.key, {
      key: info.key,
      from: info.from,
      event: info.event,
      guard: guardName(t.guard),
      targets: (t.target ?? []).map((node: AnyStateNode) => node.id),
      label: info.label,
    })
  }
  byMachine.set(machine, map)
  return map
}

// ── Steps ────────────────────────────────────────────────────────────────────────────────────
const MAX_PAYLOAD = 60

const payloadOf = (event: EventObject): string | null => {
  const { type: _type, ...payload } = event
  if (Object.keys(payload).length === 0) return null
  const json = safeJson(payload)
  return json.length > MAX_PAYLOAD ? `${json.slice(0, MAX_PAYLOAD - 1)}…` : json
}

/** Event types stay whole (they are what the model lists); an invoke failure names its error. */
const eventTextOf = (event: EventObject): { text: string; payload: string | null } =>
  event.type.startsWith("xstate.error.")
    ? { text: eventLabel(event), payload: null }
    : { text: event.type, payload: payloadOf(event) }

const withGuards = (text: string, guards: ReadonlyArray<string>): string =>
  guards.length === 0 ? text : `${text} [${guards.join(", ")}]`

const unique = (values: ReadonlyArray<string>): Array<string> =>
  values.filter((v, i) => values.indexOf(v) === i)

/** `──TEXT──▶` */
export const arrow = (text: string): string => `──${text}──▶`

/**
 * The fired transitions split into the event's own (the first run whose event is the step's) and
 * the ones that followed in later microsteps (`always`, `onDone`, raised events).
 */
const splitFired = (
  event: string,
  fired: ReadonlyArray<FiredTransition>,
): { own: Array<FiredTransition>; after: Array<FiredTransition> } => {
  const firstOther = fired.findIndex((t) => t.event !== event)
  return firstOther === -1
    ? { own: [...fired], after: [] }
    : { own: fired.slice(0, firstOther), after: fired.slice(firstOther) }
}

const lookUp = (transitions: ReadonlyMap<string, FiredTransition>, key: string): FiredTransition => {
  const found = transitions.get(key)
  if (found !== undefined) return found
  const [from = key, event = "?"] = key.split("|")
  return { key, from, event, guard: null, targets: [], label: key }
}

/** One step, ready to print. `previous` is the step before (undefined for the initial step). */
export const describeStep = (
  machine: AnyStateMachine,
  step: PathStep,
  index: number,
  previous: PathStep | undefined,
): StepView => {
  const transitions = transitionsByKey(machine)
  const machineId = machine.id
  const fired = step.fired.map((key) => lookUp(transitions, key))
  const { own, after } = splitFired(step.event.type, fired)
  const to = statesLabel(machineId, step.stateIds)
  const chain = after
    .map(
      (t) =>
        ` ${shortStateId(machineId, t.from)} ${arrow(withGuards(t.event, t.guard === null ? [] : [t.guard]))}`,
    )
    .join("")
  const guards = unique(fired.flatMap((t) => (t.guard === null ? [] : [t.guard])))
  if (previous === undefined) {
    return {
      index,
      event: step.event.type,
      eventText: step.event.type,
      payload: null,
      from: null,
      to,
      fired,
      guards,
      context: step.context,
      line: `(start)${chain} ${to}`,
    }
  }
  const from = statesLabel(machineId, previous.stateIds)
  const { text, payload } = eventTextOf(step.event)
  const ownGuards = unique(own.flatMap((t) => (t.guard === null ? [] : [t.guard])))
  const line = `${from} ${arrow(withGuards(text, ownGuards))}${chain} ${to}${payload === null ? "" : `   with ${payload}`}`
  return {
    index,
    event: step.event.type,
    eventText: text,
    payload,
    from,
    to,
    fired,
    guards,
    context: step.context,
    line,
  }
}

export const describePath = (machine: AnyStateMachine, path: GeneratedPath, number = 1): PathView => ({
  number,
  id: path.id,
  steps: path.steps.map((step, i) => describeStep(machine, step, i, path.steps[i - 1])),
})

/** A numbered header with the path's id, then one indented line per step. */
export const formatPath = (view: PathView, options: PathFormatOptions = {}): string =>
  [
    `${view.number}. ${view.id}`,
    ...view.steps.flatMap((s) => [
      `  ${s.line}`,
      ...(options.context === true ? [`      context ${safeJson(s.context)}`] : []),
    ]),
  ].join("\n")

/** Every path of a machine, numbered from 1, separated by blank lines. */
export const formatPaths = (
  machine: AnyStateMachine,
  paths: ReadonlyArray<GeneratedPath>,
  options: PathFormatOptions = {},
): string => paths.map((p, i) => formatPath(describePath(machine, p, i + 1), options)).join("\n\n")

/** JSON-safe view of a path, for tools (`npm run paths -- <flow> --json`). */
export const pathJson = (machine: AnyStateMachine, path: GeneratedPath, number = 1): unknown => {
  const view = describePath(machine, path, number)
  return {
    number: view.number,
    id: view.id,
    steps: view.steps.map((s, i) => ({
      index: s.index,
      line: s.line,
      from: s.from,
      event: JSON.parse(safeJson(path.steps[i]?.event)) as unknown,
      to: s.to,
      stateIds: path.steps[i]?.stateIds ?? [],
      guards: s.guards,
      fired: s.fired.map((t) => ({ key: t.key, label: t.label, guard: t.guard })),
      context: s.context,
    })),
  }
}
