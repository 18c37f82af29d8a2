/**
 * The back office's entry (ui/backoffice/index.html, built by vite.backoffice.config.ts into
 * dist/backoffice, served at /backoffice): the casino team's app, a build of its own so none of it,
 * not even the effect functions only it uses, is in the player's download. Starts the session
 * machine with the address bar as its I/O.
 */
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { createActor } from "xstate"
import { sessionMachine } from "../../machines/backoffice/backofficeSession.machine.ts"
import { loginClient } from "../../services/backoffice/clients/login.ts"
import { sessionClient } from "../../services/backoffice/clients/session.ts"
import { screenOfPath } from "../../services/backoffice/screens.ts"
import { fromEffect } from "../../services/bridge.ts"
import { SessionProvider } from "./actors.tsx"
import { BackofficeApp } from "./BackofficeApp.tsx"
// The casino's palette and base styles first, then the back office's own.
import "../styles.css"
import "./backoffice.css"

const mountBackoffice = (root: HTMLElement): void => {
  const session = createActor(
    sessionMachine.provide({
      actors: {
        me: fromEffect(() => sessionClient.me()),
        login: fromEffect((input: { readonly email: string; readonly password: string }) =>
          loginClient.login({ payload: input }),
        ),
        loginTotp: fromEffect((code: string) => loginClient.loginTotp({ payload: { code } })),
        logout: fromEffect(() => sessionClient.logout()),
        changePassword: fromEffect(
          (payload: { readonly currentPassword: string; readonly newPassword: string }) =>
            sessionClient.changePassword({ payload }),
        ),
      },
      actions: {
        pushPath: (_, { path }) => {
          if (window.location.pathname !== path) window.history.pushState(null, "", path)
          window.scrollTo(0, 0)
        },
      },
    }),
    { input: { screen: screenOfPath(window.location.pathname) } },
  )
  window.addEventListener("popstate", () =>
    session.send({ type: "NAVIGATE", screen: screenOfPath(window.location.pathname) }),
  )
  // Activity keeps the session (the server slides its idle limit on each call; this mirrors it).
  let lastActivity = 0
  const activity = () => {
    const now = Date.now()
    if (now - lastActivity < 10_000) return
    lastActivity = now
    session.send({ type: "ACTIVITY" })
  }
  document.addEventListener("pointerdown", activity, { passive: true })
  document.addEventListener("keydown", activity)
  session.start()
  createRoot(root).render(
    <StrictMode>
      <SessionProvider actor={session}>
        <BackofficeApp />
      </SessionProvider>
    </StrictMode>,
  )
}

const root = document.getElementById("root")
if (!root) throw new Error("#root is missing from ui/backoffice/index.html")
mountBackoffice(root)
