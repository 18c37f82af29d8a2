/**
 * The app: a projection of the shell machine. booting → spinner, blocked → only the blocked page,
 * crashed → the 500 page, ready → the layout with header, route, modal host and toasts.
 */
import { Toaster } from "sonner"
import { Constants } from "../services/rules.ts"
import { useShell } from "./app/actors.tsx"
import { LiveBadge } from "./app/LiveBadge.tsx"
import { FullScreenSpinner } from "./components/Spinner.tsx"
import { BlockedPage } from "./pages/BlockedPage.tsx"
import { ErrorPage } from "./pages/ErrorPage.tsx"
import { HomePage } from "./pages/HomePage.tsx"
import { NotFoundPage } from "./pages/NotFoundPage.tsx"
import { TermsPage } from "./pages/TermsPage.tsx"
import { VerificationPage } from "./pages/VerificationPage.tsx"
import { Header } from "./shell/Header.tsx"
import { ModalHost } from "./shell/ModalHost.tsx"

const Route = () => {
  const path = useShell((s) => s.context.path)
  const siteConfig = useShell((s) => s.context.siteConfig)
  switch (path) {
    case "/":
      return <HomePage />
    case "/terms":
      return (
        <TermsPage
          productName={siteConfig?.productName ?? "Casino"}
          supportEmail={siteConfig?.supportEmail ?? ""}
        />
      )
    case "/profile/verification":
      return <VerificationPage />
    default:
      return <NotFoundPage />
  }
}

const Layout = () => (
  <div className="layout">
    <Header />
    <main className="layout__main">
      <Route />
    </main>
    <ModalHost />
    <Toaster
      position="top-right"
      offset={{ top: 76, right: 16 }}
      // Below the header on phones too: a toast must not cover the account buttons (docs/decisions.md).
      mobileOffset={{ top: 76, right: 16, left: 16 }}
      duration={Constants.toastDurationMs}
      richColors
      closeButton
      theme="dark"
    />
  </div>
)

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
      return <BlockedPage country={country} supportEmail={supportEmail} />
    case "crashed":
      return <ErrorPage />
    case "ready":
      return <Layout />
  }
}

export const App = () => (
  <>
    <Screen />
    <LiveBadge />
  </>
)
