/**
 * Verify a round from the Bets tab (docs/fairness.md, "Verify a round"), in Chromium against the real
 * server and the studio's sandbox: a player deposits 30 EUR, plays a dice round for real money in the
 * game's frame, opens the Bets tab and clicks the round's Verify link: /fairness opens with the round
 * filled in (the game, the target and the direction, the client seed, the nonce) and says its server
 * seed is still secret, with the committed hash. The player rotates the seed in the frame's Fairness
 * panel (another tab), loads the round again: the revealed seed is filled in, the round verified at
 * once, showing the same roll the game showed and the seed matching the hash committed before the
 * round. The form is built for the game's kind: no JSON text area, for any kind.
 * Screenshots: test-results/screenshots/verify-*.png.
 */
import { balance, depositThirtyByCard, newPlayer, signedInThroughApi } from "./support/deposit.ts"
import { expect, test } from "./support/fixtures.ts"
import { openDiceFairness, rotateServerSeed, studioFrame } from "./support/studio.ts"
import { dismissToasts } from "./support/ui.ts"

test("a dice round played, its seed rotated, verified from the Bets tab's Verify link", async ({
  page,
  world,
}) => {
  test.setTimeout(120_000)
  await signedInThroughApi(page, world, newPlayer(world, "verify"))
  await depositThirtyByCard(page)
  await dismissToasts(page)
  await expect(balance(page)).toContainText("30.00")

  const { game, committedHash, clientSeed, nonce } = await openDiceFairness(page, "30.00")

  // ── One round of 1.00 EUR: over 40 ──
  await game.getByLabel("Bet (EUR)").fill("1.00")
  await game.locator("#target").fill("40")
  await game.getByLabel("Roll", { exact: true }).selectOption("over")
  await game.getByRole("button", { name: "Roll", exact: true }).click()
  await expect(game.locator("#nonce")).toHaveText(String(nonce + 1))
  await expect(game.getByRole("status")).toHaveText(/^Roll \d+\.\d{2} /)
  const roll = /^Roll (\d+\.\d{2}) /.exec(await game.getByRole("status").innerText())?.[1] ?? ""
  expect(roll).not.toBe("")

  // ── The Bets tab: the round, its number in the game, its result in money, its Verify link ──
  await page.goto("/profile/bets")
  const row = page.getByRole("table").getByRole("row").filter({ hasText: "Lumen Play" })
  await expect(row).toHaveCount(1)
  await expect(row.getByRole("cell").nth(0)).toHaveText("Dice #1")
  await expect(row.getByRole("cell").nth(3)).toHaveText(/^(Won 1\.\d{2} EUR \(\+0\.\d{2}\)|Lost 1\.00 EUR)$/)
  await world.screenshot(page, "verify-bets-tab")
  await row.getByRole("link", { name: "Verify Dice round 1" }).click()

  // ── The verifier: the round filled in; its seed still secret, said so with the committed hash ──
  await expect(page).toHaveURL(/\/fairness\?round=[0-9a-f-]{36}$/)
  await expect(page.getByRole("heading", { name: "Dice, round 1" })).toBeVisible()
  await expect(page.getByLabel("Game")).toHaveValue("dice-classic")
  await expect(page.getByLabel("Target", { exact: true })).toHaveValue("40")
  await expect(page.getByLabel("Roll", { exact: true })).toHaveValue("over")
  await expect(page.getByLabel("Client seed")).toHaveValue(clientSeed)
  await expect(page.getByLabel("Nonce")).toHaveValue(String(nonce))
  await expect(page.getByLabel("Server seed (revealed)")).toHaveValue("")
  await expect(page.locator(".verifier").getByRole("status")).toContainText(
    "This round's server seed is still secret: rotate your seed in the game's Fairness panel, then verify.",
  )
  await expect(page.getByRole("region", { name: "Dice, round 1" })).toContainText(committedHash)
  await expect(page.getByRole("region", { name: "Outcome" })).toHaveCount(0)
  await world.screenshot(page, "verify-secret-seed")

  // ── The seed rotated in the game (another tab): revealed there ──
  const tab = await page.context().newPage()
  await tab.goto("/game/dice-classic")
  await tab.getByRole("button", { name: "Real money" }).click()
  const again = studioFrame(tab)
  await again.getByText("Fairness", { exact: true }).click()
  const serverSeed = await rotateServerSeed(again)
  await tab.close()

  // ── Back on the verifier: the round loaded again, the seed known, verified at once ──
  await page.getByRole("button", { name: "I rotated it: load the seed" }).click()
  await expect(page.getByLabel("Server seed (revealed)")).toHaveValue(serverSeed)
  const outcome = page.getByRole("region", { name: "Outcome" })
  await expect(outcome).toContainText(`Roll ${roll} (over 40)`)
  await expect(outcome).toContainText(committedHash)
  await expect(outcome).toContainText("Matches")
  await expect(page.locator(".verifier").getByRole("status")).toHaveCount(0)
  await expect(page.locator("textarea")).toHaveCount(0)
  await world.screenshot(page, "verify-round")

  // ── The Verify link again: the round opens verified straight away ──
  await page.goto("/profile/bets")
  await page.getByRole("link", { name: "Verify Dice round 1" }).click()
  await expect(page.getByRole("region", { name: "Outcome" })).toContainText(`Roll ${roll} (over 40)`)

  // ── The form per kind, never JSON ──
  await page.getByLabel("Game").selectOption("mines")
  await expect(page.getByRole("button", { name: /^Tile \d+/ })).toHaveCount(25)
  await page.getByLabel("Game").selectOption("european-roulette")
  await expect(page.getByRole("button", { name: "Add a bet" })).toBeVisible()
  await page.getByLabel("Game").selectOption("plinko")
  await expect(page.getByLabel("Risk")).toHaveValue("medium")
  await page.getByLabel("Game").selectOption("comet-crash")
  await expect(page.getByLabel("Auto cash-out target (×)")).toBeVisible()
  await page.getByLabel("Game").selectOption("aurora-vault")
  await expect(page.getByText("A slot round has no options")).toBeVisible()
  await expect(page.locator("textarea")).toHaveCount(0)
})

test("/fairness alone starts on no game, and a round that is not the visitor's is refused", async ({
  page,
}) => {
  await page.goto("/fairness")
  await expect(page.getByLabel("Game")).toHaveValue("")
  await page.getByRole("button", { name: "Verify", exact: true }).click()
  await expect(page.getByRole("alert")).toHaveText("Choose a game.")
  await page.goto("/fairness?round=00000000-0000-4000-8000-000000000000")
  await expect(page.getByRole("alert")).toContainText("Sign in to load your round.")
  await page.getByRole("button", { name: "Verify a round by hand" }).click()
  await expect(page.getByLabel("Game")).toHaveValue("")
})
