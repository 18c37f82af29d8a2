/**
 * Every machine (found from every <machine>.model.ts under machines/, plus the harness fixture) survives random event
 * sequences through the pure `transition()`: it never throws, never lands in an `error` status, and
 * is always in a configuration of its own state nodes. Player events are sent whether or not the
 * current state handles them (ignoring an event must be safe); invoke outcomes and timers are sent
 * only when the machine is waiting for them, as the runtime would.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type AnyMachineSnapshot, type EventObject, initialTransition, transition } from "xstate"
import { loadModels } from "../../statecharts/discover.ts"
import { type AnyModel, allStateNodes, canHandle } from "../../statecharts/paths.ts"
import checkoutModel from "../model/fixtures/checkout.model.ts"

const models: Array<AnyModel> = [checkoutModel, ...(await loadModels()).map((m) => m.model)]

const eventsAt = (model: AnyModel, snapshot: AnyMachineSnapshot): ReadonlyArray<EventObject> =>
  typeof model.events === "function" ? model.events(snapshot) : model.events

const isRuntimeEvent = (event: EventObject): boolean => event.type.startsWith("xstate.")

/** A choice per step: an index into the events available then, or a junk event nobody handles. */
const choice = fc.oneof(
  { weight: 9, arbitrary: fc.nat().map((n) => ({ kind: "model" as const, n })) },
  {
    weight: 1,
    arbitrary: fc.stringMatching(/^[A-Z_]{1,12}$/).map((type) => ({ kind: "junk" as const, type })),
  },
)

describe.each(models.map((m) => [m.name, m] as const))("%s under random events", (_name, model) => {
  const known = new Set([model.machine.root.id, ...allStateNodes(model.machine).map((n) => n.id)])

  // 150 runs of up to 30 events: seconds for the larger machines on a loaded 2-core box (not a speed check).
  it("never throws, never errors, always rests in its own state nodes", { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(fc.array(choice, { maxLength: 30 }), (choices) => {
        let [snapshot] = initialTransition(model.machine, model.input)
        let current = snapshot as AnyMachineSnapshot
        for (const c of choices) {
          if (current.status !== "active") break
          let event: EventObject
          if (c.kind === "junk") {
            event = { type: `JUNK_${c.type}` }
          } else {
            const available = eventsAt(model, current).filter(
              (e) => !isRuntimeEvent(e) || canHandle(model, current, e),
            )
            const picked = available[c.n % Math.max(available.length, 1)]
            if (picked === undefined) continue
            event = picked
          }
          ;[snapshot] = transition(model.machine, current, event)
          current = snapshot as AnyMachineSnapshot
          expect(current.status, `after ${event.type}`).not.toBe("error")
          for (const node of current._nodes) expect(known.has(node.id), node.id).toBe(true)
          expect(current._nodes.some((n) => n.type === "atomic" || n.type === "final")).toBe(true)
        }
      }),
      { numRuns: 150 },
    )
  })
})
