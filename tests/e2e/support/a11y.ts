/**
 * Accessibility helpers of the e2e suite: axe-core against the page as it is (WCAG 2.x A/AA), and
 * what the keyboard journeys need — where the focus is (through shadow roots), whether it is
 * visibly marked, and Tab until a given element has it.
 */
import AxeBuilder from "@axe-core/playwright"
import { expect, type Page, type TestInfo } from "@playwright/test"

/** WCAG 2.0, 2.1 and 2.2, levels A and AA (axe's tags; 2.2 adds no level-A rule of its own). */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] as const

/** Impacts that fail a test; `moderate` and `minor` are printed only. */
const BLOCKING = new Set(["serious", "critical"])

export const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "mobile", width: 390, height: 844 },
] as const

interface AxeViolation {
  readonly id: string
  readonly impact?: string | null
  readonly help: string
  readonly helpUrl: string
  readonly nodes: ReadonlyArray<{ readonly target: ReadonlyArray<unknown>; readonly failureSummary?: string }>
}

const describeViolation = (v: AxeViolation): string =>
  [
    `  [${v.impact ?? "unknown"}] ${v.id}: ${v.help} (${v.helpUrl})`,
    ...v.nodes.map(
      (n) =>
        `      ${n.target.map((t) => (Array.isArray(t) ? t.join(" >>> ") : String(t))).join(" ")}` +
        (n.failureSummary ? `\n        ${n.failureSummary.replace(/\n\s*/g, " / ")}` : ""),
    ),
  ].join("\n")

