/**
 * Replays the generated paths of a machine (statecharts/paths.ts) in the browser, against the
 * real server. A flow binding (tests/e2e/bindings/<flow>.ts) says, for each event of the model:
 * - `action`: what the player does (type, click, solve the captcha …);
 * - `outcome`: an invoked call's result, which the real server produces — the binding only
 *   ARRANGES the precondition (an account, a lock, a spent token, a request from elsewhere) before
 *   the action that triggers the call;
 * - `unproducible`: an outcome the real server cannot give; every path that needs it is skipped
 *   with a reason of the reviewed table (support/skip-reasons.ts), counted and printed, never faked;
 * - `unbound`: an event the binding does not know — the plan refuses it and the run FAILS.
 * After every step the page must show the step's state (`expectState`), except for a state the
 * machine only passes through while a call runs (the next step is the call's outcome).
 */
import { type Page, test } from "@playwright/test"
import type { EventObject } from "xstate"
import {
  type AnyModel,
  coveringSubset,
  distinctIds,
  eventLabel,
  type GeneratedPath,
  generatePaths,
  type PathStep,
  safeJson,
} from "../../../statecharts/paths.ts"
import type { World } from "./fixtures.ts"
import { type Skip, type SkipReason, skip, skipText } from "./skip-reasons.ts"

export interface StepContext<S> {
  readonly page: Page
  readonly world: World
  /** What `prepare` set up for this path (accounts, chosen values). */
  readonly state: S
  readonly path: GeneratedPath
  /** Index of the step being executed or asserted (0 = the initial state). */
  readonly index: number
}

export type EventBinding<S> =
  | { readonly kind: "action"; readonly run: (ctx: StepContext<S>, event: EventObject) => Promise<void> }
  | { readonly kind: "outcome"; readonly arrange: (ctx: StepContext<S>, event: EventObject) => Promise<void> }
  | { readonly kind: "unproducible"; readonly skip: Skip }
  | { readonly kind: "unbound"; readonly event: string }

/** An outcome the real server cannot give: one of the reviewed reasons, and the case. */
export const unproducible = <S>(reason: SkipReason, detail: string): EventBinding<S> => ({
  kind: "unproducible",
  skip: skip(reason, detail),
})

/** The binding's answer for an event it does not know: the plan fails on it. */
export const unbound = <S>(event: EventObject): EventBinding<S> => ({ kind: "unbound", event: event.type })

export interface FlowBinding<S> {
  readonly model: AnyModel
  /** Before the page opens: accounts and values this path needs (it may look at the whole path). */
  readonly prepare: (page: Page, world: World, path: GeneratedPath) => Promise<S>
  /** Brings the page to the flow's initial state. */
  readonly open: (ctx: StepContext<S>) => Promise<void>
  readonly event: (event: EventObject) => EventBinding<S>
  /** A whole-path reason the real server cannot follow it (two outcomes that exclude each other). */
  readonly unproducible?: (path: GeneratedPath) => Skip | null
  /** Asserts that the page shows the step's state (state nodes and projected context). */
  readonly expectState: (ctx: StepContext<S>, step: PathStep) => Promise<void>
}

export const isRuntimeEvent = (event: EventObject): boolean => event.type.startsWith("xstate.")

/**
 * What an e2e run must show at least once: every transition. With `FULL=1`, also every distinct call
 * outcome (each typed error of a call, where several follow one transition): the message each error
 * shows is an actor test's (tests/unit), so by default a path that adds only an outcome is not
 * replayed in Chromium (docs/testing.md, "The same paths in the browser").
 */
export const e2eGoals = (step: PathStep): ReadonlyArray<string> => {
  if (process.env.FULL !== "1") return step.fired
  const { type, ...payload } = step.event
  return [...step.fired, ...(isRuntimeEvent(step.event) ? [`${type} ${safeJson(payload)}`] : [])]
}

export interface SkippedPath {
  readonly path: GeneratedPath
  readonly reason: string
}

export interface E2ePlan {
  readonly name: string
  readonly generated: number
  /** Paths whose every event the binding can produce. */
  readonly playable: number
  /** The fewest playable paths (greedy) that show every goal the playable paths show. */
  readonly chosen: ReadonlyArray<GeneratedPath>
  /** Paths kept only for goals no playable path reaches: skipped, with the reason. */
  readonly skipped: ReadonlyArray<SkippedPath>
  readonly goals: number
  readonly goalsShown: number
  /** Planned with FULL=1: every distinct call outcome is a goal too. */
  readonly full: boolean
}

const unproducibleReason = <S>(binding: FlowBinding<S>, path: GeneratedPath): string | null => {
  const whole = binding.unproducible?.(path) ?? null
  if (whole !== null) return skipText(whole)
  for (const step of path.steps.slice(1)) {
    const b = binding.event(step.event)
    if (b.kind === "unproducible") return `${step.event.type}: ${skipText(b.skip)}`
  }
  return null
}

/** Every event type of the generated paths the binding does not know. */
export const unboundEvents = <S>(
  binding: FlowBinding<S>,
  paths: ReadonlyArray<GeneratedPath>,
): Array<string> => {
  const out = new Set<string>()
  for (const path of paths)
    for (const step of path.steps.slice(1)) {
      const b = binding.event(step.event)
      if (b.kind === "unbound") out.add(b.event)
    }
  return [...out].sort()
}

