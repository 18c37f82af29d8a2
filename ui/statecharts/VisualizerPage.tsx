/**
 * The visualizer's views: a projection of the visualizer machine. The catalog on the left, the
 * chart in the middle (zoom and pan), and on the right the selected state, the generated paths,
 * the path being stepped through, and the live connection to player tabs.
 */
import { useMemo } from "react"
import {
  type ChartView,
  currentPath,
  highlightOf,
  liveActorOf,
  pathsThrough,
} from "../../machines/statecharts.machine.ts"
import type { ChartState, ChartTransition } from "../../statecharts/types.ts"
import { LIVE_QUERY_FLAG, LIVE_QUERY_VALUE } from "../../statecharts/types.ts"
import { useVisualizer, useVisualizerActor } from "./actor.tsx"
import { ChartCanvas } from "./ChartCanvas.tsx"

const shortId = (chart: ChartView, id: string): string => {
  const prefix = `${chart.layout.chart.id}.`
  return id.startsWith(prefix) ? id.slice(prefix.length) : id
}

/** The deepest ids of a set of active state ids (an id is dropped when a descendant is active too). */
const leavesOf = (ids: ReadonlyArray<string>): Array<string> =>
  ids.filter((id) => !ids.some((other) => other.startsWith(`${id}.`)))

const findState = (state: ChartState, id: string): ChartState | null => {
  if (state.id === id) return state
  for (const child of state.children) {
    const found = findState(child, id)
    if (found !== null) return found
  }
  return null
}

