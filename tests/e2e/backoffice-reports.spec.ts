/**
 * The back office's figures and settings in Chromium against the real server: after a player
 * deposited 30 EUR by card and played a dice round for real money, an admin's dashboard shows the
 * GGR the ledger holds (the house's games account and the jackpot pools, as docs/reports.md
 * reconciles: on a fresh database all of it is within the last 30 days); the reports screen's CSV
 * has its header and a row; a marketing operator disables a game and the player's lobby no longer
 * finds it; an admin restricts a country and lifts it again. axe-core on the dashboard, the reports
 * and every settings screen at desktop and phone width.
 */
import type { Locator, Page } from "@playwright/test"
import { expectAccessible, VIEWPORTS } from "./support/a11y.ts"
import { addOperatorByCommand, signInToBackoffice } from "./support/backoffice.ts"
import { depositThirtyByCard, newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { expect, test } from "./support/fixtures.ts"
import { dismissToasts } from "./support/ui.ts"

const menu = (page: Page): Locator => page.getByRole("navigation", { name: "Back office", exact: true })

/** A dashboard tile's value by its name (the tiles are a description list). */
const tile = (page: Page, name: string): Locator =>
  page
    .locator(".bo-tile")
    .filter({ has: page.getByRole("term").filter({ hasText: new RegExp(`^${name}$`) }) })
    .getByRole("definition")
    .first()

/** "−1,234.50 EUR" → -123450n: the tile's text back to minor units, compared exactly. */
const eurMinor = (text: string): bigint => {
  const match = /^(−?)([\d,]+)\.(\d{2}) EUR$/.exec(text.trim())
  if (match === null) throw new Error(`not an EUR amount: ${JSON.stringify(text)}`)
  const minor = BigInt(`${(match[2] ?? "").replace(/,/g, "")}${match[3] ?? ""}`)
  return match[1] === "−" ? -minor : minor
}

test("the dashboard's GGR is the ledger's after a deposit and a round; the GGR report's CSV", async ({
  page,
  browser,
  world,
}) => {
  test.setTimeout(180_000)
  // ── A player deposits 30 EUR and plays one dice round for real money ──
  await signedInThroughApi(page, world, newPlayer(world, "bo-ggr"))
  await depositThirtyByCard(page)
  await dismissToasts(page)
  await page.goto("/game/dice-classic")
  await page.getByRole("button", { name: "Real money" }).click()
  const game = page.frameLocator(".game__frame")
  await expect(game.getByText("Balance: 30.00 EUR")).toBeVisible()
  await game.getByLabel("Bet (EUR)").fill("1.00")
  await game.getByLabel("Target (0.01–99.99)").fill("50")
  await game.getByRole("button", { name: "Roll", exact: true }).click()
  await expect(game.getByRole("status")).toHaveText(/ — (Won|Returned|Lost) /)

  // ── The admin's dashboard, in a browser of its own ──
  const context = await browser.newContext({ baseURL: world.baseUrl })
  const admin = await context.newPage()
  const ada = await addOperatorByCommand(world, "admin", "Ada Figures")
  await signInToBackoffice(admin, ada, "/backoffice")
  await expect(admin.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible()
  await expect(admin.getByRole("heading", { name: "Waiting for a decision" })).toBeVisible()
  await admin.getByRole("button", { name: "30 days" }).click()
  await expect(admin.getByRole("button", { name: "30 days" })).toHaveAttribute("aria-pressed", "true")
  const currency = admin.getByLabel("Currency")
  if ((await currency.count()) > 0) await currency.selectOption("EUR")
  await expect(tile(admin, "Deposits")).toContainText("EUR")
  // Other specs play on the same server meanwhile: read both sides again until they agree.
  await expect(async () => {
    await admin.getByRole("button", { name: "Refresh" }).click()
    await expect(admin.getByRole("button", { name: "Refresh" })).toBeEnabled()
    const shown = eurMinor(await tile(admin, "GGR").innerText())
    const [house] = await world.sql<{ games: string }>(
      `SELECT coalesce(sum(balance) FILTER (WHERE kind = 'jackpot_pool' OR (kind = 'house' AND code = 'games')), 0)::text AS games
       FROM ledger_accounts WHERE currency = 'EUR'`,
    )
    expect(shown).toBe(BigInt(house?.games ?? "x"))
  }).toPass({ timeout: 30_000 })
  // The chart's figures are readable without the canvas.
  await expect(admin.getByRole("table", { name: /^GGR and deposits per day in EUR/ })).toHaveCount(1)
  await world.screenshot(admin, "backoffice-dashboard")

  // ── The GGR report and its CSV ──
  await menu(admin).getByRole("link", { name: "Reports" }).click()
  await expect(admin).toHaveURL(/\/backoffice\/reports$/)
  await admin.getByLabel("Currency").selectOption("EUR")
  await admin.getByRole("button", { name: "Show" }).click()
  const rows = admin.getByRole("table").getByRole("row").filter({ hasText: "dice-classic" })
  await expect(rows.first()).toBeVisible()
  await expect(admin.getByRole("table").getByRole("rowheader", { name: "Total" })).toBeVisible()
  await world.screenshot(admin, "backoffice-reports")
  const download = admin.waitForEvent("download")
  await admin.getByRole("link", { name: "Download CSV" }).click()
  const file = await download
  expect(file.suggestedFilename()).toMatch(/^ggr-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/)
  const path = await file.path()
  const { readFile } = await import("node:fs/promises")
  const csv = await readFile(path, "utf8")
  const lines = csv.split("\r\n")
  expect(lines[0]).toBe("day,game,provider,integration,currency,bets,refunds,wins,ggr,bonus_cost,ngr,rounds")
  expect(lines.some((line) => line.includes(",dice-classic,") && line.includes(",EUR,"))).toBe(true)
  await context.close()
})

test("a marketing operator disables a game: the player's lobby no longer finds it", async ({
  page,
  world,
}) => {
  // A game late in the lobby's order with a name of its own, so no other spec's game is touched.
  const [chosen] = await world.sql<{ id: string; name: string }>(
    `SELECT id, name FROM games g WHERE enabled AND kind = 'slot'
       AND (SELECT count(*) FROM games o WHERE lower(o.name) = lower(g.name)) = 1
     ORDER BY coalesce(sort_override, sort) DESC, id LIMIT 1`,
  )
  if (chosen === undefined) throw new Error("no enabled slot")
  await page.goto("/")
  const search = page.getByRole("searchbox", { name: "Search games" })
  await search.fill(chosen.name)
  await expect(page.getByRole("heading", { name: `Results for “${chosen.name}”` })).toBeVisible()
  await expect(page.locator(".tile__name", { hasText: chosen.name }).first()).toBeVisible()

  const marketing = await addOperatorByCommand(world, "marketing", "Mia Marketing")
  const context = await page.context().browser()?.newContext({ baseURL: world.baseUrl })
  if (context === undefined) throw new Error("no browser")
  const bo = await context.newPage()
  await signInToBackoffice(bo, marketing, "/backoffice/games")
  await expect(bo.getByRole("heading", { name: "Games", level: 1 })).toBeVisible()
  await bo.getByLabel("Find a game").fill(chosen.id)
  const enabled = bo.getByRole("button", { name: `Enabled: ${chosen.name}` })
  await expect(enabled).toHaveAttribute("aria-pressed", "true")
  await enabled.click()
  await expect(enabled).toHaveAttribute("aria-pressed", "false")
  await expect(enabled).toBeEnabled()

  try {
    await page.reload()
    await page.getByRole("searchbox", { name: "Search games" }).fill(chosen.name)
    await expect(page.getByText("No game matches your search.")).toBeVisible()
    await page.goto(`/game/${chosen.id}`)
    await expect(page.getByRole("heading", { name: "This game does not exist (any more)." })).toBeVisible()
  } finally {
    // Back in the lobby for every other spec on this server.
    await enabled.click()
    await expect(enabled).toHaveAttribute("aria-pressed", "true")
  }
  await context.close()
})

test("an admin restricts a country and lifts the restriction after confirming", async ({ page, world }) => {
  const admin = await addOperatorByCommand(world, "admin", "Ada Countries")
  await signInToBackoffice(page, admin, "/backoffice/countries")
  await expect(page.getByRole("heading", { name: "Restricted countries", level: 1 })).toBeVisible()
  const form = page.getByRole("region", { name: "Restrict a country" })
  await form.getByLabel("ISO country code").fill("tv")
  await form.getByRole("button", { name: "Add" }).click()
  const row = page.getByRole("row").filter({ hasText: "Tuvalu" })
  await expect(row).toContainText("TV")

  // Adding it twice is refused with the server's message.
  await form.getByLabel("ISO country code").fill("TV")
  await form.getByRole("button", { name: "Add" }).click()
  await expect(form.getByRole("alert")).not.toBeEmpty()

  await row.getByRole("button", { name: "Remove Tuvalu" }).click()
  await expect(row.getByRole("group")).toContainText("Players from Tuvalu will be able to register and play.")
  await row.getByRole("button", { name: "Keep" }).click()
  await expect(row).toBeVisible()
  await row.getByRole("button", { name: "Remove Tuvalu" }).click()
  await row.getByRole("button", { name: "Yes, remove TV" }).click()
  await expect(page.getByRole("row").filter({ hasText: "Tuvalu" })).toHaveCount(0)
})

for (const viewport of VIEWPORTS) {
  test(`dashboard, reports and settings screens pass axe at ${viewport.name} width`, async ({
    page,
    world,
  }, testInfo) => {
    test.setTimeout(180_000)
    await page.setViewportSize({ width: viewport.width, height: viewport.height })
    const admin = await addOperatorByCommand(world, "admin", `Axe figures ${viewport.name}`)
    await signInToBackoffice(page, admin, "/backoffice")
    const screens = [
      { path: "/backoffice", heading: "Dashboard", ready: page.getByRole("heading", { name: "Figures" }) },
      { path: "/backoffice/reports", heading: "Reports", ready: page.getByRole("button", { name: "Show" }) },
      { path: "/backoffice/promotions", heading: "Promotions", ready: page.getByText("New promotion") },
      {
        path: "/backoffice/games",
        heading: "Games",
        ready: page.getByRole("table", { name: "Games in the lobby" }),
      },
      {
        path: "/backoffice/countries",
        heading: "Restricted countries",
        ready: page.getByRole("button", { name: "Add" }),
      },
      {
        path: "/backoffice/rates",
        heading: "Rates and minimums",
        ready: page.getByRole("table", { name: "Rates and minimums per currency" }),
      },
    ]
    for (const screen of screens) {
      await page.goto(screen.path)
      await expect(page.getByRole("heading", { name: screen.heading, level: 1 })).toBeVisible()
      await expect(screen.ready.first()).toBeVisible()
      await expect(page.getByRole("status").filter({ hasText: "Loading…" })).toHaveCount(0)
      await expectAccessible(page, testInfo, `backoffice ${screen.heading} ${viewport.name}`)
    }
  })
}
