/**
 * Tabs for the players screens (the WAI-ARIA tabs pattern: arrow keys, Home and End move between
 * tabs, only the selected tab is in the tab order). Tabs rather than in-page anchors: a fragment
 * link fires `popstate`, which the back office's wiring turns into a NAVIGATE that scrolls to top.
 */
import type { KeyboardEvent, ReactNode } from "react"

export interface Tab<T extends string> {
  readonly id: T
  readonly label: string
}

const tabId = (prefix: string, id: string) => `${prefix}-tab-${id}`
const panelId = (prefix: string, id: string) => `${prefix}-panel-${id}`

export const Tabs = <T extends string>({
  label,
  prefix,
  tabs,
  current,
  onChange,
}: {
  readonly label: string
  readonly prefix: string
  readonly tabs: ReadonlyArray<Tab<T>>
  readonly current: T
  readonly onChange: (id: T) => void
}) => {
  const move = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = tabs.length - 1
    const next =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null
    const tab = next === null ? undefined : tabs[next]
    if (tab === undefined) return
    event.preventDefault()
    onChange(tab.id)
    // Focus follows the selection, as the pattern asks; the button exists: it is rendered below.
    document.getElementById(tabId(prefix, tab.id))?.focus()
  }
  return (
    <div className="bo-tabs" role="tablist" aria-label={label}>
      {tabs.map((tab, index) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          id={tabId(prefix, tab.id)}
          aria-selected={tab.id === current}
          aria-controls={panelId(prefix, tab.id)}
          tabIndex={tab.id === current ? 0 : -1}
          className="bo-tabs__tab"
          onClick={() => onChange(tab.id)}
          onKeyDown={(event) => move(event, index)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  )
}

export const TabPanel = ({
  prefix,
  id,
  hidden = false,
  children,
}: {
  readonly prefix: string
  readonly id: string
  /** A panel kept mounted (its data and inputs survive a switch) but not shown. */
  readonly hidden?: boolean
  readonly children: ReactNode
}) => (
  <div
    className="bo-tabpanel"
    role="tabpanel"
    id={panelId(prefix, id)}
    aria-labelledby={tabId(prefix, id)}
    hidden={hidden}
  >
    {children}
  </div>
)
