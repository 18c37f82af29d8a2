/**
 * Draws a `ChartLayout` as one self-contained `<svg>`: every style is a presentation attribute, so
 * the serialized element is a standalone SVG file (docs/statecharts/*.svg come from this component
 * through statecharts/render-static.ts). Texts use the measured monospace font and
 * `text-anchor="start"` at the positions the layout computed, so they fit the boxes it sized.
 *
 * Hooks for tests and interaction: `data-state-id`, `data-edge-id`, `data-transition`,
 * `data-active`, `data-visited`, `data-selected`; clickable states are focusable buttons.
 */
import type { KeyboardEvent, ReactElement } from "react"
import { BOX, dividerY, LABEL } from "./layout.ts"
import {
  baselineOffset,
  CHART_FONT_FAMILY,
  FONT_SIZE,
  lineHeight,
  TITLE_WEIGHT,
  textWidth,
} from "./measure.ts"
import {
  type ChartLayout,
  type ChartState,
  type EdgeLayout,
  type Highlight,
  noHighlight,
  type Point,
  type SourceChip,
  type StateBox,
  type TextLine,
} from "./types.ts"

export interface ChartSvgProps {
  readonly layout: ChartLayout
  readonly highlight?: Highlight
  /** Prefixes the ids of `<defs>` so two charts on one page do not share markers. */
  readonly idPrefix?: string
  readonly onSelectState?: (id: string) => void
  readonly onSelectEdge?: (transitionKey: string) => void
  readonly title?: string
}

/** A light palette readable on white; amber marks what is active or fired. */
export const PALETTE = {
  background: "#ffffff",
  text: "#0f172a",
  detail: "#334155",
  invoke: "#5b21b6",
  internal: "#1e3a5f",
  muted: "#64748b",
  atomicFill: "#eef4fb",
  atomicStroke: "#4a6a94",
  compoundFill: "#fbfcfe",
  compoundFillAlt: "#f3f6fa",
  compoundStroke: "#8fa3bb",
  headerFill: "#e4ebf4",
  divider: "#c3cfdd",
  edge: "#5b6b80",
  labelText: "#1f2d3d",
  activeFill: "#fde68a",
  activeStroke: "#b45309",
  activeBodyFill: "#fffbeb",
  visitedBodyFill: "#fffdf5",
  visitedFill: "#fff6d6",
  visitedStroke: "#d9a441",
  selected: "#2563eb",
  fired: "#d97706",
  firedText: "#92400e",
  chipFill: "#f1f5f9",
  chipStroke: "#94a3b8",
} as const

const pointsKey = (p: Point): string => `${p.x} ${p.y}`

/** An orthogonal polyline with softly rounded bends. */
export const edgePath = (points: ReadonlyArray<Point>, radius = 6): string => {
  const first = points[0]
  if (first === undefined) return ""
  let d = `M ${pointsKey(first)}`
  for (let i = 1; i < points.length; i++) {
    const p = points[i]
    const prev = points[i - 1]
    const next = points[i + 1]
    if (p === undefined || prev === undefined) continue
    if (next === undefined) {
      d += ` L ${pointsKey(p)}`
      continue
    }
    const inLen = Math.hypot(p.x - prev.x, p.y - prev.y)
    const outLen = Math.hypot(next.x - p.x, next.y - p.y)
    const r = Math.min(radius, inLen / 2, outLen / 2)
    if (r <= 0.5) {
      d += ` L ${pointsKey(p)}`
      continue
    }
    const a = { x: p.x - ((p.x - prev.x) / inLen) * r, y: p.y - ((p.y - prev.y) / inLen) * r }
    const b = { x: p.x + ((next.x - p.x) / outLen) * r, y: p.y + ((next.y - p.y) / outLen) * r }
    const round = (v: number): number => Math.round(v * 100) / 100
    d += ` L ${round(a.x)} ${round(a.y)} Q ${pointsKey(p)} ${round(b.x)} ${round(b.y)}`
  }
  return d
}

const lineStyle = (line: TextLine): { fontSize: number; fill: string; fontWeight?: number } => {
  switch (line.kind) {
    case "title":
      return { fontSize: FONT_SIZE.title, fill: PALETTE.text, fontWeight: TITLE_WEIGHT }
    case "invoke":
      return { fontSize: FONT_SIZE.detail, fill: PALETTE.invoke }
    case "internal":
      return { fontSize: FONT_SIZE.detail, fill: PALETTE.internal }
    default:
      return { fontSize: FONT_SIZE.detail, fill: PALETTE.detail }
  }
}

