/**
 * The /statecharts route: the statechart visualizer and path explorer, loaded only on this route
 * (the player app never downloads it). Starts the visualizer machine with the route's I/O.
 */
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { createActor } from "xstate"
import { statechartsMachine } from "../../machines/statecharts.machine.ts"
import { VisualizerProvider } from "./actor.tsx"
import { download, liveChannelActor, loadCatalogActor, loadChartActor, syncUrl } from "./services.ts"
import { VisualizerPage } from "./VisualizerPage.tsx"
import "./statecharts.css"

export const mountVisualizer = (root: HTMLElement): void => {
  const params = new URLSearchParams(window.location.search)
  const actor = createActor(
    statechartsMachine.provide({
      actors: { loadCatalog: loadCatalogActor, loadChart: loadChartActor, liveChannel: liveChannelActor },
      actions: {
        syncUrl: (_, { machine, live }) => syncUrl(machine, live),
        download: (_, { format, name, content }) => download(format, name, content),
      },
    }),
    { input: { machine: params.get("machine") } },
  )
  actor.start()
  if (params.get("live") === "1") actor.send({ type: "START_LIVE" })
  document.title = "Statecharts"
  createRoot(root).render(
    <StrictMode>
      <VisualizerProvider actor={actor}>
        <VisualizerPage />
      </VisualizerProvider>
    </StrictMode>,
  )
}
