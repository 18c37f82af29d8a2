/** The security tab: change password (`changePassword` machine; the reset form's rules and messages). */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { changePasswordMachine } from "../../machines/profile/changePassword.machine.ts"
import { Constants } from "../../services/rules.ts"
import { Field, invalidProps } from "./fields.tsx"

type Actor = ActorRefFrom<typeof changePasswordMachine>
type PasswordField = "oldPassword" | "newPassword" | "confirmPassword"

const PasswordInput = ({
  actor,
  field,
  label,
  autoComplete,
}: {
  actor: Actor
  field: PasswordField
  label: string
  autoComplete: string
}) => {
  const value = useSelector(actor, (s) => s.context[field])
  const error = useSelector(actor, (s) => s.context.errors[field])
  const id = `security-${field}`
  return (
    <Field id={id} label={label} error={error}>
      <input
        id={id}
        name={id}
        type="password"
        className="input"
        autoComplete={autoComplete}
        maxLength={Constants.passwordMaxLength}
        value={value}
        onChange={(e) => actor.send({ type: "CHANGE", field, value: e.currentTarget.value })}
        {...invalidProps(id, error)}
      />
    </Field>
  )
}

export const SecurityTab = ({ actor }: { actor: Actor }) => {
  const formError = useSelector(actor, (s) => s.context.errors.form)
  const submitting = useSelector(actor, (s) => s.matches("submitting"))
  return (
    <div className="profile__section">
      <form
        className="profile-form profile-form--narrow"
        aria-label="Change password"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          actor.send({ type: "SUBMIT" })
        }}
      >
        <h2>Change password</h2>
        <p className="muted">
          At least {Constants.passwordMinLength} characters, and not one of your last{" "}
          {Constants.passwordHistoryDepth} passwords. Your other devices are signed out when it changes.
        </p>
        <fieldset className="flows__fieldset" disabled={submitting}>
          <PasswordInput
            actor={actor}
            field="oldPassword"
            label="Current password"
            autoComplete="current-password"
          />
          <PasswordInput actor={actor} field="newPassword" label="New password" autoComplete="new-password" />
          <PasswordInput
            actor={actor}
            field="confirmPassword"
            label="Confirm new password"
            autoComplete="new-password"
          />
        </fieldset>
        {formError ? (
          <p className="form-error" role="alert">
            {formError}
          </p>
        ) : null}
        <button type="submit" className="button button--primary" disabled={submitting} aria-busy={submitting}>
          {submitting ? "Changing…" : "Change password"}
        </button>
      </form>
    </div>
  )
}
