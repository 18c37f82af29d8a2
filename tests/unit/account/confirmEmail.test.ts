/**
 * E-mail confirmation on a real actor with a controlled double and a simulated clock: the token
 * sent, confirmed → continue (timer or button) with emailConfirmed, the dead link, the retry after
 * a transport failure, and aborting on close.
 */
import { describe, expect, it } from "vitest"
import { createActor, SimulatedClock } from "xstate"
import {
  confirmContinueDelayMs,
  confirmEmailMachine,
  confirmEmailTexts,
} from "../../../machines/account/confirmEmail.machine.ts"
import { flowInput, statusError, transportError } from "../../../machines/flowFixtures.ts"
import { InvalidToken } from "../../../services/errors.ts"
import { controlled, settle } from "./doubles.ts"

const token = "9a0d7e4c3b8a6f5e4d3c2b1a094f1c2b"

const start = (linkToken: string | null = token) => {
  const confirmAccount = controlled<{ confirmed: boolean }, { token: string }>()
  const clock = new SimulatedClock()
  const actor = createActor(
    confirmEmailMachine.provide({ actors: { confirmAccount: confirmAccount.logic } }),
    {
      input: flowInput(linkToken),
      clock,
    },
  )
  actor.start()
  return { actor, confirmAccount, clock }
}

describe("confirm e-mail", () => {
  it("sends the link's token at once and shows progress", () => {
    const { actor, confirmAccount } = start()
    expect(actor.getSnapshot().value).toBe("confirming")
    expect(confirmAccount.last().input).toEqual({ token })
  })

  it("shows the success and continues by itself after the delay with emailConfirmed", async () => {
    const { actor, confirmAccount, clock } = start()
    confirmAccount.last().resolve({ confirmed: true })
    await settle()
    expect(actor.getSnapshot().value).toBe("confirmed")
    expect(confirmEmailTexts.confirmed).toBe("Your email is confirmed. Thank you!")
    clock.increment(confirmContinueDelayMs - 1)
    expect(actor.getSnapshot().value).toBe("confirmed")
    clock.increment(1)
    expect(actor.getSnapshot().status).toBe("done")
    expect(actor.getSnapshot().output).toEqual({ type: "emailConfirmed" })
  })

  it("continues at once on Continue", async () => {
    const { actor, confirmAccount } = start()
    confirmAccount.last().resolve({ confirmed: true })
    await settle()
    actor.send({ type: "CONTINUE" })
    expect(actor.getSnapshot().output).toEqual({ type: "emailConfirmed" })
  })

  it("shows the spec's failure for an unknown, used or expired token", async () => {
    const { actor, confirmAccount } = start()
    confirmAccount.last().reject(new InvalidToken({ message: "x" }))
    await settle()
    expect(actor.getSnapshot().value).toBe("invalid")
    expect(confirmEmailTexts.invalid).toBe("This confirmation link is invalid or has expired.")
  })

  it("treats confirmed: false as a dead link", async () => {
    const { actor, confirmAccount } = start()
    confirmAccount.last().resolve({ confirmed: false })
    await settle()
    expect(actor.getSnapshot().value).toBe("invalid")
  })

  it("offers a retry when the server could not be reached, and sends the token again", async () => {
    const { actor, confirmAccount } = start()
    confirmAccount.last().reject(transportError())
    await settle()
    expect(actor.getSnapshot().value).toBe("unreachable")
    actor.send({ type: "RETRY" })
    expect(actor.getSnapshot().value).toBe("confirming")
    expect(confirmAccount.calls).toHaveLength(2)
    confirmAccount.last().reject(statusError(502))
    await settle()
    expect(actor.getSnapshot().value).toBe("unreachable")
    expect(actor.getSnapshot().context.attempts).toBe(2)
  })

  it("sends an empty token for a link without one (the server answers InvalidToken)", () => {
    const { confirmAccount } = start(null)
    expect(confirmAccount.last().input).toEqual({ token: "" })
  })

  it("aborts the call when the modal closes", () => {
    const { actor, confirmAccount } = start()
    actor.stop()
    expect(confirmAccount.last().signal.aborted).toBe(true)
  })
})
