/**
 * The chart, zoomable and pannable: the wheel zooms around the pointer, a drag pans, the buttons
 * zoom, fit and reset. The viewport lives in the machine; this view only turns gestures into events.
 */
import { useEffect, useRef } from "react"
import type { ChartView, Viewport } from "../../machines/statecharts.machine.ts"
import { ChartSvg } from "../../statecharts/render.tsx"
import type { Highlight } from "../../statecharts/types.ts"
import { useVisualizerActor } from "./actor.tsx"

const ZOOM_STEP = 1.25
const PAN_STEP = 60

/** Keyboard equivalents of the gestures: arrows pan, + and − zoom, 0 fits, Escape deselects. */
const KEY_PANS: Readonly<Record<string, readonly [number, number]>> = {
  ArrowLeft: [PAN_STEP, 0],
  ArrowRight: [-PAN_STEP, 0],
  ArrowUp: [0, PAN_STEP],
  ArrowDown: [0, -PAN_STEP],
}
/** A press that moves less than this is a click (select a state), not a pan. */
const DRAG_THRESHOLD = 4

export const ChartCanvas = ({
  chart,
  viewport,
  highlight,
}: {
  chart: ChartView
  viewport: Viewport
  highlight: Highlight
}) => {
  const actor = useVisualizerActor()
  const canvas = useRef<HTMLDivElement>(null)
  // Gesture bookkeeping only (where the pointer was): the viewport itself is machine state.
  const drag = useRef<{ x: number; y: number; moved: number } | null>(null)
  const dragged = useRef(false)

  const fitToCanvas = () => {
    const element = canvas.current
    if (element !== null)
      actor.send({ type: "FIT", width: element.clientWidth, height: element.clientHeight })
  }
  const zoomCentre = (factor: number) => {
    const element = canvas.current
    if (element !== null) {
      actor.send({ type: "ZOOM", factor, cx: element.clientWidth / 2, cy: element.clientHeight / 2 })
    }
  }

  // A newly loaded chart starts fitted to the canvas.
  // biome-ignore lint/correctness/useExhaustiveDependencies: refit only when the chart changes
  useEffect(fitToCanvas, [chart])

  // React's onWheel is passive; a non-passive listener can stop the page from scrolling instead.
  useEffect(() => {
    const element = canvas.current
    if (element === null) return
    const onWheel = (event: WheelEvent) => {
      event.preventDefault()
      const rect = element.getBoundingClientRect()
      actor.send({
        type: "ZOOM",
        factor: Math.exp(-event.deltaY * 0.0015),
        cx: event.clientX - rect.left,
        cy: event.clientY - rect.top,
      })
    }
    element.addEventListener("wheel", onWheel, { passive: false })
    return () => element.removeEventListener("wheel", onWheel)
  }, [actor])

  return (
    <div className="sc-canvas-wrap">
      <div className="sc-zoom" role="toolbar" aria-label="Zoom">
        <button type="button" aria-label="Zoom in" onClick={() => zoomCentre(ZOOM_STEP)}>
          +
        </button>
        <button type="button" aria-label="Zoom out" onClick={() => zoomCentre(1 / ZOOM_STEP)}>
          −
        </button>
        <button type="button" onClick={fitToCanvas}>
          Fit
        </button>
        <button type="button" onClick={() => zoomCentre(1 / viewport.scale)}>
          1:1
        </button>
        <span className="sc-zoom__level">{Math.round(viewport.scale * 100)}%</span>
      </div>
      <div
        ref={canvas}
        className="sc-canvas"
        data-testid="chart-canvas"
        role="application"
        aria-label={`${chart.name} statechart: drag or use the arrow keys to pan, the wheel or + and − to zoom`}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the canvas pans and zooms from the keyboard
        tabIndex={0}
        onKeyDown={(event) => {
          if (event.target !== event.currentTarget) return
          const pan = KEY_PANS[event.key]
          if (pan !== undefined) actor.send({ type: "PAN", dx: pan[0], dy: pan[1] })
          else if (event.key === "+" || event.key === "=") zoomCentre(ZOOM_STEP)
          else if (event.key === "-") zoomCentre(1 / ZOOM_STEP)
          else if (event.key === "0") fitToCanvas()
          else if (event.key === "Escape") actor.send({ type: "CLEAR_SELECTION" })
          else return
          event.preventDefault()
        }}
        onPointerDown={(event) => {
          if (event.button !== 0) return
          drag.current = { x: event.clientX, y: event.clientY, moved: 0 }
        }}
        onPointerMove={(event) => {
          const last = drag.current
          if (last === null) return
          const dx = event.clientX - last.x
          const dy = event.clientY - last.y
          drag.current = {
            x: event.clientX,
            y: event.clientY,
            moved: last.moved + Math.abs(dx) + Math.abs(dy),
          }
          if (drag.current.moved > DRAG_THRESHOLD) {
            if (!event.currentTarget.hasPointerCapture(event.pointerId)) {
              event.currentTarget.setPointerCapture(event.pointerId)
            }
            actor.send({ type: "PAN", dx, dy })
          }
        }}
        onPointerUp={() => {
          dragged.current = (drag.current?.moved ?? 0) > DRAG_THRESHOLD
          drag.current = null
        }}
        onClickCapture={(event) => {
          // The end of a pan is not a click on whatever lies under the pointer.
          if (dragged.current) event.stopPropagation()
          dragged.current = false
        }}
        onClick={(event) => {
          if (event.target === event.currentTarget) actor.send({ type: "CLEAR_SELECTION" })
        }}
      >
        <div
          className="sc-canvas__content"
          style={{ transform: `translate(${viewport.x}px, ${viewport.y}px) scale(${viewport.scale})` }}
        >
          <ChartSvg
            layout={chart.layout}
            highlight={highlight}
            idPrefix={`chart-${chart.name}`}
            title={`${chart.name} statechart`}
            onSelectState={(id) => actor.send({ type: "SELECT_STATE", id })}
          />
        </div>
      </div>
    </div>
  )
}
