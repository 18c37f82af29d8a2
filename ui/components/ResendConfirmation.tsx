import { useActorRef, useSelector } from "@xstate/react"
import { resendConfirmationMachine } from "../../machines/account/resendConfirmation.machine.ts"

/** "Resend the link" — one use per page session (the machine makes it inactive afterwards). */
export const ResendConfirmation = () => {
  const actor = useActorRef(resendConfirmationMachine)
  const state = useSelector(actor, (s) => s.value)
  return (
    <button
      type="button"
      className="link-button"
      disabled={state !== "idle"}
      aria-disabled={state !== "idle"}
      onClick={() => actor.send({ type: "RESEND" })}
    >
      {state === "sending" ? "Sending…" : "Resend the link"}
    </button>
  )
}
