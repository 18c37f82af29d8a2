/**
 * The statechart visualizer (/statecharts) in Chromium against the real server: every machine
 * renders without error and with readable geometry (measured in the browser), stepping through a
 * generated path highlights exactly the states the path tests assert, and in live mode signing in
 * on a player tab moves the auth machine's highlighted state. Screenshots of every chart are kept
 * in test-results/statecharts/ and attached to the report.
 */
import { mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { Page } from "@playwright/test"
import {
  initialChunks,
  lazyGroups,
  readManifest,
  VISUALIZER_ENTRY,
  visualizerChunks,
} from "../../bench/bundle.ts"
import { loadModels } from "../../statecharts/discover.ts"
import { generatePaths } from "../../statecharts/paths.ts"
import { registerPlayer } from "./support/api.ts"
import { repoRoot } from "./support/env.ts"
import { expect, test } from "./support/fixtures.ts"
import { solveCaptchaWidget } from "./support/ui.ts"

const models = await loadModels()
const shotsDir = join(repoRoot, "test-results", "statecharts")

/** Collects uncaught page errors and console errors, to assert none happened. */
const watchErrors = (page: Page): Array<string> => {
  const errors: Array<string> = []
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`))
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`)
  })
  return errors
}

/**
 * Geometry as Chromium actually draws it (SVG user units): sibling state boxes must not overlap,
 * and every text of a state must lie inside its box.
 */
const geometryProblems = (page: Page, chart: string): Promise<Array<string>> =>
  page.evaluate((name) => {
    const svg = document.querySelector(`svg[data-chart="${name}"]`)
    if (svg === null) return [`no svg for ${name}`]
    const problems: Array<string> = []
    const boxes = new Map<string, { x: number; y: number; w: number; h: number; parent: string | null }>()
    for (const rect of svg.querySelectorAll<SVGRectElement>("rect[data-box-of]")) {
      const id = rect.dataset.boxOf ?? ""
      const b = rect.getBBox()
      boxes.set(id, { x: b.x, y: b.y, w: b.width, h: b.height, parent: rect.dataset.parent ?? null })
    }
    const eps = 0.5
    const inside = (
      inner: { x: number; y: number; w: number; h: number },
      outer: { x: number; y: number; w: number; h: number },
    ) =>
      inner.x >= outer.x - eps &&
      inner.y >= outer.y - eps &&
      inner.x + inner.w <= outer.x + outer.w + eps &&
      inner.y + inner.h <= outer.y + outer.h + eps
    const entries = [...boxes.entries()]
    for (const [i, [a, boxA]] of entries.entries()) {
      for (const [b, boxB] of entries.slice(i + 1)) {
        if (boxA.parent !== boxB.parent) continue
        const overlap =
          boxA.x < boxB.x + boxB.w - eps &&
          boxB.x < boxA.x + boxA.w - eps &&
          boxA.y < boxB.y + boxB.h - eps &&
          boxB.y < boxA.y + boxA.h - eps
        if (overlap) problems.push(`${a} overlaps ${b}`)
      }
    }
    for (const text of svg.querySelectorAll<SVGTextElement>("text[data-text-of]")) {
      const owner = boxes.get(text.dataset.textOf ?? "")
      const b = text.getBBox()
      if (owner === undefined) problems.push(`text "${text.textContent}" has no box`)
      else if (!inside({ x: b.x, y: b.y, w: b.width, h: b.height }, owner)) {
        problems.push(`"${text.textContent}" sticks out of ${text.dataset.textOf}`)
      }
    }
    if (boxes.size === 0) problems.push("no state boxes found")
    return problems
  }, chart)

const activeStates = (page: Page, chart: string): Promise<Array<string>> =>
  page
    .locator(`svg[data-chart="${chart}"] [data-state-id][data-active="true"]`)
    .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-state-id") ?? "").sort())

