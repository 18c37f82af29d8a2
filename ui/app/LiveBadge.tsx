/**
 * Tells the person at this tab that it is being observed: shown only while live statecharts is on
 * (`?statecharts=live`). Links to the visualizer and to turning it off (`?statecharts=off`).
 */
import type { CSSProperties } from "react"

const badge: CSSProperties = {
  position: "fixed",
  left: 12,
  bottom: 12,
  zIndex: 1000,
  display: "flex",
  gap: 8,
  alignItems: "center",
  padding: "4px 10px",
  borderRadius: 999,
  background: "rgba(20, 20, 28, 0.9)",
  border: "1px solid #e5484d",
  color: "#fff",
  font: "12px/1.4 system-ui, sans-serif",
}

const dot: CSSProperties = { width: 8, height: 8, borderRadius: "50%", background: "#e5484d" }
const link: CSSProperties = { color: "inherit" }

export const LiveBadge = () => (
  <aside
    style={badge}
    aria-label="Live statecharts"
    title="This tab sends its state machine states (no personal data) to the statechart visualizer."
  >
    <span style={dot} aria-hidden="true" />
    <a style={link} href="/statecharts?live=1" target="_blank" rel="noopener">
      Live statecharts
    </a>
    <a style={link} href="?statecharts=off" aria-label="Turn live statecharts off">
      off
    </a>
  </aside>
)
