/**
 * Loyalty levels in the browser, against the real server (docs/loyalty.md): a Silver player (their
 * standing written in the database, as the accrual job would) sees the level in the header and, in
 * the profile's Loyalty tab, the points, the progress bar to Gold and every level's perks with
 * theirs marked; on a phone the header leaves the level to the tab. axe finds no serious violation.
 * A real-money spin that crosses Silver's threshold brings the level-up toast and the new level in
 * the header. The points' arithmetic and the cashback are tests/server/loyalty.test.ts's.
 */
import { expectAccessible } from "./support/a11y.ts"
import { depositThirtyByCard, newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { expect, test } from "./support/fixtures.ts"
import { dismissToasts } from "./support/ui.ts"

test("a Silver player's level in the header and the Loyalty tab", async ({ page, world }, testInfo) => {
  test.skip(world.databaseUrl === undefined, "writes the player's standing with SQL (PostgreSQL only)")
  const player = await signedInThroughApi(page, world, newPlayer(world, "loyalty"))
  await world.sql(
    `INSERT INTO loyalty_accounts (user_id, wagered, points, level)
     SELECT id, 20000000, 2000, 2 FROM users WHERE email = $1`,
    [player.email],
  )

  await page.goto("/profile/loyalty")
  const pill = page.getByRole("link", { name: "Loyalty level: Silver" })
  await expect(pill).toBeVisible()
  await expect(page.getByRole("heading", { name: "Your level Silver" })).toBeVisible()
  await expect(page.getByText("2,000", { exact: true })).toBeVisible()
  await expect(page.getByText("3,000 points to Gold")).toBeVisible()
  await expect(page.getByRole("progressbar", { name: "Progress to the next level" })).toHaveAttribute(
    "aria-valuenow",
    "25",
  )
  const levels = page.getByRole("table", { name: "Levels and perks" })
  await expect(levels.getByRole("row")).toHaveCount(6)
  const silver = levels.getByRole("row").filter({ hasText: "Silver" })
  await expect(silver).toContainText("Your level")
  await expect(silver).toContainText("1,000")
  await expect(silver).toContainText("2 % weekly cashback on net losses, paid as cash")
  await expect(silver).toContainText("×1.25")
  await expect(levels.getByRole("row").filter({ hasText: "Diamond" })).toContainText("100,000")
  await world.screenshot(page, "loyalty-01-tab")
  await expectAccessible(page, testInfo, "profile loyalty")

  // The header's pill opens the tab from anywhere.
  await page.goto("/")
  await pill.click()
  await expect(page).toHaveURL(/\/profile\/loyalty$/)

  // A phone's header has no room for the level: the tab shows it.
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(pill).toBeHidden()
  await expect(page.getByRole("heading", { name: "Your level Silver" })).toBeVisible()
  await world.screenshot(page, "loyalty-02-phone")
  await expectAccessible(page, testInfo, "profile loyalty phone")
})

test("a real-money spin that crosses a level's threshold says so: 'Level up! You are now Silver.'", async ({
  page,
  world,
}) => {
  test.skip(world.databaseUrl === undefined, "writes the player's standing with SQL (PostgreSQL only)")
  test.setTimeout(150_000)
  const player = await signedInThroughApi(page, world, newPlayer(world, "level-up"))
  // 999.5 points (Bronze): one more euro bet on a slot (weighted 100 %) reaches Silver's 1,000.
  await world.sql(
    `INSERT INTO loyalty_accounts (user_id, wagered, points, level)
     SELECT id, 9995000, 999, 1 FROM users WHERE email = $1`,
    [player.email],
  )
  await page.goto("/")
  await depositThirtyByCard(page)
  await dismissToasts(page)
  await expect(page.getByRole("link", { name: "Loyalty level: Bronze" })).toBeVisible()

  await page.goto("/game/fjord-fortunes")
  await page.getByRole("button", { name: "Real money" }).click()
  const game = page.frameLocator(".game__frame")
  await game.getByLabel("Bet (EUR)").fill("1.00")
  await game.getByRole("button", { name: "Spin", exact: true }).click()
  // The accrual job counts the bet, the push stream brings the new level: a toast and the header.
  await expect(page.getByText("Level up! You are now Silver.")).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole("link", { name: "Loyalty level: Silver" })).toBeVisible()
  await world.screenshot(page, "loyalty-03-level-up")
})