const Text = (props: { line: TextLine; owner: string }): ReactElement => {
  const s = lineStyle(props.line)
  return (
    <text
      data-text-of={props.owner}
      x={props.line.x}
      y={props.line.y}
      fontFamily={CHART_FONT_FAMILY}
      fontSize={s.fontSize}
      fontWeight={s.fontWeight}
      fill={s.fill}
      textAnchor="start"
      xmlSpace="preserve"
    >
      {props.line.text}
    </text>
  )
}

interface StateLook {
  readonly fill: string
  readonly stroke: string
  readonly strokeWidth: number
  readonly headerFill: string
}

const isContainer = (box: StateBox): boolean => box.type === "compound" || box.type === "parallel"

const stateLook = (box: StateBox, active: boolean, visited: boolean): StateLook => {
  // A container's body stays pale so its children's own highlight stands out; its header carries it.
  const container = isContainer(box)
  if (active) {
    return {
      fill: container ? PALETTE.activeBodyFill : PALETTE.activeFill,
      stroke: PALETTE.activeStroke,
      strokeWidth: 2.5,
      headerFill: PALETTE.activeFill,
    }
  }
  if (visited) {
    return {
      fill: container ? PALETTE.visitedBodyFill : PALETTE.visitedFill,
      stroke: PALETTE.visitedStroke,
      strokeWidth: 1.5,
      headerFill: PALETTE.visitedFill,
    }
  }
  if (container) {
    return {
      fill: box.depth % 2 === 0 ? PALETTE.compoundFill : PALETTE.compoundFillAlt,
      stroke: PALETTE.compoundStroke,
      strokeWidth: 1.25,
      headerFill: PALETTE.headerFill,
    }
  }
  return {
    fill: PALETTE.atomicFill,
    stroke: PALETTE.atomicStroke,
    strokeWidth: 1.25,
    headerFill: PALETTE.atomicFill,
  }
}

/** A focusable SVG group that acts as a button: click, Enter or Space. */
const buttonProps = (select: () => void) => ({
  role: "button",
  tabIndex: 0,
  cursor: "pointer",
  onClick: select,
  onKeyDown: (e: KeyboardEvent<SVGGElement>): void => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault()
      select()
    }
  },
})

/** The header band of a container: from its top to just under its last header line. */
const headerBottom = (box: StateBox): number => {
  const last = box.lines[box.lines.length - 1]
  const lastSize = last?.kind === "title" ? FONT_SIZE.title : FONT_SIZE.detail
  return last === undefined
    ? box.y + BOX.padY
    : last.y - baselineOffset(lastSize) + lineHeight(lastSize) + BOX.padY / 2
}

interface StateProps {
  readonly box: StateBox
  readonly highlight: Highlight
  readonly description: string | null
  readonly clipId: string
  readonly onSelect: ((id: string) => void) | undefined
}

const State = ({ box, highlight, description, clipId, onSelect }: StateProps): ReactElement => {
  const active = highlight.active.has(box.id)
  const visited = !active && highlight.visited.has(box.id)
  const selected = highlight.selected === box.id
  const look = stateLook(box, active, visited)
  const container = isContainer(box)
  const r = BOX.cornerRadius
  const interactive = onSelect === undefined ? {} : buttonProps(() => onSelect(box.id))
  const hb = headerBottom(box)
  return (
    <g
      data-state-id={box.id}
      data-state-type={box.type}
      data-active={active ? "true" : undefined}
      data-visited={visited ? "true" : undefined}
      data-selected={selected ? "true" : undefined}
      {...interactive}
    >
      <title>{description === null ? box.id : `${box.id}\n${description}`}</title>
      {selected ? (
        <rect
          x={box.x - 4}
          y={box.y - 4}
          width={box.width + 8}
          height={box.height + 8}
          rx={r + 4}
          fill="none"
          stroke={PALETTE.selected}
          strokeWidth={2}
        />
      ) : null}
      <rect
        data-box-of={box.id}
        data-parent={box.parent ?? undefined}
        x={box.x}
        y={box.y}
        width={box.width}
        height={box.height}
        rx={r}
        fill={look.fill}
        stroke={look.stroke}
        strokeWidth={look.strokeWidth}
        strokeDasharray={box.isRegion ? "6 4" : undefined}
      />
      {container ? (
        <>
          <clipPath id={clipId}>
            <rect x={box.x} y={box.y} width={box.width} height={hb - box.y} rx={r} />
          </clipPath>
          <rect
            x={box.x}
            y={box.y}
            width={box.width}
            height={hb - box.y + r}
            fill={look.headerFill}
            clipPath={`url(#${clipId})`}
          />
          <line
            x1={box.x}
            x2={box.x + box.width}
            y1={hb}
            y2={hb}
            stroke={look.stroke}
            strokeWidth={1}
            strokeDasharray={box.isRegion ? "6 4" : undefined}
          />
        </>
      ) : null}
      {box.type === "final" ? (
        <rect
          x={box.x + BOX.finalInset}
          y={box.y + BOX.finalInset}
          width={box.width - 2 * BOX.finalInset}
          height={box.height - 2 * BOX.finalInset}
          rx={r - 2}
          fill="none"
          stroke={look.stroke}
          strokeWidth={look.strokeWidth}
        />
      ) : null}
      {!container && box.lines.length > 1 ? (
        <line
          x1={box.x + BOX.padX / 2 + (box.type === "final" ? BOX.finalInset : 0)}
          x2={box.x + box.width - BOX.padX / 2 - (box.type === "final" ? BOX.finalInset : 0)}
          y1={dividerY(box)}
          y2={dividerY(box)}
          stroke={PALETTE.divider}
          strokeWidth={1}
        />
      ) : null}
      {box.lines.map((line) => (
        <Text key={`${line.y}`} line={line} owner={box.id} />
      ))}
    </g>
  )
}