/** A contrast axe could not decide, measured on the drawn pixels instead. */
interface MeasuredContrast {
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

/**
 * axe leaves a text's contrast undecided ("needs review") when its background is a gradient, an
 * image or overlapped — here the page's radial-gradient backdrop makes that most text. For each such
 * node this measures what Chromium draws: the element's own text is made transparent (its child
 * elements hidden), the boxes of its own text lines are screenshotted, and the text colour is
 * compared with every background pixel behind them; the worst pixel must reach 4.5:1 (3:1 for large
 * text, WCAG 1.4.3). Text covered by something else (an open list) is named, not measured.
 */
const measureUndecidedContrast = async (
  page: Page,
  nodes: ReadonlyArray<{
    readonly target: ReadonlyArray<unknown>
    readonly any: ReadonlyArray<{ message: string }>
  }>,
): Promise<{ measured: Array<MeasuredContrast>; skipped: Array<string> }> => {
  const measured: Array<MeasuredContrast> = []
  const skipped: Array<string> = []
  for (const node of nodes) {
    const selector = node.target[0]
    const message = node.any[0]?.message ?? ""
    if (node.target.length !== 1 || typeof selector !== "string") {
      skipped.push(`${JSON.stringify(node.target)} (inside a frame or shadow root)`)
      continue
    }
    // Icons written as characters ("+", "×"): non-text contrast, which axe does not measure either.
    if (/non-text characters/i.test(message)) continue
    let shot: { fg: string; large: boolean; lines: ReadonlyArray<Rect>; png: Buffer } | string
    try {
      const probe = await page.evaluate((sel) => {
        const element = document.querySelector(sel)
        if (element === null) return "gone"
        // Behind an open modal (aria-hidden by the dialog): inert, and drawn dimmed on purpose.
        if (element.closest('[aria-hidden="true"], [inert]') !== null) return "inert"
        // Under a CSS mask (a scrolling row's edge fade): the pixels are the mask's blend, not the
        // text's contrast, and the text reads clear once scrolled; named, not measured.
        for (let a: Element | null = element; a !== null; a = a.parentElement) {
          const mask = getComputedStyle(a).maskImage
          if (mask !== "" && mask !== "none") return "masked"
        }
        // Scrolled into view for the screenshot; every scroll position is put back afterwards.
        for (let a: Element | null = element.parentElement; a !== null; a = a.parentElement) {
          a.setAttribute("data-a11y-scroll", `${a.scrollTop},${a.scrollLeft}`)
        }
        element.scrollIntoView({ block: "center", inline: "center" })
        const style = getComputedStyle(element)
        const px = (v: string) => Number.parseFloat(v) || 0
        const svg = element instanceof SVGElement
        // Read before probing: the computed style is live.
        const fg = svg ? style.fill : style.color
        const large =
          px(style.fontSize) >= 24 ||
          (px(style.fontSize) >= 18.66 && (Number.parseInt(style.fontWeight, 10) || 400) >= 700)
        // The element's own text lines (not its siblings' on a shared line); for a field, its content box.
        const lines: Array<{ x: number; y: number; width: number; height: number }> = []
        for (const child of element.childNodes) {
          if (child.nodeType !== Node.TEXT_NODE || (child.textContent ?? "").trim() === "") continue
          const range = document.createRange()
          range.selectNodeContents(child)
          for (const r of range.getClientRects())
            lines.push({ x: r.left, y: r.top, width: r.width, height: r.height })
        }
        if (lines.length === 0) {
          const r = element.getBoundingClientRect()
          const inset = (side: "Left" | "Right" | "Top" | "Bottom") =>
            svg
              ? 0
              : px(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) +
                px(style.getPropertyValue(`padding-${side.toLowerCase()}`))
          lines.push({
            x: r.left + inset("Left"),
            y: r.top + inset("Top"),
            width: r.width - inset("Left") - inset("Right"),
            height: r.height - inset("Top") - inset("Bottom"),
          })
        }
        // Covered anywhere along a line (a floating button over its end, an open list), the drawn
        // pixels are not the text's: it is named, not measured.
        if (!svg) {
          for (const line of lines) {
            const mid = line.y + line.height / 2
            for (const x of [line.x + 1, line.x + line.width / 2, line.x + line.width - 1]) {
              const top = document.elementFromPoint(x, mid)
              if (top !== null && !element.contains(top) && !top.contains(element)) {
                const cls =
                  typeof top.className === "string" && top.className !== ""
                    ? `.${top.className.split(" ")[0]}`
                    : ""
                return `covered by <${top.tagName.toLowerCase()}${cls}>`
              }
            }
          }
        }
        // A constructed sheet (CSSOM), not a <style> element: a page whose CSP admits no inline
        // style (the back office's) would refuse that one, and every text would measure 1:1.
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
        element.setAttribute("data-a11y-probe", "")
        return { fg, large, lines }
      }, selector)
      if (typeof probe === "string") {
        shot = probe
      } else {
        const viewport = page.viewportSize() ?? { width: 0, height: 0 }
        const lines = probe.lines
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
        if (lines.length === 0) {
          shot = "not on screen"
        } else {
          const x = Math.min(...lines.map((r) => r.x))
          const y = Math.min(...lines.map((r) => r.y))
          const clip = {
            x,
            y,
            width: Math.max(...lines.map((r) => r.x + r.width)) - x,
            height: Math.max(...lines.map((r) => r.y + r.height)) - y,
          }
          const png = await page.screenshot({ clip, animations: "disabled", caret: "hide" })
          shot = {
            fg: probe.fg,
            large: probe.large,
            png,
            lines: lines.map((r) => ({ ...r, x: r.x - x, y: r.y - y })),
          }
        }
      }
    } finally {
      await page.evaluate((sel) => {
        document.querySelector(sel)?.removeAttribute("data-a11y-probe")
        for (const a of document.querySelectorAll("[data-a11y-scroll]")) {
          const [top = 0, left = 0] = (a.getAttribute("data-a11y-scroll") ?? "").split(",").map(Number)
          a.scrollTo({ top, left, behavior: "instant" })
          a.removeAttribute("data-a11y-scroll")
        }
      }, selector)
    }
    if (shot === "inert") continue
    if (typeof shot === "string") {
      skipped.push(`${selector} (${shot})`)
      continue
    }
    const ratio = await page.evaluate(
      async ({ base64, fg, lines }) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
        const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }))
        const canvas = new OffscreenCanvas(Math.max(bitmap.width, 1), Math.max(bitmap.height, 1))
        const context = canvas.getContext("2d", { willReadFrequently: true })
        if (context === null) throw new Error("no 2d canvas")
        // The text colour, resolved by the canvas itself (any CSS colour syntax).
        context.fillStyle = fg
        context.fillRect(0, 0, 1, 1)
        const [fr = 0, fgG = 0, fb = 0] = context.getImageData(0, 0, 1, 1).data
        context.clearRect(0, 0, 1, 1)
        context.drawImage(bitmap, 0, 0)
        const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height).data
        const channel = (v: number) => {
          const c = v / 255
          return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
        }
        const luminance = (r: number, g: number, b: number) =>
          0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
        const text = luminance(fr, fgG, fb)
        let worst = Number.POSITIVE_INFINITY
        for (const line of lines) {
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
      },
      { base64: shot.png.toString("base64"), fg: shot.fg, lines: shot.lines },
    )
    measured.push({ selector, ratio, required: shot.large ? 3 : 4.5, fg: shot.fg })
  }
  return { measured, skipped }
}

