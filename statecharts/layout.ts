/**
 * Lays a `Chart` out with ELK (layered, hierarchy handled in one pass) into a `ChartLayout` with
 * absolute coordinates, rounded to 0.5 px so the output is deterministic and diffable.
 *
 * - Every state is an ELK node; a state with children is a container whose top padding holds its
 *   header (title, entry/exit, invokes, transitions that change no state). Every text is measured
 *   with statecharts/measure.ts, which the renderer uses too.
 * - Transitions that change no state are listed inside their state's box and get no edge.
 * - Edge labels are real ELK labels (wrapped to a few short lines), so ELK keeps them off the boxes.
 * - A compound state's initial child gets an arrow from a small marker node inside the compound.
 * - Direction: top to bottom by default. Left to right reads as well on small machines but grows
 *   very wide (a 30-state flow: 3700 px wide against 1500 px top to bottom), and docs scroll down.
 * - A state's transitions into its own descendants (a root-level `on: { OPEN_LOGIN: ".login" }`)
 *   start from a "from any state" chip inside it, through one port so they share a trunk: ELK
 *   would start them on the container's own border and run them through its header.
 * - Parallel transitions (same start, same target) share one route with their labels stacked.
 * - Self transitions are ELK self loops (routed around the box, compound or not). A transition to
 *   an ancestor ends on the ancestor's border, reached from inside.
 * - A container's header text moves aside (right or centre) if a route crosses it.
 * - Cycle breaking runs depth first from the initial marker in document order, so the initial
 *   state comes first and the edges back to it (retry, cancel) are the ones drawn upwards.
 *
 * ELK is passed in (`ElkLike`), so Node hands over `new ELK()` and the browser a bundled or worker
 * instance; this module never imports elkjs at run time.
 */
import type { ElkExtendedEdge, ElkNode, ElkPoint } from "elkjs/lib/elk-api.js"
import { ancestry, parentsOf } from "./chart.ts"
import { lineRect, segmentCrosses } from "./geometry.ts"
import { baselineOffset, FONT_SIZE, lineHeight, textWidth } from "./measure.ts"
import type {
  Chart,
  ChartLayout,
  ChartState,
  ChartTransition,
  EdgeLabel,
  EdgeLayout,
  InitialMarker,
  Point,
  SourceChip,
  StateBox,
  TextLine,
} from "./types.ts"

/** What the layout needs of an ELK instance (`new ELK()` from elkjs, bundled or worker-backed). */
export interface ElkLike {
  layout(graph: ElkNode): Promise<ElkNode>
}

// ── Geometry constants (shared with the renderer) ────────────────────────────────────────────
export const BOX = {
  /** Horizontal text padding inside a state. */
  padX: 12,
  /** Vertical padding above the title and below the last line. */
  padY: 8,
  /** Space between the title and the first detail line (a divider is drawn in it). */
  titleGap: 6,
  minWidth: 84,
  /** Final states draw a second border this far inside the first. */
  finalInset: 4,
  /** Container padding around its children. */
  containerPad: 24,
  /** Space between a container's header and its children. */
  headerGap: 14,
  cornerRadius: 8,
} as const

export const LABEL = {
  padX: 4,
  padY: 2,
  /** Wrap edge labels at this many monospace cells. */
  maxCells: 30,
  /** Space between the stacked labels of parallel transitions, so each reads as its own. */
  stackGap: 4,
} as const

/** Internal-transition lines wrap at this many cells (continuations indented). */
const DETAIL_MAX_CELLS = 64

export const INITIAL_MARKER = { size: 14, r: 6 } as const

export const CHIP = { text: "from any state", padX: 8, height: 20 } as const

// ── Text of a state ──────────────────────────────────────────────────────────────────────────
interface Line {
  readonly text: string
  readonly kind: TextLine["kind"]
  readonly fontSize: number
}

