/**
 * Accessibility helpers of the e2e suite: axe-core against the page as it is (WCAG 2.x A/AA), and
 * what the keyboard journeys need — where the focus is (through shadow roots), whether it is
 * visibly marked, and Tab until a given element has it.
 */
import AxeBuilder from "@axe-core/playwright"
import { expect, type Page, type TestInfo } from "@playwright/test"
import { measureUndecidedContrast } from "./contrast.ts"

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
