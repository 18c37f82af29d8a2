/**
 * machines/lazy.ts: a flow whose code arrives on first need. Once loaded, the stand-in is the
 * machine for XState (it runs, finishes with its output, is recognised as that machine); before,
 * starting it fails loudly; a failed download can be retried.
 */
import { describe, expect, it } from "vitest"
import { createActor, createMachine, setup } from "xstate"
import { lazyLogic } from "../../machines/lazy.ts"

const flow = createMachine({
  id: "flow",
  initial: "asking",
  states: { asking: { on: { ANSWER: "done" } }, done: { type: "final" } },
  output: () => ({ answered: true }),
})

describe("lazyLogic", () => {
  it("downloads once, then is the machine itself", async () => {
    let downloads = 0
    const lazy = lazyLogic<typeof flow>("flow", async () => {
      downloads++
      return flow
    })
    expect(lazy.loaded()).toBe(false)
    await Promise.all([lazy.load(), lazy.load()])
    await lazy.load()
    expect(downloads).toBe(1)
    expect(lazy.loaded()).toBe(true)

    const host = setup({ actors: { flow: lazy.logic } }).createMachine({
      initial: "running",
      states: {
        running: { invoke: { id: "flow", src: "flow", onDone: "finished" } },
        finished: { type: "final" },
      },
    })
    const actor = createActor(host).start()
    const child = actor.getSnapshot().children.flow
    expect(child?.getSnapshot().value).toBe("asking")
    // Live inspection and the views see the real machine behind the stand-in.
    expect(Reflect.get(lazy.logic, "root")).toBe(flow.root)
    child?.send({ type: "ANSWER" })
    expect(actor.getSnapshot().status).toBe("done")
  })

  it("refuses to start before its code is there: the host's onError hears of it", () => {
    const lazy = lazyLogic<typeof flow>("flow", async () => flow)
    let heard = ""
    const host = setup({ actors: { flow: lazy.logic } }).createMachine({
      initial: "running",
      states: {
        running: {
          invoke: {
            src: "flow",
            onError: {
              target: "failed",
              actions: ({ event }) => {
                heard = event.error instanceof Error ? event.error.message : String(event.error)
              },
            },
          },
        },
        failed: {},
      },
    })
    const actor = createActor(host).start()
    expect(actor.getSnapshot().value).toBe("failed")
    expect(heard).toBe("the flow flow was started before its code was loaded")
  })

  it("retries a failed download on the next load", async () => {
    let attempt = 0
    const lazy = lazyLogic<typeof flow>("flow", async () => {
      attempt++
      if (attempt === 1) throw new TypeError("Failed to fetch dynamically imported module")
      return flow
    })
    await expect(lazy.load()).rejects.toThrow("Failed to fetch")
    expect(lazy.loaded()).toBe(false)
    await lazy.load()
    expect(lazy.loaded()).toBe(true)
    expect(attempt).toBe(2)
  })
})
