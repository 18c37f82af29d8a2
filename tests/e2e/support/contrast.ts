/**
 * Text contrast measured on the drawn pixels, for the texts axe leaves undecided ("needs review")
 * because their background is a gradient, an image or overlapped — here the page's radial-gradient
 * backdrop makes that most text. For each such text: its own text is made transparent (its child
 * elements hidden), the boxes of its own text lines are screenshotted, and the text colour is
 * compared with every background pixel behind them; the worst pixel must reach 4.5:1 (3:1 for large
 * text, WCAG 1.4.3). Text covered by something else (an open list) is named, not measured; text
 * under a CSS mask (a scrolling row's edge fade) too.
 *
 * Texts are measured in batches, one screenshot each: the first text left is scrolled into view as
 * before, and every other text then wholly on screen joins its batch when probing it cannot change
 * what another member is measured against — no member inside another, none of a member's hidden
 * children or its own lines over (or within a few pixels of) another's lines, none covered where it
 * stands, none fixed or sticky (what shows through those depends on the scroll position). The pixels each text
 * is compared with are those the one-at-a-time probe saw; a text that cannot join waits for its own
 * turn (the first of a later batch, scrolled into view itself). A batch whose members changed
 * between the probe and the capture (a live list re-rendered: other tests' wins feed the lobby's
 * latest winners) is captured again; one still changing after five tries is named, not measured.
 */
import type { Page } from "@playwright/test"

/** A contrast axe could not decide, measured on the drawn pixels instead. */
export interface MeasuredContrast {
  readonly selector: string
  readonly ratio: number
  readonly required: number
  readonly fg: string
}