/**
 * Runs axe on the whole page (modals and toasts included) and attaches the full results as JSON.
 * Fails on any serious or critical violation, listing each with its selectors; moderate and minor
 * ones are printed and left to the report.
 */
export const expectAccessible = async (page: Page, testInfo: TestInfo, label: string): Promise<void> => {
  // Let fonts and entry animations (fades, slide-ins; in frames too) settle: axe measures colours as
  // drawn, and a half-faded text is not what a player reads. Endless ones (spinners) are left running.
  for (const frame of page.frames()) {
    await frame.evaluate(async () => {
      await document.fonts.ready
      await Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
          .map((a) => a.finished.catch(() => undefined)),
      )
    })
  }
  const results = await new AxeBuilder({ page }).withTags([...WCAG_TAGS]).analyze()
  const slug = label.replace(/[^a-z0-9]+/gi, "-").toLowerCase()
  await testInfo.attach(`axe-${slug}.json`, {
    body: JSON.stringify(results, null, 2),
    contentType: "application/json",
  })
  const blocking = results.violations.filter((v) => BLOCKING.has(v.impact ?? ""))
  const other = results.violations.filter((v) => !BLOCKING.has(v.impact ?? ""))
  if (other.length > 0) {
    const text = `axe (${label}): ${other.length} moderate/minor violation(s), not failing:\n${other.map(describeViolation).join("\n")}`
    process.stdout.write(`${text}\n`)
    testInfo.annotations.push({ type: "axe moderate/minor", description: text })
  }
  // Contrasts axe could not decide (gradient backdrop): measured on the drawn pixels, and they fail too.
  const undecided = results.incomplete.find((i) => i.id === "color-contrast")?.nodes ?? []
  const contrast = await measureUndecidedContrast(page, undecided)
  await testInfo.attach(`contrast-${slug}.json`, {
    body: JSON.stringify(contrast, null, 2),
    contentType: "application/json",
  })
  const lowContrast = contrast.measured.filter((m) => m.ratio < m.required)
  const lowest = Math.min(...contrast.measured.map((m) => m.ratio))
  // "Needs review": what else axe could not decide (named here, in the JSON in full). Not failing.
  const review = results.incomplete.filter((i) => i.id !== "color-contrast")
  process.stdout.write(
    `axe (${label}): ${results.passes.length} rules passed, ${blocking.length} serious/critical, ` +
      `${other.length} moderate/minor; contrast left undecided by axe measured on pixels: ` +
      `${contrast.measured.length}${contrast.measured.length > 0 ? ` (lowest ${lowest.toFixed(2)}:1)` : ""}` +
      `${contrast.skipped.length > 0 ? `, not measurable: ${contrast.skipped.join(", ")}` : ""}` +
      `${review.length > 0 ? `; needs review: ${review.map((i) => `${i.id}×${i.nodes.length}`).join(", ")}` : ""}\n`,
  )
  expect(
    blocking.length,
    `axe (${label}): serious/critical violations:\n${blocking.map(describeViolation).join("\n")}`,
  ).toBe(0)
  expect(
    lowContrast.map((m) => `${m.selector}: ${m.ratio.toFixed(2)}:1 < ${m.required}:1 (text ${m.fg})`),
    `axe (${label}): text whose contrast axe left undecided, measured on the drawn pixels`,
  ).toEqual([])
  // Some rule must have looked at the page: an empty run would pass anything.
  expect(results.passes.length, `axe (${label}) checked nothing`).toBeGreaterThan(0)
}