test("the player's first screen downloads none of the visualizer's code", async ({ page }) => {
  const manifest = readManifest()
  const initial = new Set([...initialChunks(manifest).js, ...initialChunks(manifest).css])
  // Chunks only the visualizer needs: shared ones belong to the player too — xstate in the first
  // chunks, and the machines the visualizer draws, which the player prefetches when idle (a race
  // with this page's first screen, so they are left out rather than waited for).
  const player = new Set(
    lazyGroups(manifest)
      .filter((group) => group.entry !== VISUALIZER_ENTRY)
      .flatMap((group) => [...group.js, ...group.css]),
  )
  const visualizer = visualizerChunks(manifest)
  const visualizerOnly = [...visualizer.js, ...visualizer.css].filter(
    (file) => !initial.has(file) && !player.has(file),
  )
  expect(visualizerOnly.some((file) => file.includes("elk"))).toBe(true)
  const requested: Array<string> = []
  page.on("request", (request) => requested.push(new URL(request.url()).pathname))
  await page.goto("/")
  await expect(page.getByRole("banner").getByRole("button", { name: "Log in" })).toBeVisible()
  const scripts = requested.filter((path) => path.startsWith("/assets/"))
  expect(scripts.length).toBeGreaterThan(0)
  expect(scripts.filter((path) => visualizerOnly.includes(path.slice(1)))).toEqual([])
})

