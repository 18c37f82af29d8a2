/**
 * View of machines/account/forgotPassword.machine.ts (modal body only).
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { forgotPasswordMachine } from "../../machines/account/forgotPassword.machine.ts"
import { EmailField, SubmitButton } from "./fields.tsx"
import "./flows.css"

export const ForgotPasswordView = ({
  actor,
  onBackToLogin,
}: {
  actor: ActorRefFrom<typeof forgotPasswordMachine>
  onBackToLogin: () => void
}) => {
  const email = useSelector(actor, (s) => s.context.email)
  const errors = useSelector(actor, (s) => s.context.errors)
  const submitting = useSelector(actor, (s) => s.matches("submitting"))

  return (
    <form
      className="flows"
      aria-label="Forgot password"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        actor.send({ type: "SUBMIT" })
      }}
    >
      <p className="flows__lead">
        Enter the e-mail of your account and we will send you a link to choose a new password.
      </p>
      <fieldset className="flows__fieldset" disabled={submitting}>
        <EmailField
          id="forgot-email"
          value={email}
          error={errors.email}
          onChange={(value) => actor.send({ type: "CHANGE_EMAIL", value })}
        />
        <SubmitButton busy={submitting} label="Restore password" busyLabel="Sending…" />
      </fieldset>
      <p className="flows__switch">
        <button type="button" className="link-button" onClick={onBackToLogin}>
          Back to log in
        </button>
      </p>
    </form>
  )
}
