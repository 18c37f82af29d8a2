/**
 * Entry point. `/statecharts` (the product owners' and QA's visualizer) is its own lazily loaded
 * chunk: the player app never downloads it. (`/backoffice` is not a route of this app: it is a build
 * of its own, vite.backoffice.config.ts, that the server serves.) Every other path starts the shell
 * actor with the DOM effects the machines name (history, reload, title), forwards browser-level
 * failures to it, and renders the app.
 */
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import type { InspectionEvent } from "xstate"
import { createActor } from "xstate"
import { shellMachine } from "../machines/shell.machine.ts"
import { toCapturedError } from "../services/captured-error.ts"
import { isGamesPath } from "../services/rules.ts"
import { liveModeRequested } from "../statecharts/live-flag.ts"
import { App } from "./App.tsx"
import { ShellProvider } from "./app/actors.tsx"
import { afterFirstScreen } from "./app/firstScreen.ts"
import { ErrorBoundary } from "./shell/ErrorBoundary.tsx"
import "./styles.css"

const root = document.getElementById("root")
if (!root) throw new Error("#root is missing from index.html")

const isVisualizerRoute = (path: string): boolean =>
  path === "/statecharts" || path.startsWith("/statecharts/")

const tabStorage = (): Storage | null => {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

const startPlayerApp = (root: HTMLElement, inspect: ((event: InspectionEvent) => void) | undefined): void => {
  const shell = createActor(
    shellMachine.provide({
      actions: {
        pushHistory: (_, params) => {
          if (window.location.pathname !== params.path) window.history.pushState(null, "", params.path)
          window.scrollTo(0, 0)
        },
        reloadPage: () => window.location.reload(),
        clearModalQuery: () => {
          const url = new URL(window.location.href)
          if (url.searchParams.has("token")) {
            url.searchParams.delete("token")
            url.searchParams.delete("modal")
            window.history.replaceState(null, "", `${url.pathname}${url.search}${url.hash}`)
          }
        },
        setTitle: (_, params) => {
          document.title = params.title
        },
      },
    }),
    {
      input: { path: window.location.pathname, search: window.location.search },
      ...(inspect ? { inspect } : {}),
    },
  )

  // Back on the page: the session re-checks itself (it may have been revoked from another device).
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") shell.send({ type: "PAGE_VISIBLE" })
  })
  window.addEventListener("popstate", () =>
    shell.send({ type: "LOCATION_CHANGED", path: window.location.pathname }),
  )
  window.addEventListener("error", (event) =>
    shell.send({ type: "UNEXPECTED_ERROR", error: toCapturedError(event.error ?? event.message) }),
  )
  window.addEventListener("unhandledrejection", (event) =>
    shell.send({ type: "UNEXPECTED_ERROR", error: toCapturedError(event.reason) }),
  )

  // The page's view code is fetched beside the boot calls (the shell prefetches its machine).
  if (isGamesPath(window.location.pathname)) void import("./games/GamesPage.tsx").catch(() => undefined)
  shell.start()
  // The support chat is its own chunk and React root, fetched once the first screen is up.
  afterFirstScreen(() => void import("./chat/mount.tsx").then((m) => m.mountChat(shell)))

  createRoot(root).render(
    <StrictMode>
      <ShellProvider actor={shell}>
        <ErrorBoundary
          onError={(error, componentStack) =>
            shell.send({ type: "UNEXPECTED_ERROR", error: { ...toCapturedError(error), componentStack } })
          }
        >
          <App live={inspect !== undefined} />
        </ErrorBoundary>
      </ShellProvider>
    </StrictMode>,
  )
}

if (isVisualizerRoute(window.location.pathname)) {
  void import("./statecharts/main.tsx").then(({ mountVisualizer }) => mountVisualizer(root))
} else if (liveModeRequested(window.location.search, tabStorage())) {
  // Live statecharts (QA, product owners): the inspector is its own chunk, loaded only when asked for.
  void import("./app/live.ts").then(({ startLiveInspection }) => startPlayerApp(root, startLiveInspection()))
} else {
  startPlayerApp(root, undefined)
}
