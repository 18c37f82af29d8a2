/**
 * The reality check's reminder (machines/profile/realityCheck.machine.ts): how long the player has
 * been signed in, to continue or to sign out. Loaded the first time a reminder is due.
 */
import { useSelector } from "@xstate/react"
import { AlertDialog } from "radix-ui"
import type { ActorRefFrom } from "xstate"
import type { realityCheckMachine } from "../../machines/profile/realityCheck.machine.ts"
import { formatSessionTime } from "../../services/responsible-gaming.ts"
import "./profile.css"

export const RealityCheckDialog = ({ actor }: { actor: ActorRefFrom<typeof realityCheckMachine> }) => {
  const elapsed = useSelector(actor, (s) => s.context.elapsedMs)
  return (
    <AlertDialog.Root open>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="modal__overlay" />
        <AlertDialog.Content className="modal">
          <div className="modal__header">
            <AlertDialog.Title className="modal__title">Reality check</AlertDialog.Title>
          </div>
          <div className="modal__body">
            <AlertDialog.Description className="profile__dialog-text">
              You have been signed in for <strong>{formatSessionTime(elapsed)}</strong>. Take a moment: do you
              want to keep playing?
            </AlertDialog.Description>
            <div className="profile__dialog-actions">
              <AlertDialog.Cancel
                className="button button--ghost"
                onClick={() => actor.send({ type: "SIGN_OUT" })}
              >
                Sign out
              </AlertDialog.Cancel>
              <AlertDialog.Action
                className="button button--primary"
                // The machine is pure: the moment of the choice travels with the event.
                onClick={() => actor.send({ type: "CONTINUE", at: Date.now() })}
              >
                Continue playing
              </AlertDialog.Action>
            </div>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  )
}
