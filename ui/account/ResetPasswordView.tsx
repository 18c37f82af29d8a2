/**
 * View of machines/account/resetPassword.machine.ts (modal body only). Opened from the e-mail link; the
 * token came in through the flow's input.
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import {
  resetLinkInvalidMessage,
  type resetPasswordMachine,
} from "../../machines/account/resetPassword.machine.ts"
import { Captcha } from "./Captcha.tsx"
import { FormError, NewPasswordField, SubmitButton } from "./fields.tsx"
import "./flows.css"

export const ResetPasswordView = ({ actor }: { actor: ActorRefFrom<typeof resetPasswordMachine> }) => {
  const password = useSelector(actor, (s) => s.context.password)
  const confirmPassword = useSelector(actor, (s) => s.context.confirmPassword)
  const passwordLooksLong = useSelector(actor, (s) => s.context.passwordLooksLong)
  const errors = useSelector(actor, (s) => s.context.errors)
  const captchaKey = useSelector(actor, (s) => s.context.captchaKey)
  const submitting = useSelector(actor, (s) => s.matches("submitting"))
  const linkInvalid = useSelector(actor, (s) => s.matches("linkInvalid"))

  if (linkInvalid) {
    return (
      <div className="flows">
        <p className="form-error flows__form-error" role="alert">
          {resetLinkInvalidMessage}
        </p>
      </div>
    )
  }

  return (
    <form
      className="flows"
      aria-label="Reset password"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        actor.send({ type: "SUBMIT" })
      }}
    >
      <fieldset className="flows__fieldset" disabled={submitting}>
        <NewPasswordField
          id="reset-password"
          label="New password"
          value={password}
          success={passwordLooksLong}
          error={errors.password}
          onChange={(value) => actor.send({ type: "CHANGE_PASSWORD", value })}
        />
        <NewPasswordField
          id="reset-confirm-password"
          label="Confirm password"
          value={confirmPassword}
          error={errors.confirmPassword}
          onChange={(value) => actor.send({ type: "CHANGE_CONFIRM_PASSWORD", value })}
        />
        <Captcha
          key={captchaKey}
          errorId="reset-captcha-error"
          error={errors.captcha}
          onVerified={(payload) => actor.send({ type: "CAPTCHA_VERIFIED", payload })}
          onReset={() => actor.send({ type: "CAPTCHA_RESET" })}
        />
        <FormError message={errors.form} />
        <SubmitButton busy={submitting} label="Restore password" busyLabel="Saving…" />
      </fieldset>
    </form>
  )
}
