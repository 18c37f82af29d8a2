/** The visualizer actor, shared with the route's views. */
import { useSelector } from "@xstate/react"
import { createContext, type ReactNode, useContext } from "react"
import type { ActorRefFrom, SnapshotFrom } from "xstate"
import type { statechartsMachine } from "../../machines/statecharts.machine.ts"

export type VisualizerActor = ActorRefFrom<typeof statechartsMachine>
export type VisualizerSnapshot = SnapshotFrom<typeof statechartsMachine>

const VisualizerContext = createContext<VisualizerActor | null>(null)

export const VisualizerProvider = ({ actor, children }: { actor: VisualizerActor; children: ReactNode }) => (
  <VisualizerContext.Provider value={actor}>{children}</VisualizerContext.Provider>
)

export const useVisualizerActor = (): VisualizerActor => {
  const actor = useContext(VisualizerContext)
  if (!actor) throw new Error("useVisualizerActor outside VisualizerProvider")
  return actor
}

export const useVisualizer = <T,>(selector: (snapshot: VisualizerSnapshot) => T): T =>
  useSelector(useVisualizerActor(), selector)
