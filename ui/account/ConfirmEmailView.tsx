/**
 * View of machines/account/confirmEmail.machine.ts (modal body only): progress, then the outcome.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom, SnapshotFrom } from "xstate"
import { type confirmEmailMachine, confirmEmailTexts } from "../../machines/account/confirmEmail.machine.ts"
import "./flows.css"

type Phase = "confirming" | "confirmed" | "invalid" | "unreachable"

const phaseOf = (snapshot: SnapshotFrom<typeof confirmEmailMachine>): Phase => {
  if (snapshot.matches("invalid")) return "invalid"
  if (snapshot.matches("unreachable")) return "unreachable"
  // `done` is the instant before the host closes the modal: keep showing the success.
  if (snapshot.matches("confirmed") || snapshot.status === "done") return "confirmed"
  return "confirming"
}

export const ConfirmEmailView = ({
  actor,
  onClose,
}: {
  actor: ActorRefFrom<typeof confirmEmailMachine>
  onClose: () => void
}) => {
  const phase = useSelector(actor, phaseOf)

  switch (phase) {
    case "confirming":
      return (
        <div className="flows flows--centered" role="status" aria-live="polite">
          <span className="spinner__ring" aria-hidden="true" />
          <p>{confirmEmailTexts.confirming}</p>
        </div>
      )
    case "confirmed":
      return (
        <div className="flows flows--centered">
          <p className="flows__success" role="status">
            {confirmEmailTexts.confirmed}
          </p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => actor.send({ type: "CONTINUE" })}
          >
            Continue
          </button>
        </div>
      )
    case "invalid":
      return (
        <div className="flows flows--centered">
          <p className="form-error" role="alert">
            {confirmEmailTexts.invalid}
          </p>
          <button type="button" className="button button--ghost" onClick={onClose}>
            Close
          </button>
        </div>
      )
    case "unreachable":
      return (
        <div className="flows flows--centered">
          <p className="form-error" role="alert">
            {confirmEmailTexts.unreachable}
          </p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => actor.send({ type: "RETRY" })}
          >
            Try again
          </button>
          <button type="button" className="button button--ghost" onClick={onClose}>
            Close
          </button>
        </div>
      )
  }
}