/** The element with the focus, looked up through open shadow roots, described for the journeys. */
export interface Focused {
  readonly tag: string
  readonly role: string
  /** aria-label, the label of an input, or the text (trimmed, first 60 characters). */
  readonly name: string
  readonly id: string
  readonly type: string
  readonly inDialog: boolean
  readonly dialogTitle: string
  /** A visible focus indicator: a non-transparent outline of 1px or more, or a box-shadow ring. */
  readonly indicator: boolean
  readonly indicatorCss: string
  readonly visible: boolean
}

export const focused = (page: Page): Promise<Focused | null> =>
  page.evaluate(() => {
    let element: Element | null = document.activeElement
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement
    if (element === null || element === document.body || element === document.documentElement) return null
    const html = element as HTMLElement
    const style = getComputedStyle(html)
    const transparent = (color: string) => color === "transparent" || /rgba\(.*,\s*0\)$/.test(color)
    const outline =
      style.outlineStyle !== "none" &&
      Number.parseFloat(style.outlineWidth) >= 1 &&
      !transparent(style.outlineColor)
    // A ring drawn with box-shadow: some shadow with a spread and a colour that is not fully transparent.
    const ring =
      style.boxShadow !== "none" && !/^(rgba\([^)]*,\s*0\)\s*)?0px 0px 0px 0px/.test(style.boxShadow)
    const labels = "labels" in html && html.labels instanceof NodeList ? [...html.labels] : []
    const labelledBy = (html.getAttribute("aria-labelledby") ?? "")
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" ")
    const name = (
      html.getAttribute("aria-label") ??
      (labelledBy.trim() ||
        labels.map((l) => l.textContent ?? "").join(" ") ||
        (html.textContent ?? "") ||
        html.getAttribute("title") ||
        "")
    )
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 60)
    const dialog = html.closest('[role="dialog"]')
    const titleId = dialog?.getAttribute("aria-labelledby") ?? ""
    const rect = html.getBoundingClientRect()
    return {
      tag: html.tagName.toLowerCase(),
      role: html.getAttribute("role") ?? "",
      name,
      id: html.id,
      type: html.getAttribute("type") ?? "",
      inDialog: dialog !== null,
      dialogTitle: titleId === "" ? "" : (document.getElementById(titleId)?.textContent ?? ""),
      indicator: outline || ring,
      indicatorCss: `outline: ${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}; box-shadow: ${style.boxShadow}`,
      visible: rect.width > 0 && rect.height > 0,
    }
  })

const label = (f: Focused | null): string =>
  f === null
    ? "(nothing: body)"
    : `<${f.tag}${f.role ? ` role=${f.role}` : ""}${f.id ? ` #${f.id}` : ""}> "${f.name}"`

/** Asserts the focused element exists, is drawn, and shows a focus indicator. */
export const expectVisibleFocus = (f: Focused | null): Focused => {
  expect(f, "something has the focus").not.toBeNull()
  if (f === null) throw new Error("no focus")
  expect(f.visible, `${label(f)} is drawn`).toBe(true)
  expect(f.indicator, `${label(f)} shows a focus indicator (${f.indicatorCss})`).toBe(true)
  return f
}

/**
 * Presses Tab (or Shift+Tab) until `wanted` holds for the focused element; every element the focus
 * passes through must show a focus indicator. Fails after `max` presses, listing where focus went.
 */
export const tabTo = async (
  page: Page,
  wanted: (f: Focused) => boolean,
  options: { readonly max?: number; readonly backwards?: boolean; readonly what?: string } = {},
): Promise<Focused> => {
  const trail: Array<string> = []
  for (let i = 0; i < (options.max ?? 30); i++) {
    await page.keyboard.press(options.backwards ? "Shift+Tab" : "Tab")
    const f = await focused(page)
    trail.push(label(f))
    if (f === null) continue
    expectVisibleFocus(f)
    if (wanted(f)) return f
  }
  throw new Error(
    `Tab never reached ${options.what ?? "the wanted element"}; focus went: ${trail.join(" → ")}`,
  )
}

/** The focused element, polled until `wanted` holds (focus moves after React commits). */
export const expectFocus = async (
  page: Page,
  wanted: (f: Focused) => boolean,
  what: string,
): Promise<Focused> => {
  await expect
    .poll(
      async () => {
        const f = await focused(page)
        return f !== null && wanted(f)
      },
      { message: `focus on ${what}` },
    )
    .toBe(true)
  return expectVisibleFocus(await focused(page))
}