/** Splits `a, b, c` lists so a long line continues on the next, indented. */
const wrapDetail = (text: string): Array<string> => {
  if (text.length <= DETAIL_MAX_CELLS) return [text]
  const words = text.split(" ")
  const out: Array<string> = []
  let current = ""
  for (const word of words) {
    const candidate = current === "" ? word : `${current} ${word}`
    if (current !== "" && candidate.length > DETAIL_MAX_CELLS) {
      out.push(current)
      current = `    ${word}`
    } else current = candidate
  }
  if (current !== "") out.push(current)
  return out
}

const detail = (text: string, kind: TextLine["kind"]): Array<Line> =>
  wrapDetail(text).map((t) => ({ text: t, kind, fontSize: FONT_SIZE.detail }))

export const stateLines = (state: ChartState, internal: ReadonlyArray<ChartTransition>): Array<Line> => [
  { text: state.key, kind: "title", fontSize: FONT_SIZE.title },
  ...(state.tags.length === 0 ? [] : detail(`tags: ${state.tags.join(", ")}`, "tag")),
  ...(state.entry.length === 0 ? [] : detail(`entry / ${state.entry.join(", ")}`, "entry")),
  ...(state.exit.length === 0 ? [] : detail(`exit / ${state.exit.join(", ")}`, "exit")),
  ...state.invokes.flatMap((i) =>
    detail(i.id === i.src ? `invoke ${i.src}` : `invoke ${i.src} (${i.id})`, "invoke"),
  ),
  // A targetless transition as a line inside its state: `EVENT [guard] / actions`.
  ...internal.flatMap((t) => detail(t.label, "internal")),
]

const linesHeight = (lines: ReadonlyArray<Line>): number =>
  lines.reduce((h, l) => h + lineHeight(l.fontSize), 0) + (lines.length > 1 ? BOX.titleGap : 0)

const linesWidth = (lines: ReadonlyArray<Line>): number =>
  Math.max(0, ...lines.map((l) => textWidth(l.text, l.fontSize)))

/** The box a leaf state needs for its text. */
const leafSize = (state: ChartState, lines: ReadonlyArray<Line>): { width: number; height: number } => {
  const inset = state.type === "final" ? BOX.finalInset : 0
  return {
    width: Math.max(BOX.minWidth, linesWidth(lines) + 2 * (BOX.padX + inset)),
    height: linesHeight(lines) + 2 * (BOX.padY + inset),
  }
}

/** Height of a container's header: where its title and detail lines go, above its children. */
const headerHeight = (lines: ReadonlyArray<Line>): number => BOX.padY + linesHeight(lines)

// ── Edge labels ──────────────────────────────────────────────────────────────────────────────
const wrapList = (prefix: string, items: ReadonlyArray<string>, maxCells: number): Array<string> => {
  const out: Array<string> = []
  let current = prefix
  items.forEach((item, i) => {
    const piece = i < items.length - 1 ? `${item},` : item
    const candidate = current === prefix ? `${current}${piece}` : `${current} ${piece}`
    if (current !== prefix && candidate.length > maxCells) {
      out.push(current)
      current = `  ${piece}`
    } else current = candidate
  })
  out.push(current)
  return out
}

/** `EVENT [guard]` then `/ actions`, wrapped to short lines so labels stay compact. */
export const labelLines = (t: ChartTransition): Array<string> => {
  const head = t.guard === null ? t.eventLabel : `${t.eventLabel} [${t.guard}]`
  const lines = head.length <= LABEL.maxCells || t.guard === null ? [head] : [t.eventLabel, `[${t.guard}]`]
  if (t.actions.length > 0) lines.push(...wrapList("/ ", t.actions, LABEL.maxCells))
  return lines
}

export const labelSize = (lines: ReadonlyArray<string>): { width: number; height: number } => ({
  width: Math.max(...lines.map((l) => textWidth(l, FONT_SIZE.edgeLabel))) + 2 * LABEL.padX,
  height: lines.length * lineHeight(FONT_SIZE.edgeLabel) + 2 * LABEL.padY,
})

// ── ELK graph ────────────────────────────────────────────────────────────────────────────────
export type LayoutDirection = "DOWN" | "RIGHT"

