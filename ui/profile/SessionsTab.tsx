/**
 * The sessions tab: every signed-in device, the current one marked (it signs out from the header);
 * revoking another asks first (`sessions` machine).
 */
import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import { SessionsMessages, type sessionsMachine } from "../../machines/profile/sessions.machine.ts"
import { Spinner } from "../components/Spinner.tsx"
import { ConfirmDialog, LoadFailed } from "./fields.tsx"
import { formatDateTime } from "./format.ts"

export const SessionsTab = ({ actor }: { actor: ActorRefFrom<typeof sessionsMachine> }) => {
  const sessions = useSelector(actor, (s) => s.context.sessions)
  const selected = useSelector(actor, (s) => s.context.selected)
  const view = useSelector(actor, (s) =>
    s.matches("loading")
      ? "loading"
      : s.matches("loadFailed")
        ? "loadFailed"
        : s.matches("confirming")
          ? "confirming"
          : s.matches("revoking")
            ? "revoking"
            : "ready",
  )

  if (view === "loading" && sessions.length === 0) return <Spinner label="Loading your devices" />
  if (view === "loadFailed")
    return <LoadFailed message={SessionsMessages.loadFailed} onRetry={() => actor.send({ type: "RETRY" })} />

  return (
    <div className="profile__section">
      <p className="page__lead">
        Every device signed in to your account. Sign out any you do not recognise, and change your password.
      </p>
      <ul className="sessions" aria-busy={view === "loading"}>
        {sessions.map((session) => (
          <li key={session.id} className="sessions__item">
            <div className="sessions__what">
              <strong>{session.browser}</strong>
              {session.current ? <span className="badge">This device</span> : null}
              <span className="muted">
                {session.ip} · {session.country}
              </span>
            </div>
            <dl className="sessions__when">
              <dt>Signed in</dt>
              <dd>{formatDateTime(session.createdAt)}</dd>
              <dt>Last active</dt>
              <dd>{formatDateTime(session.lastSeenAt)}</dd>
            </dl>
            {session.current ? null : (
              <button
                type="button"
                className="button button--ghost"
                aria-label={`Sign out ${session.browser} (${session.ip})`}
                onClick={() => actor.send({ type: "REVOKE", id: session.id })}
              >
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      {(view === "confirming" || view === "revoking") && selected !== null ? (
        <ConfirmDialog
          title="Sign out this device?"
          confirmLabel="Sign it out"
          busy={view === "revoking"}
          onConfirm={() => actor.send({ type: "CONFIRM" })}
          onCancel={() => actor.send({ type: "CANCEL" })}
        >
          <p>
            {selected.browser} ({selected.ip}, {selected.country}) will be signed out at once and has to sign
            in again to play.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  )
}
