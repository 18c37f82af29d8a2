/**
 * The app: a projection of the shell machine. booting → spinner, blocked → only the blocked page,
 * crashed → the 500 page, ready → the layout with header, route, modal host and toasts.
 */
import { useSelector } from "@xstate/react"
import { lazy, Suspense, useEffect } from "react"
import type { ActorRefFrom } from "xstate"
import type { realityCheckMachine } from "../machines/profile/realityCheck.machine.ts"
import { isGamesPath, isProfilePath, unsubscribeIdOf } from "../services/rules.ts"
import { useAuthActor, useShell } from "./app/actors.tsx"
import { afterFirstScreen } from "./app/firstScreen.ts"
import { FullScreenSpinner } from "./components/Spinner.tsx"
import { ErrorPage } from "./pages/ErrorPage.tsx"
import { Header } from "./shell/Header.tsx"
import { ModalHost, prefetchModalLayer } from "./shell/ModalHost.tsx"

const Toasts = lazy(() => import("./shell/Toasts.tsx").then((m) => ({ default: m.Toasts })))
const LiveBadge = lazy(() => import("./app/LiveBadge.tsx").then((m) => ({ default: m.LiveBadge })))
const ProfilePage = lazy(() => import("./profile/ProfilePage.tsx").then((m) => ({ default: m.ProfilePage })))
const UnsubscribePage = lazy(() =>
  import("./profile/UnsubscribePage.tsx").then((m) => ({ default: m.UnsubscribePage })),
)
const RealityCheckDialog = lazy(() =>
  import("./profile/RealityCheckDialog.tsx").then((m) => ({ default: m.RealityCheckDialog })),
)
const GamesPage = lazy(() => import("./games/GamesPage.tsx").then((m) => ({ default: m.GamesPage })))
const staticPages = () => import("./pages/static.ts")
const NotFoundPage = lazy(() => staticPages().then((m) => ({ default: m.NotFoundPage })))
// Kept out of the first download: a blocked visitor waits for one more small
// chunk (the spinner shows meanwhile); every other visitor never downloads this page.
const BlockedPage = lazy(() => import("./pages/BlockedPage.tsx").then((m) => ({ default: m.BlockedPage })))
const TermsPage = lazy(() => staticPages().then((m) => ({ default: m.TermsPage })))

/** After the first screen, when the browser has nothing better to do: the modal layer's chunk. */
const usePrefetchWhenIdle = () => useEffect(() => afterFirstScreen(() => void prefetchModalLayer()), [])

/** Every page is its own chunk: the layout wraps the route in one Suspense (see Layout). */
const Route = () => {
  const path = useShell((s) => s.context.path)
  const siteConfig = useShell((s) => s.context.siteConfig)
  const unsubscribeId = unsubscribeIdOf(path)
  if (unsubscribeId !== null) return <UnsubscribePage id={unsubscribeId} />
  if (isProfilePath(path)) return <ProfilePage />
  if (isGamesPath(path)) return <GamesPage />
  return path === "/terms" ? (
    <TermsPage
      productName={siteConfig?.productName ?? "Casino"}
      supportEmail={siteConfig?.supportEmail ?? ""}
    />
  ) : (
    <NotFoundPage />
  )
}

type RealityCheckActor = ActorRefFrom<typeof realityCheckMachine>

/** The reality check's reminder: its dialog (and radix) load only when one is due. */
const RealityCheckReminder = ({ actor }: { actor: RealityCheckActor }) => {
  const due = useSelector(actor, (s) => s.matches("reminding"))
  return due ? (
    <Suspense fallback={null}>
      <RealityCheckDialog actor={actor} />
    </Suspense>
  ) : null
}

const RealityCheck = () => {
  const actor = useSelector(useAuthActor(), (s) => s.children.realityCheck) as RealityCheckActor | undefined
  return actor ? <RealityCheckReminder actor={actor} /> : null
}

const Layout = () => {
  usePrefetchWhenIdle()
  return (
    <div className="layout">
      <Header />
      <main className="layout__main">
        <Suspense fallback={null}>
          <Route />
        </Suspense>
      </main>
      <ModalHost />
      <RealityCheck />
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
    </div>
  )
}

const Screen = () => {
  const view = useShell((s) =>
    s.matches("booting")
      ? "booting"
      : s.matches("blocked")
        ? "blocked"
        : s.matches("crashed")
          ? "crashed"
          : "ready",
  )
  const country = useShell((s) => s.context.ip?.country ?? "")
  const supportEmail = useShell((s) => s.context.siteConfig?.supportEmail ?? "")

  switch (view) {
    case "booting":
      return <FullScreenSpinner />
    case "blocked":
      return (
        <Suspense fallback={<FullScreenSpinner />}>
          <BlockedPage country={country} supportEmail={supportEmail} />
        </Suspense>
      )
    case "crashed":
      return <ErrorPage />
    case "ready":
      return <Layout />
  }
}

/** `live`: this tab streams its statecharts to the visualizer (`?statecharts=live`). */
export const App = ({ live }: { readonly live: boolean }) => (
  <>
    <Screen />
    {live ? (
      <Suspense fallback={null}>
        <LiveBadge />
      </Suspense>
    ) : null}
  </>
)