/** Where a probed text is drawn, in viewport pixels. */
interface Rect {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

/** What the page says of one text at the current scroll position. */
type Verdict =
  | {
      readonly kind: "measure"
      readonly fg: string
      readonly large: boolean
      readonly lines: ReadonlyArray<Rect>
    }
  /** Never measured: behind an open modal (inert, dimmed on purpose). */
  | { readonly kind: "inert" }
  /** Named, not measured (gone, masked, covered, not on screen). */
  | { readonly kind: "skip"; readonly reason: string }
  /** Not wholly on screen or covered here: measured in a later batch. */
  | { readonly kind: "later" }

interface Probe {
  readonly verdicts: ReadonlyArray<Verdict>
  /** The selectors probed for this batch's screenshot (their text transparent now). */
  readonly batch: ReadonlyArray<number>
}

/**
 * In the page: scroll `selectors[0]` into view (every scroll position kept, to put back), judge every
 * selector where it now stands, choose the batch and make its members' text transparent.
 */
const probeInPage = (selectors: ReadonlyArray<string>): Probe => {
  const px = (v: string) => Number.parseFloat(v) || 0
  // Overlap with a margin: a glyph's anti-aliased edge reaches a few pixels past its line's box.
  const M = 4
  const inside = (r: Rect, o: Rect) =>
    r.x - M < o.x + o.width && o.x < r.x + r.width + M && r.y - M < o.y + o.height && o.y < r.y + r.height + M
  const elements = selectors.map((s) => document.querySelector(s))
  const first = elements[0]
  if (first !== null && first !== undefined) {
    // Scrolled into view for the screenshot; every scroll position is put back afterwards.
    for (let a: Element | null = first.parentElement; a !== null; a = a.parentElement)
      a.setAttribute("data-a11y-scroll", `${a.scrollTop},${a.scrollLeft}`)
    first.scrollIntoView({ block: "center", inline: "center" })
  }
  const viewport = { x: 0, y: 0, width: window.innerWidth, height: window.innerHeight }
  const hiddenOf = new Map<number, ReadonlyArray<Rect>>()
  const verdicts = elements.map((element, index): Verdict => {
    const isFirst = index === 0
    if (element === null) return { kind: "skip", reason: "gone" }
    if (element.closest('[aria-hidden="true"], [inert]') !== null) return { kind: "inert" }
    for (let a: Element | null = element; a !== null; a = a.parentElement) {
      const mask = getComputedStyle(a).maskImage
      if (mask !== "" && mask !== "none") return { kind: "skip", reason: "masked" }
    }
    const style = getComputedStyle(element)
    const svg = element instanceof SVGElement
    const fg = svg ? style.fill : style.color
    const large =
      px(style.fontSize) >= 24 ||
      (px(style.fontSize) >= 18.66 && (Number.parseInt(style.fontWeight, 10) || 400) >= 700)
    // The element's own text lines (not its siblings' on a shared line); for a field, its content box.
    const raw: Array<Rect> = []
    for (const child of element.childNodes) {
      if (child.nodeType !== Node.TEXT_NODE || (child.textContent ?? "").trim() === "") continue
      const range = document.createRange()
      range.selectNodeContents(child)
      for (const r of range.getClientRects())
        raw.push({ x: r.left, y: r.top, width: r.width, height: r.height })
    }
    if (raw.length === 0) {
      const r = element.getBoundingClientRect()
      const inset = (side: "left" | "right" | "top" | "bottom") =>
        svg
          ? 0
          : px(style.getPropertyValue(`border-${side}-width`)) + px(style.getPropertyValue(`padding-${side}`))
      raw.push({
        x: r.left + inset("left"),
        y: r.top + inset("top"),
        width: r.width - inset("left") - inset("right"),
        height: r.height - inset("top") - inset("bottom"),
      })
    }
    const lines = raw
      .map((r) => {
        const x = Math.max(0, Math.floor(r.x))
        const y = Math.max(0, Math.floor(r.y))
        return {
          x,
          y,
          width: Math.min(Math.floor(r.width), viewport.width - x),
          height: Math.min(Math.floor(r.height), viewport.height - y),
        }
      })
      .filter((r) => r.width > 0 && r.height > 0)
    const whole = raw.every(
      (r) => r.x >= 0 && r.y >= 0 && r.x + r.width <= viewport.width && r.y + r.height <= viewport.height,
    )
    if (!isFirst && (!whole || lines.length === 0)) return { kind: "later" }
    // Fixed or sticky (the header): what shows through it depends on the scroll position, so it is
    // measured where its own scrolling into view puts the page, in a batch of its own making.
    if (!isFirst)
      for (let a: Element | null = element; a !== null; a = a.parentElement) {
        const position = getComputedStyle(a).position
        if (position === "fixed" || position === "sticky") return { kind: "later" }
      }
    if (lines.length === 0) return { kind: "skip", reason: "not on screen" }
    // Covered anywhere along a line (a floating button over its end, an open list), the drawn
    // pixels are not the text's.
    if (!svg) {
      for (const line of lines) {
        const mid = line.y + line.height / 2
        for (const x of [line.x + 1, line.x + line.width / 2, line.x + line.width - 1]) {
          const top = document.elementFromPoint(x, mid)
          if (top !== null && !element.contains(top) && !top.contains(element)) {
            if (!isFirst) return { kind: "later" }
            const cls =
              typeof top.className === "string" && top.className !== ""
                ? `.${top.className.split(" ")[0]}`
                : ""
            return { kind: "skip", reason: `covered by <${top.tagName.toLowerCase()}${cls}>` }
          }
        }
      }
    }
    hiddenOf.set(
      index,
      [...element.querySelectorAll("*")].map((c) => {
        const r = c.getBoundingClientRect()
        return { x: r.left, y: r.top, width: r.width, height: r.height }
      }),
    )
    return { kind: "measure", fg, large, lines }
  })
  // The batch: the first, then each text whose probe changes nothing another member is measured against.
  const batch: Array<number> = []
  const linesOf = (i: number) => {
    const v = verdicts[i]
    return v?.kind === "measure" ? v.lines : []
  }
  for (const [i, v] of verdicts.entries()) {
    if (v.kind !== "measure") continue
    const element = elements[i] as Element
    const fits = batch.every((j) => {
      const other = elements[j] as Element
      if (element.contains(other) || other.contains(element)) return false
      const mine = [...linesOf(i), ...(hiddenOf.get(i) ?? [])]
      const theirs = [...linesOf(j), ...(hiddenOf.get(j) ?? [])]
      return (
        !mine.some((r) => linesOf(j).some((o) => inside(r, o))) &&
        !theirs.some((r) => linesOf(i).some((o) => inside(r, o)))
      )
    })
    if (fits) batch.push(i)
  }
  // A constructed sheet (CSSOM), not a <style> element: a page whose CSP admits no inline style (the
  // back office's) would refuse that one, and every text would measure 1:1.
  const probing = window as Window & { a11yProbeSheet?: CSSStyleSheet }
  if (probing.a11yProbeSheet === undefined) {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(
      "[data-a11y-probe]{color:transparent!important;-webkit-text-fill-color:transparent!important;" +
        "fill:transparent!important;text-shadow:none!important;caret-color:transparent!important;" +
        "text-decoration-color:transparent!important}[data-a11y-probe] *{visibility:hidden!important}",
    )
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
    probing.a11yProbeSheet = sheet
  }
  for (const i of batch) elements[i]?.setAttribute("data-a11y-probe", "")
  // What the screenshot must still find: a live list (the lobby's latest winners, fed by every other
  // test's wins) may re-render between this probe and the capture.
  const watched = window as Window & { a11yProbeMembers?: ReadonlyArray<Member> }
  watched.a11yProbeMembers = batch.flatMap((i) => {
    const element = elements[i]
    if (element === undefined || element === null) return []
    const r = element.getBoundingClientRect()
    return [{ element, text: element.textContent ?? "", box: `${r.x},${r.y},${r.width},${r.height}` }]
  })
  return { verdicts, batch }
}

interface Member {
  readonly element: Element
  readonly text: string
  readonly box: string
}

/** In the page: whether every member of the batch is still the probed element, its text and box as probed. */
const steadyInPage = (): boolean => {
  const watched = window as Window & { a11yProbeMembers?: ReadonlyArray<Member> }
  return (watched.a11yProbeMembers ?? []).every(({ element, text, box }) => {
    const r = element.getBoundingClientRect()
    return (
      element.isConnected &&
      element.hasAttribute("data-a11y-probe") &&
      element.textContent === text &&
      `${r.x},${r.y},${r.width},${r.height}` === box
    )
  })
}

/** In the page: every probe taken off, every scroll position put back. */
const restoreInPage = () => {
  for (const e of document.querySelectorAll("[data-a11y-probe]")) e.removeAttribute("data-a11y-probe")
  for (const a of document.querySelectorAll("[data-a11y-scroll]")) {
    const [top = 0, left = 0] = (a.getAttribute("data-a11y-scroll") ?? "").split(",").map(Number)
    a.scrollTo({ top, left, behavior: "instant" })
    a.removeAttribute("data-a11y-scroll")
  }
}

/** In the page: the worst contrast of each text against the pixels behind its lines in the PNG. */
const ratiosInPage = async (input: {
  readonly base64: string
  readonly texts: ReadonlyArray<{ readonly fg: string; readonly lines: ReadonlyArray<Rect> }>
}): Promise<ReadonlyArray<number>> => {
  const bytes = Uint8Array.from(atob(input.base64), (c) => c.charCodeAt(0))
  const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }))
  const canvas = new OffscreenCanvas(Math.max(bitmap.width, 1), Math.max(bitmap.height, 1))
  const context = canvas.getContext("2d", { willReadFrequently: true })
  if (context === null) throw new Error("no 2d canvas")
  const channel = (v: number) => {
    const c = v / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  const luminance = (r: number, g: number, b: number) =>
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
  // Each text colour, resolved by the canvas itself (any CSS colour syntax).
  const colours = input.texts.map((t) => {
    context.clearRect(0, 0, 1, 1)
    context.fillStyle = t.fg
    context.fillRect(0, 0, 1, 1)
    const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data
    return luminance(r, g, b)
  })
  context.clearRect(0, 0, 1, 1)
  context.drawImage(bitmap, 0, 0)
  const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height).data
  return input.texts.map((t, k) => {
    const text = colours[k] ?? 0
    let worst = Number.POSITIVE_INFINITY
    for (const line of t.lines) {
      for (let y = line.y; y < line.y + line.height; y++) {
        for (let x = line.x; x < line.x + line.width; x++) {
          const i = (y * bitmap.width + x) * 4
          const bg = luminance(pixels[i] ?? 0, pixels[i + 1] ?? 0, pixels[i + 2] ?? 0)
          const ratio = (Math.max(text, bg) + 0.05) / (Math.min(text, bg) + 0.05)
          if (ratio < worst) worst = ratio
        }
      }
    }
    return worst
  })
}