export interface LayoutOptions {
  readonly direction?: LayoutDirection
  /** Extra ELK options for the whole graph (experiments; the defaults are the tuned ones). */
  readonly elkOptions?: Readonly<Record<string, string>>
}

const ROOT_ID = "__graph"
const markerId = (stateId: string): string => `__initial:${stateId}`
const chipId = (stateId: string): string => `chip:${stateId}`

const padding = (top: number, side: number, bottom: number): string =>
  `[top=${top},left=${side},bottom=${bottom},right=${side}]`

const graphOptions = (direction: LayoutDirection): Record<string, string> => ({
  "elk.algorithm": "layered",
  "elk.direction": direction,
  "elk.hierarchyHandling": "INCLUDE_CHILDREN",
  "elk.json.shapeCoords": "ROOT",
  "elk.json.edgeCoords": "ROOT",
  "elk.edgeRouting": "ORTHOGONAL",
  // Depth first from the sources in document order: the initial marker comes first. (MODEL_ORDER
  // cycle breaking and considerModelOrder crash elkjs 0.12 in nested containers.)
  "elk.layered.cycleBreaking.strategy": "DEPTH_FIRST",
  "elk.layered.nodePlacement.strategy": "NETWORK_SIMPLEX",
  "elk.spacing.nodeNode": "36",
  "elk.layered.spacing.nodeNodeBetweenLayers": "44",
  "elk.spacing.edgeNode": "18",
  "elk.layered.spacing.edgeNodeBetweenLayers": "16",
  "elk.spacing.edgeEdge": "12",
  "elk.layered.spacing.edgeEdgeBetweenLayers": "12",
  "elk.spacing.edgeLabel": "4",
  "elk.spacing.labelNode": "8",
  // Self loops (a state re-entering itself) get room enough for a visible loop and arrowhead.
  "elk.spacing.nodeSelfLoop": "18",
  "elk.edgeLabels.placement": "CENTER",
  "elk.layered.edgeLabels.sideSelection": "SMART_DOWN",
  "elk.padding": padding(16, 16, 16),
})

interface Prepared {
  readonly state: ChartState
  readonly lines: ReadonlyArray<Line>
  readonly container: boolean
}

interface EdgePlan {
  readonly id: string
  readonly elkSource: string
  readonly source: string
  readonly target: string
  readonly transition: string | null
  readonly lines: ReadonlyArray<string> | null
  readonly text: string
  readonly container: string
}

const isStrictAncestor = (parents: ReadonlyMap<string, string | null>, a: string, b: string): boolean => {
  let current = parents.get(b) ?? null
  while (current !== null) {
    if (current === a) return true
    current = parents.get(current) ?? null
  }
  return false
}

/** Lowest common ancestor of two states (either may be it), or the graph root. */
const lowestCommon = (parents: ReadonlyMap<string, string | null>, a: string, b: string): string => {
  const ca = ancestry(parents, a)
  const cb = ancestry(parents, b)
  let lca = ROOT_ID
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) {
    if (ca[i] === cb[i]) lca = ca[i] ?? ROOT_ID
    else break
  }
  return lca
}

const planEdges = (chart: Chart, parents: ReadonlyMap<string, string | null>): Array<EdgePlan> => {
  const plans: Array<EdgePlan> = []
  const visit = (s: ChartState): void => {
    if (s.initial !== null) {
      plans.push({
        id: `initial:${s.initial}`,
        elkSource: markerId(s.initial),
        source: s.id,
        target: s.initial,
        transition: null,
        lines: null,
        text: "",
        container: s.id,
      })
    }
    for (const c of s.children) visit(c)
  }
  visit(chart.root)
  for (const t of chart.transitions) {
    for (const target of t.targets) {
      const fromChip = isStrictAncestor(parents, t.source, target)
      const container = fromChip
        ? t.source
        : t.source === target
          ? (parents.get(t.source) ?? ROOT_ID)
          : lowestCommon(parents, t.source, target)
      plans.push({
        id: t.targets.length > 1 ? `${t.key}>${target}` : t.key,
        elkSource: fromChip ? chipId(t.source) : t.source,
        source: t.source,
        target,
        transition: t.key,
        lines: labelLines(t),
        text: t.label,
        // An edge into an ancestor (leaving the container) lives in the ancestor's parent.
        container: container === target && !fromChip ? (parents.get(target) ?? ROOT_ID) : container,
      })
    }
  }
  return plans
}

