import { useSelector } from "@xstate/react"
import { lazy, Suspense } from "react"
import { useAuthActor, useModalsActor, useShell } from "../app/actors.tsx"
import { prefetchModalLayer } from "../shell/ModalHost.tsx"

/** Only unconfirmed players see it: its machine and button load with the notice. */
const ResendConfirmation = lazy(() =>
  import("../components/ResendConfirmation.tsx").then((m) => ({ default: m.ResendConfirmation })),
)

export const HomePage = () => {
  const modals = useModalsActor()
  const auth = useAuthActor()
  const signedIn = useSelector(auth, (s) => s.matches("authenticated"))
  const name = useSelector(auth, (s) => s.context.user?.fullName ?? null)
  const confirmed = useSelector(auth, (s) => s.context.user?.confirmed ?? true)
  const productName = useShell((s) => s.context.siteConfig?.productName ?? "Casino")

  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <p className="hero__eyebrow">{productName}</p>
        {signedIn ? (
          <>
            <h1 id="hero-title">Welcome, {name}</h1>
            <p className="hero__lead">Fund your account in fiat or crypto and claim your welcome bonus.</p>
          </>
        ) : (
          <>
            <h1 id="hero-title">125 free spins on your first deposit</h1>
            <p className="hero__lead">
              Play in euros or in crypto. Register in a minute, claim up to 200% on your first deposits.
            </p>
            <button
              type="button"
              className="button button--primary button--large"
              onPointerEnter={prefetchModalLayer}
              onFocus={prefetchModalLayer}
              onClick={() => modals.send({ type: "OPEN_REGISTER" })}
            >
              Sign up
            </button>
          </>
        )}
      </section>
      {signedIn && !confirmed ? (
        <p className="notice" role="status">
          Please confirm your e-mail address: we sent you a link when you registered.{" "}
          <Suspense fallback={null}>
            <ResendConfirmation />
          </Suspense>
        </p>
      ) : null}
    </div>
  )
}
