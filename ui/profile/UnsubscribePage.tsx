/**
 * `/unsubscribe/{id}`: the link of every promotional e-mail; no sign-in needed. Its own machine
 * (`unsubscribe`), started by this page with the link's id: the page owns it, like the resend button
 * owns its machine.
 */
import { useActorRef, useSelector } from "@xstate/react"
import { UnsubscribeMessages, unsubscribeMachine } from "../../machines/profile/unsubscribe.machine.ts"
import { Link } from "../components/Link.tsx"
import { Spinner } from "../components/Spinner.tsx"
import "./profile.css"

export const UnsubscribePage = ({ id }: { id: string }) => {
  const actor = useActorRef(unsubscribeMachine, { input: { id } })
  const state = useSelector(actor, (s) => s.value)
  const email = useSelector(actor, (s) => s.context.email)
  return (
    <section className="page" aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title">Promotional e-mails</h1>
      {state === "unsubscribing" ? (
        <Spinner label={UnsubscribeMessages.working} />
      ) : state === "done" ? (
        <div className="notice notice--success" role="status">
          <p>
            <strong>{UnsubscribeMessages.done}.</strong>{" "}
            {email === null ? "" : UnsubscribeMessages.doneDetail(email)}
          </p>
          <p className="muted">
            Changed your mind? Switch them on again in <Link to="/profile/promo">your account</Link>.
          </p>
        </div>
      ) : state === "invalid" ? (
        <p className="notice" role="alert">
          {UnsubscribeMessages.invalid}
        </p>
      ) : (
        <p className="notice" role="alert">
          {UnsubscribeMessages.failed}{" "}
          <button
            type="button"
            className="button button--primary"
            onClick={() => actor.send({ type: "RETRY" })}
          >
            Try again
          </button>
        </p>
      )}
    </section>
  )
}
