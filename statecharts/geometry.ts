/**
 * Checks a `ChartLayout` for what makes a diagram unreadable, with the same text measurement the
 * layout and the renderer use: overlapping sibling states, a child outside its parent or over its
 * header, a text line spilling out of its box, an edge label on a state it does not belong in or
 * on another label or on a state's text, an arrow that does not touch its boxes. Empty when fine.
 */
import { FONT_SIZE, textWidth } from "./measure.ts"
import type { ChartLayout, EdgeLayout, Point, StateBox, TextLine } from "./types.ts"

export interface Rect {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

/** Strict overlap: rectangles that only touch (within `eps`) do not overlap. */
export const overlaps = (a: Rect, b: Rect, eps = 0.5): boolean =>
  a.x < b.x + b.width - eps &&
  b.x < a.x + a.width - eps &&
  a.y < b.y + b.height - eps &&
  b.y < a.y + a.height - eps

export const contains = (outer: Rect, inner: Rect, eps = 0.5): boolean =>
  inner.x >= outer.x - eps &&
  inner.y >= outer.y - eps &&
  inner.x + inner.width <= outer.x + outer.width + eps &&
  inner.y + inner.height <= outer.y + outer.height + eps

const fontSizeOf = (line: TextLine): number => (line.kind === "title" ? FONT_SIZE.title : FONT_SIZE.detail)

/** The ink box of a line: baseline-left anchored, caps above the baseline, descenders below. */
export const lineRect = (line: TextLine): Rect => {
  const size = fontSizeOf(line)
  return { x: line.x, y: line.y - size * 0.8, width: textWidth(line.text, size), height: size * 1.05 }
}

const fmt = (r: Rect): string => `(${r.x}, ${r.y}, ${r.width}×${r.height})`

/** Distance from a point to a rectangle's border. */
const distanceToBorder = (p: Point, r: Rect): number => {
  const inside = p.x >= r.x && p.x <= r.x + r.width && p.y >= r.y && p.y <= r.y + r.height
  if (inside) return Math.min(p.x - r.x, r.x + r.width - p.x, p.y - r.y, r.y + r.height - p.y)
  const dx = Math.max(r.x - p.x, 0, p.x - (r.x + r.width))
  const dy = Math.max(r.y - p.y, 0, p.y - (r.y + r.height))
  return Math.hypot(dx, dy)
}

/** Whether the segment a–b passes through the rectangle's interior (Liang–Barsky clipping). */
export const segmentCrosses = (a: Point, b: Point, r: Rect): boolean => {
  const dx = b.x - a.x
  const dy = b.y - a.y
  let t0 = 0
  let t1 = 1
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q > 0
    const t = q / p
    if (p < 0) {
      if (t > t1) return false
      if (t > t0) t0 = t
    } else {
      if (t < t0) return false
      if (t < t1) t1 = t
    }
    return true
  }
  const inside =
    clip(-dx, a.x - r.x) &&
    clip(dx, r.x + r.width - a.x) &&
    clip(-dy, a.y - r.y) &&
    clip(dy, r.y + r.height - a.y)
  return inside && t1 - t0 > 1e-9
}

/** Tolerance for an arrow's end on a border (ELK's coordinates are rounded to 0.5 px). */
const ATTACH_EPS = 2