interface EdgeProps {
  readonly edge: EdgeLayout
  readonly fired: boolean
  readonly selected: boolean
  readonly prefix: string
  readonly tooltip: string
  readonly onSelect: ((transitionKey: string) => void) | undefined
}

const Edge = ({ edge, fired, selected, prefix, tooltip, onSelect }: EdgeProps): ReactElement => {
  const d = edgePath(edge.points)
  const stroke = fired ? PALETTE.fired : selected ? PALETTE.selected : PALETTE.edge
  const marker = fired
    ? "arrow-fired"
    : edge.kind === "initial"
      ? "arrow-initial"
      : selected
        ? "arrow-selected"
        : "arrow"
  const transition = edge.transition
  const select = onSelect !== undefined && transition !== null ? () => onSelect(transition) : undefined
  return (
    <g
      data-edge-id={edge.id}
      data-transition={edge.transition ?? undefined}
      data-fired={fired ? "true" : undefined}
      data-selected={selected ? "true" : undefined}
      // The line is a pointer target only; its label is the focusable button (one tab stop).
      {...(select === undefined ? {} : { onClick: select, cursor: "pointer" })}
    >
      <title>{tooltip}</title>
      {select === undefined ? null : (
        <path d={d} fill="none" stroke="#ffffff" strokeOpacity={0} strokeWidth={10} />
      )}
      <path
        d={d}
        fill="none"
        stroke={edge.kind === "initial" && !fired ? PALETTE.text : stroke}
        strokeWidth={fired ? 2.5 : selected ? 2 : 1.25}
        markerEnd={`url(#${prefix}${marker})`}
      />
    </g>
  )
}

const EdgeLabelView = ({
  edge,
  fired,
  selected,
  onSelect,
}: {
  edge: EdgeLayout
  fired: boolean
  selected: boolean
  onSelect: ((transitionKey: string) => void) | undefined
}): ReactElement | null => {
  const label = edge.label
  if (label === null) return null
  const lines = label.lines ?? [label.text]
  const lh = lineHeight(FONT_SIZE.edgeLabel)
  // Baselines, one line-height apart from the top padding down.
  const rows = lines.map((text, i) => ({
    text,
    y: label.y + LABEL.padY + i * lh + baselineOffset(FONT_SIZE.edgeLabel),
  }))
  const transition = edge.transition
  const select = onSelect !== undefined && transition !== null ? () => onSelect(transition) : undefined
  return (
    <g
      data-edge-label={edge.id}
      data-transition={edge.transition ?? undefined}
      {...(select === undefined ? {} : buttonProps(select))}
    >
      <title>{label.text}</title>
      <rect
        x={label.x}
        y={label.y}
        width={label.width}
        height={label.height}
        rx={3}
        fill="#ffffff"
        fillOpacity={0.92}
        stroke={fired ? PALETTE.fired : selected ? PALETTE.selected : "none"}
        strokeWidth={fired || selected ? 1.25 : undefined}
      />
      {rows.map((row) => (
        <text
          key={row.y}
          x={label.x + LABEL.padX}
          y={row.y}
          fontFamily={CHART_FONT_FAMILY}
          fontSize={FONT_SIZE.edgeLabel}
          fontWeight={fired ? TITLE_WEIGHT : undefined}
          fill={fired ? PALETTE.firedText : PALETTE.labelText}
          textAnchor="start"
          xmlSpace="preserve"
        >
          {row.text}
        </text>
      ))}
    </g>
  )
}