export const measureUndecidedContrast = async (
  page: Page,
  nodes: ReadonlyArray<{
    readonly target: ReadonlyArray<unknown>
    readonly any: ReadonlyArray<{ message: string }>
  }>,
): Promise<{ measured: Array<MeasuredContrast>; skipped: Array<string> }> => {
  const measured: Array<MeasuredContrast> = []
  const skipped: Array<string> = []
  let pending: Array<string> = []
  for (const node of nodes) {
    const selector = node.target[0]
    if (node.target.length !== 1 || typeof selector !== "string") {
      skipped.push(`${JSON.stringify(node.target)} (inside a frame or shadow root)`)
      continue
    }
    // Icons written as characters ("+", "×"): non-text contrast, which axe does not measure either.
    if (/non-text characters/i.test(node.any[0]?.message ?? "")) continue
    if (!pending.includes(selector)) pending.push(selector)
  }
  /** Captures in a row that met a batch changing under them (a live list): retried up to a bound. */
  let unsteady = 0
  while (pending.length > 0) {
    let steady = true
    let probe: Probe
    let texts: Array<{
      readonly selector: string
      readonly fg: string
      readonly large: boolean
      readonly lines: ReadonlyArray<Rect>
    }>
    let png: Buffer | undefined
    try {
      probe = await page.evaluate(probeInPage, pending)
      texts = probe.batch.flatMap((i) => {
        const v = probe.verdicts[i]
        const selector = pending[i]
        return v?.kind === "measure" && selector !== undefined
          ? [{ selector, fg: v.fg, large: v.large, lines: v.lines }]
          : []
      })
      if (texts.length > 0) {
        const all = texts.flatMap((t) => t.lines)
        const x = Math.min(...all.map((r) => r.x))
        const y = Math.min(...all.map((r) => r.y))
        const clip = {
          x,
          y,
          width: Math.max(...all.map((r) => r.x + r.width)) - x,
          height: Math.max(...all.map((r) => r.y + r.height)) - y,
        }
        png = await page.screenshot({ clip, animations: "disabled", caret: "hide" })
        steady = await page.evaluate(steadyInPage)
        texts = texts.map((t) => ({ ...t, lines: t.lines.map((r) => ({ ...r, x: r.x - x, y: r.y - y })) }))
      }
    } finally {
      await page.evaluate(restoreInPage)
    }
    if (!steady) {
      unsteady++
      if (unsteady <= 5) continue
      // Still changing after five captures: named, not measured (never a ratio of the wrong pixels).
      for (const i of probe.batch) {
        const selector = pending[i]
        if (selector !== undefined) skipped.push(`${selector} (kept changing while measured)`)
      }
      pending = pending.filter((_, i) => !probe.batch.includes(i))
      unsteady = 0
      continue
    }
    unsteady = 0
    if (png !== undefined) {
      const ratios = await page.evaluate(ratiosInPage, {
        base64: png.toString("base64"),
        texts: texts.map((t) => ({ fg: t.fg, lines: t.lines })),
      })
      for (const [k, t] of texts.entries())
        measured.push({ selector: t.selector, ratio: ratios[k] ?? 0, required: t.large ? 3 : 4.5, fg: t.fg })
    }
    // What is decided leaves the queue; texts waiting for their own view stay, in order.
    const next: Array<string> = []
    probe.verdicts.forEach((v, i) => {
      const selector = pending[i]
      if (selector === undefined) return
      if (v.kind === "skip") skipped.push(`${selector} (${v.reason})`)
      else if (v.kind === "later" || (v.kind === "measure" && !probe.batch.includes(i))) next.push(selector)
    })
    // The first is always decided (measured, skipped or inert): the queue shrinks every round.
    pending = next.filter((s) => s !== pending[0])
  }
  return { measured, skipped }
}
