/**
 * The reality check on real actors: its timing on the simulated clock, the
 * reminder owed at load shown at once (a reload or a second tab cannot skip it), "Continue playing"
 * saved on the server — the next reminder from the server's moment, or from the local one when the
 * call fails — an answer pushed from another tab closing the reminder only when this session's state
 * says so, and the loader placing the server's moments on the browser's clock (the real client,
 * only `fetch` replaced).
 */

import { Effect } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import { createActor, SimulatedClock } from "xstate"
import { transportError } from "../../../machines/flowFixtures.ts"
import { fixtureResponsibleGaming } from "../../../machines/profile/fixtures.ts"
import {
  acknowledgeRealityCheck,
  loadRealityCheckSettings,
  type RealityCheckAcknowledgement,
  type RealityCheckSettings,
  realityCheckMachine,
} from "../../../machines/profile/realityCheck.machine.ts"
import { formatSessionTime } from "../../../services/responsible-gaming.ts"
import { controlled, settle } from "../account/doubles.ts"

const MINUTE = 60_000
const signedInAt = Date.parse("2026-11-23T10:00:00Z")
const at = (minutes: number) => signedInAt + minutes * MINUTE

/** One tab's reality check: its settings call and its "Continue playing" call are doubles. */
const start = () => {
  const clock = new SimulatedClock()
  const load = controlled<RealityCheckSettings, unknown>()
  const acknowledge = controlled<RealityCheckAcknowledgement, unknown>()
  const actor = createActor(
    realityCheckMachine.provide({ actors: { loadSettings: load.logic, acknowledge: acknowledge.logic } }),
    { clock },
  ).start()
  return { actor, clock, load, acknowledge }
}

describe("reality check (on the simulated clock)", () => {
  it("reminds at every whole interval of the session, counted from the sign-in, with the session time", async () => {
    const { actor, clock, load, acknowledge } = start()
    // Read 40 minutes into the session with a 30-minute interval, the 30-minute reminder answered
    // at 31: the next one is at 60.
    load.last().resolve({ minutes: 30, signedInAt, acknowledgedAt: at(31), now: at(40) })
    await settle()
    expect(actor.getSnapshot().value).toBe("waiting")
    clock.increment(20 * MINUTE - 1)
    expect(actor.getSnapshot().value).toBe("waiting")
    clock.increment(1)
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
    expect(actor.getSnapshot().context.elapsedMs).toBe(60 * MINUTE)

    // The player reads it for two minutes and continues: the next one is at 90, not 92.
    actor.send({ type: "CONTINUE", at: at(62) })
    expect(actor.getSnapshot().value).toEqual({ continuing: "saving" })
    expect(acknowledge.calls).toHaveLength(1)
    acknowledge.last().resolve({ acknowledgedAt: at(62), now: at(62) })
    await settle()
    expect(actor.getSnapshot().value).toBe("waiting")
    expect(actor.getSnapshot().context.acknowledgedAt).toBe(at(62))
    clock.increment(28 * MINUTE)
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
    expect(actor.getSnapshot().context.elapsedMs).toBe(90 * MINUTE)

    actor.send({ type: "SIGN_OUT" })
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({ type: "signOut" })
  })

  it("is off without an interval, and reads the settings again after a change", async () => {
    const { actor, clock, load } = start()
    load.last().resolve({ minutes: null, signedInAt, now: signedInAt })
    await settle()
    expect(actor.getSnapshot().value).toBe("off")
    clock.increment(600 * MINUTE)
    expect(actor.getSnapshot().value).toBe("off")
    actor.send({ type: "REFRESH" })
    expect(load.calls).toHaveLength(2)
    load.last().resolve({ minutes: 15, signedInAt, now: at(5) })
    await settle()
    clock.increment(10 * MINUTE)
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
    expect(actor.getSnapshot().context.elapsedMs).toBe(15 * MINUTE)
  })

  it("gives no reminders rather than failing when the settings cannot be read", async () => {
    const { actor, load } = start()
    load.last().reject(transportError())
    await settle()
    expect(actor.getSnapshot().value).toBe("off")
  })
})

