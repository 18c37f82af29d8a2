/** The back office's sign-in: e-mail and password, then the authenticator code (or its enrolment). */
import { QRCodeSVG } from "qrcode.react"
import { type FormEvent, useId } from "react"
import { SessionMessages } from "../../machines/backoffice/backofficeSession.machine.ts"
import { useSession, useSessionActor } from "./actors.tsx"

const field = (form: HTMLFormElement, name: string): string => {
  const value = new FormData(form).get(name)
  return typeof value === "string" ? value : ""
}

export const SignIn = () => {
  const session = useSessionActor()
  const step = useSession((s) => s.context.step)
  const error = useSession((s) => s.context.error)
  const notice = useSession((s) => s.context.notice)
  const busy = useSession((s) => s.matches("submittingPassword") || s.matches("submittingCode"))
  const onCode = useSession((s) => s.matches("secondFactor") || s.matches("submittingCode"))
  const errorId = useId()

  const submitPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    session.send({
      type: "SUBMIT_PASSWORD",
      email: field(event.currentTarget, "email"),
      password: field(event.currentTarget, "password"),
    })
  }
  const submitCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    session.send({ type: "SUBMIT_CODE", code: field(event.currentTarget, "code") })
  }

  return (
    <main className="bo-signin">
      <div className="bo-signin__card">
        <p className="bo-brand">
          <span className="bo-brand__mark" aria-hidden="true">
            ◆
          </span>{" "}
          Back office
        </p>
        {!onCode ? (
          <form onSubmit={submitPassword} aria-describedby={error ? errorId : undefined}>
            <h1>Sign in</h1>
            {notice && (
              <p className="bo-notice" role="status">
                {notice}
              </p>
            )}
            <label>
              E-mail
              <input name="email" type="email" autoComplete="username" required maxLength={254} />
            </label>
            <label>
              Password
              <input
                name="password"
                type="password"
                autoComplete="current-password"
                required
                maxLength={128}
              />
            </label>
            <FormError id={errorId} error={error} />
            <button type="submit" className="bo-button bo-button--primary" disabled={busy}>
              {busy ? "Checking…" : "Continue"}
            </button>
          </form>
        ) : (
          <form onSubmit={submitCode} aria-describedby={error ? errorId : undefined}>
            <h1>{step?.step === "enrol" ? "Set up two-step sign-in" : "Authenticator code"}</h1>
            {step?.step === "enrol" ? (
              <div className="bo-enrol">
                <p>
                  Scan this code with an authenticator app (or type the key), then enter the six digits it
                  shows. The back office always asks for a code after the password.
                </p>
                <div className="bo-enrol__qr">
                  <QRCodeSVG
                    value={step.otpauthUri}
                    size={168}
                    marginSize={2}
                    title="Authenticator QR code"
                  />
                </div>
                <p>
                  Key: <code className="bo-code">{step.secret}</code>
                </p>
              </div>
            ) : (
              <p>Enter the six-digit code from your authenticator app.</p>
            )}
            <label>
              Code
              <input
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="\s*[0-9]{6}\s*"
                required
                maxLength={16}
              />
            </label>
            <FormError id={errorId} error={error} />
            <div className="bo-row">
              <button type="submit" className="bo-button bo-button--primary" disabled={busy}>
                {busy ? "Checking…" : "Sign in"}
              </button>
              <button type="button" className="bo-button" onClick={() => session.send({ type: "CANCEL" })}>
                Back
              </button>
            </div>
          </form>
        )}
      </div>
    </main>
  )
}

export const Unreachable = ({ blocked }: { blocked: boolean }) => {
  const session = useSessionActor()
  return (
    <main className="bo-signin">
      <div className="bo-signin__card" role="alert">
        <h1>Back office</h1>
        <p>{blocked ? SessionMessages.blocked : SessionMessages.unavailable}</p>
        {!blocked && (
          <button
            type="button"
            className="bo-button bo-button--primary"
            onClick={() => session.send({ type: "RETRY" })}
          >
            Try again
          </button>
        )}
      </div>
    </main>
  )
}

/** After a one-time password: the operator chooses their own before anything else opens. */
export const ChoosePassword = () => {
  const session = useSessionActor()
  const error = useSession((s) => s.context.error)
  const busy = useSession((s) => s.matches("changingPassword"))
  const errorId = useId()
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    session.send({
      type: "CHANGE_PASSWORD",
      currentPassword: field(event.currentTarget, "current"),
      newPassword: field(event.currentTarget, "next"),
    })
  }
  return (
    <main className="bo-signin">
      <div className="bo-signin__card">
        <form onSubmit={submit} aria-describedby={error ? errorId : undefined}>
          <h1>Choose your password</h1>
          <p>You signed in with a one-time password. Choose your own (12 characters or more) to continue.</p>
          <label>
            One-time password
            <input name="current" type="password" autoComplete="current-password" required maxLength={128} />
          </label>
          <label>
            New password
            <input
              name="next"
              type="password"
              autoComplete="new-password"
              required
              minLength={12}
              maxLength={128}
            />
          </label>
          <FormError id={errorId} error={error} />
          <div className="bo-row">
            <button type="submit" className="bo-button bo-button--primary" disabled={busy}>
              {busy ? "Saving…" : "Save and continue"}
            </button>
            <button type="button" className="bo-button" onClick={() => session.send({ type: "LOGOUT" })}>
              Sign out
            </button>
          </div>
        </form>
      </div>
    </main>
  )
}

/** Why the last step failed, read out at once; the form names it with aria-describedby. */
const FormError = ({ id, error }: { readonly id: string; readonly error: string | null }) =>
  error === null ? null : (
    <p id={id} className="bo-error" role="alert">
      {error}
    </p>
  )
