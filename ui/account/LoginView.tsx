/**
 * View of machines/account/login.machine.ts (modal body only; the host draws the dialog chrome).
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { loginMachine } from "../../machines/account/login.machine.ts"
import { Captcha } from "./Captcha.tsx"
import { EmailField, FormError, SubmitButton, TextField } from "./fields.tsx"
import "./flows.css"

export const LoginView = ({
  actor,
  onSwitchToRegister,
  onForgotPassword,
}: {
  actor: ActorRefFrom<typeof loginMachine>
  onSwitchToRegister: () => void
  onForgotPassword: () => void
}) => {
  const email = useSelector(actor, (s) => s.context.email)
  const password = useSelector(actor, (s) => s.context.password)
  const passwordLooksLong = useSelector(actor, (s) => s.context.passwordLooksLong)
  const errors = useSelector(actor, (s) => s.context.errors)
  const captchaKey = useSelector(actor, (s) => s.context.captchaKey)
  const submitting = useSelector(actor, (s) => s.matches("submitting"))

  return (
    <form
      className="flows"
      aria-label="Log in"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        actor.send({ type: "SUBMIT" })
      }}
    >
      <fieldset className="flows__fieldset" disabled={submitting}>
        <EmailField
          id="login-email"
          value={email}
          error={errors.email}
          onChange={(value) => actor.send({ type: "CHANGE_EMAIL", value })}
        />
        <TextField
          id="login-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          success={passwordLooksLong}
          error={errors.password}
          onChange={(value) => actor.send({ type: "CHANGE_PASSWORD", value })}
        />
        <p className="flows__aside">
          <button type="button" className="link-button" onClick={onForgotPassword}>
            Forgot password?
          </button>
        </p>
        <Captcha
          key={captchaKey}
          errorId="login-captcha-error"
          error={errors.captcha}
          onVerified={(payload) => actor.send({ type: "CAPTCHA_VERIFIED", payload })}
          onReset={() => actor.send({ type: "CAPTCHA_RESET" })}
        />
        <FormError message={errors.form} />
        <SubmitButton busy={submitting} label="Log in" busyLabel="Logging in…" />
      </fieldset>
      <p className="flows__switch">
        Don't have an account?{" "}
        <button type="button" className="link-button" onClick={onSwitchToRegister}>
          Sign up
        </button>
      </p>
    </form>
  )
}