/**
 * Parallel transitions (same start, same target) share one ELK edge whose label stacks theirs:
 * one line with a block of labels reads better than a bundle of near-identical lines, and a busy
 * target (every modal's CLOSE, done and error into `closed`) gets a third of the arrows.
 */
interface EdgeGroup {
  readonly id: string
  readonly members: ReadonlyArray<EdgePlan>
}

const groupEdges = (plans: ReadonlyArray<EdgePlan>): Array<EdgeGroup> => {
  const groups = new Map<string, Array<EdgePlan>>()
  for (const p of plans) {
    const key = `${p.elkSource}\u0000${p.target}`
    const list = groups.get(key) ?? []
    list.push(p)
    groups.set(key, list)
  }
  return [...groups.values()].map((members, i) => ({ id: `__edge${i}`, members }))
}

const groupLabelSize = (group: EdgeGroup): { width: number; height: number } | null => {
  const sizes = group.members.flatMap((m) => (m.lines === null ? [] : [labelSize(m.lines)]))
  if (sizes.length === 0) return null
  return {
    width: Math.max(...sizes.map((s) => s.width)),
    height: sizes.reduce((h, s) => h + s.height, 0) + LABEL.stackGap * (sizes.length - 1),
  }
}

const buildElkGraph = (
  chart: Chart,
  prepared: ReadonlyMap<string, Prepared>,
  groups: ReadonlyArray<EdgeGroup>,
  options: Required<LayoutOptions>,
): ElkNode => {
  // ELK reads spacing and most layered options from the container whose children they arrange,
  // even when it lays out the whole hierarchy in one pass: every container carries them all.
  const shared = { ...graphOptions(options.direction), ...options.elkOptions }
  const chips = new Set(
    groups
      .flatMap((g) => g.members)
      .filter((p) => p.elkSource.startsWith("chip:"))
      .map((p) => p.source),
  )
  const edgesIn = new Map<string, Array<ElkExtendedEdge>>()
  for (const g of groups) {
    const first = g.members[0]
    if (first === undefined) continue
    const size = groupLabelSize(g)
    const list = edgesIn.get(first.container) ?? []
    list.push({
      id: g.id,
      // A chip's edges leave through one port: they share a trunk and branch, instead of
      // crowding the chip's side with parallel starts.
      sources: [first.elkSource.startsWith("chip:") ? `${first.elkSource}:out` : first.elkSource],
      targets: [first.target],
      ...(size === null ? {} : { labels: [{ text: g.members.map((m) => m.text).join("\n"), ...size }] }),
    })
    edgesIn.set(first.container, list)
  }
  const nodeOf = (s: ChartState): ElkNode => {
    const info = prepared.get(s.id)
    if (info === undefined) throw new Error(`unprepared state ${s.id}`)
    const edges = edgesIn.get(s.id) ?? []
    if (!info.container) return { id: s.id, ...leafSize(s, info.lines), ...(edges.length ? { edges } : {}) }
    const minWidth = linesWidth(info.lines) + 2 * BOX.padX
    const top = headerHeight(info.lines) + BOX.headerGap
    const children: Array<ElkNode> = []
    if (s.initial !== null) {
      children.push({ id: markerId(s.initial), width: INITIAL_MARKER.size, height: INITIAL_MARKER.size })
    }
    if (chips.has(s.id)) {
      children.push({
        id: chipId(s.id),
        width: textWidth(CHIP.text, FONT_SIZE.chip) + 2 * CHIP.padX,
        height: CHIP.height,
        layoutOptions: { "elk.portConstraints": "FIXED_SIDE" },
        ports: [
          {
            id: `${chipId(s.id)}:out`,
            width: 0,
            height: 0,
            layoutOptions: { "elk.port.side": options.direction === "RIGHT" ? "EAST" : "SOUTH" },
          },
        ],
      })
    }
    children.push(...s.children.map(nodeOf))
    return {
      id: s.id,
      layoutOptions: {
        ...shared,
        "elk.padding": padding(top, BOX.containerPad, BOX.containerPad),
        "elk.nodeSize.constraints": "MINIMUM_SIZE",
        "elk.nodeSize.minimum": `(${minWidth}, ${top + BOX.containerPad})`,
      },
      children,
      edges,
    }
  }
  return {
    id: ROOT_ID,
    layoutOptions: shared,
    children: [nodeOf(chart.root)],
    edges: edgesIn.get(ROOT_ID) ?? [],
  }
}

