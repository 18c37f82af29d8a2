/**
 * Small form pieces the account flows share: a labelled text field whose error is announced
 * (`aria-invalid`, `aria-describedby`, `role="alert"`), the form-level error and the submit button.
 * Presentational only: values and messages come from the flow machine.
 */
import { Label } from "radix-ui"
import type { ReactNode } from "react"
import { Constants } from "../../services/rules.ts"

export const TextField = ({
  id,
  label,
  type,
  value,
  onChange,
  error,
  success,
  autoComplete,
  maxLength,
  hint,
}: {
  id: string
  label: string
  type: "text" | "email" | "password"
  value: string
  onChange: (value: string) => void
  error: string | undefined
  /** The machine's success style for this field (e.g. a password above 3 characters). */
  success?: boolean
  autoComplete: string
  maxLength?: number
  hint?: ReactNode
}) => {
  const errorId = `${id}-error`
  return (
    <div className="field">
      <Label.Root className="field__label" htmlFor={id}>
        {label}
      </Label.Root>
      <input
        id={id}
        name={id}
        type={type}
        value={value}
        autoComplete={autoComplete}
        maxLength={maxLength}
        className={success && !error ? "input--ok" : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
      {hint}
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}

type FieldProps = {
  id: string
  value: string
  onChange: (value: string) => void
  error: string | undefined
}

/** The e-mail field of every account form. */
export const EmailField = (props: FieldProps) => (
  <TextField {...props} label="Email" type="email" autoComplete="email" />
)

/** A password being chosen (register, reset): the browser may suggest one; the server's upper bound applies. */
export const NewPasswordField = (props: FieldProps & { label: string; success?: boolean }) => (
  <TextField {...props} type="password" autoComplete="new-password" maxLength={Constants.passwordMaxLength} />
)

export const FormError = ({ message }: { message: string | undefined }) =>
  message ? (
    <p className="form-error flows__form-error" role="alert">
      {message}
    </p>
  ) : null

export const SubmitButton = ({
  busy,
  label,
  busyLabel,
}: {
  busy: boolean
  label: string
  busyLabel: string
}) => (
  <button type="submit" className="button button--primary button--block" disabled={busy} aria-busy={busy}>
    {busy ? busyLabel : label}
  </button>
)
