import { useSelector } from "@xstate/react"
import { useAuthActor, useModalsActor } from "../app/actors.tsx"

/**
 * /profile/verification (linked from cashout). Shows the real verification status of the profile;
 * document upload arrives with the profile capability.
 */
export const VerificationPage = () => {
  const auth = useAuthActor()
  const modals = useModalsActor()
  const signedIn = useSelector(auth, (s) => s.matches("authenticated"))
  const profile = useSelector(auth, (s) => s.context.profile)

  return (
    <section className="page" aria-labelledby="verification-title">
      <h1 id="verification-title">Identity and address verification</h1>
      <p className="page__lead">Cashouts need a verified identity and a verified address.</p>
      {!signedIn ? (
        <p>
          <button
            type="button"
            className="button button--primary"
            onClick={() => modals.send({ type: "OPEN_LOGIN" })}
          >
            Log in
          </button>{" "}
          to see your verification status.
        </p>
      ) : profile ? (
        <dl className="status-list">
          <dt>Identity</dt>
          <dd>{profile.idVerification.verified ? "Verified" : "Not verified yet"}</dd>
          <dt>Address</dt>
          <dd>{profile.billVerification.verified ? "Verified" : "Not verified yet"}</dd>
          <dt>E-mail</dt>
          <dd>{profile.confirmed ? "Confirmed" : "Not confirmed yet"}</dd>
        </dl>
      ) : (
        <p className="muted">Loading your profile…</p>
      )}
    </section>
  )
}
