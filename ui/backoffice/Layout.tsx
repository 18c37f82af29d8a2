/** The signed-in frame: the menu of the screens this role may open, who is signed in, sign-out. */
import type { ReactNode } from "react"
import { type BackofficeScreen, screenAllowed, screens } from "../../services/backoffice/screens.ts"
import { useSession, useSessionActor } from "./actors.tsx"

export const Layout = ({
  available,
  children,
}: {
  readonly available: ReadonlySet<BackofficeScreen>
  readonly children: ReactNode
}) => {
  const session = useSessionActor()
  const me = useSession((s) => s.context.me)
  const current = useSession((s) => s.context.screen)
  if (me === null) return null
  const menu = screens.filter((s) => available.has(s.id) && screenAllowed(s.id, me.permissions))
  const nav = (
    <ul>
      {menu.map((s) => (
        <li key={s.id}>
          <a
            href={s.path}
            aria-current={s.id === current ? "page" : undefined}
            onClick={(event) => {
              event.preventDefault()
              session.send({ type: "NAVIGATE", screen: s.id })
            }}
          >
            {s.label}
          </a>
        </li>
      ))}
    </ul>
  )
  return (
    <div className="bo-frame">
      <header className="bo-top">
        <p className="bo-brand">
          <span className="bo-brand__mark" aria-hidden="true">
            ◆
          </span>{" "}
          Back office
        </p>
        <details className="bo-phone-menu">
          <summary>Menu</summary>
          <nav aria-label="Back office (phone)">{nav}</nav>
        </details>
        <div className="bo-who">
          <span>
            {me.operator.name} <span className="bo-badge">{me.role}</span>
          </span>
          <button type="button" className="bo-button" onClick={() => session.send({ type: "LOGOUT" })}>
            Sign out
          </button>
        </div>
      </header>
      <nav className="bo-side" aria-label="Back office">
        {nav}
      </nav>
      <main className="bo-main">{children}</main>
    </div>
  )
}

/** A screen's heading row with its refresh control. */
export const ScreenHeader = ({
  title,
  refresh,
  refreshing,
  children,
}: {
  readonly title: string
  readonly refresh?: () => void
  readonly refreshing?: boolean
  readonly children?: ReactNode
}) => (
  <div className="bo-screen-head">
    <h1>{title}</h1>
    <div className="bo-row">
      {children}
      {refresh && (
        <button type="button" className="bo-button" onClick={refresh} disabled={refreshing}>
          {refreshing ? "Refreshing…" : "Refresh"}
        </button>
      )}
    </div>
  </div>
)

/** Loading, failure with Try again, or a stale notice, for a screen's data. */
export const ResourceState = ({
  loading,
  failed,
  error,
  retry,
}: {
  readonly loading: boolean
  readonly failed: boolean
  readonly error: string | null
  readonly retry: () => void
}) => {
  if (loading)
    return (
      <p className="bo-muted" role="status">
        Loading…
      </p>
    )
  if (failed)
    return (
      <div className="bo-error" role="alert">
        {error}{" "}
        <button type="button" className="bo-button" onClick={retry}>
          Try again
        </button>
      </div>
    )
  if (error)
    return (
      <p className="bo-notice" role="status">
        {error}
      </p>
    )
  return null
}