/** Each model's generated paths, walked once per process (a plan and its FULL=1 variant share them). */
const generated = new WeakMap<object, ReadonlyArray<GeneratedPath>>()
const pathsOf = (model: FlowBinding<unknown>["model"]): ReadonlyArray<GeneratedPath> => {
  const known = generated.get(model)
  if (known !== undefined) return known
  const paths = generatePaths(model)
  generated.set(model, paths)
  return paths
}

export const planFor = <S>(binding: FlowBinding<S>): E2ePlan => {
  const all = pathsOf(binding.model as FlowBinding<unknown>["model"])
  const unknown = unboundEvents(binding, all)
  if (unknown.length > 0)
    throw new Error(
      `tests/e2e/bindings: the ${binding.model.name} binding has no binding for ${unknown.join(", ")}: ` +
        "bind each event (an action or an arranged outcome), or name a reviewed reason (support/skip-reasons.ts)",
    )
  const playable = all.filter((p) => unproducibleReason(binding, p) === null)
  const chosen = coveringSubset(playable, e2eGoals)
  const shown = new Set(chosen.flatMap((p) => p.steps.slice(1).flatMap(e2eGoals)))
  const allGoals = new Set(all.flatMap((p) => p.steps.slice(1).flatMap(e2eGoals)))
  const missing = all.filter((p) => !playable.includes(p))
  const skippedPaths = coveringSubset(missing, (step) => e2eGoals(step).filter((g) => !shown.has(g)))
  return {
    name: binding.model.name,
    generated: all.length,
    playable: playable.length,
    chosen,
    skipped: skippedPaths.map((path) => ({ path, reason: unproducibleReason(binding, path) ?? "" })),
    goals: allGoals.size,
    goalsShown: shown.size,
    full: process.env.FULL === "1",
  }
}

/** Test titles: the shortest labels that tell the listed paths apart (see `distinctIds`). */
export const titlesOf = (paths: ReadonlyArray<GeneratedPath>): Map<GeneratedPath, string> => {
  const ids = distinctIds(paths.map((p) => p.steps.slice(1).map((s) => s.event)))
  return new Map(paths.map((p, i) => [p, ids[i] ?? p.id]))
}

export const planSummary = (plans: ReadonlyArray<E2ePlan>): string =>
  [
    "e2e path plan (generated → playable → replayed in Chromium; skipped = outcomes the real server cannot give)",
    ...plans.map(
      (p) =>
        `  ${p.name}: ${p.generated} generated, ${p.playable} playable, ${p.chosen.length} replayed, ` +
        `${p.skipped.length} skipped; goals shown ${p.goalsShown}/${p.goals}`,
    ),
    ...plans.flatMap((p) => {
      const titles = titlesOf([...p.chosen, ...p.skipped.map((s) => s.path)])
      return p.skipped.map((s) => `  skip ${p.name} [${titles.get(s.path) ?? s.path.id}]: ${s.reason}`)
    }),
  ].join("\n")

const stateLabel = (step: PathStep): string => `${step.stateIds.join(", ")} ${safeJson(step.context)}`

/** Runs one path in the page. */
export const replayPath = async <S>(
  binding: FlowBinding<S>,
  page: Page,
  world: World,
  path: GeneratedPath,
): Promise<void> => {
  const steps = path.steps
  const state = await binding.prepare(page, world, path)
  const ctxAt = (index: number): StepContext<S> => ({ page, world, state, path, index })
  const bindingAt = (index: number): EventBinding<S> | undefined => {
    const step = steps[index]
    return step === undefined ? undefined : binding.event(step.event)
  }
  /** Arranges the outcomes that follow step `index` (up to the next player action). */
  const arrangeAfter = async (index: number): Promise<void> => {
    for (let j = index + 1; j < steps.length; j++) {
      const b = bindingAt(j)
      const step = steps[j]
      if (b === undefined || step === undefined || b.kind !== "outcome") break
      await b.arrange(ctxAt(j), step.event)
    }
  }
  /** A state the machine only passes through while a call runs: the next step is its outcome. */
  const transient = (index: number): boolean => bindingAt(index + 1)?.kind === "outcome"

  const first = steps[0]
  if (first === undefined) throw new Error(`path ${path.id} has no steps`)
  await test.step(`open → ${stateLabel(first)}`, async () => {
    await arrangeAfter(0)
    await binding.open(ctxAt(0))
    if (!transient(0)) await binding.expectState(ctxAt(0), first)
  })
  for (let i = 1; i < steps.length; i++) {
    const step = steps[i]
    const b = bindingAt(i)
    if (step === undefined || b === undefined) continue
    await test.step(`${i}. ${eventLabel(step.event)} → ${stateLabel(step)}`, async () => {
      if (b.kind === "unproducible")
        throw new Error(`unproducible event in a replayed path: ${skipText(b.skip)}`)
      if (b.kind === "unbound") throw new Error(`unbound event in a replayed path: ${b.event}`)
      if (b.kind === "action") {
        await arrangeAfter(i)
        await b.run(ctxAt(i), step.event)
      }
      if (!transient(i)) await binding.expectState(ctxAt(i), step)
    })
  }
}
