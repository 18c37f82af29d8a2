/**
 * The harness itself, on a fixture machine with every construct the real machines use
 * (tests/model/fixtures/checkout.machine.ts): exact coverage numbers, the allow-list checked both
 * ways, replay on a real actor that catches a divergence, and never-resolving invoke doubles.
 */

import { describe, expect, it } from "vitest"
import { createActor, createMachine, type EventObject, SimulatedClock, setup } from "xstate"
import type { MachineModel } from "../../machines/model.ts"
import {
  type AnyModel,
  coverageOf,
  coverageTable,
  dedupePrefixes,
  expectedOf,
  generatePaths,
  indexTransitions,
  invokedSources,
  replayOnActor,
  replayPure,
  withNeverResolvingActors,
} from "../../statecharts/paths.ts"
import checkoutModel from "./fixtures/checkout.model.ts"

const model: AnyModel = checkoutModel
const paths = generatePaths(model)
const report = coverageOf(model, paths)

describe("coverage of the fixture", () => {
  it("lists every transition of every state node, invoke outcomes, timers, always and onDone included", () => {
    expect(indexTransitions(model.machine).all.map((t) => t.label)).toEqual([
      "checkout.form —TYPE→ checkout.form.editing",
      "checkout.form.editing —SUBMIT [emailLooksValid]→ checkout.paying",
      "checkout.form.editing —SUBMIT→ checkout.form.invalid",
      "checkout.paying —xstate.done.actor.pay→ checkout.paid",
      "checkout.paying —xstate.error.actor.pay→ checkout.failed",
      "checkout.paying —xstate.after.10000.checkout.paying→ checkout.failed",
      "checkout.failed —always [outOfAttempts]→ checkout.locked",
      "checkout.failed —always→ checkout.retryable",
      "checkout.retryable —RETRY→ checkout.paying",
      "checkout.locked —ADMIN_UNLOCK→ checkout.retryable",
      "checkout.paid —xstate.done.state.checkout.paid→ checkout.finished",
      "checkout.paid.sound.on —TOGGLE_SOUND→ checkout.paid.sound.off",
      "checkout.paid.sound.on —NEXT_STEP→ checkout.paid.sound.settled",
      "checkout.paid.sound.off —TOGGLE_SOUND→ checkout.paid.sound.on",
      "checkout.paid.receipt.shown —NEXT_STEP→ checkout.paid.receipt.archived",
    ])
  })

  it("has the exact numbers", () => {
    expect({
      statesCovered: report.statesCovered,
      statesTotal: report.statesTotal,
      transitionsCovered: report.transitionsCovered,
      transitionsTotal: report.transitionsTotal,
      allowListed: report.allowListed,
      paths: report.paths,
    }).toEqual({
      statesCovered: 16,
      statesTotal: 16,
      transitionsCovered: 14,
      transitionsTotal: 15,
      allowListed: 1,
      paths: 16,
    })
    expect(report.uncoveredStates).toEqual([])
    expect(report.uncoveredTransitions.map((t) => t.key)).toEqual(["checkout.locked|ADMIN_UNLOCK|0"])
    expect(report.problems).toEqual([])
  })

  it("counts transient states (left by `always`) and final states left by `onDone` as visited", () => {
    const visited = new Set(paths.flatMap((p) => p.steps.flatMap((s) => s.visited)))
    expect(visited.has("checkout.failed")).toBe(true)
    expect(visited.has("checkout.paid.sound.settled")).toBe(true)
    const resting = new Set(paths.flatMap((p) => p.steps.flatMap((s) => s.stateIds)))
    expect(resting.has("checkout.failed")).toBe(false)
  })

  it("reaches the guarded always branch only after the second failure", () => {
    const toLocked = paths.filter((p) => p.steps.at(-1)?.stateIds.includes("checkout.locked"))
    expect(toLocked.length).toBeGreaterThan(0)
    for (const path of toLocked) {
      const failures = path.steps.filter((s) => s.fired.includes("checkout.failed|always|1"))
      expect(failures.length, path.id).toBe(1)
      expect(path.steps.at(-1)?.fired.at(-1), path.id).toBe("checkout.failed|always|0")
      expect(path.steps.at(-1)?.context, path.id).toEqual({ attempts: 2, emailValid: true })
    }
  })

  it("prints a table row per machine", () => {
    expect(coverageTable([report])).toContain("| checkout (fixture) | 16/16                | 14/15")
  })
})

describe("the allow-list is checked both ways", () => {
  it("fails on an uncovered transition without a reason", () => {
    const bare: AnyModel = { ...model, uncovered: [] }
    expect(coverageOf(bare, generatePaths(bare)).problems).toEqual([
      "checkout (fixture): uncovered transition checkout.locked —ADMIN_UNLOCK→ checkout.retryable (add events to the model, or allow-list it with a reason)",
    ])
  })

  it("fails on a stale entry once the paths cover the transition", () => {
    const events = [...(Array.isArray(model.events) ? model.events : []), { type: "ADMIN_UNLOCK" }]
    // Unlocking makes attempts unbounded: the projection caps it, or the graph would never end.
    const fuller: AnyModel = {
      ...model,
      events,
      projectContext: (s) => ({
        attempts: Math.min(s.context.attempts, s.context.maxAttempts),
        emailValid: s.context.email.includes("@"),
      }),
    }
    const fullerReport = coverageOf(fuller, generatePaths(fuller))
    expect(fullerReport.transitionsCovered).toBe(15)
    expect(fullerReport.problems).toEqual([
      "checkout (fixture): stale allow-list entry checkout.locked / ADMIN_UNLOCK: the generated paths cover it now",
    ])
  })

  it("fails on an entry that names no transition", () => {
    const wrong: AnyModel = {
      ...model,
      uncovered: [...(model.uncovered ?? []), { from: "checkout.nowhere", event: "FLY", reason: "typo" }],
    }
    expect(coverageOf(wrong, paths).problems).toEqual([
      "checkout (fixture): allow-list entry checkout.nowhere / FLY names no transition of the machine",
    ])
  })
})