const Catalog = () => {
  const actor = useVisualizerActor()
  const catalog = useVisualizer((s) => s.context.catalog)
  const current = useVisualizer((s) => s.context.requested)
  return (
    <nav className="sc-catalog" aria-label="Machines">
      {/* A plain link: the casino is another app (a full load), not a route of the visualizer. */}
      <a className="sc-back" href="/">
        ← Back to the casino
      </a>
      <h2 className="sc-heading">Machines</h2>
      <ul>
        {catalog.map((entry) => (
          <li key={entry.name}>
            <button
              type="button"
              className="sc-catalog__item"
              aria-current={entry.name === current ? "page" : undefined}
              data-machine={entry.name}
              onClick={() => actor.send({ type: "SELECT_MACHINE", name: entry.name })}
            >
              <span className="sc-catalog__name">{entry.name}</span>
              <span className="sc-catalog__counts">
                {entry.states} states · {entry.transitions} transitions
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  )
}

const Toolbar = ({ chart }: { chart: ChartView }) => {
  const actor = useVisualizerActor()
  const { coverage } = chart
  return (
    <div className="sc-toolbar">
      <h1 className="sc-title">{chart.name}</h1>
      <span className="sc-coverage" title="Coverage by the generated paths">
        {chart.paths.length} paths · states {coverage.statesCovered}/{coverage.statesTotal} · transitions{" "}
        {coverage.transitionsCovered}/{coverage.transitionsTotal}
      </span>
      <span className="sc-toolbar__spacer" />
      <span className="sc-toolbar__label">Export</span>
      <button type="button" onClick={() => actor.send({ type: "EXPORT", format: "svg" })}>
        SVG
      </button>
      <button type="button" onClick={() => actor.send({ type: "EXPORT", format: "mermaid" })}>
        Mermaid
      </button>
      <button type="button" onClick={() => actor.send({ type: "EXPORT", format: "stately" })}>
        Stately JSON
      </button>
    </div>
  )
}

const TransitionRow = ({ chart, transition }: { chart: ChartView; transition: ChartTransition }) => (
  <li className="sc-transition" data-transition={transition.key}>
    <code>{transition.eventLabel}</code>
    {transition.guard !== null && <span className="sc-guard"> [{transition.guard}]</span>}
    <span className="sc-arrow"> → </span>
    <span>
      {transition.targets.length === 0
        ? "(stays)"
        : transition.targets.map((target) => shortId(chart, target)).join(", ")}
    </span>
    {transition.actions.length > 0 && <span className="sc-actions"> / {transition.actions.join(", ")}</span>}
  </li>
)

const StateDetails = ({ chart, id }: { chart: ChartView; id: string }) => {
  const actor = useVisualizerActor()
  const state = findState(chart.layout.chart.root, id)
  const outgoing = chart.layout.chart.transitions.filter((t) => t.source === id)
  const through = pathsThrough(chart, id)
  if (state === null) return null
  return (
    <section className="sc-section" aria-label="Selected state" data-testid="state-details">
      <div className="sc-section__head">
        <h2 className="sc-heading">
          State <code>{shortId(chart, state.id)}</code>
        </h2>
        <button type="button" className="sc-link" onClick={() => actor.send({ type: "CLEAR_SELECTION" })}>
          Clear
        </button>
      </div>
      <dl className="sc-facts">
        <dt>Type</dt>
        <dd>{state.type}</dd>
        {state.description !== null && (
          <>
            <dt>About</dt>
            <dd>{state.description}</dd>
          </>
        )}
        <dt>Entry</dt>
        <dd>{state.entry.length === 0 ? "—" : state.entry.join(", ")}</dd>
        <dt>Exit</dt>
        <dd>{state.exit.length === 0 ? "—" : state.exit.join(", ")}</dd>
        <dt>Invokes</dt>
        <dd>
          {state.invokes.length === 0
            ? "—"
            : state.invokes.map((invoke) => `${invoke.src} (${invoke.id})`).join(", ")}
        </dd>
        {state.tags.length > 0 && (
          <>
            <dt>Tags</dt>
            <dd>{state.tags.join(", ")}</dd>
          </>
        )}
      </dl>
      <h3 className="sc-subheading">Outgoing transitions ({outgoing.length})</h3>
      {outgoing.length === 0 ? (
        <p className="sc-muted">None: this state only leaves through its parent's transitions.</p>
      ) : (
        <ul className="sc-list">
          {outgoing.map((t) => (
            <TransitionRow key={t.key} chart={chart} transition={t} />
          ))}
        </ul>
      )}
      <h3 className="sc-subheading">Generated paths through it ({through.length})</h3>
      <PathList chart={chart} indexes={through} />
    </section>
  )
}

const PathList = ({ chart, indexes }: { chart: ChartView; indexes: ReadonlyArray<number> }) => {
  const actor = useVisualizerActor()
  const selected = useVisualizer((s) => s.context.pathIndex)
  if (indexes.length === 0) return <p className="sc-muted">No generated path passes here.</p>
  return (
    <ol className="sc-paths">
      {indexes.map((index) => {
        const path = chart.paths[index]
        if (path === undefined) return null
        return (
          <li key={path.id}>
            <button
              type="button"
              className="sc-path"
              data-path-index={index}
              aria-current={index === selected ? "true" : undefined}
              onClick={() => actor.send({ type: "SELECT_PATH", index })}
            >
              <span className="sc-path__number">#{index + 1}</span> {path.id === "" ? "(start)" : path.id}
            </button>
          </li>
        )
      })}
    </ol>
  )
}

const Stepper = ({ chart }: { chart: ChartView }) => {
  const actor = useVisualizerActor()
  const context = useVisualizer((s) => s.context)
  const playing = useVisualizer((s) => s.matches({ chart: { ready: "playing" } }))
  const path = currentPath(context)
  if (path === null || context.pathIndex === null) return null
  const last = path.steps.length - 1
  return (
    <section className="sc-section sc-stepper" aria-label="Path" data-testid="stepper">
      <div className="sc-section__head">
        <h2 className="sc-heading">
          Path #{context.pathIndex + 1} · step {context.stepIndex} of {last}
        </h2>
        <button type="button" className="sc-link" onClick={() => actor.send({ type: "CLOSE_PATH" })}>
          Close
        </button>
      </div>
      <div className="sc-stepper__controls">
        <button
          type="button"
          disabled={context.stepIndex === 0}
          onClick={() => actor.send({ type: "PREVIOUS_STEP" })}
        >
          ◀ Previous
        </button>
        {playing ? (
          <button type="button" onClick={() => actor.send({ type: "PAUSE" })}>
            Pause
          </button>
        ) : (
          <button
            type="button"
            disabled={context.stepIndex === last}
            onClick={() => actor.send({ type: "PLAY" })}
          >
            Play
          </button>
        )}
        <button
          type="button"
          disabled={context.stepIndex === last}
          onClick={() => actor.send({ type: "NEXT_STEP" })}
        >
          Next ▶
        </button>
      </div>
      <ol className="sc-steps" start={0}>
        {path.steps.map((step, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a step is its position in the path
          <li key={index}>
            <button
              type="button"
              className="sc-step"
              data-step-index={index}
              aria-current={index === context.stepIndex ? "step" : undefined}
              onClick={() => actor.send({ type: "GO_TO_STEP", index })}
            >
              <code className="sc-step__event">{index === 0 ? "start" : step.event}</code>
              <span className="sc-arrow"> ⇒ </span>
              <span className="sc-step__states">
                {step.stateIds.map((id) => shortId(chart, id)).join(" + ")}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  )
}

const livePlayerUrl = `/?${LIVE_QUERY_FLAG}=${LIVE_QUERY_VALUE}`

const LivePanel = ({ chart }: { chart: ChartView | null }) => {
  const actor = useVisualizerActor()
  const context = useVisualizer((s) => s.context)
  const listening = useVisualizer((s) => s.matches({ live: "listening" }))
  const unavailable = useVisualizer((s) => s.matches({ live: "unavailable" }))
  const followed = liveActorOf(context)
  /** The catalog name of a running machine (its model's file stem), when it has a chart. */
  const chartNameOf = (machineId: string): string | null =>
    context.catalog.find((entry) => entry.machineId === machineId)?.name ?? null
  const actors = [...context.live.actors.values()]
  if (!listening) {
    return (
      <section className="sc-section" aria-label="Live mode">
        <h2 className="sc-heading">Live mode</h2>
        <p className="sc-muted">
          Watch the player app's machines move as someone clicks through it in another tab. The app sends
          state names and event types only — never what was typed.
        </p>
        {unavailable && <p className="sc-error">{context.liveError}</p>}
        <button type="button" className="sc-primary" onClick={() => actor.send({ type: "START_LIVE" })}>
          Start live mode
        </button>
      </section>
    )
  }
  return (
    <section className="sc-section" aria-label="Live mode" data-testid="live-panel">
      <div className="sc-section__head">
        <h2 className="sc-heading">
          <span className="sc-live-dot" aria-hidden="true" /> Live
        </h2>
        <button type="button" className="sc-link" onClick={() => actor.send({ type: "STOP_LIVE" })}>
          Stop
        </button>
      </div>
      <p className="sc-muted">
        Open the player app with{" "}
        <a href={livePlayerUrl} target="_blank" rel="noopener">
          {livePlayerUrl}
        </a>{" "}
        or{" "}
        <button type="button" className="sc-link" onClick={() => actor.send({ type: "TOGGLE_EMBED" })}>
          {context.embedApp ? "hide the embedded app" : "embed it beside the chart"}
        </button>
        .
      </p>
      {chart !== null && (
        <p data-testid="live-followed">
          {followed === null
            ? `No running ${chart.layout.chart.id} machine yet.`
            : `${chart.layout.chart.id}: ${leavesOf(followed.stateIds)
                .map((id) => shortId(chart, id))
                .join(" + ")}`}
        </p>
      )}
      <h3 className="sc-subheading">Running machines ({actors.length})</h3>
      <ul className="sc-list sc-live-actors">
        {actors.map((a) => (
          <li key={a.key} data-machine={a.machine}>
            {chartNameOf(a.machine) === null ? (
              <code>{a.systemId ?? a.machine}</code>
            ) : (
              <button
                type="button"
                className="sc-link"
                title="Show this machine's chart"
                onClick={() => actor.send({ type: "SELECT_MACHINE", name: chartNameOf(a.machine) ?? "" })}
              >
                <code>{a.systemId ?? a.machine}</code>
              </button>
            )}{" "}
            <span className="sc-muted">{a.stopped ? "stopped" : a.status}</span>{" "}
            {leavesOf(a.stateIds).join(" + ")}
          </li>
        ))}
      </ul>
      <h3 className="sc-subheading">Events</h3>
      <ol className="sc-log" reversed>
        {context.live.log
          .slice(-60)
          .reverse()
          .map((entry) => (
            <li key={entry.seq}>
              <code>{entry.machine}</code> {entry.kind === "event" ? entry.event : entry.kind}
              {entry.stateIds !== null && entry.kind === "snapshot" && (
                <span className="sc-muted"> ⇒ {leavesOf(entry.stateIds).join(" + ")}</span>
              )}
            </li>
          ))}
      </ol>
    </section>
  )
}

const Sidebar = ({ chart }: { chart: ChartView }) => {
  const selected = useVisualizer((s) => s.context.selectedState)
  const all = useMemo(() => chart.paths.map((_, index) => index), [chart])
  return (
    <aside className="sc-panel" aria-label="Details">
      <Stepper chart={chart} />
      {selected !== null ? (
        <StateDetails chart={chart} id={selected} />
      ) : (
        <section className="sc-section" aria-label="Generated paths">
          <h2 className="sc-heading">Generated paths ({chart.paths.length})</h2>
          <p className="sc-muted">Click a state to see its details and the paths through it.</p>
          <PathList chart={chart} indexes={all} />
        </section>
      )}
      <LivePanel chart={chart} />
    </aside>
  )
}

const Stage = () => {
  const actor = useVisualizerActor()
  const context = useVisualizer((s) => s.context)
  const loading = useVisualizer(
    (s) => s.matches({ chart: "loading" }) || s.matches({ chart: "loadingCatalog" }),
  )
  const failed = useVisualizer((s) => s.matches({ chart: "failed" }) || s.matches({ chart: "catalogFailed" }))
  const listening = useVisualizer((s) => s.matches({ live: "listening" }))
  const highlight = useMemo(() => highlightOf(context, listening), [context, listening])
  const chart = context.chart
  if (failed) {
    return (
      <main className="sc-stage sc-stage--message" role="alert">
        <p>The chart could not be drawn: {context.loadError}</p>
        <button type="button" className="sc-primary" onClick={() => actor.send({ type: "RETRY" })}>
          Try again
        </button>
      </main>
    )
  }
  if (loading || chart === null) {
    return (
      <main className="sc-stage sc-stage--message" aria-busy="true">
        <p>Drawing the chart…</p>
      </main>
    )
  }
  return (
    <>
      <main className="sc-stage">
        <Toolbar chart={chart} />
        <ChartCanvas chart={chart} viewport={context.viewport} highlight={highlight} />
      </main>
      <Sidebar chart={chart} />
    </>
  )
}

const Embedded = () => {
  const embed = useVisualizer((s) => s.context.embedApp && s.matches({ live: "listening" }))
  if (!embed) return null
  return <iframe className="sc-embed" title="Player app (live)" src={livePlayerUrl} />
}

export const VisualizerPage = () => (
  <div className="sc">
    <Catalog />
    <Stage />
    <Embedded />
  </div>
)