describe("a reminder owed at load (a reload, a second tab)", () => {
  it("shows at once when one came due after the sign-in and nothing answered it", async () => {
    const { actor, load } = start()
    // 40 minutes in, a 30-minute interval, never answered: the 30-minute reminder is owed.
    load.last().resolve({ minutes: 30, signedInAt, now: at(40) })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
    // It says how long the player has been signed in now, not at its due moment.
    expect(actor.getSnapshot().context.elapsedMs).toBe(40 * MINUTE)
    expect(formatSessionTime(actor.getSnapshot().context.elapsedMs)).toBe("40 min")
  })

  it("shows at once when one came due after the last answer; answered, the next is one interval on", async () => {
    const { actor, clock, load, acknowledge } = start()
    // Answered at 31 (the 30-minute one); read at 65: the 60-minute one is owed.
    load.last().resolve({ minutes: 30, signedInAt, acknowledgedAt: at(31), now: at(65) })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
    expect(actor.getSnapshot().context.elapsedMs).toBe(65 * MINUTE)

    actor.send({ type: "CONTINUE", at: at(66) })
    acknowledge.last().resolve({ acknowledgedAt: at(66), now: at(66) })
    await settle()
    // The next interval: 90, 24 minutes after the answer.
    expect(actor.getSnapshot().context.nextAt).toBe(at(90))
    clock.increment(24 * MINUTE - 1)
    expect(actor.getSnapshot().value).toBe("waiting")
    clock.increment(1)
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
    expect(actor.getSnapshot().context.elapsedMs).toBe(90 * MINUTE)
  })

  it("a reload while the reminder shows brings it back; once answered, a reload waits for the next", async () => {
    const first = start()
    first.load.last().resolve({ minutes: 15, signedInAt, now: at(1) })
    await settle()
    first.clock.increment(14 * MINUTE)
    expect(first.actor.getSnapshot().value).toEqual({ reminding: "shown" })
    // The page is reloaded (or a second tab opens) before anyone answers: the server still owes it.
    first.actor.stop()
    const reloaded = start()
    reloaded.load.last().resolve({ minutes: 15, signedInAt, now: at(15) + 20_000 })
    await settle()
    expect(reloaded.actor.getSnapshot().value).toEqual({ reminding: "shown" })
    expect(formatSessionTime(reloaded.actor.getSnapshot().context.elapsedMs)).toBe("15 min")

    // Answered there (the server recorded 15:30): the next load schedules the 30-minute one.
    reloaded.actor.send({ type: "CONTINUE", at: at(15) + 30_000 })
    reloaded.acknowledge.last().resolve({ acknowledgedAt: at(15) + 30_000, now: at(15) + 30_000 })
    await settle()
    reloaded.actor.stop()
    const again = start()
    again.load.last().resolve({ minutes: 15, signedInAt, acknowledgedAt: at(15) + 30_000, now: at(16) })
    await settle()
    expect(again.actor.getSnapshot().value).toBe("waiting")
    expect(again.actor.getSnapshot().context.nextAt).toBe(at(30))
    again.clock.increment(14 * MINUTE)
    expect(again.actor.getSnapshot().value).toEqual({ reminding: "shown" })
  })

  it("a reminder not yet due after the sign-in waits for its moment", async () => {
    const { actor, clock, load } = start()
    load.last().resolve({ minutes: 15, signedInAt, now: at(14) })
    await settle()
    expect(actor.getSnapshot().value).toBe("waiting")
    clock.increment(MINUTE)
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
  })
})