describe("replay on a real actor", () => {
  it("matches the pure traversal on every generated path", () => {
    for (const path of paths) expect(replayOnActor(model, path), path.id).toEqual(path.steps.map(expectedOf))
  })

  it("catches a machine that diverges from the paths", () => {
    const strict: AnyModel = {
      ...model,
      machine: model.machine.provide({ guards: { emailLooksValid: () => false } }),
    }
    const viaPayment = paths.find((p) => p.id.startsWith("TYPE → SUBMIT → xstate.done.actor.pay"))
    expect(viaPayment).toBeDefined()
    if (viaPayment === undefined) return
    const observed = replayOnActor(strict, viaPayment)
    expect(observed).not.toEqual(viaPayment.steps.map(expectedOf))
    expect(observed[2]?.stateIds).toEqual(["checkout.form.invalid"])
  })

  it("replaces every invoked actor by one that never settles", async () => {
    expect(invokedSources(model.machine)).toEqual(["pay"])
    const typed: EventObject = { type: "TYPE", value: "ada@example.com" } as EventObject
    const steps = replayPure(model, [typed, { type: "SUBMIT" }])
    expect(steps.at(-1)?.stateIds).toEqual(["checkout.paying"])
    const actor = createActor(withNeverResolvingActors(model.machine), {
      input: model.input,
      clock: new SimulatedClock(),
    })
    actor.start()
    actor.send({ type: "TYPE", value: "ada@example.com" })
    actor.send({ type: "SUBMIT" })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(actor.getSnapshot().value).toBe("paying")
    actor.stop()
    // The real `pay` resolves at once: without the double the machine would have moved on.
    const real = createActor(model.machine, { input: model.input })
    real.start()
    real.send({ type: "TYPE", value: "ada@example.com" })
    real.send({ type: "SUBMIT" })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(real.getSnapshot().matches("paid")).toBe(true)
    real.stop()
  })

  it("sees the transitions taken while the actor is created (an `always` out of the initial state)", () => {
    const bouncing: AnyModel = {
      name: "bouncing",
      machine: createMachine({
        id: "bouncing",
        initial: "entry",
        states: { entry: { always: "settled" }, settled: { on: { POKE: "entry" } } },
      }),
      events: [{ type: "POKE" }],
    }
    const [path] = generatePaths(bouncing)
    expect(path?.steps.map((s) => s.fired)).toEqual([
      ["bouncing.entry|always|0"],
      ["bouncing.settled|POKE|0", "bouncing.entry|always|0"],
    ])
    // The initial state, left at once, was visited all the same.
    expect(path?.steps[0]?.visited).toContain("bouncing.entry")
    if (path !== undefined) expect(replayOnActor(bouncing, path)).toEqual(path.steps.map(expectedOf))
    const bouncingReport = coverageOf(bouncing, generatePaths(bouncing))
    expect(bouncingReport.problems).toEqual([])
    expect(bouncingReport.uncoveredStates).toEqual([])
  })

  it("refuses an event the machine would ignore", () => {
    expect(() => replayPure(model, [{ type: "RETRY" }])).toThrow("RETRY is not handled")
  })
})

describe("path generation", () => {
  it("drops paths that are prefixes of others", () => {
    const a = { type: "A" }
    const b = { type: "B" }
    const c = { type: "C" }
    expect(dedupePrefixes([[a], [a, b], [a, b, c], [b], [a, c]])).toEqual([[a, b, c], [a, c], [b]])
  })

  it("refuses a graph that explodes, pointing at projectContext", () => {
    const unprojected: MachineModel = { ...model, projectContext: (s) => s.context }
    expect(() => generatePaths(unprojected, { limit: 5 })).toThrow("narrow projectContext")
  })

  it("generates paths from every input the model names, each replayed with its own", () => {
    const opening: AnyModel = {
      name: "opening",
      machine: setup({
        types: { input: {} as { reopened: boolean }, context: {} as { reopened: boolean } },
        guards: { isReopened: ({ context }) => context.reopened },
      }).createMachine({
        id: "opening",
        context: ({ input }) => input,
        initial: "deciding",
        states: {
          deciding: { always: [{ guard: "isReopened", target: "outcome" }, { target: "amount" }] },
          outcome: { on: { OTHER: "amount" } },
          amount: {},
        },
      }),
      input: { reopened: true },
      otherInputs: [{ name: "fresh", input: { reopened: false } }],
      events: [{ type: "OTHER" }],
    }
    const generated = generatePaths(opening)
    expect(generated.map((p) => p.id)).toEqual(["OTHER", "(fresh) (initial state)"])
    expect(generated.map((p) => p.start?.name ?? null)).toEqual([null, "fresh"])
    for (const path of generated) {
      expect(replayOnActor(opening, path), path.id).toEqual(path.steps.map(expectedOf))
    }
    expect(coverageOf(opening, generated).problems).toEqual([])
    // With one input the branch the other input takes stays uncovered.
    const single: AnyModel = { ...opening, otherInputs: [] }
    expect(coverageOf(single, generatePaths(single)).problems).toEqual([
      "opening: uncovered transition opening.deciding —always→ opening.amount (add events to the model, or allow-list it with a reason)",
    ])
  })

  it("gives every path a distinct id", () => {
    expect(new Set(paths.map((p) => p.id)).size).toBe(paths.length)
  })
})
