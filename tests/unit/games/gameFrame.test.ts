/**
 * The game's frame on a real actor with doubles (catalogue and launch answered at once, the clock
 * simulated): the frame is loading until the studio's page says it is there (its first message);
 * silent for 15 s or blocked by the browser, the page could not be loaded, saying why; Try again
 * loads a new frame without a new launch.
 */
import { describe, expect, it } from "vitest"
import { createActor, fromCallback, fromPromise, SimulatedClock } from "xstate"
import { fixtureCatalogue } from "../../../machines/games/fixtures.ts"
import { GamePageMessages, gamePageMachine } from "../../../machines/games/gamePage.machine.ts"
import type { LaunchResponse } from "../../../services/game-service.ts"
import { settle } from "../account/doubles.ts"

const launched: LaunchResponse = { url: "http://127.0.0.1:8083/studio/play/abc", demo: true, currency: "EUR" }

const start = async () => {
  const clock = new SimulatedClock()
  let launches = 0
  const actor = createActor(
    gamePageMachine.provide({
      actors: {
        catalogue: fromPromise(async () => fixtureCatalogue),
        launch: fromPromise(async () => {
          launches++
          return launched
        }),
        watchRealityCheck: fromCallback(() => () => {}),
      },
      actions: { askForLogin: () => {}, recheckSession: () => {} },
    }),
    {
      input: { gameId: "game-0", session: "anonymous", currency: null, platform: "desktop", lang: "en" },
      clock,
    },
  )
  actor.start()
  await settle()
  await settle()
  return { actor, clock, launches: () => launches }
}

describe("the game's frame", () => {
  it("loading until the studio's page says it is there", async () => {
    const { actor } = await start()
    expect(actor.getSnapshot().matches({ playing: "loading" })).toBe(true)
    actor.send({ type: "FRAME", message: { type: "balance" } })
    expect(actor.getSnapshot().matches({ playing: "frame" })).toBe(true)
  })

  it("silent for 15 s: could not be loaded, the studio did not answer; Try again loads a new frame", async () => {
    const { actor, clock, launches } = await start()
    clock.increment(15_000 - 1)
    expect(actor.getSnapshot().matches({ playing: "loading" })).toBe(true)
    clock.increment(1)
    expect(actor.getSnapshot().matches({ playing: "failed" })).toBe(true)
    expect(actor.getSnapshot().context.frameFailure).toBe("timeout")
    expect(GamePageMessages.loadFailed).toBe("The game could not be loaded.")
    expect(GamePageMessages.frameTimeout).toBe("The game studio did not answer in time.")
    actor.send({ type: "RETRY" })
    expect(actor.getSnapshot().matches({ playing: "loading" })).toBe(true)
    expect(actor.getSnapshot().context).toMatchObject({
      frameAttempt: 1,
      frameFailure: null,
      launch: launched,
    })
    // The same session's page again: no new launch.
    expect(launches()).toBe(1)
    actor.send({ type: "FRAME", message: { type: "balance" } })
    expect(actor.getSnapshot().matches({ playing: "frame" })).toBe(true)
  })

  it("blocked by the browser: could not be loaded at once, saying so", async () => {
    const { actor } = await start()
    actor.send({ type: "FRAME_BLOCKED" })
    expect(actor.getSnapshot().matches({ playing: "failed" })).toBe(true)
    expect(actor.getSnapshot().context.frameFailure).toBe("blocked")
    expect(GamePageMessages.frameBlocked).toBe("Your browser blocked it on this address.")
  })
})
