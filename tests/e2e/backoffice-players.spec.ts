/**
 * The back office's players screen in Chromium against the real server: a support agent finds a
 * registered player by e-mail, locks them (the player's sign-in is refused) and unlocks them, and
 * leaves a note; a payments officer posts a small adjustment and requests a large one, which only a
 * second payments officer can approve; a support agent opens the fairness proof of a round the
 * player played in the studio's frame — the seed secret, then revealed once the player rotates it.
 * axe-core on the results, the player's page and an open proof, at desktop and phone width.
 */
import type { Browser, Page } from "@playwright/test"
import { expectAccessible, VIEWPORTS } from "./support/a11y.ts"
import { registerPlayer, signInStatus } from "./support/api.ts"
import { addOperatorByCommand, signInToBackoffice } from "./support/backoffice.ts"
import { balance, depositThirtyByCard, newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { expect, test, type World } from "./support/fixtures.ts"
import { openDiceFairness, rotateServerSeed } from "./support/studio.ts"
import { dismissToasts } from "./support/ui.ts"

const findPlayer = async (page: Page, email: string): Promise<void> => {
  await page.getByRole("searchbox", { name: "Search players" }).fill(email)
  await page.getByRole("searchbox", { name: "Search players" }).press("Enter")
  await expect(page.getByText("1 player for")).toBeVisible()
  await expect(page.getByRole("table", { name: "Players found" }).getByRole("row")).toHaveCount(2)
}

const openPlayer = async (page: Page, email: string, name: string): Promise<void> => {
  await findPlayer(page, email)
  await page.getByRole("button", { name: email }).click()
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible()
}

const cash = (page: Page) => page.getByRole("table", { name: "Wallets" }).getByRole("row", { name: /EUR/ })

/** A second browser for a second operator signed in at the same time. */
const secondPage = async (browser: Browser, world: World): Promise<Page> =>
  (await browser.newContext({ baseURL: world.baseUrl })).newPage()

test("a support agent finds a player, locks and unlocks them, and leaves a note", async ({ page, world }) => {
  const player = newPlayer(world, "bo-locked", "Lena Lockwood")
  await registerPlayer(world.baseUrl, player)
  const agent = await addOperatorByCommand(world, "support", "Sue Support")
  await signInToBackoffice(page, agent, "/backoffice/players")
  await expect(page.getByRole("heading", { name: "Players", level: 1 })).toBeVisible()

  await findPlayer(page, player.email)
  const row = page.getByRole("table", { name: "Players found" }).getByRole("row").nth(1)
  await expect(row).toContainText("Lena Lockwood")
  await expect(row).toContainText("Active")
  await expect(row).toContainText("KYC none")
  await row.getByRole("button", { name: player.email }).click()
  await expect(page.getByRole("heading", { name: "Lena Lockwood", level: 1 })).toBeVisible()

  // Support locks and signs out, but adjusts nothing.
  const actions = page.getByRole("region", { name: "Actions" })
  await expect(actions.getByRole("button", { name: "Adjust balance" })).toHaveCount(0)
  await actions.getByRole("button", { name: "Lock player" }).click()
  await actions.getByLabel("Reason for locking").fill("Chargeback under investigation")
  await actions.getByRole("button", { name: "Lock", exact: true }).click()
  await expect(actions.getByRole("status")).toHaveText("Locked. 1 session ended.")
  await expect(page.getByText("Chargeback under investigation")).toBeVisible()
  await expect(page.getByRole("heading", { name: "Lena Lockwood", level: 1 }).locator("..")).toContainText(
    "Locked",
  )
  expect(await signInStatus(world.baseUrl, player.email, player.password)).toBe(423)

  await actions.getByRole("button", { name: "Unlock player" }).click()
  await actions.getByLabel("Reason for unlocking").fill("Chargeback withdrawn by the bank")
  await actions.getByRole("button", { name: "Unlock", exact: true }).click()
  await expect(actions.getByRole("status")).toHaveText("Unlocked: the player can sign in again.")
  await expect(actions.getByRole("button", { name: "Lock player" })).toBeVisible()
  expect(await signInStatus(world.baseUrl, player.email, player.password)).toBe(200)

  // The sign-in above opened a session: the forced sign-out, confirmed, ends it.
  await actions.getByRole("button", { name: "Force sign-out" }).click()
  await actions.getByRole("button", { name: "Sign out everywhere" }).click()
  await expect(actions.getByRole("status").filter({ hasText: "Signed out" })).toHaveText(
    "Signed out: 1 session ended.",
  )

  // A reason is required: an empty one is refused before any call.
  await actions.getByRole("button", { name: "Lock player" }).click()
  await actions.getByLabel("Reason for locking").fill("   ")
  await actions.getByRole("button", { name: "Lock", exact: true }).click()
  await expect(actions.getByRole("alert")).toHaveText("Give a reason.")
  await actions.getByRole("button", { name: "Cancel" }).click()

  await page.getByRole("tab", { name: "Notes" }).click()
  await expect(page.getByText("No note yet.")).toBeVisible()
  await page.getByLabel("New note").fill("Called the player about the chargeback.")
  await page.getByRole("button", { name: "Add note" }).click()
  const notes = page.getByRole("list", { name: "Notes" })
  await expect(notes.getByRole("listitem")).toHaveCount(1)
  await expect(notes).toContainText("Called the player about the chargeback.")
  await expect(notes).toContainText(agent.email)

  await page.getByRole("button", { name: "← All players" }).click()
  await expect(page.getByRole("table", { name: "Players found" })).toBeVisible()
})

test("a payments officer posts a small adjustment; a large one waits for a second officer", async ({
  page,
  browser,
  world,
}) => {
  const player = newPlayer(world, "bo-adjusted", "Ada Adjusted")
  await registerPlayer(world.baseUrl, player)
  const first = await addOperatorByCommand(world, "payments", "Pat Payments")
  const second = await addOperatorByCommand(world, "payments", "Quinn Payments")
  await signInToBackoffice(page, first, "/backoffice/players")
  await openPlayer(page, player.email, "Ada Adjusted")
  await expect(cash(page)).toContainText("0.00 EUR")

  const actions = page.getByRole("region", { name: "Actions" })
  await expect(actions.getByRole("button", { name: "Lock player" })).toHaveCount(0)
  await actions.getByRole("button", { name: "Adjust balance" }).click()
  const form = actions.getByRole("form", { name: "Balance adjustment" })
  // Not a number of the currency: refused before any call.
  await form.getByLabel("Amount").fill("5.001")
  await form.getByLabel("Reason").fill("Goodwill for a delayed payout")
  await form.getByRole("button", { name: "Credit" }).click()
  await expect(form.getByRole("alert")).toHaveText(
    "Enter an amount in EUR greater than 0, with at most 2 decimals.",
  )
  await form.getByLabel("Amount").fill("5.25")
  await form.getByRole("button", { name: "Credit" }).click()
  await expect(actions.getByRole("status")).toHaveText("Posted: +5.25 EUR to the cash balance.")
  await expect(cash(page)).toContainText("5.25 EUR")

  await actions.getByRole("button", { name: "Adjust balance" }).click()
  await form.getByLabel("Amount").fill("150")
  await form.getByLabel("Reason").fill("Compensation for the outage")
  await form.getByRole("button", { name: "Credit" }).click()
  await expect(actions.getByRole("status")).toHaveText(
    "Requested +150.00 EUR: waiting for a second approval.",
  )
  await expect(cash(page)).toContainText("5.25 EUR")
  await page.getByRole("tab", { name: "Adjustments" }).click()
  await expect(page.getByRole("table", { name: "Balance adjustments" })).toContainText("waiting for approval")

  // The requester cannot approve their own request.
  await page.getByRole("button", { name: "← All players" }).click()
  await page.getByRole("tab", { name: "Pending adjustments" }).click()
  const approveOwn = page.getByRole("button", { name: `Approve +150.00 EUR for ${player.email}` })
  await approveOwn.click()
  await expect(page.getByRole("alert")).toHaveText(
    "Another operator must decide an adjustment you requested.",
  )

  const other = await secondPage(browser, world)
  await signInToBackoffice(other, second, "/backoffice/players")
  await other.getByRole("tab", { name: "Pending adjustments" }).click()
  await other.getByRole("button", { name: `Approve +150.00 EUR for ${player.email}` }).click()
  await expect(other.getByRole("status")).toHaveText(`Approved +150.00 EUR for ${player.email}.`)
  await expect(other.getByRole("button", { name: `Approve +150.00 EUR for ${player.email}` })).toHaveCount(0)
  await other.getByRole("tab", { name: "Find a player" }).click()
  await openPlayer(other, player.email, "Ada Adjusted")
  await expect(cash(other)).toContainText("155.25 EUR")
  await other.context().close()
})

test("a support agent opens a round's fairness proof: the seed secret, then revealed once rotated", async ({
  page,
  browser,
  world,
}, testInfo) => {
  test.setTimeout(180_000)
  // ── The player deposits and plays one dice round for real money in the game's frame ──
  const player = await signedInThroughApi(page, world, newPlayer(world, "bo-fair", "Fay Fairness"))
  await depositThirtyByCard(page)
  await dismissToasts(page)
  await expect(balance(page)).toContainText("30.00")
  const { game, committedHash, clientSeed, nonce } = await openDiceFairness(page, "30.00")
  await game.getByLabel("Bet (EUR)").fill("1.00")
  await game.getByRole("button", { name: "Roll", exact: true }).click()
  await expect(game.locator("#nonce")).toHaveText(String(nonce + 1))

  // ── A support agent opens the round's proof from the Bets tab: the seed still secret ──
  const agent = await addOperatorByCommand(world, "support", "Sam Support")
  const staff = await secondPage(browser, world)
  await signInToBackoffice(staff, agent, "/backoffice/players")
  await openPlayer(staff, player.email, "Fay Fairness")
  await staff.getByRole("tab", { name: "Bets" }).click()
  const open = staff.getByRole("table", { name: "Bets" }).getByRole("button", { name: /^Fairness of round / })
  await expect(open).toHaveCount(1)
  await expect(open).toHaveAttribute("aria-expanded", "false")
  await open.click()
  await expect(open).toHaveAttribute("aria-expanded", "true")
  const proof = staff.getByRole("region", { name: /^Fairness proof of round / })
  await expect(proof).toContainText(committedHash)
  await expect(proof).toContainText("Not revealed yet")
  await expect(proof).toContainText(clientSeed)
  await expect(proof.getByRole("definition").filter({ hasText: /^\d+$/ })).toHaveText(String(nonce))
  await expect(proof).toContainText("for a 1.00 EUR stake")
  await expectAccessible(staff, testInfo, "backoffice round fairness secret")
  await world.screenshot(staff, "backoffice-round-fairness-secret")

  // ── The player rotates the seed in the game; the proof loaded again shows it ──
  const serverSeed = await rotateServerSeed(game)
  await proof.getByRole("button", { name: "Load again" }).click()
  await expect(proof).toContainText(serverSeed)
  await expect(proof).not.toContainText("Not revealed yet")
  await expect(proof).toContainText(committedHash)
  await expect(proof.getByRole("link", { name: /verifier page/ })).toHaveAttribute("href", "/fairness")
  for (const viewport of VIEWPORTS) {
    await staff.setViewportSize({ width: viewport.width, height: viewport.height })
    await expectAccessible(staff, testInfo, `backoffice round fairness revealed ${viewport.name}`)
    await world.screenshot(staff, `backoffice-round-fairness-revealed-${viewport.name}`)
  }
  await open.click()
  await expect(proof).toHaveCount(0)
  await staff.context().close()
})

for (const viewport of VIEWPORTS) {
  test(`the players screens pass axe at ${viewport.name} width`, async ({ page, world }, testInfo) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height })
    const player = newPlayer(world, `bo-axe-${viewport.name}`, "Axel Axe")
    await registerPlayer(world.baseUrl, player)
    const admin = await addOperatorByCommand(world, "admin", `Players axe ${viewport.name}`)
    await signInToBackoffice(page, admin, "/backoffice/players")
    await findPlayer(page, player.email)
    await expectAccessible(page, testInfo, `backoffice players search ${viewport.name}`)
    await world.screenshot(page, `backoffice-players-search-${viewport.name}`)
    await page.getByRole("button", { name: player.email }).click()
    await expect(page.getByRole("heading", { name: "Axel Axe", level: 1 })).toBeVisible()
    await expect(page.getByRole("table", { name: "Wallets" })).toBeVisible()
    await expectAccessible(page, testInfo, `backoffice player page ${viewport.name}`)
    await world.screenshot(page, `backoffice-player-${viewport.name}`)
    await page.getByRole("button", { name: "Adjust balance" }).click()
    await page.getByRole("tab", { name: "Notes" }).click()
    await expect(page.getByLabel("New note")).toBeVisible()
    await expectAccessible(page, testInfo, `backoffice player forms ${viewport.name}`)
    await world.screenshot(page, `backoffice-player-forms-${viewport.name}`)
  })
}