describe("answered in another tab (the server's push)", () => {
  it("the reminder closes once the session's answer is read, and the next one is an interval after it", async () => {
    const { actor, clock, load } = start()
    load.last().resolve({ minutes: 15, signedInAt, now: at(15) })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
    // Another tab of this session answered at 15:40; the push arrives and the state is read again.
    actor.send({ type: "ANSWERED_ELSEWHERE" })
    expect(actor.getSnapshot().value).toEqual({ reminding: "rechecking" })
    expect(actor.getSnapshot().matches("reminding")).toBe(true)
    expect(load.calls).toHaveLength(2)
    load.last().resolve({ minutes: 15, signedInAt, acknowledgedAt: at(15) + 40_000, now: at(16) })
    await settle()
    expect(actor.getSnapshot().value).toBe("waiting")
    expect(actor.getSnapshot().context.nextAt).toBe(at(30))
    clock.increment(14 * MINUTE - 1)
    expect(actor.getSnapshot().value).toBe("waiting")
    clock.increment(1)
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
  })

  it("stays when this session still owes it (another device's answer) or nothing could be read", async () => {
    const { actor, load } = start()
    load.last().resolve({ minutes: 15, signedInAt, now: at(15) })
    await settle()
    actor.send({ type: "ANSWERED_ELSEWHERE" })
    load.last().resolve({ minutes: 15, signedInAt, now: at(16) })
    await settle()
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
    actor.send({ type: "ANSWERED_ELSEWHERE" })
    load.last().reject(transportError())
    await settle()
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
    // The reminder still counts the time from the sign-in it was shown with.
    expect(actor.getSnapshot().context.elapsedMs).toBe(15 * MINUTE)
  })

  it("is off when the interval was removed meanwhile", async () => {
    const { actor, load } = start()
    load.last().resolve({ minutes: 15, signedInAt, now: at(15) })
    await settle()
    actor.send({ type: "ANSWERED_ELSEWHERE" })
    load.last().resolve({ minutes: null, signedInAt, now: at(16) })
    await settle()
    expect(actor.getSnapshot().value).toBe("off")
  })

  it("means nothing outside a reminder", async () => {
    const { actor, load } = start()
    load.last().resolve({ minutes: 15, signedInAt, now: at(1) })
    await settle()
    actor.send({ type: "ANSWERED_ELSEWHERE" })
    expect(actor.getSnapshot().value).toBe("waiting")
    expect(load.calls).toHaveLength(1)
  })
})

describe("Continue playing, saved on the server", () => {
  const reminding = async () => {
    const made = start()
    made.load.last().resolve({ minutes: 30, signedInAt, acknowledgedAt: at(31), now: at(40) })
    await settle()
    made.clock.increment(20 * MINUTE)
    expect(made.actor.getSnapshot().value).toEqual({ reminding: "shown" })
    return made
  }

  it("the server's moment decides the next reminder: the timer restarts from its answer", async () => {
    const { actor, clock, acknowledge } = await reminding()
    // Continued a second before 90 (the 60 reminder left open): locally the 90 one would be next,
    // one second later; the server recorded 90:01, which answers it too.
    actor.send({ type: "CONTINUE", at: at(90) - 1_000 })
    expect(actor.getSnapshot().context.nextAt).toBe(at(90))
    acknowledge.last().resolve({ acknowledgedAt: at(90) + 1_000, now: at(90) + 1_000 })
    await settle()
    expect(actor.getSnapshot().context.acknowledgedAt).toBe(at(90) + 1_000)
    expect(actor.getSnapshot().context.nextAt).toBe(at(120))
    // The local timer (one second) is gone; the new one runs 29:59 from the answer.
    clock.increment(1_000)
    expect(actor.getSnapshot().value).toBe("waiting")
    clock.increment(30 * MINUTE - 2_000 - 1)
    expect(actor.getSnapshot().value).toBe("waiting")
    clock.increment(1)
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
    expect(actor.getSnapshot().context.elapsedMs).toBe(120 * MINUTE)
  })

  it("play goes on when the call fails: the next reminder from the local moment, the timer undisturbed", async () => {
    const { actor, clock, acknowledge } = await reminding()
    actor.send({ type: "CONTINUE", at: at(62) })
    clock.increment(10 * MINUTE)
    acknowledge.last().reject(transportError())
    await settle()
    expect(actor.getSnapshot().value).toEqual({ continuing: "unsaved" })
    expect(actor.getSnapshot().context.acknowledgedAt).toBe(at(62))
    // 90 is 28 minutes after the answer: 10 have passed while the call failed.
    clock.increment(18 * MINUTE - 1)
    expect(actor.getSnapshot().value).toEqual({ continuing: "unsaved" })
    clock.increment(1)
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
  })

  it("a call that never answers holds nothing up: the next reminder comes, and the call is cancelled", async () => {
    const { actor, clock, acknowledge } = await reminding()
    actor.send({ type: "CONTINUE", at: at(62) })
    const call = acknowledge.last()
    clock.increment(28 * MINUTE)
    expect(actor.getSnapshot().value).toEqual({ reminding: "shown" })
    expect(call.signal.aborted).toBe(true)
  })

  it("a settings change while saving reads everything again", async () => {
    const { actor, load, acknowledge } = await reminding()
    actor.send({ type: "CONTINUE", at: at(62) })
    actor.send({ type: "REFRESH" })
    expect(actor.getSnapshot().value).toBe("loading")
    expect(load.calls).toHaveLength(2)
    expect(acknowledge.calls).toHaveLength(1)
  })
})

