/**
 * The promo e-mail switch on a real actor with controlled doubles (spec section 4): the local flag
 * flips only after the server answered, and to what the server answered; a failure leaves it as it
 * was; the parent hears of a change; leaving aborts the call.
 */
import { describe, expect, it } from "vitest"
import { createActor } from "xstate"
import { transportError } from "../../../machines/flowFixtures.ts"
import { promoEmailMachine } from "../../../machines/profile/promoEmail.machine.ts"
import { Unauthenticated } from "../../../services/errors.ts"
import { controlled, settle, toastRecorder } from "../account/doubles.ts"

const start = (subscribed: boolean | null) => {
  const readFlag = controlled<boolean, unknown>()
  const setFlag = controlled<boolean, boolean>()
  const { toasts, toast } = toastRecorder()
  const changes: Array<string> = []
  const actor = createActor(
    promoEmailMachine.provide({
      actors: { readFlag: readFlag.logic, setFlag: setFlag.logic },
      actions: { toast, announceChange: () => changes.push("ACCOUNT_CHANGED") },
    }),
    { input: { subscribed } },
  ).start()
  return { actor, readFlag, setFlag, toasts, changes }
}

describe("promo e-mail switch", () => {
  it("starts from the flag it is given, without reading the profile", () => {
    const { actor, readFlag } = start(false)
    expect(actor.getSnapshot().value).toBe("ready")
    expect(readFlag.calls).toHaveLength(0)
  })

  it("reads the flag first when it has none (the promo tab)", async () => {
    const { actor, readFlag } = start(null)
    expect(actor.getSnapshot().value).toBe("loading")
    readFlag.last().resolve(true)
    await settle()
    expect(actor.getSnapshot().context.subscribed).toBe(true)
  })

  it("flips the local flag only after the server answered, with the spec's toast", async () => {
    const { actor, setFlag, toasts, changes } = start(false)
    actor.send({ type: "TOGGLE" })
    expect(setFlag.last().input).toBe(true)
    // While the call runs, the switch still shows what the server last said.
    expect(actor.getSnapshot().context.subscribed).toBe(false)
    expect(toasts).toEqual([])
    setFlag.last().resolve(true)
    await settle()
    expect(actor.getSnapshot().context.subscribed).toBe(true)
    expect(toasts).toEqual([{ kind: "success", message: "You are subscribed" }])
    expect(changes).toEqual(["ACCOUNT_CHANGED"])

    actor.send({ type: "TOGGLE" })
    expect(setFlag.last().input).toBe(false)
    setFlag.last().resolve(false)
    await settle()
    expect(actor.getSnapshot().context.subscribed).toBe(false)
    expect(toasts.at(-1)).toEqual({ kind: "success", message: "You are unsubscribed" })
  })

  it("shows what the server answered, not what was asked", async () => {
    const { actor, setFlag, toasts } = start(false)
    actor.send({ type: "TOGGLE" })
    setFlag.last().resolve(false)
    await settle()
    expect(actor.getSnapshot().context.subscribed).toBe(false)
    expect(toasts).toEqual([{ kind: "success", message: "You are unsubscribed" }])
  })

  it("leaves the flag as it was when the call fails, and says so", async () => {
    const { actor, setFlag, toasts, changes } = start(true)
    actor.send({ type: "TOGGLE" })
    setFlag.last().reject(transportError())
    await settle()
    expect(actor.getSnapshot().value).toBe("ready")
    expect(actor.getSnapshot().context.subscribed).toBe(true)
    expect(toasts).toEqual([{ kind: "error", message: "Your choice could not be saved. Please try again." }])
    expect(changes).toEqual([])
  })

  it("ends with sessionEnded when the session is gone", async () => {
    const { actor, setFlag } = start(true)
    actor.send({ type: "TOGGLE" })
    setFlag.last().reject(new Unauthenticated({ message: "expired" }))
    await settle()
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({ type: "sessionEnded" })
  })

  it("ignores a second toggle while the first is on its way, and aborts it when stopped", () => {
    const { actor, setFlag } = start(false)
    actor.send({ type: "TOGGLE" })
    actor.send({ type: "TOGGLE" })
    expect(setFlag.calls).toHaveLength(1)
    actor.stop()
    expect(setFlag.last().signal.aborted).toBe(true)
  })
})