// ── Reading ELK's answer ─────────────────────────────────────────────────────────────────────
const half = (v: number): number => Math.round(v * 2) / 2

const collectNodes = (node: ElkNode, into: Map<string, ElkNode>): void => {
  into.set(node.id, node)
  for (const c of node.children ?? []) collectNodes(c, into)
}

const collectEdges = (node: ElkNode, into: Map<string, ElkExtendedEdge>): void => {
  for (const e of node.edges ?? []) into.set(e.id, e)
  for (const c of node.children ?? []) collectEdges(c, into)
}

const edgePoints = (edge: ElkExtendedEdge): Array<Point> => {
  const points: Array<Point> = []
  const push = (p: ElkPoint): void => {
    const q = { x: half(p.x), y: half(p.y) }
    const last = points[points.length - 1]
    if (last === undefined || last.x !== q.x || last.y !== q.y) points.push(q)
  }
  for (const s of edge.sections ?? []) {
    push(s.startPoint)
    for (const b of s.bendPoints ?? []) push(b)
    push(s.endPoint)
  }
  return points
}

const positionLines = (
  lines: ReadonlyArray<Line>,
  box: { x: number; y: number; width: number },
  inset: number,
  centerTitle: boolean,
): Array<TextLine> => {
  const out: Array<TextLine> = []
  let top = box.y + BOX.padY + inset
  lines.forEach((l, i) => {
    const width = textWidth(l.text, l.fontSize)
    const x = centerTitle && i === 0 ? box.x + (box.width - width) / 2 : box.x + BOX.padX + inset
    out.push({ text: l.text, kind: l.kind, x: half(x), y: half(top + baselineOffset(l.fontSize)) })
    top += lineHeight(l.fontSize) + (i === 0 && lines.length > 1 ? BOX.titleGap : 0)
  })
  return out
}

/** Where the divider under a state's title goes: the middle of the gap below the title. */
export const dividerY = (box: { y: number; type: string }): number =>
  half(
    box.y +
      BOX.padY +
      (box.type === "final" ? BOX.finalInset : 0) +
      lineHeight(FONT_SIZE.title) +
      BOX.titleGap / 2,
  )

/**
 * ELK routes an edge into a container's child through the container's border wherever it likes,
 * header included: it knows nothing of the header's text. The header block therefore moves (left,
 * right or centre, all lines together) to where no route crosses it.
 */
const clearHeader = (box: StateBox, edges: ReadonlyArray<EdgeLayout>): StateBox => {
  const widest = Math.max(
    ...box.lines.map((l) => textWidth(l.text, l.kind === "title" ? FONT_SIZE.title : FONT_SIZE.detail)),
  )
  const left = box.x + BOX.padX
  const candidates = [left, box.x + box.width - BOX.padX - widest, box.x + (box.width - widest) / 2]
  const crossed = (lines: ReadonlyArray<TextLine>): boolean =>
    edges.some((e) =>
      e.points.some((b, i) => {
        const a = e.points[i - 1]
        return a !== undefined && lines.some((l) => segmentCrosses(a, b, lineRect(l)))
      }),
    )
  if (!crossed(box.lines)) return box
  for (const x of candidates.slice(1)) {
    const shift = half(x) - left
    const lines = box.lines.map((l) => ({ ...l, x: half(l.x + shift) }))
    if (x >= left && !crossed(lines)) return { ...box, lines }
  }
  return box
}