export const geometryProblems = (layout: ChartLayout): Array<string> => {
  const problems: Array<string> = []
  const byId = new Map(layout.states.map((s) => [s.id, s]))
  const ancestorsOf = (id: string): Array<string> => {
    const out: Array<string> = []
    let current = byId.get(id)?.parent ?? null
    while (current !== null) {
      out.push(current)
      current = byId.get(current)?.parent ?? null
    }
    return out
  }
  const canvas: Rect = { x: 0, y: 0, width: layout.width, height: layout.height }

  // States: siblings apart, children inside parents and clear of their header, text inside.
  const siblings = new Map<string | null, Array<StateBox>>()
  for (const s of layout.states) {
    const list = siblings.get(s.parent) ?? []
    list.push(s)
    siblings.set(s.parent, list)
    if (!contains(canvas, s)) problems.push(`state ${s.id} ${fmt(s)} is outside the canvas`)
    for (const line of s.lines) {
      if (!contains(s, lineRect(line), 0)) {
        problems.push(`text "${line.text}" ${fmt(lineRect(line))} is not inside state ${s.id} ${fmt(s)}`)
      }
    }
    if (s.parent !== null) {
      const parent = byId.get(s.parent)
      if (parent === undefined) problems.push(`state ${s.id} has an unknown parent ${s.parent}`)
      else {
        if (!contains(parent, s))
          problems.push(`state ${s.id} ${fmt(s)} is not inside its parent ${parent.id}`)
        for (const line of parent.lines) {
          if (overlaps(lineRect(line), s)) {
            problems.push(`state ${s.id} covers the text "${line.text}" of its parent ${parent.id}`)
          }
        }
      }
    }
  }
  for (const list of siblings.values()) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i]
        const b = list[j]
        if (a !== undefined && b !== undefined && overlaps(a, b)) {
          problems.push(`sibling states ${a.id} ${fmt(a)} and ${b.id} ${fmt(b)} overlap`)
        }
      }
    }
  }

  // Markers and chips: inside their state, off its siblings' boxes.
  const smallShapes: Array<{ id: string; rect: Rect; parent: string | null }> = [
    ...layout.initials.map((m) => {
      const target = m.id.slice("initial:".length)
      return {
        id: m.id,
        rect: { x: m.cx - m.r, y: m.cy - m.r, width: 2 * m.r, height: 2 * m.r },
        parent: byId.get(target)?.parent ?? null,
      }
    }),
    ...(layout.chips ?? []).map((c) => ({ id: c.id, rect: c, parent: c.state })),
  ]
  for (const shape of smallShapes) {
    const parent = shape.parent === null ? undefined : byId.get(shape.parent)
    if (parent !== undefined && !contains(parent, shape.rect)) {
      problems.push(`${shape.id} is not inside ${parent.id}`)
    }
    for (const s of layout.states) {
      if (s.parent === shape.parent && overlaps(s, shape.rect))
        problems.push(`${shape.id} overlaps state ${s.id}`)
    }
  }

  // Edges: ends on their boxes; labels where they belong and apart.
  const chips = new Map((layout.chips ?? []).map((c) => [c.state, c]))
  const initials = new Map(layout.initials.map((m) => [m.id, m]))
  const startShape = (e: EdgeLayout): Rect | undefined => {
    if (e.kind === "initial") {
      const m = initials.get(e.id)
      return m === undefined ? undefined : { x: m.cx - m.r, y: m.cy - m.r, width: 2 * m.r, height: 2 * m.r }
    }
    const source = byId.get(e.source)
    const chip = chips.get(e.source)
    // An edge into the source's own descendant starts at the source's chip.
    if (chip !== undefined && ancestorsOf(e.target).includes(e.source)) return chip
    return source
  }
  for (const e of layout.edges) {
    const first = e.points[0]
    const last = e.points[e.points.length - 1]
    const from = startShape(e)
    const to = byId.get(e.target)
    if (first === undefined || last === undefined || e.points.length < 2) {
      problems.push(`edge ${e.id} has no route`)
    } else {
      if (from === undefined) problems.push(`edge ${e.id} starts at an unknown shape`)
      else if (distanceToBorder(first, from) > ATTACH_EPS + (e.kind === "initial" ? 2 : 0)) {
        problems.push(`edge ${e.id} starts at (${first.x}, ${first.y}), off its source ${fmt(from)}`)
      }
      if (to === undefined) problems.push(`edge ${e.id} ends at an unknown state ${e.target}`)
      else if (distanceToBorder(last, to) > ATTACH_EPS) {
        problems.push(`edge ${e.id} ends at (${last.x}, ${last.y}), off its target ${to.id} ${fmt(to)}`)
      }
    }
  }

  // No route runs through a state's text (ELK does not know where a container's header text is).
  const allLines = layout.states.flatMap((s) =>
    s.lines.map((line) => ({ state: s.id, line, rect: lineRect(line) })),
  )
  for (const e of layout.edges) {
    for (let i = 1; i < e.points.length; i++) {
      const a = e.points[i - 1]
      const b = e.points[i]
      if (a === undefined || b === undefined) continue
      for (const { state, line, rect } of allLines) {
        if (segmentCrosses(a, b, rect)) {
          problems.push(`edge ${e.id} runs through the text "${line.text}" of state ${state}`)
        }
      }
    }
  }

  const labelled = layout.edges.filter((e) => e.label !== null)
  for (const e of labelled) {
    const label = e.label
    if (label === null) continue
    if (!contains(canvas, label)) problems.push(`label of ${e.id} is outside the canvas`)
    // A label may lie inside the states that contain the whole edge: the innermost state holding
    // both ends (a self loop runs outside its own box) and that state's ancestors.
    const sourceChain = [e.source, ...ancestorsOf(e.source)]
    const targetChain = new Set([e.target, ...ancestorsOf(e.target)])
    const common = sourceChain.find(
      (id) => targetChain.has(id) && !(e.source === e.target && id === e.source),
    )
    const allowed = new Set(common === undefined ? [] : [common, ...ancestorsOf(common)])
    if (e.source === e.target) allowed.delete(e.source)
    for (const s of layout.states) {
      if (!allowed.has(s.id) && overlaps(label, s)) {
        problems.push(`label of ${e.id} ${fmt(label)} overlaps state ${s.id} ${fmt(s)}`)
      }
      for (const line of s.lines) {
        if (overlaps(label, lineRect(line))) {
          problems.push(`label of ${e.id} covers the text "${line.text}" of state ${s.id}`)
        }
      }
    }
    for (const chip of layout.chips ?? []) {
      if (overlaps(label, chip)) problems.push(`label of ${e.id} overlaps ${chip.id}`)
    }
  }
  for (let i = 0; i < labelled.length; i++) {
    for (let j = i + 1; j < labelled.length; j++) {
      const a = labelled[i]
      const b = labelled[j]
      if (a?.label && b?.label && overlaps(a.label, b.label)) {
        problems.push(`labels of ${a.id} and ${b.id} overlap`)
      }
    }
  }
  return problems
}