test.describe("statechart visualizer", () => {
  test("renders every machine of machines/ readably, without errors", async ({ page }, testInfo) => {
    // Thirty-odd layouts in the page (elkjs): minutes on a busy two-core machine. A bound, not a speed check.
    test.setTimeout(300_000)
    const errors = watchErrors(page)
    await page.goto("/statecharts")
    const catalog = page.getByRole("navigation", { name: "Machines" })
    // Every model on disk is listed: the catalog is found by the bundler, not maintained by hand.
    await expect(catalog.getByRole("button")).toHaveCount(models.length)
    mkdirSync(shotsDir, { recursive: true })
    for (const { flow } of models) {
      // The page's one thread may still be laying out the previous chart: a bound, not a speed check.
      await catalog.locator(`button[data-machine="${flow}"]`).click({ timeout: 60_000 })
      const svg = page.locator(`svg[data-chart="${flow}"]`)
      // The largest charts (deposit, cashout) take seconds to lay out when the cores are shared.
      await expect(svg).toBeVisible({ timeout: 30_000 })
      await expect(page).toHaveURL(new RegExp(`[?&]machine=${flow}\\b`))
      expect(await svg.locator("[data-state-id]").count(), flow).toBeGreaterThan(1)
      expect(await geometryProblems(page, flow), flow).toEqual([])
      const path = join(shotsDir, `${flow}.png`)
      await page.screenshot({ path })
      await testInfo.attach(`${flow}.png`, { path, contentType: "image/png" })
    }
    expect(errors).toEqual([])
  })

  test("selecting a state lists its transitions and the generated paths through it", async ({ page }) => {
    await page.goto("/statecharts?machine=login")
    await page.locator('svg[data-chart="login"] [data-state-id="login.submitting"]').first().click()
    const details = page.getByTestId("state-details")
    await expect(details).toContainText("submitting")
    await expect(details).toContainText("signIn")
    await expect(details.locator("[data-transition]").first()).toBeVisible()
    await expect(details.locator("[data-path-index]").first()).toBeVisible()
  })

  test("exports SVG, mermaid and Stately JSON: the same as docs/statecharts", async ({ page }) => {
    await page.goto("/statecharts?machine=login")
    await expect(page.locator('svg[data-chart="login"]')).toBeVisible()
    const exported = async (name: string): Promise<{ file: string; text: string }> => {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name, exact: true }).click(),
      ])
      return { file: download.suggestedFilename(), text: readFileSync(await download.path(), "utf8") }
    }
    const docs = (file: string) => readFileSync(join(repoRoot, "docs", "statecharts", file), "utf8")
    const mermaid = await exported("Mermaid")
    expect(mermaid.file).toBe("login.mmd")
    expect(mermaid.text).toBe(docs("login.mmd"))
    const stately = await exported("Stately JSON")
    expect(stately.file).toBe("login.stately.json")
    expect(stately.text).toBe(docs("login.stately.json"))
    const svg = await exported("SVG")
    expect(svg.file).toBe("login.svg")
    expect(svg.text.startsWith("<?xml")).toBe(true)
    expect(svg.text).toContain('xmlns="http://www.w3.org/2000/svg"')
    const stateCount = (text: string) => text.match(/data-state-id=/g)?.length ?? 0
    expect(stateCount(svg.text)).toBe(stateCount(docs("login.svg")))
  })

  test("stepping through a generated path highlights the states the path tests assert", async ({ page }) => {
    const login = models.find((m) => m.flow === "login")
    if (login === undefined) throw new Error("no login model")
    const paths = generatePaths(login.model)
    // The longest path: most steps to check.
    const index = paths.reduce(
      (best, p, i) => (p.steps.length > (paths[best]?.steps.length ?? 0) ? i : best),
      0,
    )
    const path = paths[index]
    if (path === undefined) throw new Error("no paths")
    await page.goto("/statecharts?machine=login")
    await page.locator(`[data-path-index="${index}"]`).first().click()
    const stepper = page.getByTestId("stepper")
    await expect(stepper).toBeVisible()
    for (const [k, step] of path.steps.entries()) {
      if (k > 0) await stepper.getByRole("button", { name: "Next ▶" }).click()
      await expect(stepper.locator(`[data-step-index="${k}"]`)).toHaveAttribute("aria-current", "step")
      await expect
        .poll(() => activeStates(page, "login"), { message: `step ${k}` })
        .toEqual([...step.stateIds])
    }
    await expect(stepper.getByRole("button", { name: "Next ▶" })).toBeDisabled()
  })

  test("live mode: signing in on the player tab moves the auth machine", async ({ page, context, world }) => {
    const player = {
      fullName: "Grace Hopper",
      email: world.uniqueEmail("live"),
      password: "compile the nanoseconds",
      currency: "EUR",
    }
    await registerPlayer(world.baseUrl, player)

    await page.goto("/statecharts?machine=auth&live=1")
    // The visualizer's code (elkjs included) loads and lays the chart out first.
    await expect(page.getByTestId("live-panel")).toBeVisible({ timeout: 30_000 })

    const app = await context.newPage()
    await app.goto("/?statecharts=live")
    await expect(app.getByRole("banner").getByRole("button", { name: "Log in" })).toBeVisible()
    await expect.poll(() => activeStates(page, "auth")).toEqual(["auth.anonymous"])

    await app.getByRole("banner").getByRole("button", { name: "Log in" }).click()
    const form = app.getByRole("form", { name: "Log in" })
    await form.getByLabel("Email").fill(player.email)
    await form.getByLabel("Password").fill(player.password)
    await solveCaptchaWidget(form)
    await form.getByRole("button", { name: "Log in" }).click()
    await expect(app.getByRole("banner").getByText(player.fullName)).toBeVisible({ timeout: 20_000 })

    await expect
      .poll(async () => (await activeStates(page, "auth")).every((id) => id.startsWith("auth.authenticated")))
      .toBe(true)
    expect(await activeStates(page, "auth")).not.toEqual([])
    // Nothing typed on the player tab reaches the visualizer.
    await expect(page.locator("body")).not.toContainText(player.email)
    await expect(page.getByTestId("live-panel")).toContainText("SUBMIT")
    mkdirSync(shotsDir, { recursive: true })
    await page.screenshot({ path: join(shotsDir, "live-auth.png") })

    // The login flow that signed in has ended: its chart shows where it ended.
    await page.getByTestId("live-panel").locator('li[data-machine="login"] button').first().click()
    await expect(page.locator('svg[data-chart="login"]')).toBeVisible()
    await expect.poll(() => activeStates(page, "login")).toEqual(["login.signedIn"])
  })
})