export const layoutChart = async (
  chart: Chart,
  elk: ElkLike,
  options: LayoutOptions = {},
): Promise<ChartLayout> => {
  const resolved: Required<LayoutOptions> = {
    direction: options.direction ?? "DOWN",
    elkOptions: options.elkOptions ?? {},
  }
  const parents = parentsOf(chart)
  const internal = new Map<string, Array<ChartTransition>>()
  for (const t of chart.transitions) {
    if (t.targets.length > 0) continue
    const list = internal.get(t.source) ?? []
    list.push(t)
    internal.set(t.source, list)
  }
  const prepared = new Map<string, Prepared>()
  const depthOf = new Map<string, number>()
  const prepare = (s: ChartState, depth: number): void => {
    prepared.set(s.id, {
      state: s,
      lines: stateLines(s, internal.get(s.id) ?? []),
      container: s.children.length > 0,
    })
    depthOf.set(s.id, depth)
    for (const c of s.children) prepare(c, depth + 1)
  }
  prepare(chart.root, 0)
  const groups = groupEdges(planEdges(chart, parents))
  const result = await elk.layout(buildElkGraph(chart, prepared, groups, resolved))

  const nodes = new Map<string, ElkNode>()
  collectNodes(result, nodes)
  const elkEdges = new Map<string, ElkExtendedEdge>()
  collectEdges(result, elkEdges)

  const rect = (id: string): { x: number; y: number; width: number; height: number } => {
    const n = nodes.get(id)
    if (n === undefined) throw new Error(`ELK returned no node ${id}`)
    return { x: half(n.x ?? 0), y: half(n.y ?? 0), width: half(n.width ?? 0), height: half(n.height ?? 0) }
  }

  const states: Array<StateBox> = []
  for (const [id, info] of prepared) {
    const r = rect(id)
    const parent = parents.get(id) ?? null
    const inset = info.state.type === "final" ? BOX.finalInset : 0
    states.push({
      id,
      type: info.state.type,
      ...r,
      depth: depthOf.get(id) ?? 0,
      parent,
      isRegion: parent !== null && prepared.get(parent)?.state.type === "parallel",
      lines: positionLines(info.lines, r, inset, !info.container),
    })
  }

  const initials: Array<InitialMarker> = []
  const chips: Array<SourceChip> = []
  for (const [id, n] of nodes) {
    if (id.startsWith("__initial:")) {
      const r = rect(id)
      initials.push({
        id: `initial:${id.slice("__initial:".length)}`,
        cx: half(r.x + r.width / 2),
        cy: half(r.y + r.height / 2),
        r: INITIAL_MARKER.r,
      })
    } else if (id.startsWith("chip:") && n.children === undefined) {
      chips.push({ id, state: id.slice("chip:".length), text: CHIP.text, ...rect(id) })
    }
  }

  const edges: Array<EdgeLayout> = []
  for (const g of groups) {
    const e = elkEdges.get(g.id)
    if (e === undefined) throw new Error(`ELK returned no edge ${g.id}`)
    const points = edgePoints(e)
    const block = e.labels?.[0]
    let top = block?.y ?? 0
    for (const p of g.members) {
      let label: EdgeLabel | null = null
      if (p.lines !== null && block !== undefined) {
        const size = labelSize(p.lines)
        label = { text: p.text, lines: p.lines, x: half(block.x ?? 0), y: half(top), ...size }
        top += size.height + LABEL.stackGap
      }
      edges.push({
        id: p.id,
        kind: p.transition === null ? "initial" : "transition",
        transition: p.transition,
        source: p.source,
        target: p.target,
        points,
        label,
      })
    }
  }

  return {
    chart,
    width: half(result.width ?? 0),
    height: half(result.height ?? 0),
    states: states.map((box) => (prepared.get(box.id)?.container ? clearHeader(box, edges) : box)),
    edges,
    initials,
    chips,
  }
}