const Chip = ({ chip }: { chip: SourceChip }): ReactElement => (
  <g data-chip={chip.id} data-chip-state={chip.state}>
    <title>{`Transitions of ${chip.state} into its own states: they apply in any of its states`}</title>
    <rect
      x={chip.x}
      y={chip.y}
      width={chip.width}
      height={chip.height}
      rx={chip.height / 2}
      fill={PALETTE.chipFill}
      stroke={PALETTE.chipStroke}
      strokeDasharray="3 2"
    />
    <text
      x={chip.x + (chip.width - textWidth(chip.text, FONT_SIZE.chip)) / 2}
      y={chip.y + chip.height / 2 + FONT_SIZE.chip * 0.35}
      fontFamily={CHART_FONT_FAMILY}
      fontSize={FONT_SIZE.chip}
      fill={PALETTE.muted}
      textAnchor="start"
    >
      {chip.text}
    </text>
  </g>
)

const Marker = ({ id, fill }: { id: string; fill: string }): ReactElement => (
  <marker
    id={id}
    viewBox="0 0 10 10"
    refX={9.5}
    refY={5}
    markerWidth={9}
    markerHeight={9}
    markerUnits="userSpaceOnUse"
    orient="auto"
  >
    <path d="M 0 0.5 L 10 5 L 0 9.5 Z" fill={fill} />
  </marker>
)

export const ChartSvg = (props: ChartSvgProps): ReactElement => {
  const { layout, onSelectEdge, onSelectState } = props
  const highlight = props.highlight ?? noHighlight
  const prefix = props.idPrefix ?? ""
  const title = props.title ?? `${layout.chart.name} statechart`
  const descriptions = new Map<string, string | null>()
  const visit = (s: ChartState): void => {
    descriptions.set(s.id, s.description)
    for (const c of s.children) visit(c)
  }
  visit(layout.chart.root)
  const labelOf = new Map(layout.chart.transitions.map((t) => [t.key, t.label]))
  const firedOf = (e: EdgeLayout): boolean =>
    highlight.edges.has(e.id) || (e.transition !== null && highlight.edges.has(e.transition))
  const selectedOf = (e: EdgeLayout): boolean =>
    highlight.selected !== null && (highlight.selected === e.id || highlight.selected === e.transition)
  const states = [...layout.states].sort((a, b) => a.depth - b.depth)
  // Fired edges last, so they draw over the others.
  const edges = [...layout.edges].sort((a, b) => Number(firedOf(a)) - Number(firedOf(b)))
  const tooltipOf = (e: EdgeLayout): string =>
    e.transition === null
      ? `initial state of ${e.source}: ${e.target}`
      : `${e.source} → ${e.target}: ${labelOf.get(e.transition) ?? ""}`
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${layout.width} ${layout.height}`}
      width={layout.width}
      height={layout.height}
      // Interactive (states and labels are buttons): a group, since an img hides its children from
      // assistive technology and may not hold focusable controls. A static export is one image.
      role={onSelectState === undefined && onSelectEdge === undefined ? "img" : "group"}
      aria-label={title}
      data-chart={layout.chart.name}
    >
      <title>{title}</title>
      <defs>
        <Marker id={`${prefix}arrow`} fill={PALETTE.edge} />
        <Marker id={`${prefix}arrow-fired`} fill={PALETTE.fired} />
        <Marker id={`${prefix}arrow-selected`} fill={PALETTE.selected} />
        <Marker id={`${prefix}arrow-initial`} fill={PALETTE.text} />
      </defs>
      <rect x={0} y={0} width={layout.width} height={layout.height} fill={PALETTE.background} />
      {states.map((box, i) => (
        <State
          key={box.id}
          box={box}
          highlight={highlight}
          description={descriptions.get(box.id) ?? null}
          clipId={`${prefix}header-${i}`}
          onSelect={onSelectState}
        />
      ))}
      {(layout.chips ?? []).map((chip) => (
        <Chip key={chip.id} chip={chip} />
      ))}
      {layout.initials.map((m) => (
        <circle key={m.id} data-initial={m.id} cx={m.cx} cy={m.cy} r={m.r} fill={PALETTE.text} />
      ))}
      {edges.map((e) => (
        <Edge
          key={e.id}
          edge={e}
          fired={firedOf(e)}
          selected={selectedOf(e)}
          prefix={prefix}
          tooltip={tooltipOf(e)}
          onSelect={onSelectEdge}
        />
      ))}
      {edges.map((e) => (
        <EdgeLabelView
          key={e.id}
          edge={e}
          fired={firedOf(e)}
          selected={selectedOf(e)}
          onSelect={onSelectEdge}
        />
      ))}
    </svg>
  )
}