describe("the server's moments on the browser's clock", () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } })

  it("the load and the answer place sign-in and acknowledgement by the server's `now`, whatever this clock says", async () => {
    // This browser's clock is five minutes ahead of the server's.
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.parse("2026-11-23T10:45:00Z"))
    const calls: Array<string> = []
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input)
      calls.push(`${init?.method ?? "GET"} ${url}`)
      if (url.endsWith("/profile/responsible-gaming"))
        return json({ ...fixtureResponsibleGaming, realityCheckMinutes: 15 })
      if (url.endsWith("/profile/reality-check"))
        return init?.method === "PUT"
          ? json({
              signedInAt: "2026-11-23T10:00:00.000Z",
              acknowledgedAt: "2026-11-23T10:40:00.000Z",
              now: "2026-11-23T10:40:00.000Z",
            })
          : json({
              signedInAt: "2026-11-23T10:00:00.000Z",
              acknowledgedAt: "2026-11-23T10:20:00.000Z",
              now: "2026-11-23T10:40:00.000Z",
            })
      return new Response("not found", { status: 404 })
    })
    const settings = await Effect.runPromise(loadRealityCheckSettings)
    expect(settings).toEqual({
      minutes: 15,
      signedInAt: Date.parse("2026-11-23T10:05:00Z"),
      acknowledgedAt: Date.parse("2026-11-23T10:25:00Z"),
      now: Date.parse("2026-11-23T10:45:00Z"),
    })
    const answer = await Effect.runPromise(acknowledgeRealityCheck)
    expect(answer).toEqual({
      acknowledgedAt: Date.parse("2026-11-23T10:45:00Z"),
      now: Date.parse("2026-11-23T10:45:00Z"),
    })
    expect(calls).toEqual([
      "GET /profile-service/api/v1/profile/responsible-gaming",
      "GET /profile-service/api/v1/profile/reality-check",
      "PUT /profile-service/api/v1/profile/reality-check",
    ])
  })

  it("no answer yet: the settings carry no acknowledgement", async () => {
    vi.stubGlobal("fetch", async (input: RequestInfo | URL) =>
      String(input).endsWith("/profile/reality-check")
        ? json({
            signedInAt: new Date(Date.now() - MINUTE).toISOString(),
            acknowledgedAt: null,
            now: new Date().toISOString(),
          })
        : json(fixtureResponsibleGaming),
    )
    const settings = await Effect.runPromise(loadRealityCheckSettings)
    expect("acknowledgedAt" in settings).toBe(false)
    expect(settings.now - settings.signedInAt).toBeGreaterThanOrEqual(MINUTE - 50)
    expect(settings.now - settings.signedInAt).toBeLessThanOrEqual(MINUTE + 1_000)
  })
})
