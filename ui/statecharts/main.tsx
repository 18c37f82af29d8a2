/**
 * The /statecharts route: the statechart visualizer and path explorer, loaded only on this route.
 */
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"

export const mountVisualizer = (root: HTMLElement): void => {
  createRoot(root).render(
    <StrictMode>
      <p>Statecharts</p>
    </StrictMode>,
  )
}
